package logstore

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/logformat"
	"github.com/zeebo/blake3"
)

// The index of the files the log cites.
//
// An agent about to edit a file is told what the log knows of it: the live
// entries (neither superseded nor retired) whose evidence cites it. A hook
// cannot read the log for that, so the work tree's git dir (the log is the
// work tree's own) keeps an index beside lucid's other state:
//
//   - one small file per cited file, named by a hash of its path, listing
//     the id and place in the log of each live entry that cites it: a hook
//     reads only the files of the paths it is about to write;
//   - the index whole (every live citation, and the ids superseded or
//     retired), read only to update it;
//   - a cursor: the log as the index last read it, as an agent's cursor
//     is (LogCursor).
//
// The index follows the log as the delta does: lines appended since the
// cursor are read from the cursor on (a merge by lucid's driver appends
// too); a rewritten log (a checkout, a rebase) is read whole again.
// UpdateCites does that under the repository's lock; each file is replaced
// whole (a temp file and a rename), the cursor last, so that a reader
// without the lock that sees the cursor as fresh sees the files it
// describes.

// Citation is the place in the log of an entry that cites a file.
type Citation struct {
	ID  string
	Off int64 // the line's first byte
	Len int   // the line's length, without its newline
}

const (
	citesIndex  = "index.json"
	citesCursor = "cursor"
)

// citeState is the index whole.
type citeState struct {
	Cursor LogCursor `json:"cursor"`
	Dead   []string  `json:"dead,omitempty"` // ids superseded or retired
	Refs   []citeRef `json:"refs,omitempty"` // live entries that cite files, in the log's order
}

type citeRef struct {
	ID    string   `json:"id"`
	Off   int64    `json:"off"`
	Len   int      `json:"len"`
	Paths []string `json:"paths"`
}

// CitesFresh reports whether the index is the log as it is now: a read of
// the small cursor file and a stat of the log.
func CitesFresh(r *gitstore.Repo) bool {
	b, err := gitstore.ReadFile(filepath.Join(r.CitesDir(), citesCursor), gitstore.MaxRecord)
	if err != nil {
		return false
	}
	cur, ok := parseCursor(b)
	if !ok {
		return false
	}
	now, err := StatLog(r.LogPath())
	return err == nil && now.SameFile(cur)
}

// Citing returns the live entries the index holds as citing rel (a path
// relative to the work tree's top, with slashes), in the log's order. The
// index is as fresh as the last UpdateCites: see CitesFresh.
func Citing(r *gitstore.Repo, rel string) ([]Citation, error) {
	b, err := gitstore.ReadFileIfExists(citeFile(r, rel), gitstore.MaxRecord)
	if err != nil || len(b) == 0 {
		return nil, err
	}
	var out []Citation
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		off, err1 := strconv.ParseInt(f[1], 10, 64)
		n, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || off < 0 || n <= 0 {
			continue
		}
		out = append(out, Citation{ID: f[0], Off: off, Len: n})
	}
	return out, nil
}

// ReadCited reads the entries at cites from the log, in the order given.
// A place that no longer holds its entry (the log was rewritten since the
// index was) is left out.
func ReadCited(r *gitstore.Repo, cites []Citation) ([]logformat.Entry, error) {
	f, err := openLog(r.LogPath())
	if f == nil {
		return nil, err
	}
	defer f.Close()
	var out []logformat.Entry
	for _, c := range cites {
		if c.Len > gitstore.MaxRecord {
			continue
		}
		buf := make([]byte, c.Len)
		if _, err := f.ReadAt(buf, c.Off); err != nil {
			continue
		}
		e, err := logformat.DecodeEntry(trimLine(buf))
		if err != nil || e.ID != c.ID {
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// UpdateCites brings the index up to the log: what was appended since its
// cursor is read, or the whole log when it was rewritten. The caller holds
// the repository's lock.
func UpdateCites(r *gitstore.Repo) error {
	path := r.LogPath()
	st, err := loadCites(r)
	rebuild := err != nil || st.Cursor == (LogCursor{}) || !Grown(path, st.Cursor)
	if rebuild {
		st = citeState{}
	}
	dead := make(map[string]bool, len(st.Dead))
	for _, id := range st.Dead {
		dead[id] = true
	}
	live := make(map[string]citeRef, len(st.Refs))
	for _, ref := range st.Refs {
		live[ref.ID] = ref
	}
	changed := map[string]bool{}
	retire := func(id string) {
		if dead[id] {
			return
		}
		dead[id] = true
		st.Dead = append(st.Dead, id)
		if ref, ok := live[id]; ok {
			for _, p := range ref.Paths {
				changed[p] = true
			}
			delete(live, id)
		}
	}
	evidence, supersede := []byte(`"evidence"`), []byte(logformat.KindSupersede)
	f, cur, err := openLogCursor(path)
	if err != nil {
		return err
	}
	off := int64(0)
	if !rebuild {
		off = st.Cursor.Size
	}
	if f != nil {
		defer f.Close()
		pos := off
		end, err := forwardLines(f, off, func(line []byte) bool {
			start, n := pos, len(line)
			pos += int64(n) + 1
			// Most lines cite nothing and replace nothing: not decoded.
			if !bytes.Contains(line, evidence) && !bytes.Contains(line, supersede) {
				return true
			}
			e, err := logformat.DecodeEntry(trimLine(line))
			if err != nil {
				return true
			}
			if e.Kind == logformat.KindSupersede && e.Supersedes != "" {
				retire(e.Supersedes)
			}
			// What is addressed (a message, a hand-over) is its
			// recipients' alone, and is conversation, not knowledge of a file.
			if e.Retired || e.Kind == logformat.KindDream || len(e.To) > 0 || dead[e.ID] || len(e.Evidence) == 0 {
				return true
			}
			ref := citeRef{ID: e.ID, Off: start, Len: n}
			for _, ev := range e.Evidence {
				if ev.Path != "" && !slices.Contains(ref.Paths, ev.Path) {
					ref.Paths = append(ref.Paths, ev.Path)
					changed[ev.Path] = true
				}
			}
			if _, twice := live[e.ID]; !twice { // a line twice in the log (a union merge)
				live[e.ID] = ref
			}
			return true
		})
		if err != nil {
			return err
		}
		cur.Size = end
		if cur.Tail, err = tailHash(f, end); err != nil {
			return err
		}
	}
	st.Refs = st.Refs[:0]
	for _, ref := range live {
		st.Refs = append(st.Refs, ref)
	}
	slices.SortFunc(st.Refs, func(a, b citeRef) int { return cmp.Compare(a.Off, b.Off) })
	st.Cursor = cur
	return saveCites(r, st, changed, rebuild)
}

func loadCites(r *gitstore.Repo) (citeState, error) {
	var st citeState
	b, err := gitstore.ReadFile(filepath.Join(r.CitesDir(), citesIndex), 1<<30)
	if err != nil {
		return st, err
	}
	err = json.Unmarshal(b, &st)
	return st, err
}

// saveCites writes the files of the paths changed (every one, and none
// else, when rebuilt), the index whole, and the cursor last.
func saveCites(r *gitstore.Repo, st citeState, changed map[string]bool, rebuilt bool) error {
	dir := r.CitesDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	byPath := map[string][]byte{}
	for _, ref := range st.Refs {
		for _, p := range ref.Paths {
			if rebuilt || changed[p] {
				byPath[p] = fmt.Appendf(byPath[p], "%s %d %d\n", ref.ID, ref.Off, ref.Len)
			}
		}
	}
	keep := map[string]bool{citesIndex: true, citesCursor: true}
	for p := range changed {
		if _, ok := byPath[p]; !ok {
			if err := os.Remove(citeFile(r, p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	for p, b := range byPath {
		keep[filepath.Base(citeFile(r, p))] = true
		if err := gitstore.WriteFileAtomic(citeFile(r, p), b, 0o644); err != nil {
			return err
		}
	}
	if rebuilt {
		// What the old log cited and the new one does not.
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if !keep[e.Name()] && !strings.HasPrefix(e.Name(), ".") {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := gitstore.WriteFileAtomic(filepath.Join(dir, citesIndex), b, 0o644); err != nil {
		return err
	}
	c := st.Cursor
	tail := c.Tail
	if tail == "" {
		tail = "-" // no log
	}
	return gitstore.WriteFileAtomic(filepath.Join(dir, citesCursor), fmt.Appendf(nil, "%d %d %d %s\n", c.Size, c.Inode, c.MTime, tail), 0o644)
}

func parseCursor(b []byte) (LogCursor, bool) {
	f := strings.Fields(string(b))
	if len(f) != 4 {
		return LogCursor{}, false
	}
	size, err1 := strconv.ParseInt(f[0], 10, 64)
	inode, err2 := strconv.ParseUint(f[1], 10, 64)
	mtime, err3 := strconv.ParseInt(f[2], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return LogCursor{}, false
	}
	tail := f[3]
	if tail == "-" {
		tail = ""
	}
	return LogCursor{Size: size, Inode: inode, MTime: mtime, Tail: tail}, true
}

// citeFile is the index's file of the entries citing rel.
func citeFile(r *gitstore.Repo, rel string) string {
	sum := blake3.Sum256([]byte(rel))
	return filepath.Join(r.CitesDir(), hex.EncodeToString(sum[:10]))
}
