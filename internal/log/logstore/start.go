package logstore

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
)

// What an agent had in its starting log.
//
// An entry that reaches an agent's log by a rewrite of it (a checkout of
// another branch, a rebase, a pull --rebase) may be older than the agent's
// first look and still new to it: it was on another branch. The agent had
// in its starting log the log committed at the HEAD of its start, and the
// lines not yet committed then, which are the newest; lucid notes both at
// the start (the commit, and the ids of the newest StartWindow entries), and a
// rewritten log is checked against them.

// StartWindow is how many of the newest entries an agent's start notes
// (SaveStart): the lines not yet committed then are among them, unless
// more than that many were. Each start reads and writes them, so the
// window is what a start can afford (about 0.3 ms), not the whole log.
const StartWindow = 500

// Head is the commit the work tree's HEAD names, read from the git dir
// without running git (HEAD, then the loose ref or packed-refs); "" for a
// branch with no commit yet, or what cannot be read.
func Head(r *gitstore.Repo) string {
	b, err := gitstore.ReadFile(filepath.Join(r.GitDir, "HEAD"), gitstore.MaxRecord)
	if err != nil {
		return ""
	}
	head := strings.TrimSpace(string(b))
	ref, symbolic := strings.CutPrefix(head, "ref:")
	if !symbolic {
		return head // detached
	}
	ref = strings.TrimSpace(ref)
	if strings.Contains(ref, "..") {
		return ""
	}
	for _, dir := range []string{r.GitDir, r.CommonDir} {
		if b, err := gitstore.ReadFile(filepath.Join(dir, filepath.FromSlash(ref)), gitstore.MaxRecord); err == nil {
			return strings.TrimSpace(string(b))
		}
	}
	f, err := os.Open(filepath.Join(r.CommonDir, "packed-refs"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if id, name, ok := strings.Cut(sc.Text(), " "); ok && name == ref {
			return id
		}
	}
	return ""
}

// NewestIDs returns the ids of the newest n entries of the log at path
// (the last n whole lines that are entries), newest first. It runs at every
// agent's start: most lines need no decoding (leadingID).
func NewestIDs(path string, n int) ([]string, error) {
	f, err := openLog(path)
	if f == nil {
		return nil, err
	}
	defer f.Close()
	var ids []string
	var h logformat.Head
	err = backwardLines(f, func(line []byte) bool {
		id, ok := leadingID(line)
		if !ok {
			h = logformat.Head{}
			if decoded, _ := logformat.DecodeHead(trimLine(line), &h); decoded && logformat.ValidID(h.ID) {
				id, ok = h.ID, true
			}
		}
		if ok {
			ids = append(ids, id)
		}
		return len(ids) < n
	})
	return ids, err
}

// leadingID is the id of a line as lucid writes it, {"id":"<26>",...,
// read without decoding the line.
func leadingID(line []byte) (string, bool) {
	const prefix = `{"id":"`
	if len(line) < len(prefix)+logformat.IDLen+1 || string(line[:len(prefix)]) != prefix || line[len(prefix)+logformat.IDLen] != '"' {
		return "", false
	}
	id := string(line[len(prefix) : len(prefix)+logformat.IDLen])
	return id, logformat.ValidID(id)
}

// startPath is the file of the ids an agent's starting log ended with.
func startPath(r *gitstore.Repo, id string) string {
	return strings.TrimSuffix(r.AgentPath(id), ".json") + ".start"
}

// SaveStart keeps ids, the newest entries of agent's starting log, in
// place of any it had.
func SaveStart(r *gitstore.Repo, agent string, ids []string) error {
	b := []byte(strings.Join(ids, "\n") + "\n")
	if old, err := gitstore.ReadFileIfExists(startPath(r, agent), gitstore.MaxRecord); err == nil && bytes.Equal(old, b) {
		return nil // a start again with nothing new since: kept as it is
	}
	if err := os.MkdirAll(r.AgentsDir(), 0o755); err != nil {
		return err
	}
	return gitstore.WriteFileAtomic(startPath(r, agent), b, 0o644)
}

// LoadStart returns the ids SaveStart kept for agent; none when there are
// none.
func LoadStart(r *gitstore.Repo, agent string) map[string]bool {
	b, err := gitstore.ReadFileIfExists(startPath(r, agent), gitstore.MaxRecord)
	if err != nil || b == nil {
		return nil
	}
	ids := map[string]bool{}
	for _, line := range bytes.Split(b, []byte{'\n'}) {
		if len(line) > 0 {
			ids[string(line)] = true
		}
	}
	return ids
}

// IDSet is a set of entry ids, compact enough for a whole log.
type IDSet struct{ ids [][logformat.IDLen]byte }

// Has reports whether id is in the set.
func (s *IDSet) Has(id string) bool {
	if s == nil || len(id) != logformat.IDLen {
		return false
	}
	var k [logformat.IDLen]byte
	copy(k[:], id)
	_, ok := slices.BinarySearchFunc(s.ids, k, func(a, b [logformat.IDLen]byte) int { return bytes.Compare(a[:], b[:]) })
	return ok
}

// CommittedIDs returns the ids of the entries of the log as commit holds
// it, by asking git: empty when the commit has no log, or is gone.
func CommittedIDs(r *gitstore.Repo, commit string) (*IDSet, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := gitstore.RunGit(ctx, r.Top, nil, "cat-file", "blob", commit+":"+gitstore.LogName)
	if err != nil {
		if gitstore.GitExitCode(err) > 0 {
			return &IDSet{}, nil // no log at that commit, or no such commit
		}
		return nil, err
	}
	set := &IDSet{}
	var h logformat.Head
	for len(out) > 0 {
		var line []byte
		line, out, _ = bytes.Cut(out, []byte{'\n'})
		h = logformat.Head{}
		if ok, _ := logformat.DecodeHead(trimLine(line), &h); ok && len(h.ID) == logformat.IDLen {
			var k [logformat.IDLen]byte
			copy(k[:], h.ID)
			set.ids = append(set.ids, k)
		}
	}
	slices.SortFunc(set.ids, func(a, b [logformat.IDLen]byte) int { return bytes.Compare(a[:], b[:]) })
	return set, nil
}
