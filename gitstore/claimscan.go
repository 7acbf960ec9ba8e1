package gitstore

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
)

// FindClaims reads the claims store and returns only the claims that have
// a glob for which want is true. It is the write guard's read: want tests
// a glob's literal prefix against the paths being written, which rules out
// nearly every claim, and only the claims left are decoded. The store is
// read through one small buffer and the globs are handed to want as they
// lie in it (unescaped only when they hold a %), so that a thousand claims
// cost a hook one pass over the file and almost no memory: in a process
// that has just started, every fresh page of memory is a page fault.
func (r *Repo) FindClaims(want func(glob []byte) bool) ([]Claim, error) {
	return findClaims(r.ClaimsPath(), want)
}

// FindRemoteClaims is FindClaims on the last fetched copy of the remote's
// claims.
func (r *Repo) FindRemoteClaims(want func(glob []byte) bool) ([]Claim, error) {
	return findClaims(r.remoteClaimsPath(), want)
}

func findClaims(path string, want func(glob []byte) bool) ([]Claim, error) {
	f, err := openClaims(path)
	if f == nil {
		return nil, err
	}
	defer f.Close()
	var out []Claim
	br := bufio.NewReaderSize(f, 16<<10)
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...) // a line longer than the buffer
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		line = bytes.TrimSuffix(line, []byte{'\n'})
		if len(line) > 0 && lineWanted(line, want) {
			if c, ok := decodeClaim(string(line)); ok {
				out = append(out, c)
			}
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// lineWanted reports whether want is true for one of the globs of a
// stored claim line.
func lineWanted(line []byte, want func([]byte) bool) bool {
	for range claimFields {
		i := bytes.IndexByte(line, '\t')
		if i < 0 {
			return false
		}
		line = line[i+1:]
	}
	for {
		glob, rest, more := bytes.Cut(line, []byte{'\t'})
		if bytes.IndexByte(glob, '%') >= 0 {
			glob = []byte(unescapeField(string(glob)))
		}
		if want(glob) {
			return true
		}
		if !more {
			return false
		}
		line = rest
	}
}

// EditClaims replaces the store whole, as SaveClaims does, with the claims
// whose id drop names left out and add appended, without decoding the
// others: their lines are copied as they are, through a small buffer. A
// claim transaction that read only the claims near its own (FindClaims)
// writes with it. The caller holds the lock.
func (r *Repo) EditClaims(drop map[string]bool, add []Claim) error {
	path := r.ClaimsPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".lucid-tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing to remove
	w := bufio.NewWriterSize(fileWriter{tmp}, 16<<10)
	if err := copyClaims(path, w, drop); err != nil {
		tmp.Close()
		return err
	}
	w.Write(encodeClaims(add))
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// copyClaims copies the lines of the store at path to w, but those of the
// claims drop names.
func copyClaims(path string, w *bufio.Writer, drop map[string]bool) error {
	f, err := openClaims(path)
	if f == nil {
		return err
	}
	defer f.Close()
	if len(drop) == 0 {
		_, err := w.ReadFrom(io.LimitReader(f, MaxClaims))
		return err
	}
	br := bufio.NewReaderSize(f, 16<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			id, _, _ := bytes.Cut(line, []byte{'\t'})
			if !drop[unescapeField(string(id))] {
				w.Write(line)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// openClaims opens a claims store for streaming, within MaxClaims; a
// missing store gives a nil file and no error.
func openClaims(path string) (*os.File, error) {
	f, fi, err := OpenFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if fi.Size() > MaxClaims {
		f.Close()
		return nil, &TooLargeError{Path: path, Size: fi.Size(), Limit: MaxClaims}
	}
	return f, nil
}
