package gitstore

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The files lucid keeps in the work tree, relative to its top.
const (
	LucidDirName = ".lucid"
	LogName      = ".lucid/log.jsonl"
	PlanName     = ".lucid/plan.md"
	DigestName   = ".lucid/digest.md"
	SettingsName = ".lucid/settings.json" // package settings reads it
)

// ErrNotInitialised says that the work tree has no .lucid folder.
var ErrNotInitialised = errors.New("lucid is not set up in this repository: run `lucid init` first")

// LogPath is the absolute path of the log.
func (r *Repo) LogPath() string { return r.Abs(LogName) }

// PlanPath is the absolute path of the plan.
func (r *Repo) PlanPath() string { return r.Abs(PlanName) }

// DigestPath is the absolute path of the consolidated digest.
func (r *Repo) DigestPath() string { return r.Abs(DigestName) }

// Initialised reports whether the work tree has a .lucid folder.
func (r *Repo) Initialised() bool {
	fi, err := os.Stat(r.Abs(LucidDirName))
	return err == nil && fi.IsDir()
}

// PlanTemplate is what `lucid init` writes into a new plan.md.
const PlanTemplate = `# Plan

<!--
This is the shared plan of every agent and person working in this repository.
Write the goal, the current priorities and what is out of scope, in plain words.
lucid shows it to every agent when it starts, and tells running agents when it
changes: a change here is the user's latest intent and overrides an agent's
original brief. Edit it freely; lucid records each change in .lucid/log.jsonl.
-->
`

// InitResult lists what Init created; what already existed is left alone.
type InitResult struct {
	Created []string // paths relative to the top
}

// Init creates .lucid/, plan.md and an empty log.jsonl where they are
// missing. It never changes a file that exists.
func (r *Repo) Init() (InitResult, error) {
	var res InitResult
	dir := r.Abs(LucidDirName)
	if err := CheckFolder(dir); err != nil {
		return res, err
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return res, fmt.Errorf("%s exists and is not a folder: move it away, then run `lucid init` again", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	for _, f := range []struct{ name, content string }{
		{PlanName, PlanTemplate},
		{LogName, ""},
	} {
		created, err := createExclusive(r.Abs(f.name), []byte(f.content))
		if err != nil {
			return res, err
		}
		if created {
			res.Created = append(res.Created, f.name)
		}
	}
	return res, nil
}

// createExclusive writes a new file through a temp file and a hard link, so
// that the file appears whole or not at all and an existing one is never
// replaced. It reports whether it created the file.
func createExclusive(path string, content []byte) (bool, error) {
	if _, err := os.Lstat(path); err == nil {
		return false, nil
	}
	tmp, err := WriteTemp(filepath.Dir(path), content, 0o644)
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// WriteFileAtomic replaces path with content through a temp file in the same
// folder and a rename: the file is whole before or after, never half
// written, and a failed write (a full disk) leaves the old file and no temp
// file behind. There is no fsync: what lucid keeps must survive a killed
// process, which the rename gives, not a power cut.
func WriteFileAtomic(path string, content []byte, perm os.FileMode) error {
	if err := CheckFolder(filepath.Dir(path)); err != nil {
		return err
	}
	tmp, err := WriteTemp(filepath.Dir(path), content, perm)
	if err != nil {
		return fmt.Errorf("writing %s: %w (the file was left as it was)", path, err)
	}
	if err := ReplaceFile(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

func WriteTemp(dir string, content []byte, perm os.FileMode) (string, error) {
	f, err := CreateTemp(dir)
	if err != nil {
		return "", err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", err
	}
	if n, err := WriteFile(f, content); err != nil || n != len(content) {
		f.Close()
		os.Remove(f.Name())
		if err == nil {
			err = io.ErrShortWrite
		}
		return "", err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// StateDir returns the folder of lucid's or lich's own state that path
// lies in (or is): <git dir>/lucid (the claims, the agents' records, the
// lock, the shell watches) or <git dir>/lich-edits (lich's edit markers),
// of any repository or linked work tree. What an agent writes there by
// hand ends, moves or forges other agents' claims and records, so the
// hooks refuse it. path is absolute, its links resolved.
func StateDir(path string) (string, bool) {
	for d := path; ; {
		// Any case: on a file system that folds case, .git/LUCID is lucid's
		// folder; on one that does not, nobody else keeps a folder there.
		// EqualFold, since this runs for every folder above every path a
		// call writes, and FoldCase would copy each name.
		if base := filepath.Base(d); strings.EqualFold(base, "lucid") || strings.EqualFold(base, "lich-edits") {
			if isGitDir(filepath.Dir(d)) {
				return d, true
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// HoldsState reports whether removing the folder dir as a whole (rm -r,
// mv) would take lucid's state of r with it: dir is r's work tree top or
// a folder above it, r's git dir, its common git dir, or a folder above
// either.
func (r *Repo) HoldsState(dir string) bool {
	names := r.Names()
	for _, d := range []string{r.Top, r.GitDir, r.CommonDir} {
		if d == "" {
			continue
		}
		if _, ok := InsideNamed(names, dir, d); ok {
			return true
		}
	}
	return false
}

// HasState reports whether lucid keeps state for the repository: its
// common git dir has lucid's folder (claims, agents), whether or not this
// work tree has .lucid/ checked out. A branch that predates `lucid init`,
// or a linked work tree made from one, is still guarded by the claims the
// other work trees made. lich mode's news for the status line
// (LichNewsDir), alone there, is no such state: lich mode works in
// repositories lucid keeps none for, and its first note would otherwise
// turn it off for the rest of the repository's life.
func (r *Repo) HasState() bool {
	f, err := os.Open(filepath.Join(r.CommonDir, "lucid"))
	if err != nil {
		return false
	}
	defer f.Close()
	names, err := f.Readdirnames(2)
	if err != nil && len(names) == 0 {
		fi, serr := f.Stat()
		return serr == nil && fi.IsDir() // an empty folder, not a file
	}
	return !(len(names) == 1 && names[0] == filepath.Base(r.LichNewsDir()))
}

// AgentsDir is the folder of agent records, shared by every linked work tree.
func (r *Repo) AgentsDir() string { return filepath.Join(r.CommonDir, "lucid", "agents") }

// AgentPath returns the record's file. An id of letters, digits, '-', '.'
// and '_' ("session" or "session/agent", as the clients' ids are) names it
// as it is, its slash a dot; any other id is written in hex, so that no id
// can name a file outside the folder.
func (r *Repo) AgentPath(id string) string {
	key := strings.Replace(id, "/", ".", 1)
	for _, c := range key {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '.' || c == '_') {
			key = "x" + hex.EncodeToString([]byte(id))
			break
		}
	}
	return filepath.Join(r.AgentsDir(), key+".json")
}

// ClaimsPath is the claims file of the repository.
func (r *Repo) ClaimsPath() string { return filepath.Join(r.CommonDir, "lucid", "claims") }

// LichEditsDir is the folder, under a work tree's own git dir, where lich's
// edit guard keeps one marker per edited file.
const LichEditsDir = "lich-edits"

func (r *Repo) LichNewsDir() string { return filepath.Join(r.CommonDir, "lucid", "lich-news") }

func (r *Repo) PlanSeenPath() string { return filepath.Join(r.GitDir, "lucid", "plan.seen") }

// CitesDir is the folder of the index of the files this work tree's log
// cites (logstore.UpdateCites): the log is the work tree's own.
func (r *Repo) CitesDir() string { return filepath.Join(r.GitDir, "lucid", "cites") }

func (r *Repo) PlanPendingPath() string { return filepath.Join(r.GitDir, "lucid", "plan.pending") }

// RemoteClaimsPath is the local copy of the remote's claims.
func (r *Repo) RemoteClaimsPath() string {
	return filepath.Join(r.CommonDir, "lucid", "remote-claims")
}

func (r *Repo) MachinePath() string { return filepath.Join(r.CommonDir, "lucid", "machine") }

// LinkedState returns the file of lucid's own in r (its state under the
// git dirs, or the log) of which path is another name, a hard link, or ""
// when it is none: a write through that name changes lucid's file, though
// the path says nothing of it (ln .git/lucid/claims h; : > h). Only a file
// with more than one name is compared, so that the usual write costs one
// lstat.
func (r *Repo) LinkedState(path string) string {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || Links(fi) < 2 {
		return ""
	}
	var found string
	same := func(p string) bool {
		other, err := os.Lstat(p)
		if err == nil && os.SameFile(fi, other) {
			found = p
			return true
		}
		return false
	}
	if same(r.LogPath()) {
		return found
	}
	for _, dir := range []string{filepath.Join(r.CommonDir, "lucid"), filepath.Join(r.GitDir, "lucid"),
		filepath.Join(r.GitDir, LichEditsDir), filepath.Join(r.CommonDir, LichEditsDir)} {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || found != "" {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() && same(p) {
				return filepath.SkipAll
			}
			return nil
		})
		if found != "" {
			return found
		}
	}
	return ""
}

// RepairState writes anew, as files of lucid's own (OwnCopy), the files
// of r's state that have another name (a hard link) or belong to another
// user, and returns them; the caller holds the lock.
func (r *Repo) RepairState() ([]string, error) {
	var fixed []string
	for _, sf := range r.StateFiles() {
		var bad *BadFileError
		if err := CheckFile(sf.Path, sf.Limit); !errors.As(err, &bad) || !bad.Repair {
			continue
		}
		if err := OwnCopy(sf.Path); err != nil {
			return fixed, err
		}
		fixed = append(fixed, sf.Path)
	}
	return fixed, nil
}
