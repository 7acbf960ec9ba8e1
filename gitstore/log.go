package gitstore

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// The log is append-only: Append is one write(2) of one whole line with
// O_APPEND, which concurrent writers on a local disk cannot interleave.
// Nothing here rewrites or truncates the file. Readers skip a last line that
// has no newline yet (a write in progress, or one cut short) and skip, and
// count, lines that are not valid entries.

// Append writes e as one line at the end of the log at path. The log must
// already exist (lucid init creates it); its folder is never created here.
func Append(path string, e Entry) error {
	line, err := EncodeEntry(e)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if errors.Is(err, os.ErrNotExist) {
		if _, statErr := os.Stat(filepath.Dir(path)); statErr != nil {
			return ErrNotInitialised
		}
		f, err = os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	// A writer that died mid-line leaves a last line without its newline;
	// appending straight after it would glue this entry onto it, so such a
	// line gets its newline first. The flock on the log keeps this check
	// from seeing another writer's line half-copied (which would add a
	// needless blank line); it costs microseconds and dies with its holder.
	if err := flock(f); err != nil {
		return fmt.Errorf("locking %s: %w", path, err)
	}
	if endsTorn(f) {
		line = append([]byte{'\n'}, line...)
	}
	n, err := f.Write(line)
	if err == nil && n != len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return fmt.Errorf("appending to %s: %w", path, err)
	}
	return f.Close()
}

// endsTorn reports whether the file's last byte is not a newline.
func endsTorn(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return false
	}
	var b [1]byte
	if _, err := f.ReadAt(b[:], fi.Size()-1); err != nil {
		return false
	}
	return b[0] != '\n'
}

// openLog opens the log for reading; a missing log gives a nil file and no
// error, and reads as empty.
func openLog(path string) (*os.File, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return f, err
}

// Scan calls fn for each valid entry of the log, oldest first, until fn
// returns false. It returns the number of lines that were not valid entries.
// A missing log is empty.
func Scan(path string, fn func(Entry) bool) (invalid int, err error) {
	f, err := openLog(path)
	if f == nil {
		return 0, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 256<<10)
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
			return invalid, nil // no newline: a torn or unfinished last line
		}
		if err != nil {
			return invalid, err
		}
		line = bytes.TrimSuffix(line[:len(line)-1], []byte{'\r'})
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		e, derr := DecodeEntry(line)
		if derr != nil {
			invalid++
			continue
		}
		if !fn(e) {
			return invalid, nil
		}
	}
}

// ScanBackward calls fn for each valid entry of the log, newest first, until
// fn returns false. It reads the file from its end in blocks, so a caller
// that stops early pays for what it read, not for the length of the log. It
// returns the number of invalid lines among those it read.
func ScanBackward(path string, fn func(Entry) bool) (invalid int, err error) {
	f, err := openLog(path)
	if f == nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	const block = 64 << 10
	end := fi.Size()
	var carry []byte // the start of a line whose beginning is in an earlier block
	first := true
	buf := make([]byte, block)
	for end > 0 {
		start := max(end-block, 0)
		chunk := buf[:end-start]
		if _, err := f.ReadAt(chunk, start); err != nil && err != io.EOF {
			return invalid, err
		}
		data := chunk
		if len(carry) > 0 {
			data = append(append([]byte(nil), chunk...), carry...)
		}
		if first {
			// Whatever follows the last newline is an unfinished line.
			// A torn line may span blocks: trim until a newline shows.
			i := bytes.LastIndexByte(data, '\n')
			if i < 0 {
				data = data[:0]
			} else {
				data = data[:i+1]
				first = false
			}
		}
		// data ends with '\n' (or is empty); lines are complete except the
		// first, which may begin in the previous block.
		for {
			if len(data) == 0 {
				break
			}
			body := data[:len(data)-1]
			i := bytes.LastIndexByte(body, '\n')
			if i < 0 && start > 0 {
				break
			}
			line := body[i+1:]
			data = data[:i+1]
			line = bytes.TrimSuffix(line, []byte{'\r'})
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			e, derr := DecodeEntry(line)
			if derr != nil {
				invalid++
				continue
			}
			if !fn(e) {
				return invalid, nil
			}
		}
		carry = append(carry[:0:0], data...)
		end = start
	}
	return invalid, nil
}
