package claimstore

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
)

// Find reads the claims store and returns only the claims that have
// a glob for which want is true. It is the write guard's read: want tests
// a glob's literal prefix against the paths being written, which rules out
// nearly every claim, and only the claims left are decoded. The store is
// read through one small buffer and the globs are handed to want as they
// lie in it (unescaped only when they hold a %), so that a thousand claims
// cost a hook one pass over the file and almost no memory: in a process
// that has just started, every fresh page of memory is a page fault.
func Find(r *gitstore.Repo, want func(glob []byte) bool) ([]Claim, error) {
	return findOwn(r, r.ClaimsPath(), want)
}

// FindRemote is Find on the last fetched copy of the remote's
// claims.
func FindRemote(r *gitstore.Repo, want func(glob []byte) bool) ([]Claim, error) {
	return findOwn(r, r.RemoteClaimsPath(), want)
}

// findOwn is findClaims of a file of r's that has no other name: one
// that has (a hard link, by which something could empty it out of the
// guard's sight) is written anew as lucid's own, and read again.
func findOwn(r *gitstore.Repo, path string, want func(glob []byte) bool) ([]Claim, error) {
	out, linked, err := findClaims(path, want)
	if linked && ownCopy(r, path) {
		out, _, err = findClaims(path, want)
	}
	return out, err
}

// ownCopy writes the file at path anew as a file of lucid's own, so that
// a hard link to it names an old copy from then on, under the lock if it
// comes free at once (a caller holding it already leaves it to the next
// read), and reports whether it did.
func ownCopy(r *gitstore.Repo, path string) bool {
	lock, ok, err := r.TryLock(100 * time.Millisecond)
	if err != nil || !ok {
		return false
	}
	defer lock.Unlock()
	if fi, err := os.Lstat(path); err != nil || gitstore.Links(fi) < 2 {
		return false
	}
	return gitstore.OwnCopy(path) == nil
}

// findClaims reads the claims of the file at path that want takes, and
// reports whether the file has another name (a hard link).
func findClaims(path string, want func(glob []byte) bool) (out []Claim, linked bool, err error) {
	f, fi, err := openClaims(path)
	if f == nil {
		return nil, false, err
	}
	defer f.Close()
	linked = gitstore.Links(fi) > 1
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
		line, whole := bytes.CutSuffix(line, []byte{'\n'})
		if whole && len(line) > 0 && lineWanted(line, want) {
			if c, ok := decodeClaim(string(line)); ok {
				out = append(out, c)
			}
		}
		if err == io.EOF {
			return out, linked, nil
		}
		if err != nil {
			return nil, linked, err
		}
	}
}

// lineWanted reports whether want is true for one of the globs of a
// stored claim line. The globs are the fields after the first
// claimFields: one count of the line's tabs says how many there are, and
// they are taken from the end, which costs less than stepping over the
// fields before them one by one.
func lineWanted(line []byte, want func([]byte) bool) bool {
	for n := bytes.Count(line, []byte{'\t'}) - claimFields + 1; n > 0; n-- {
		i := bytes.LastIndexByte(line, '\t')
		glob := line[i+1:]
		if bytes.IndexByte(glob, '%') >= 0 {
			glob = []byte(unescapeField(string(glob)))
		}
		if want(glob) {
			return true
		}
		line = line[:i]
	}
	return false
}

// Edit changes the store with the claims whose id drop names left
// out and add appended, without decoding the others. A claim transaction
// that read only the claims near its own (Find) writes with it. The
// caller holds the lock.
//
// With nothing to drop, add is appended in one O_APPEND write, as the log
// is: replacing a store of a thousand claims to add one (a copy of the file
// and a rename that frees the old one) was most of what `lucid claim` cost,
// about 0.7 ms. A write that fails part way is cut off again, and readers
// skip a last line without its newline (a write still under way). Dropping
// replaces the store whole, as Save does, copying the other lines as
// they are through a small buffer.
func Edit(r *gitstore.Repo, drop map[string]bool, add []Claim) error {
	path := r.ClaimsPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if len(drop) == 0 {
		if done, err := appendClaims(path, Encode(add)); done || err != nil {
			return err
		}
	}
	tmp, err := gitstore.CreateTemp(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing to remove
	w := bufio.NewWriterSize(gitstore.FileWriter{File: tmp}, 16<<10)
	if err := copyClaims(path, w, drop); err != nil {
		tmp.Close()
		return err
	}
	w.Write(Encode(add))
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
	return gitstore.ReplaceFile(tmp.Name(), path)
}

// appendClaims appends lines to the store at path in one write. It does
// nothing and reports false when the store does not end in a newline (a
// store that an older lucid or a crash left so), would grow past
// MaxClaims, or is not a plain file: the caller rewrites it, which drops
// such a tail or says what is wrong.
func appendClaims(path string, lines []byte) (bool, error) {
	flags := os.O_RDWR | os.O_APPEND
	target, err := gitstore.CheckPath(path)
	if errors.Is(err, os.ErrNotExist) {
		target, flags = path, flags|os.O_CREATE|os.O_EXCL // the lock is ours: nobody else creates it
	} else if err != nil {
		return false, nil // not a plain file: the rewrite says what is wrong
	}
	f, err := gitstore.OpenSafe(target, flags, 0o644)
	if err != nil {
		return false, nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false, err
	}
	if !fi.Mode().IsRegular() || fi.Size()+int64(len(lines)) > gitstore.MaxClaims || gitstore.Links(fi) > 1 {
		return false, nil // the rewrite says what is wrong, or makes the store a file of its own
	}
	if size := fi.Size(); size > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, size-1); err != nil {
			return false, err
		}
		if last[0] != '\n' {
			return false, nil
		}
	}
	if _, err := gitstore.WriteFile(f, lines); err != nil {
		// All or nothing: the lock is ours, so the store was fi.Size() long.
		if terr := f.Truncate(fi.Size()); terr != nil {
			return true, fmt.Errorf("adding to %s: %w; cutting it back: %w: remove its last line by hand", path, err, terr)
		}
		return true, err
	}
	return true, f.Close()
}

// copyClaims copies the whole lines of the store at path to w, but those
// of the claims drop names.
func copyClaims(path string, w *bufio.Writer, drop map[string]bool) error {
	f, _, err := openClaims(path)
	if f == nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 16<<10)
	for {
		line, err := br.ReadBytes('\n')
		if bytes.HasSuffix(line, []byte{'\n'}) { // not a write under way, or one that failed
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
func openClaims(path string) (*os.File, os.FileInfo, error) {
	f, fi, err := gitstore.OpenFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() > gitstore.MaxClaims {
		f.Close()
		return nil, nil, &gitstore.TooLargeError{Path: path, Size: fi.Size(), Limit: gitstore.MaxClaims}
	}
	return f, fi, nil
}
