package logstore

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
)

// The log is append-only: Append is one write(2) of one whole line with
// O_APPEND, which concurrent writers on a local disk cannot interleave.
// Nothing here rewrites the file; the one truncation takes back the part
// of a line that a full disk cut short. Readers skip a last line that
// has no newline yet (a write in progress, or one cut short) and skip, and
// count, lines that are not valid entries.

// Append writes e as one line at the end of the log at path. The log must
// already exist (lucid init creates it); its folder is never created here.
// It is all or nothing: the log must be a regular file inside the
// repository (OpenFile's rules), and a write cut short (a full disk) is cut
// back off, under the log's lock, so that no half line stays behind to
// become a permanent invalid line. A log replaced while the line was
// written (a checkout or a merge renames a new file into place) is
// appended to again, so the entry is in the file that now has the name;
// readers dedupe by id.
func Append(path string, e logformat.Entry) error {
	line, err := logformat.EncodeEntry(e)
	if err != nil {
		return err
	}
	for range 3 {
		replaced, err := appendLine(path, line)
		if err != nil || !replaced {
			return err
		}
	}
	return fmt.Errorf("appending to %s: the file was replaced three times while lucid wrote to it; run the command again when git is done", path)
}

// appendLine is one attempt of Append; replaced reports that the line went
// into a file that no longer has the name.
func appendLine(path string, line []byte) (replaced bool, err error) {
	flags := os.O_RDWR | os.O_APPEND
	target, err := gitstore.CheckPath(path)
	if errors.Is(err, os.ErrNotExist) {
		if _, statErr := os.Stat(filepath.Dir(path)); statErr != nil {
			return false, gitstore.ErrNotInitialised
		}
		target, flags = path, flags|os.O_CREATE|os.O_EXCL
	} else if err != nil {
		return false, fmt.Errorf("not appended to the log: %w", err)
	}
	f, err := gitstore.OpenSafe(target, flags, 0o644)
	if errors.Is(err, os.ErrExist) { // another writer created it first
		f, err = gitstore.OpenSafe(target, flags&^(os.O_CREATE|os.O_EXCL), 0)
	}
	if err != nil {
		return false, fmt.Errorf("not appended to the log: %w", err)
	}
	defer f.Close()
	// A writer that died mid-line leaves a last line without its newline;
	// appending straight after it would glue this entry onto it, so such a
	// line gets its newline first. The flock on the log keeps this check
	// from seeing another writer's line half-copied (which would add a
	// needless blank line), and lets a short write be cut back off without
	// cutting another writer's line; it costs microseconds and dies with
	// its holder, and a holder that was stopped holds no writer for long.
	if got, err := gitstore.LockWithin(f, appendLockWait); err != nil || !got {
		if err == nil {
			err = &gitstore.LockBusyError{Path: path, Wait: appendLockWait, Holder: gitstore.LockHolder(path)}
		}
		return false, fmt.Errorf("locking %s: %w", path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		return false, fmt.Errorf("not appended to the log: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return false, fmt.Errorf("not appended to the log: %w", &gitstore.BadFileError{Path: path, Problem: gitstore.KindText(fi.Mode())})
	}
	if endsTorn(f, fi.Size()) {
		line = append([]byte{'\n'}, line...)
	}
	n, err := gitstore.WriteFile(f, line)
	if err == nil && n != len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		if n > 0 {
			if terr := f.Truncate(fi.Size()); terr != nil {
				return false, fmt.Errorf("appending to %s: %w; cutting off the %d bytes written also failed (%w): run lucid doctor", path, err, n, terr)
			}
		}
		return false, fmt.Errorf("appending to %s: %w (nothing was written)", path, err)
	}
	if now, err := os.Stat(target); err != nil || !os.SameFile(now, fi) {
		return true, nil
	}
	return false, f.Close()
}

// appendLockWait bounds the wait for the log's own lock, which a writer
// holds for one write.
const appendLockWait = 2 * time.Second

// endsTorn reports whether the last byte of f, size bytes long, is not a
// newline.
func endsTorn(f *os.File, size int64) bool {
	if size == 0 {
		return false
	}
	var b [1]byte
	if _, err := f.ReadAt(b[:], size-1); err != nil {
		return false
	}
	return b[0] != '\n'
}

// openLog opens the log for reading; a missing log gives a nil file and no
// error, and reads as empty.
func openLog(path string) (*os.File, error) {
	f, _, err := gitstore.OpenFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return f, err
}

// Scan calls fn for each valid entry of the log, oldest first, until fn
// returns false. It returns the number of lines that were not valid entries.
// A missing log is empty.
func Scan(path string, fn func(logformat.Entry) bool) (invalid int, err error) {
	f, err := openLog(path)
	if f == nil {
		return 0, err
	}
	defer f.Close()
	_, err = forwardLines(f, 0, entries(&invalid, fn))
	return invalid, err
}

// ScanBackward calls fn for each valid entry of the log, newest first, until
// fn returns false. It reads the file from its end in blocks, so a caller
// that stops early pays for what it read, not for the length of the log. It
// returns the number of invalid lines among those it read.
func ScanBackward(path string, fn func(logformat.Entry) bool) (invalid int, err error) {
	f, err := openLog(path)
	if f == nil {
		return 0, err
	}
	defer f.Close()
	return invalid, backwardLines(f, entries(&invalid, fn))
}

// entries is the one place where a line of the log becomes an entry, for
// every reader: a CR before the newline is dropped, a blank line skipped,
// and a line that is not a valid entry counted in *invalid. It returns
// fn's answer: false stops the reading.
func entries(invalid *int, fn func(logformat.Entry) bool) func(line []byte) bool {
	return func(line []byte) bool {
		line = trimLine(line)
		if len(line) == 0 {
			return true
		}
		e, err := logformat.DecodeEntry(line)
		if err != nil {
			*invalid++
			return true
		}
		return fn(e)
	}
}

// trimLine drops a CR before the newline; a blank line becomes empty.
func trimLine(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	return line
}

// forwardLines calls fn with each whole line of f from byte off on, without
// its newline, until fn returns false; the line is valid only during the
// call. It returns the offset just past the last line it handed over: a
// last line with no newline yet is left for the next reader.
func forwardLines(f *os.File, off int64, fn func(line []byte) bool) (end int64, err error) {
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return off, err
	}
	return readLines(f, off, fn)
}

// readLines is forwardLines on a reader positioned at byte off.
func readLines(rd io.Reader, off int64, fn func(line []byte) bool) (end int64, err error) {
	r := bufio.NewReaderSize(rd, 256<<10)
	end = off
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather it whole.
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err == io.EOF {
			return end, nil // no newline: a torn or unfinished last line
		}
		if err != nil {
			return end, err
		}
		end += int64(len(line))
		if !fn(line[:len(line)-1]) {
			return end, nil
		}
	}
}

// backwardLines calls fn with each whole line of f, newest first, without
// its newline, until fn returns false, reading f from its end in blocks.
// Whatever follows the last newline is an unfinished line, and skipped.
func backwardLines(f *os.File, fn func(line []byte) bool) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	b := newBackReader(f, 0, fi.Size(), true)
	for {
		line, ok, err := b.next()
		if err != nil || !ok || !fn(line) {
			return err
		}
	}
}

// backReader hands out the whole lines of the bytes [start, end) of a
// file, last first, reading blocks from the end as it needs them. A line
// it hands out is valid until the next call.
type backReader struct {
	f          *os.File
	start, end int64  // what is left to read
	data       []byte // read and not handed out yet: ends with a newline, and every line in it is whole but maybe its first
	torn       bool   // skip what follows the last newline (the file's end)
	buf        []byte
}

func newBackReader(f *os.File, start, end int64, torn bool) *backReader {
	return &backReader{f: f, start: start, end: end, torn: torn}
}

// next returns the next line, going back; ok is false past the first.
func (b *backReader) next() (line []byte, ok bool, err error) {
	for {
		if n := len(b.data); n > 0 {
			body := b.data[:n-1]
			// The first line of data is whole only once nothing is left
			// before it.
			if i := bytes.LastIndexByte(body, '\n'); i >= 0 || b.end <= b.start {
				b.data = b.data[:i+1]
				return body[i+1:], true, nil
			}
		} else if b.end <= b.start {
			return nil, false, nil
		}
		if err := b.readBack(); err != nil {
			return nil, false, err
		}
	}
}

// readBack reads the block before what is left of data, and puts it in
// front of data.
func (b *backReader) readBack() error {
	const block = 64 << 10
	// The start of a line whose beginning lies further back: kept apart,
	// since the read below reuses the buffer it may lie in.
	carry := append([]byte(nil), b.data...)
	from := max(b.end-block, b.start)
	if b.buf == nil {
		b.buf = make([]byte, block)
	}
	chunk := b.buf[:b.end-from]
	if _, err := b.f.ReadAt(chunk, from); err != nil && err != io.EOF {
		return err
	}
	b.end = from
	data := chunk
	if len(carry) > 0 {
		data = append(append(make([]byte, 0, len(chunk)+len(carry)), chunk...), carry...)
	}
	if b.torn {
		// A torn line may span blocks: drop it until a newline shows.
		i := bytes.LastIndexByte(data, '\n')
		if i < 0 {
			b.data = nil
			return nil
		}
		data, b.torn = data[:i+1], false
	}
	b.data = data
	return nil
}
