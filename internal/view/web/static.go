package web

import "embed"

// static is the page: its HTML, script and style, served as they are. No
// file is served from the disk.
//
//go:embed static
var static embed.FS
