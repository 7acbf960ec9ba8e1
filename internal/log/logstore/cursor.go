package logstore

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"slices"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/zeebo/blake3"
)

// tailLen is how many bytes before a cursor its Tail hash covers: enough to
// hold the end of the last entry read, whose id makes it unique.
const tailLen = 64

// Stat returns the size, inode and modification time of the log, without
// reading it; a missing log is the zero cursor. It is the hot path's one
// look at the log when nothing changed.
func Stat(path string) (Cursor, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return Cursor{}, nil
	}
	if err != nil {
		return Cursor{}, err
	}
	return cursorOf(fi), nil
}

// cursorOf is the cursor of a file's size, inode and time, before Tail.
func cursorOf(fi os.FileInfo) Cursor {
	return Cursor{Size: fi.Size(), MTime: fi.ModTime().UnixNano(), Inode: gitstore.Inode(fi)}
}

// openCursor opens the log and returns it with its cursor; a missing
// log gives a nil file and no error.
func openCursor(path string) (*os.File, Cursor, error) {
	f, err := openLog(path)
	if f == nil {
		return nil, Cursor{}, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, Cursor{}, err
	}
	return f, cursorOf(fi), nil
}

// SameFile reports whether two cursors saw the log unchanged.
func (c Cursor) SameFile(o Cursor) bool {
	return c.Size == o.Size && c.Inode == o.Inode && c.MTime == o.MTime
}

// tailHash hashes the tailLen bytes before off in f.
func tailHash(f *os.File, off int64) (string, error) {
	start := max(off-tailLen, 0)
	buf := make([]byte, off-start)
	if _, err := f.ReadAt(buf, start); err != nil && !(errors.Is(err, io.EOF) && len(buf) == 0) {
		return "", err
	}
	sum := blake3.Sum256(buf)
	return hex.EncodeToString(sum[:8]), nil
}

// Grown reports whether the log at path is the state of cursor c with lines
// appended: the bytes before c.Size are still the ones c saw.
func Grown(path string, c Cursor) bool {
	f, _, err := gitstore.OpenFile(path)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() < c.Size {
		return false
	}
	h, err := tailHash(f, c.Size)
	return err == nil && h == c.Tail
}

// ScanFrom calls fn for each valid entry of the log at or after byte off,
// oldest first, and returns the cursor just past the last whole line (an
// unfinished last line is left for the next reader) and the number of
// invalid lines read.
func ScanFrom(path string, off int64, fn func(logformat.Entry)) (Cursor, int, error) {
	return scanFrom(path, off, "", func(e logformat.Entry, _ int64) { fn(e) })
}

// ScanFromMatching is ScanFrom of only the lines that contain needle: a
// search for one id decodes the few lines that name it, not the whole log.
// The invalid lines are counted only among those.
func ScanFromMatching(path string, off int64, needle string, fn func(logformat.Entry)) (Cursor, int, error) {
	return scanFrom(path, off, needle, func(e logformat.Entry, _ int64) { fn(e) })
}

// ScanFromOffsets is ScanFrom that also gives where each entry's line
// starts, for a reader that compares entries with cursors.
func ScanFromOffsets(path string, off int64, fn func(e logformat.Entry, at int64)) (Cursor, int, error) {
	return scanFrom(path, off, "", fn)
}

func scanFrom(path string, off int64, needle string, fn func(e logformat.Entry, at int64)) (Cursor, int, error) {
	f, cur, err := openCursor(path)
	if f == nil {
		return Cursor{}, 0, err
	}
	defer f.Close()
	invalid := 0
	at, start := off, off // where the line being read starts, and the next
	decode := entries(&invalid, func(e logformat.Entry) bool { fn(e, start); return true })
	n := []byte(needle)
	end, err := forwardLines(f, off, func(line []byte) bool {
		start, at = at, at+int64(len(line))+1
		return len(n) > 0 && !bytes.Contains(line, n) || decode(line)
	})
	if err != nil {
		return Cursor{}, invalid, err
	}
	cur.Size = end
	if cur.Tail, err = tailHash(f, end); err != nil {
		return Cursor{}, invalid, err
	}
	return cur, invalid, nil
}

// EndCursor returns the cursor at the end of the log's last whole line,
// reading only the log's last block.
func EndCursor(path string) (Cursor, error) {
	f, cur, err := openCursor(path)
	if f == nil {
		return Cursor{}, err
	}
	defer f.Close()
	return endCursor(f, cur)
}

// endCursor is cur, f's cursor as opened, moved back over an unfinished
// last line, with its tail.
func endCursor(f *os.File, cur Cursor) (Cursor, error) {
	end := cur.Size
	for end > 0 {
		start := max(end-4096, 0)
		buf := make([]byte, end-start)
		if _, err := f.ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
			return Cursor{}, err
		}
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			end = start + int64(i) + 1
			break
		}
		end = start
	}
	cur.Size = end
	var err error
	cur.Tail, err = tailHash(f, end)
	return cur, err
}

// TailSince returns the valid entries of the log after byte off (a
// cursor's Size), oldest first, and the cursor at the end of the last
// whole line. It reads the log from that end back to off, and at most max
// lines: when more than max were appended, it stops there and returns
// more true and no entries, so that a reader far behind (a page that read
// an empty log, then slept while 200,000 entries came) costs what max
// entries cost, not what the log holds.
func TailSince(path string, off int64, max int) (entries []logformat.Entry, cur Cursor, more bool, err error) {
	f, cur, err := openCursor(path)
	if f == nil {
		return nil, Cursor{}, false, err
	}
	defer f.Close()
	if cur, err = endCursor(f, cur); err != nil {
		return nil, Cursor{}, false, err
	}
	back := newBackReader(f, min(off, cur.Size), cur.Size, false)
	lines := 0
	for {
		line, ok, err := back.next()
		if err != nil {
			return nil, Cursor{}, false, err
		}
		if !ok {
			break
		}
		if line = trimLine(line); len(line) == 0 {
			continue
		}
		if lines++; lines > max {
			return nil, cur, true, nil
		}
		if e, err := logformat.DecodeEntry(line); err == nil {
			entries = append(entries, e)
		}
	}
	slices.Reverse(entries)
	return entries, cur, false, nil
}

// Cursor identifies a state of the log file: its size, inode and
// modification time, and a hash of the bytes just before Size, by which a
// reader tells an append from a rewrite.
type Cursor struct {
	Size  int64  `json:"size"`
	Inode uint64 `json:"inode"`
	MTime int64  `json:"mtime_ns"`
	Tail  string `json:"tail,omitempty"`
}
