//go:build !unix && !windows

package installers

import (
	"os"
	"time"
)

// changed is when f was last modified, where lucid reads no other time.
func changed(_ *os.File, fi os.FileInfo) time.Time { return fi.ModTime() }
