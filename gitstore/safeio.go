package gitstore

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Every file lucid reads goes through OpenFile or ReadFile, and every file
// it replaces through WriteFileAtomic, because git stores symbolic links and
// a pulled branch can turn any of them into a link to /dev/zero, a FIFO, or
// /etc/passwd. The rules, in one place:
//
//   - A final symbolic link is followed only when its target, resolved,
//     lies inside the work tree, the git dir or the common git dir of the
//     repository that holds the link; otherwise the file is refused.
//   - Only a regular file is read: the open is non-blocking (a FIFO
//     cannot block it) and does not follow a final link, and the open
//     file's kind is checked with fstat. Where an open cannot refuse a
//     link (noFollowOpen is false), the kind is checked with Lstat first.
//   - Each role has a size limit (the Max* constants); a file over it is
//     refused with its size, and no more than the limit is ever read, so a
//     file that grows while it is read cannot eat memory either.
//
//   - The folder that holds the file (.lucid, .claude, the git dir's lucid)
//     is held to the same rule: a link is followed only inside the
//     repository. That costs one Lstat; folders further up are trusted,
//     but for cited evidence, whose path comes from the log (pulled
//     content), which Checker resolves whole before it reads anything.

// Size limits by role. A file over its limit is refused, not cut.
const (
	MaxPlan         = 1 << 20  // .lucid/plan.md and its recorded copy
	MaxDigest       = 1 << 20  // .lucid/digest.md
	MaxSettings     = 4 << 20  // a client's settings file, .gitattributes, a git config
	MaxRecord       = 1 << 20  // an agent record, a lich marker, a small state file
	MaxSettingsFile = 64 << 10 // .lucid/settings.json: a few keys
	MaxClaims       = 64 << 20 // the claims store and the remote's copy
	// MaxEvidence bounds a cited file. Evidence is hashed only when it is
	// a regular file inside the work tree, and read whole (the staleness
	// check looks for the cited line again), so it is bounded: a file over
	// it cannot be cited, and a cited file that grew past it reads as
	// changed, which it is.
	MaxEvidence = 64 << 20
)

// BadFileError says that a file lucid needs is not one it may read or
// write: what it is, and what to do about it.
type BadFileError struct {
	Path    string
	Problem string // "is a FIFO", "is a symbolic link to /etc/passwd, outside the repository", ...
	// Repair: a file of lucid's state that lucid gc writes anew as a file
	// of its own (OwnCopy).
	Repair bool
}

func (e *BadFileError) Error() string {
	if e.Repair {
		return e.Path + " " + e.Problem + ": run lucid gc, which writes it anew as a file of lucid's own"
	}
	return e.Path + " " + e.Problem + ": lucid reads and writes only regular files inside the repository; remove it, or restore a tracked file with git checkout"
}

// TooLargeError says that a file is over the limit of its role.
type TooLargeError struct {
	Path  string
	Size  int64
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is %s, over the %s lucid reads of such a file: shorten it", e.Path, SizeText(e.Size), SizeText(e.Limit))
}

func SizeText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// OpenFile opens path for reading under the rules above. A missing file
// gives an error that satisfies errors.Is(err, fs.ErrNotExist).
func OpenFile(path string) (*os.File, fs.FileInfo, error) {
	f, err := openChecked(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &BadFileError{Path: path, Problem: KindText(fi.Mode())}
	}
	return f, fi, nil
}

// openChecked opens path for reading under the rules above, but for the
// check of the kind of file, which the caller's fstat makes. Where an open
// can refuse to follow a final link (noFollowOpen), the common case, a
// regular file, is opened straight away: the Lstat before it is needed
// only for a link, which the open refuses, and is then resolved and
// checked (CheckPath) and its target opened.
func openChecked(path string) (*os.File, error) {
	if noFollowOpen {
		if err := CheckFolder(filepath.Dir(path)); err != nil {
			return nil, err
		}
		if f, err := OpenSafe(path, os.O_RDONLY, 0); !isLinkErr(err) {
			return f, err
		}
	}
	target, err := CheckPath(path)
	if err != nil {
		return nil, err
	}
	f, err := OpenSafe(target, os.O_RDONLY, 0)
	if isLinkErr(err) { // became a link after the Lstat
		return nil, &BadFileError{Path: path, Problem: "changed into a symbolic link while lucid opened it"}
	}
	return f, err
}

// ReadFile reads the whole of path under the rules above, refusing a file
// over limit bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, fi, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadLimited(f, path, fi.Size(), limit)
}

// ReadLimited reads f whole, but never more than limit bytes.
func ReadLimited(f io.Reader, path string, size, limit int64) ([]byte, error) {
	if size > limit {
		return nil, &TooLargeError{Path: path, Size: size, Limit: limit}
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit { // it grew while being read
		return nil, &TooLargeError{Path: path, Size: int64(len(b)), Limit: limit}
	}
	return b, nil
}

// ReadFileIfExists is ReadFile that reads a missing file as empty (nil).
func ReadFileIfExists(path string, limit int64) ([]byte, error) {
	b, err := ReadFile(path, limit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// CheckFile reports why lucid would refuse to read or write path, or nil
// when it is a regular file it may use (or is missing, which each caller
// treats in its own way), within limit bytes (0: any size). lucid doctor
// asks it of every StateFile.
func CheckFile(path string, limit int64) error {
	target, err := CheckPath(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	fi, err := os.Lstat(target)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if !fi.Mode().IsRegular() {
		return &BadFileError{Path: path, Problem: KindText(fi.Mode())}
	}
	if limit > 0 && fi.Size() > limit {
		return &TooLargeError{Path: path, Size: fi.Size(), Limit: limit}
	}
	if _, state := StateDir(target); state {
		// Another name, or another user, could change what lucid keeps.
		if n := Links(fi); n > 1 {
			return &BadFileError{Path: path, Problem: fmt.Sprintf("has %d names (hard links), by which it can be changed unseen", n), Repair: true}
		}
		if Foreign(fi) {
			return &BadFileError{Path: path, Problem: "belongs to another user", Repair: true}
		}
	}
	return nil
}

// OwnCopy replaces the file at path by a copy of itself, a file of its
// own: a hard link to it names the old one from then on, and the copy
// belongs to the user running lucid. The caller holds the repository's
// lock. A missing file is left missing.
func OwnCopy(path string) error {
	b, err := ReadFile(path, MaxClaims)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, b, 0o644)
}

// StateFile is a file lucid reads, with the size limit of its role.
type StateFile struct {
	Path  string
	Limit int64 // 0: read as a stream, of any size
}

// StateFiles lists the files of this work tree and its git dirs that lucid
// reads, those that exist now, folders of records file by file: what lucid
// doctor checks. Cited evidence is not among them; lucid status marks a
// cited file it refuses.
func (r *Repo) StateFiles() []StateFile {
	out := []StateFile{
		{r.LogPath(), 0},
		{r.PlanPath(), MaxPlan},
		{r.DigestPath(), MaxDigest},
		{r.Abs(SettingsName), MaxSettingsFile},
		{r.PlanSeenPath(), MaxPlan},
		{r.PlanPendingPath(), MaxRecord},
		{r.ClaimsPath(), MaxClaims},
		{r.RemoteClaimsPath(), MaxClaims},
		{r.MachinePath(), MaxRecord},
	}
	for _, dir := range []string{r.AgentsDir(), filepath.Join(r.GitDir, LichEditsDir), r.LichNewsDir()} {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			out = append(out, StateFile{filepath.Join(dir, e.Name()), MaxRecord})
		}
	}
	kept := out[:0]
	for _, f := range out {
		if _, err := os.Lstat(f.Path); err == nil {
			kept = append(kept, f)
		}
	}
	return kept
}

// CheckPath returns the path to open for path: itself when it is a regular
// file, the resolved target of a symbolic link that stays inside its
// repository, or an error saying why neither holds.
func CheckPath(path string) (string, error) {
	if err := CheckFolder(filepath.Dir(path)); err != nil {
		return "", err
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return "", err
	}
	switch m := fi.Mode(); {
	case m.IsRegular():
		return path, nil
	case m&fs.ModeSymlink == 0:
		return "", &BadFileError{Path: path, Problem: KindText(m)}
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			// A dangling link: there is no file to read, and a writer
			// must not create one wherever the link points.
			return "", &BadFileError{Path: path, Problem: "is a symbolic link to a missing file"}
		}
		return "", &BadFileError{Path: path, Problem: "is a symbolic link that cannot be resolved (" + err.Error() + ")"}
	}
	if !insideRepoOf(path, target) {
		return "", &BadFileError{Path: path, Problem: "is a symbolic link to " + target + ", outside the repository"}
	}
	tfi, err := os.Lstat(target)
	if err != nil {
		return "", err
	}
	if !tfi.Mode().IsRegular() {
		return "", &BadFileError{Path: path, Problem: "is a symbolic link to " + target + ", which " + KindText(tfi.Mode())}
	}
	return target, nil
}

// CheckFolder reports an error when dir is a symbolic link that leaves the
// repository.
func CheckFolder(dir string) error {
	fi, err := os.Lstat(dir)
	switch {
	case err != nil || fi.IsDir():
		return nil
	case fi.Mode()&fs.ModeSymlink == 0:
		return nil // not a folder: opening what is below it fails on its own
	}
	target, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return &BadFileError{Path: dir, Problem: "is a symbolic link that cannot be resolved (" + err.Error() + ")"}
	}
	if !insideRepoOf(dir, target) {
		return &BadFileError{Path: dir, Problem: "is a symbolic link to " + target + ", outside the repository"}
	}
	return nil
}

// insideRepoOf reports whether target lies in the work tree, the git dir or
// the common git dir of the repository that holds link. It runs only for a
// symbolic link, so finding the repository again costs the hot path nothing.
func insideRepoOf(link, target string) bool {
	var roots []string
	dir := resolveExisting(filepath.Dir(link))
	if r, err := Find(dir); err == nil {
		roots = []string{r.Top, r.GitDir, r.CommonDir}
	} else {
		// A link inside a git dir: the git dir and its common dir.
		for d := dir; ; d = filepath.Dir(d) {
			if isGitDir(d) {
				roots = []string{d, commonDir(d)}
				break
			}
			if filepath.Dir(d) == d {
				return false
			}
		}
	}
	for _, root := range roots {
		if _, ok := Inside(resolveExisting(root), target); ok {
			return true
		}
	}
	return false
}

func KindText(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "is a folder"
	case m&fs.ModeNamedPipe != 0:
		return "is a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "is a socket"
	case m&fs.ModeCharDevice != 0:
		return "is a character device"
	case m&fs.ModeDevice != 0:
		return "is a device"
	case m&fs.ModeSymlink != 0:
		return "is a symbolic link"
	}
	return "is not a regular file"
}

// WriteFile is the one write of an append or a temp file; tests replace it
// to stand for a full disk.
var WriteFile = func(f *os.File, b []byte) (int, error) { return f.Write(b) }

// FileWriter writes through WriteFile, for a temp file filled in pieces.
type FileWriter struct{ File *os.File }

func (w FileWriter) Write(b []byte) (int, error) { return WriteFile(w.File, b) }
