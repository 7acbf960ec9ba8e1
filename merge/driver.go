package merge

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// Driver is the merge driver git runs for .lucid/log.jsonl
// (`lucid merge-driver %O %A %B %L %P`): it writes into ours every line of
// ours as it was, then each entry of theirs that ours lacks, by id, in
// (at, id) order, then each other line of theirs that ours lacks, by its
// exact bytes, in theirs' order. The result ends with a newline. It never
// reports a conflict for logs it can read; git takes what it wrote as the
// merge.
//
// The rules for the cases a union of lines leaves open:
//   - The ancestor is not read (git may pass an empty file, or a virtual
//     one in a criss-cross merge): the log is append-only, so a line one
//     side lacks was added by the other, never deleted by it, and the
//     union needs no base.
//   - An entry is a line logformat.DecodeEntry accepts (see line.go); its
//     identity is its id. Any other line that is not blank is kept and
//     deduplicated by its bytes (without the line end). Blank lines of
//     theirs carry nothing and are dropped; ours stays byte for byte.
//   - A last line without a newline (a torn write that was committed) is a
//     line like the others: it is kept, and gets its newline, so nothing is
//     lost; readers that skipped it as unfinished then count it as invalid
//     (if it is not a whole entry), and never delete it.
//   - A "\r" before the newline is part of the line end, not of the line,
//     when lines are compared; lines are written as they were.
//   - Entries that theirs repeats are written once (the first copy); ours
//     is not rewritten, even where it repeats itself.
//
// The same three files always give the same bytes. A side that cannot be
// read (missing, not a file, unreadable) is an error, and ours is left
// untouched: the result is written to a temp file beside ours, with ours'
// mode, and renamed over it.
//
// It reads each side as a stream through a buffer, and keeps only ids,
// times and line numbers: memory is a fraction of the logs' size (see
// merge.go in internal/bench for the figures).
func Driver(ancestor, ours, theirs string) error {
	a, aInfo, err := openSide(ours, "our")
	if err != nil {
		return err
	}
	defer a.Close()
	b, _, err := openSide(theirs, "their")
	if err != nil {
		return err
	}
	defer b.Close()
	m := &merger{}
	if err := m.unite(a, b); err != nil {
		return fmt.Errorf("merge-driver: reading the log: %w; ours is left as it was", err)
	}
	return m.write(ours, aInfo.Mode().Perm(), a, b)
}

func openSide(path, whose string) (*os.File, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("merge-driver: cannot read %s side of the log (%w); ours is left as it was", whose, err)
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("merge-driver: %s side %s is not a file; ours is left as it was", whose, path)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// merger holds what one merge found out about the two sides.
type merger struct {
	oursIDs  [][26]byte // the ids of ours' entries
	oursTorn bool       // ours' last line has no newline
	junk     map[string]struct{}
	prefix   int64    // theirs begins with these bytes of ours, in whole lines
	extras   []extra  // theirs' entries after the prefix that ours lacks, in file order
	others   [][]byte // theirs' other lines that ours lacks, in file order
	r        lineReader
}

// extra is an entry of theirs after the common prefix.
type extra struct {
	key  [50]byte // at (24 bytes, fixed width) then id: sorts as (at, id)
	line int      // its line number after the prefix
	dup  bool     // ours has it, or theirs has it earlier
}

func (e *extra) id() []byte { return e.key[24:] }

func cmpKey(x, y *extra) int { return bytes.Compare(x.key[:], y.key[:]) }

// unite reads both sides and decides what goes after ours. It reads ours
// and the rest of theirs at the same time, on two cores where there are:
// telling entries from other lines is most of the work.
func (m *merger) unite(a, b *os.File) error {
	var err error
	if m.prefix, err = commonPrefix(a, b); err != nil {
		return err
	}
	if _, err := b.Seek(m.prefix, io.SeekStart); err != nil {
		return err
	}
	var oursErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		oursErr = m.readOurs(a)
	}()
	theirJunk, err := m.readTheirs(b)
	<-done
	if err == nil {
		err = oursErr
	}
	if err != nil {
		return err
	}
	for _, line := range theirJunk {
		if m.addJunk(line) {
			m.others = append(m.others, line)
		}
	}
	m.dedupe()
	return nil
}

// readOurs notes the ids of ours' entries and its other lines.
func (m *merger) readOurs(a *os.File) error {
	var r lineReader
	// Counting first lets the list be made at its size: growing it costs
	// more than this extra read, which the page cache serves.
	n, err := r.count(a)
	if err != nil {
		return err
	}
	m.oursIDs = make([][26]byte, 0, n)
	m.oursTorn, err = r.each(a, func(line []byte, _ int) {
		if id, _, ok := lineEntry(trimCR(line)); ok {
			m.oursIDs = append(m.oursIDs, [26]byte([]byte(id)))
		} else {
			m.addJunk(line)
		}
	})
	return err
}

// readTheirs notes theirs' entries from where b stands, and returns copies
// of its other lines.
func (m *merger) readTheirs(b *os.File) (junk [][]byte, err error) {
	n, err := m.r.count(b)
	if err != nil {
		return nil, err
	}
	m.extras = make([]extra, 0, n)
	_, err = m.r.each(b, func(line []byte, n int) {
		if id, at, ok := lineEntry(trimCR(line)); ok {
			e := extra{line: n}
			copy(e.key[:24], at)
			copy(e.key[24:], id)
			m.extras = append(m.extras, e)
		} else {
			junk = append(junk, bytes.Clone(line))
		}
	})
	return junk, err
}

// addJunk records a line that is not an entry and reports whether it is
// new; blank lines are not recorded.
func (m *merger) addJunk(line []byte) bool {
	t := trimCR(line)
	if len(bytes.TrimLeft(t, " \t\r")) == 0 {
		return false
	}
	if _, dup := m.junk[string(t)]; dup {
		return false
	}
	if m.junk == nil {
		m.junk = map[string]struct{}{}
	}
	m.junk[string(t)] = struct{}{}
	return true
}

// dedupe drops the extras that ours has, or that theirs had before. It
// sorts rather than hashing: ids come in time order, so the sorts find
// them (nearly) sorted, and merging two sorted lists reads memory in
// order, where a hash set of a million ids spends a cache miss on each
// (a second, here, for 750k ids). For the same reason it sorts copies of
// the ids, not indexes into the extras.
func (m *merger) dedupe() {
	cmpID := func(x, y [26]byte) int { return bytes.Compare(x[:], y[:]) }
	if !slices.IsSortedFunc(m.oursIDs, cmpID) {
		slices.SortFunc(m.oursIDs, cmpID)
	}
	inOurs := func(j int, id []byte) (int, bool) {
		for j < len(m.oursIDs) && bytes.Compare(m.oursIDs[j][:], id) < 0 {
			j++
		}
		return j, j < len(m.oursIDs) && bytes.Equal(m.oursIDs[j][:], id)
	}
	j := 0
	if slices.IsSortedFunc(m.extras, func(x, y extra) int { return bytes.Compare(x.id(), y.id()) }) {
		// The usual case: theirs appended in time order. Ties are doubles.
		for k := range m.extras {
			e := &m.extras[k]
			if k > 0 && bytes.Equal(m.extras[k-1].id(), e.id()) {
				e.dup = true
				continue
			}
			j, e.dup = inOurs(j, e.id())
		}
		m.extras = slices.DeleteFunc(m.extras, func(e extra) bool { return e.dup })
		m.oursIDs = nil
		return
	}
	type ref struct {
		id [26]byte
		i  int32 // in m.extras
	}
	refs := make([]ref, len(m.extras)) // by id, then by place in theirs
	for i := range m.extras {
		refs[i] = ref{[26]byte(m.extras[i].id()), int32(i)}
	}
	cmpRef := func(x, y ref) int {
		if c := cmpID(x.id, y.id); c != 0 {
			return c
		}
		return int(x.i - y.i)
	}
	slices.SortFunc(refs, cmpRef)
	for k, r := range refs {
		if k > 0 && refs[k-1].id == r.id {
			m.extras[r.i].dup = true // theirs had it before
			continue
		}
		j, m.extras[r.i].dup = inOurs(j, r.id[:])
	}
	m.extras = slices.DeleteFunc(m.extras, func(e extra) bool { return e.dup })
	m.oursIDs = nil
}

// write writes the result to a temp file beside path and renames it over
// path: ours, a newline if its last line lacked one, the extras in (at, id)
// order, then the other lines.
func (m *merger) write(path string, perm os.FileMode, a, b *os.File) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".lucid-merge-*")
	if err != nil {
		return fmt.Errorf("merge-driver: %w; ours is left as it was", err)
	}
	if err := m.writeTo(f, a, b); err != nil {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("merge-driver: writing the result: %w; ours is left as it was", err)
	}
	err = f.Chmod(perm)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("merge-driver: writing the result: %w; ours is left as it was", err)
	}
	return nil
}

func (m *merger) writeTo(f *os.File, a, b *os.File) error {
	// Ours as it is: the kernel copies it (copy_file_range).
	if _, err := a.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := io.Copy(f, a); err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 256<<10)
	if m.oursTorn {
		w.WriteByte('\n')
	}
	if err := m.writeExtras(w, b); err != nil {
		return err
	}
	for _, line := range m.others {
		w.Write(line)
		w.WriteByte('\n')
	}
	return w.Flush()
}

// writeExtras writes the extras in (at, id) order, reading theirs again.
// Where theirs has them in that order already (a log is appended in time
// order, mostly), they go out as they come; otherwise each line waits,
// copied, until the lines that sort before it have gone out, so memory
// grows with the disorder, not with the log.
func (m *merger) writeExtras(w *bufio.Writer, b *os.File) error {
	if len(m.extras) == 0 {
		return nil
	}
	if _, err := b.Seek(m.prefix, io.SeekStart); err != nil {
		return err
	}
	write := func(line []byte) {
		w.Write(line)
		w.WriteByte('\n')
	}
	k := 0 // the next extra, in file order
	if slices.IsSortedFunc(m.extras, func(x, y extra) int { return cmpKey(&x, &y) }) {
		_, err := m.r.each(b, func(line []byte, n int) {
			if k < len(m.extras) && m.extras[k].line == n {
				write(line)
				k++
			}
		})
		return err
	}
	type ref struct {
		key [50]byte
		i   int32 // in m.extras
	}
	order := make([]ref, len(m.extras))
	for i := range m.extras {
		order[i] = ref{m.extras[i].key, int32(i)}
	}
	slices.SortFunc(order, func(x, y ref) int { return bytes.Compare(x.key[:], y.key[:]) })
	rank := make([]int32, len(m.extras)) // by file order: the place in the output
	for r, o := range order {
		rank[o.i] = int32(r)
	}
	order = nil
	held := map[int32][]byte{}
	next := int32(0)
	_, err := m.r.each(b, func(line []byte, n int) {
		if k >= len(m.extras) || m.extras[k].line != n {
			return
		}
		r := rank[k]
		k++
		if r != next {
			held[r] = bytes.Clone(line)
			return
		}
		write(line)
		for next++; ; next++ {
			l, ok := held[next]
			if !ok {
				break
			}
			write(l)
			delete(held, next)
		}
	})
	return err
}
