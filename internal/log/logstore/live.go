package logstore

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
)

// LiveEntry is an entry that still holds, with the kind it stands for: a
// replacement (a supersede entry) stands for the kind of what it replaced.
type LiveEntry struct {
	logformat.Entry
	StandsFor string `json:"stands_for"`
}

// Live is where the live entries of the log are: the entries that hold,
// neither superseded nor retired, leaving out retirements and dream points.
// It is for consolidation (lucid dream), not for the hooks.
//
// It holds two bytes a line, not the entries, so that a log of a million
// entries is consolidated in a few megabytes: OpenLive reads the log twice,
// first only the lines that mention "supersede" (what replaces what), then
// the head of every line (its id, kind, and whether it is retired), keeping
// for each line only the kind it stands for; Each then reads again the
// lines of the kinds asked for. One open file is read throughout, whatever
// a checkout does to the path meanwhile.
type Live struct {
	f     *os.File
	kinds []string // the kinds stood for, in the order first met
	marks []uint16 // per line, oldest first: 0 not live, else 1 + index in kinds
	// Counts is the number of live entries by the kind they stand for.
	Counts map[string]int
	// Invalid is the number of lines that are not valid entries.
	Invalid int
}

// OpenLive indexes the live entries of the log; Close releases it. A
// missing log has none.
func OpenLive(r *gitstore.Repo) (*Live, error) {
	l := &Live{Counts: map[string]int{}}
	f, err := openLog(r.LogPath())
	if f == nil {
		return l, err
	}
	l.f = f
	if err := l.index(); err != nil {
		f.Close()
		return nil, err
	}
	return l, nil
}

func (l *Live) index() error {
	replaces := map[idKey]idKey{} // replacement id -> the id it replaces
	if _, err := forwardLines(l.f, 0, func(line []byte) bool {
		noteReplacement(line, func(by, target idKey) { replaces[by] = target })
		return true
	}); err != nil {
		return err
	}
	superseded := make(map[idKey]bool, len(replaces))
	for _, target := range replaces {
		superseded[target] = true
	}
	// The head of every line: live or not, and its kind; the kinds of the
	// replaced entries, for the replacements that stand for them.
	kindOf := map[idKey]string{}
	type pending struct {
		line int
		id   idKey
	}
	var replacements []pending
	kindIndex := map[string]uint16{}
	mark := func(i int, kind string) {
		k, ok := kindIndex[kind]
		if !ok && len(l.kinds) < 1<<16-2 {
			l.kinds = append(l.kinds, kind)
			k = uint16(len(l.kinds))
			kindIndex[kind] = k
		} else if !ok {
			return // more kinds than a mark holds: a log of garbage
		}
		l.marks[i] = k
		l.Counts[kind]++
	}
	if _, err := forwardLines(l.f, 0, func(line []byte) bool {
		i := len(l.marks)
		l.marks = append(l.marks, 0)
		var h logformat.Head
		if !validLine(line, &h) {
			if len(trimLine(line)) > 0 {
				l.Invalid++
			}
			return true
		}
		id := keyOf(h.ID)
		if superseded[id] && h.Kind != logformat.KindSupersede {
			kindOf[id] = h.Kind
		}
		switch {
		case !holds(&h, superseded[id]):
		case h.Kind == logformat.KindSupersede:
			replacements = append(replacements, pending{i, id})
		default:
			mark(i, h.Kind)
		}
		return true
	}); err != nil {
		return err
	}
	// A replacement stands for the kind its chain of replacements began
	// with; one whose chain ends at an id not in the log, for itself.
	for _, p := range replacements {
		mark(p.line, standsFor(p.id, replaces, kindOf))
	}
	return nil
}

// idKey is an entry id as the maps of what replaces what hold it: a
// million lines may hold tens of thousands of replacements, and ids in
// place take a third of the memory of strings, and nothing for the
// garbage collector to follow.
type idKey [logformat.IDLen]byte

// keyOf is id as an idKey; the zero key for a string that is not the
// length of an id (which no entry has).
func keyOf(id string) idKey {
	var k idKey
	if len(id) == len(k) {
		copy(k[:], id)
	}
	return k
}

// noteReplacement calls note with what line replaces, if it is a
// supersede entry: few lines, found without decoding the rest.
func noteReplacement(line []byte, note func(by, target idKey)) {
	var h logformat.Head
	if bytes.Contains(line, []byte(logformat.KindSupersede)) && validLine(line, &h) && h.Kind == logformat.KindSupersede && len(h.Supersedes) == logformat.IDLen {
		note(keyOf(h.ID), keyOf(h.Supersedes))
	}
}

// holds reports whether the entry whose head is h still holds: it is not
// superseded, not a retirement, not a dream point.
func holds(h *logformat.Head, superseded bool) bool {
	return !superseded && !h.Retired && h.Kind != logformat.KindDream
}

// standsFor is the kind the replacement id stands for: the kind its chain
// of replacements began with (kindOf has the kinds of replaced entries
// that are not replacements); for a chain that ends at an id not in the
// log, its own.
func standsFor(id idKey, replaces map[idKey]idKey, kindOf map[idKey]string) string {
	kind := logformat.KindSupersede
	for hops := 0; hops <= len(replaces); hops++ {
		target, isReplacement := replaces[id]
		if !isReplacement {
			break
		}
		if _, next := replaces[target]; next {
			id = target
			continue
		}
		if k, ok := kindOf[target]; ok {
			kind = k
		}
		break
	}
	return kind
}

// validLine decodes the head of a line of the log into h, and reports
// whether the line is a valid entry as DecodeEntry has it.
func validLine(line []byte, h *logformat.Head) bool {
	line = trimLine(line)
	if len(line) == 0 {
		return false
	}
	return logformat.ReadHead(line, h)
}

// Count counts the valid entries of the log and the lines that are not,
// as Scan would, reading only the head of each line (DecodeHead), in as
// many parts at once as there are processors to read them: lucid doctor
// checks a log of a million entries in a fraction of a second.
func Count(path string) (valid, invalid int, err error) {
	f, err := openLog(path)
	if f == nil {
		return 0, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	bounds, err := logParts(f, fi.Size())
	if err != nil {
		return 0, 0, err
	}
	parts := len(bounds) - 1
	type count struct {
		valid, invalid int
		err            error
	}
	counts := make([]count, parts)
	var wg sync.WaitGroup
	for i := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &counts[i]
			var h logformat.Head
			_, c.err = readLines(io.NewSectionReader(f, bounds[i], bounds[i+1]-bounds[i]), bounds[i], func(line []byte) bool {
				switch {
				case validLine(line, &h):
					c.valid++
				case len(trimLine(line)) > 0:
					c.invalid++
				}
				return true
			})
		}()
	}
	wg.Wait()
	for _, c := range counts {
		valid, invalid = valid+c.valid, invalid+c.invalid
		if err == nil {
			err = c.err
		}
	}
	return valid, invalid, err
}

// countSplitSize is the size of log from which Count and Search read
// in parts (a variable for the tests).
var countSplitSize int64 = 8 << 20

// logParts splits a log of size bytes into as many parts as there are
// processors to read them (up to 4; one for a small log), and returns
// where each begins, and the size. Each part begins just after a newline,
// so that every line is read whole by one part; the last part ends at the
// file's size, where an unfinished line is left out as everywhere.
func logParts(f *os.File, size int64) ([]int64, error) {
	parts := 1
	if size > countSplitSize {
		parts = min(runtime.GOMAXPROCS(0), 4)
	}
	bounds := []int64{0}
	for i := 1; i < parts; i++ {
		at, err := nextLineStart(f, size*int64(i)/int64(parts))
		if err != nil {
			return nil, err
		}
		bounds = append(bounds, max(at, bounds[len(bounds)-1]))
	}
	return append(bounds, size), nil
}

// nextLineStart is the offset just after the first newline at or after
// off, or the file's end.
func nextLineStart(f *os.File, off int64) (int64, error) {
	buf := make([]byte, 4096)
	for {
		n, err := f.ReadAt(buf, off)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return off + int64(i) + 1, nil
		}
		off += int64(n)
		if err == io.EOF {
			return off, nil
		}
		if err != nil {
			return off, err
		}
	}
}

// Kinds are the kinds the live entries stand for, in no fixed order.
func (l *Live) Kinds() []string { return slices.Clone(l.kinds) }

// Each calls fn for each live entry that stands for a kind keep accepts,
// oldest first, until fn returns false.
func (l *Live) Each(keep func(kind string) bool, fn func(LiveEntry) bool) error {
	if l.f == nil {
		return nil
	}
	want := make([]bool, len(l.kinds)+1)
	any := false
	for i, k := range l.kinds {
		want[i+1] = keep(k)
		any = any || want[i+1]
	}
	if !any {
		return nil
	}
	i := 0
	_, err := forwardLines(l.f, 0, func(line []byte) bool {
		if i >= len(l.marks) {
			return false // appended since OpenLive
		}
		m := l.marks[i]
		i++
		if !want[m] {
			return true
		}
		e, err := logformat.DecodeEntry(trimLine(line))
		if err != nil {
			return true // its head decoded, the rest does not: as invalid
		}
		return fn(LiveEntry{Entry: e, StandsFor: l.kinds[m-1]})
	})
	return err
}

// Close releases the log.
func (l *Live) Close() {
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
}
