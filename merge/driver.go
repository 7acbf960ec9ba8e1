package merge

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"unsafe"
)

// Driver is the merge driver git runs for .lucid/log.jsonl
// (`lucid merge-driver %O %A %B %L %P`): it writes into ours every line of
// ours as it was, then each entry of theirs that ours lacks, by id, in
// (at, id) order, then each other line of theirs that ours lacks, by its
// exact bytes, in theirs' order. The result ends with a newline. It never
// reports a conflict for logs it can read; git takes what it wrote as the
// merge.
//
// The rules, for what the issue left open:
//   - The ancestor is not read (git may pass an empty file, or a virtual
//     one in a criss-cross merge): the log is append-only, so a line one
//     side lacks was added by the other, never deleted by it, and the
//     union needs no base.
//   - An entry is a line gitstore.DecodeEntry accepts (see line.go); its
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
// It reads each side as a stream through one buffer, twice for theirs,
// and keeps only ids, times and line numbers: memory is a fraction of the
// logs' size, and the work is sequential (see merge.go in internal/bench).
func Driver(ancestor, ours, theirs string) error {
	// The work makes little garbage, and what it keeps is in a few big
	// lists: collecting sooner would only cost time.
	debug.SetGCPercent(400)
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
		return fmt.Errorf("merge-driver: reading the log: %v; ours is left as it was", err)
	}
	return m.write(ours, aInfo.Mode().Perm(), a, b)
}

// bufSize is the size of the read buffer: lines longer than it are
// gathered whole.
const bufSize = 1 << 20

func openSide(path, whose string) (*os.File, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("merge-driver: cannot read %s side of the log (%v); ours is left as it was", whose, err)
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
	r        *bufio.Reader // one buffer for every pass
	long     []byte        // a line longer than the buffer, gathered
	oursIDs  [][26]byte    // the ids of ours' entries
	oursTorn bool          // ours' last line has no newline
	junk     map[string]struct{}
	prefix   int64    // theirs begins with these bytes of ours, in whole lines
	extras   []extra  // theirs' entries after the prefix that ours lacks, in file order
	others   [][]byte // theirs' other lines that ours lacks, in file order
}

// extra is an entry of theirs after the common prefix.
type extra struct {
	key  [50]byte // at (24 bytes, fixed width) then id: sorts as (at, id)
	line int      // its line number after the prefix
	dup  bool     // ours has it, or theirs has it earlier
}

func (e *extra) id() []byte { return e.key[24:] }

func cmpKey(x, y *extra) int { return bytes.Compare(x.key[:], y.key[:]) }

// unite reads both sides and decides what goes after ours.
func (m *merger) unite(a, b *os.File) error {
	// Counting first lets each list be made at its size: growing them
	// costs more than this extra read, which the page cache serves.
	n, err := m.countLines(a)
	if err != nil {
		return err
	}
	m.oursIDs = make([][26]byte, 0, n)
	torn, err := m.eachLine(a, func(line []byte, _ int) {
		if id, _, ok := lineEntry(asString(trimCR(line))); ok {
			m.oursIDs = append(m.oursIDs, [26]byte([]byte(id)))
		} else {
			m.addJunk(line)
		}
	})
	if err != nil {
		return err
	}
	m.oursTorn = torn
	if m.prefix, err = commonPrefix(a, b); err != nil {
		return err
	}
	if _, err := b.Seek(m.prefix, io.SeekStart); err != nil {
		return err
	}
	if n, err = m.countLines(b); err != nil {
		return err
	}
	m.extras = make([]extra, 0, n)
	if _, err := b.Seek(m.prefix, io.SeekStart); err != nil {
		return err
	}
	_, err = m.eachLine(b, func(line []byte, n int) {
		if id, at, ok := lineEntry(asString(trimCR(line))); ok {
			e := extra{line: n}
			copy(e.key[:24], at)
			copy(e.key[24:], id)
			m.extras = append(m.extras, e)
		} else if m.addJunk(line) {
			m.others = append(m.others, bytes.Clone(line))
		}
	})
	if err != nil {
		return err
	}
	m.dedupe()
	return nil
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
// (a second, here, for 750k ids).
func (m *merger) dedupe() {
	cmpID := func(x, y [26]byte) int { return bytes.Compare(x[:], y[:]) }
	if !slices.IsSortedFunc(m.oursIDs, cmpID) {
		slices.SortFunc(m.oursIDs, cmpID)
	}
	byID := make([]int32, len(m.extras)) // extras, by id then line
	for i := range byID {
		byID[i] = int32(i)
	}
	cmp := func(x, y int32) int { return bytes.Compare(m.extras[x].id(), m.extras[y].id()) }
	if !slices.IsSortedFunc(byID, cmp) {
		slices.SortStableFunc(byID, cmp)
	}
	j := 0
	var prev []byte
	for _, i := range byID {
		e := &m.extras[i]
		id := e.id()
		if prev != nil && bytes.Equal(prev, id) {
			e.dup = true
			continue
		}
		prev = id
		for j < len(m.oursIDs) && bytes.Compare(m.oursIDs[j][:], id) < 0 {
			j++
		}
		e.dup = j < len(m.oursIDs) && bytes.Equal(m.oursIDs[j][:], id)
	}
	m.extras = slices.DeleteFunc(m.extras, func(e extra) bool { return e.dup })
	m.oursIDs = nil
}

// eachLine calls fn with each line that r holds from where it stands,
// without its "\n", and its number from 0, the last line too when it has
// no newline; it reports whether it had none.
func (m *merger) eachLine(r io.Reader, fn func(line []byte, n int)) (torn bool, err error) {
	if m.r == nil {
		m.r = bufio.NewReaderSize(r, bufSize)
	} else {
		m.r.Reset(r)
	}
	for n := 0; ; n++ {
		line, err := m.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			m.long = append(m.long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = m.r.ReadSlice('\n')
				m.long = append(m.long, line...)
			}
			line = m.long
		}
		if err == io.EOF {
			if len(line) > 0 {
				fn(line, n)
				return true, nil
			}
			return false, nil
		}
		if err != nil {
			return false, err
		}
		fn(line[:len(line)-1], n)
	}
}

// countLines returns the number of lines f holds from where it stands,
// and rewinds it there.
func (m *merger) countLines(f *os.File) (int, error) {
	start, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	if m.r == nil {
		m.r = bufio.NewReaderSize(f, bufSize)
	} else {
		m.r.Reset(f)
	}
	n := 1 // a last line without a newline
	for {
		chunk, err := m.r.Peek(bufSize)
		n += bytes.Count(chunk, []byte{'\n'})
		if _, derr := m.r.Discard(len(chunk)); derr != nil {
			return 0, derr
		}
		if err == io.EOF {
			break
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return 0, err
		}
	}
	_, err = f.Seek(start, io.SeekStart)
	return n, err
}

func trimCR(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		return line[:n-1]
	}
	return line
}

// asString views b as a string without copying it, for a look that keeps
// nothing of it.
func asString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// commonPrefix returns the length of the longest run of whole lines that
// both files begin with, reading them from their starts.
func commonPrefix(a, b *os.File) (int64, error) {
	const chunk = 64 << 10
	bufA, bufB := make([]byte, chunk), make([]byte, chunk)
	var off, lastNL int64 // lastNL: the offset after the last newline that both share
	for {
		na, errA := a.ReadAt(bufA, off)
		nb, errB := b.ReadAt(bufB, off)
		if errA != nil && errA != io.EOF {
			return 0, errA
		}
		if errB != nil && errB != io.EOF {
			return 0, errB
		}
		n := min(na, nb)
		same := n
		if !bytes.Equal(bufA[:n], bufB[:n]) {
			for i := 0; i < n; i++ {
				if bufA[i] != bufB[i] {
					same = i
					break
				}
			}
		}
		if i := bytes.LastIndexByte(bufA[:same], '\n'); i >= 0 {
			lastNL = off + int64(i) + 1
		}
		switch {
		case same < n || na != nb:
			return lastNL, nil
		case na < chunk: // both ended, alike
			return off + int64(na), nil
		}
		off += chunk
	}
}

// write writes the result to a temp file beside path and renames it over
// path: ours, a newline if its last line lacked one, the extras in (at, id)
// order, then the other lines.
func (m *merger) write(path string, perm os.FileMode, a, b *os.File) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".lucid-merge-*")
	if err != nil {
		return fmt.Errorf("merge-driver: %v; ours is left as it was", err)
	}
	if err := m.writeTo(f, a, b); err != nil {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("merge-driver: writing the result: %v; ours is left as it was", err)
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
		return fmt.Errorf("merge-driver: writing the result: %v; ours is left as it was", err)
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
		_, err := m.eachLine(b, func(line []byte, n int) {
			if k < len(m.extras) && m.extras[k].line == n {
				write(line)
				k++
			}
		})
		return err
	}
	order := make([]int32, len(m.extras))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int { return cmpKey(&m.extras[x], &m.extras[y]) })
	rank := make([]int32, len(m.extras)) // by file order: the place in the output
	for r, i := range order {
		rank[i] = int32(r)
	}
	held := map[int32][]byte{}
	next := int32(0)
	_, err := m.eachLine(b, func(line []byte, n int) {
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
