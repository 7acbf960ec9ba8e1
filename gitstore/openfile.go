package gitstore

import (
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Every file lucid opens for itself (not through OpenFile's rules, which
// OpenSafe applies) goes through openFile: a git config, the lock, a
// linked work tree's .git file, a temp file. On Linux, os.OpenFile offers
// each file it opens to the runtime's poller, which takes a regular file
// only to give it back (five fcntl and epoll_ctl calls), and starts the
// poller on the first one (an epoll instance and an eventfd, then a poll
// at every idle turn of the scheduler): about a tenth of what `lucid
// claim` spends beyond a hello world's start. These are regular files,
// which cannot be polled, so openFile opens them without (openfile_linux.go).

// readFile is os.ReadFile through openFile.
func readFile(path string) ([]byte, error) {
	f, err := openFile(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// CreateTemp is os.CreateTemp(dir, ".lucid-tmp-*") through openFile.
func CreateTemp(dir string) (*os.File, error) {
	for try := 0; ; try++ {
		name := filepath.Join(dir, ".lucid-tmp-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := openFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) && try < 100 {
			continue
		}
		return f, err
	}
}
