package logstore

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
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
//     the id and place in the log of each live entry that cites it, in the
//     log's order: a hook reads only the files of the paths it is about to
//     write, from their end, as far as it has room to tell (CitingNewest);
//   - the index whole, a line for each citation ("+ ID OFFSET LENGTH
//     PATH") and for each id superseded or retired ("- ID"), later lines
//     overriding earlier ones: read only when a supersede or a retirement
//     must find what it ends;
//   - a cursor: the log as the index last read it, as an agent's cursor
//     is (Cursor).
//
// The index follows the log as the delta does: lines appended since the
// cursor are read from the cursor on (a merge by lucid's driver appends
// too); a rewritten log (a checkout, a rebase) is read whole again.
// UpdateCites does that under the repository's lock. An append costs what
// it adds: its citations are appended to the index and to the files of the
// paths they cite (one write of whole lines each); only a supersede reads
// the index whole, and writes it anew without what ended. Every other file
// is replaced whole (a temp file and a rename), the cursor last, so that a
// reader without the lock that sees the cursor as fresh sees the files it
// describes. A line read twice (an update cut short before its cursor was
// written, a union merge) is the same citation, kept once.

// Citation is the place in the log of an entry that cites a file.
type Citation struct {
	ID  string
	Off int64 // the line's first byte
	Len int   // the line's length, without its newline
}

const (
	citesIndex = "index"
	cursorFile = "cursor"
	// maxCiting bounds a file of the index (some 300,000 citations of one
	// file) and a line read from the log by its place.
	maxCiting = 16 << 20
)

// citeRef is a live entry that cites files.
type citeRef struct {
	Citation
	paths []string
}

// CitesFresh reports whether the index is the log as it is now: a read of
// the small cursor file and a stat of the log.
func CitesFresh(r *gitstore.Repo) bool {
	b, err := gitstore.ReadFile(filepath.Join(r.CitesDir(), cursorFile), gitstore.MaxRecord)
	if err != nil {
		return false
	}
	cur, ok := parseCursor(b)
	if !ok {
		return false
	}
	now, err := Stat(r.LogPath())
	return err == nil && now.SameFile(cur)
}

// CitingNewest calls fn with each live entry the index holds as citing rel
// (a path relative to the work tree's top, with slashes, keyed as the
// repository's Names key it: gitstore.Names.Key), the last in the
// log's order first, until fn returns false. It reads rel's file from its
// end, a block at a time: a caller that stops early pays for what it read,
// not for how many entries cite rel. A citation may come twice (an update
// cut short and done again, a line twice in the log): the caller keeps it
// once. The index is as fresh as the last UpdateCites: see CitesFresh.
func CitingNewest(r *gitstore.Repo, rel string, fn func(Citation) bool) error {
	f, fi, err := gitstore.OpenFile(citeFile(r, rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	// torn: what follows the last newline is an append cut short.
	back := newBackReader(f, 0, fi.Size(), true)
	for {
		line, ok, err := back.next()
		if err != nil || !ok {
			return err
		}
		if c, ok := parseCitation(line); ok && !fn(c) {
			return nil
		}
	}
}

// parseCitation reads a line of a file of the index: "ID OFFSET LENGTH".
func parseCitation(line []byte) (Citation, bool) {
	id, rest, ok1 := bytes.Cut(line, []byte{' '})
	off, n, ok2 := bytes.Cut(rest, []byte{' '})
	if !ok1 || !ok2 || len(id) == 0 {
		return Citation{}, false
	}
	o, err1 := strconv.ParseInt(string(off), 10, 64)
	l, err2 := strconv.Atoi(string(n))
	if err1 != nil || err2 != nil || o < 0 || l <= 0 {
		return Citation{}, false
	}
	return Citation{ID: string(id), Off: o, Len: l}, true
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
		if c.Len > maxCiting {
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

// CitesAhead is the log read whole for the index before the lock is
// taken, so that no hook holds the lock for the length of a long log when
// the index is rebuilt: under it, only what was appended since is read.
type CitesAhead struct {
	refs  []citeRef
	ended []string
	cur   Cursor
}

// ReadCitesAhead reads the log whole when the index must be rebuilt from
// it (the log was rewritten under it, or there is none); nil otherwise,
// when what the index lacks is what was appended, read under the lock.
// It changes nothing.
func ReadCitesAhead(r *gitstore.Repo) *CitesAhead {
	if _, rebuild := citesCursor(r); !rebuild {
		return nil
	}
	refs, ended, cur, err := scanCites(r.LogPath(), 0, r.Names())
	if err != nil {
		return nil
	}
	return &CitesAhead{refs, ended, cur}
}

// citesCursor is the index's cursor, and whether the index must be
// rebuilt: it has none, or the log is not its log with lines appended.
func citesCursor(r *gitstore.Repo) (Cursor, bool) {
	b, err := gitstore.ReadFile(filepath.Join(r.CitesDir(), cursorFile), gitstore.MaxRecord)
	if err != nil {
		return Cursor{}, true
	}
	cur, ok := parseCursor(b)
	return cur, !ok || cur == (Cursor{}) || !Grown(r.LogPath(), cur)
}

// UpdateCites brings the index up to the log: what was appended since its
// cursor is read, or the whole log when it was rewritten (from ahead, when
// given and still the log's start). The caller holds the repository's
// lock.
func UpdateCites(r *gitstore.Repo, ahead *CitesAhead) error {
	path := r.LogPath()
	cur, rebuild := citesCursor(r)
	var refs []citeRef
	var ended []string
	off := cur.Size
	switch {
	case !rebuild:
	case ahead != nil && Grown(path, ahead.cur):
		refs, ended, off = ahead.refs, ahead.ended, ahead.cur.Size
	default:
		off = 0
	}
	more, moreEnded, cur, err := scanCites(path, off, r.Names())
	if err != nil {
		return err
	}
	refs, ended = append(refs, more...), append(ended, moreEnded...)
	if err := os.MkdirAll(r.CitesDir(), 0o755); err != nil {
		return err
	}
	switch {
	case rebuild:
		err = rewriteCites(r, nil, refs, ended, true)
	case len(ended) > 0:
		var live []citeRef
		if live, err = loadCites(r); err == nil {
			err = rewriteCites(r, live, refs, ended, false)
		}
	default:
		err = appendCites(r, refs)
	}
	if err != nil {
		return err
	}
	tail := cur.Tail
	if tail == "" {
		tail = "-" // no log
	}
	return gitstore.WriteFileAtomic(filepath.Join(r.CitesDir(), cursorFile), fmt.Appendf(nil, "%d %d %d %s\n", cur.Size, cur.Inode, cur.MTime, tail), 0o644)
}

// scanCites reads the log from off: the entries that cite files (not
// retired, not dream points, not addressed), in the log's order, and the
// ids that supersede entries end. A cited path is kept as names keys it:
// where the file system folds names, an entry citing Match.go and one
// citing match.go cite one file, and the index holds them as one.
func scanCites(path string, off int64, names gitstore.Names) (refs []citeRef, ended []string, cur Cursor, err error) {
	f, cur, err := openCursor(path)
	if f == nil {
		return nil, nil, Cursor{}, err
	}
	defer f.Close()
	evidence, supersede := []byte(`"evidence"`), []byte(logformat.KindSupersede)
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
			ended = append(ended, e.Supersedes)
		}
		// What is addressed (a message, a hand-over) is its recipients'
		// alone, and is conversation, not knowledge of a file.
		if e.Retired || e.Kind == logformat.KindDream || e.Addressed() || len(e.Evidence) == 0 {
			return true
		}
		ref := citeRef{Citation: Citation{ID: e.ID, Off: start, Len: n}}
		for _, ev := range e.Evidence {
			if key := names.Key(ev.Path); key != "" && !strings.ContainsAny(key, "\n\r") && !slices.Contains(ref.paths, key) {
				ref.paths = append(ref.paths, key)
			}
		}
		if len(ref.paths) > 0 {
			refs = append(refs, ref)
		}
		return true
	})
	if err != nil {
		return nil, nil, Cursor{}, err
	}
	cur.Size = end
	if cur.Tail, err = tailHash(f, end); err != nil {
		return nil, nil, Cursor{}, err
	}
	return refs, ended, cur, nil
}

// appendCites adds refs, all of them live, to the index and to the files
// of the paths they cite.
func appendCites(r *gitstore.Repo, refs []citeRef) error {
	if len(refs) == 0 {
		return nil
	}
	var lines []byte
	byPath := map[string][]Citation{}
	var order []string
	for _, ref := range refs {
		lines = appendRefLines(lines, ref)
		for _, p := range ref.paths {
			if _, ok := byPath[p]; !ok {
				order = append(order, p)
			}
			byPath[p] = append(byPath[p], ref.Citation)
		}
	}
	f, err := os.OpenFile(filepath.Join(r.CitesDir(), citesIndex), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(lines); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	for _, p := range order {
		if err := appendCiting(r, p, byPath[p]); err != nil {
			return err
		}
	}
	return nil
}

// appendCiting appends cites to the file of the entries citing rel, in one
// write, but those it holds already: a line twice in the log, or an update
// cut short before its cursor was written and done again, which appended
// these same citations last (so only as many lines from the file's end as
// there are cites are read). What it costs does not grow with how many
// entries cite rel.
func appendCiting(r *gitstore.Repo, rel string, cites []Citation) error {
	have := map[string]bool{}
	err := CitingNewest(r, rel, func(c Citation) bool {
		have[c.ID] = true
		return len(have) < len(cites)
	})
	if err != nil {
		return err
	}
	var b []byte
	for _, c := range cites {
		if !have[c.ID] {
			have[c.ID] = true
			b = fmt.Appendf(b, "%s %d %d\n", c.ID, c.Off, c.Len)
		}
	}
	if len(b) == 0 {
		return nil
	}
	f, err := os.OpenFile(citeFile(r, rel), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// rewriteCites writes the index anew: the live citations of old (nil when
// rebuilt), then refs, without those ended; the files of the paths whose
// citations changed (every one, when rebuilt, and the files of paths no
// longer cited removed).
func rewriteCites(r *gitstore.Repo, old, refs []citeRef, ended []string, rebuilt bool) error {
	dead := map[string]bool{}
	for _, id := range ended {
		dead[id] = true
	}
	changed := map[string]bool{}
	for _, ref := range refs {
		for _, p := range ref.paths {
			changed[p] = true
		}
	}
	var live []citeRef
	seen := map[string]bool{}
	for _, ref := range slices.Concat(old, refs) {
		if dead[ref.ID] {
			for _, p := range ref.paths {
				changed[p] = true
			}
		}
		if dead[ref.ID] || seen[ref.ID] {
			continue
		}
		seen[ref.ID] = true
		live = append(live, ref)
	}
	byPath := map[string][]Citation{}
	var lines []byte
	for _, ref := range live {
		lines = appendRefLines(lines, ref)
		for _, p := range ref.paths {
			if rebuilt || changed[p] {
				byPath[p] = append(byPath[p], ref.Citation)
			}
		}
	}
	// The ended ids stay in the index, so that an entry brought after
	// what supersedes it in one update is left out. (An append that ends
	// nothing is not checked against them: such an entry, which only a
	// merge of a third branch's lines could bring, stays listed until the
	// index is rebuilt.)
	for id := range dead {
		lines = fmt.Appendf(lines, "- %s\n", id)
	}
	if !rebuilt {
		for _, id := range deadIDs(r) {
			if !dead[id] {
				lines = fmt.Appendf(lines, "- %s\n", id)
			}
		}
	}
	keep := map[string]bool{citesIndex: true, cursorFile: true}
	for p := range changed {
		if _, ok := byPath[p]; !ok {
			if err := os.Remove(citeFile(r, p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	for p, cites := range byPath {
		keep[filepath.Base(citeFile(r, p))] = true
		if err := writeCiting(r, p, cites); err != nil {
			return err
		}
	}
	if rebuilt {
		// What the old log cited and the new one does not.
		ents, _ := os.ReadDir(r.CitesDir())
		for _, e := range ents {
			if !keep[e.Name()] && !strings.HasPrefix(e.Name(), ".") {
				os.Remove(filepath.Join(r.CitesDir(), e.Name()))
			}
		}
	}
	return gitstore.WriteFileAtomic(filepath.Join(r.CitesDir(), citesIndex), lines, 0o644)
}

func appendRefLines(b []byte, ref citeRef) []byte {
	for _, p := range ref.paths {
		b = fmt.Appendf(b, "+ %s %d %d %s\n", ref.ID, ref.Off, ref.Len, p)
	}
	return b
}

// readIndex calls fn with each line of the index whole, split in at most
// five fields.
func readIndex(r *gitstore.Repo, fn func(f []string)) error {
	b, err := gitstore.ReadFileIfExists(filepath.Join(r.CitesDir(), citesIndex), 1<<30)
	if err != nil {
		return err
	}
	for line := range strings.Lines(string(b)) {
		fn(strings.SplitN(strings.TrimSuffix(line, "\n"), " ", 5))
	}
	return nil
}

// loadCites reads the live citations of the index whole, in its order.
func loadCites(r *gitstore.Repo) ([]citeRef, error) {
	var out []citeRef
	at := map[string]int{}
	dead := map[string]bool{}
	err := readIndex(r, func(f []string) {
		switch {
		case len(f) == 2 && f[0] == "-":
			dead[f[1]] = true
		case len(f) == 5 && f[0] == "+":
			off, err1 := strconv.ParseInt(f[2], 10, 64)
			n, err2 := strconv.Atoi(f[3])
			if err1 != nil || err2 != nil {
				return
			}
			i, ok := at[f[1]]
			if !ok {
				i = len(out)
				at[f[1]] = i
				out = append(out, citeRef{Citation: Citation{ID: f[1], Off: off, Len: n}})
			}
			if !slices.Contains(out[i].paths, f[4]) {
				out[i].paths = append(out[i].paths, f[4])
			}
		}
	})
	return slices.DeleteFunc(out, func(ref citeRef) bool { return dead[ref.ID] }), err
}

// deadIDs are the ids the index holds as ended.
func deadIDs(r *gitstore.Repo) []string {
	var out []string
	readIndex(r, func(f []string) {
		if len(f) == 2 && f[0] == "-" {
			out = append(out, f[1])
		}
	})
	return out
}

// writeCiting writes the file of the entries citing rel.
func writeCiting(r *gitstore.Repo, rel string, cites []Citation) error {
	var b []byte
	for _, c := range cites {
		b = fmt.Appendf(b, "%s %d %d\n", c.ID, c.Off, c.Len)
	}
	return gitstore.WriteFileAtomic(citeFile(r, rel), b, 0o644)
}

func parseCursor(b []byte) (Cursor, bool) {
	f := strings.Fields(string(b))
	if len(f) != 4 {
		return Cursor{}, false
	}
	size, err1 := strconv.ParseInt(f[0], 10, 64)
	inode, err2 := strconv.ParseUint(f[1], 10, 64)
	mtime, err3 := strconv.ParseInt(f[2], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return Cursor{}, false
	}
	tail := f[3]
	if tail == "-" {
		tail = ""
	}
	return Cursor{Size: size, Inode: inode, MTime: mtime, Tail: tail}, true
}

// citeFile is the index's file of the entries citing rel.
func citeFile(r *gitstore.Repo, rel string) string {
	sum := blake3.Sum256([]byte(rel))
	return filepath.Join(r.CitesDir(), hex.EncodeToString(sum[:10]))
}
