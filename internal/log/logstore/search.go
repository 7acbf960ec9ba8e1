package logstore

import (
	"bytes"
	"cmp"
	"container/heap"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/search"
)

// SearchOptions selects and ranks entries for Search.
type SearchOptions struct {
	Words []string // rank by relevance to these; none: newest first
	N     int      // how many at most (at least 1)
	All   bool     // include superseded and retired entries, and dream points
	// Kinds keeps only entries of these kinds; a replacement is also of
	// the kind it stands for (a corrected fact is a fact).
	Kinds []string
	Since time.Time // keeps entries written at or after it
	// Agent keeps entries whose writer it accepts; AgentHint, when set, is
	// a string the line of every entry Agent accepts holds.
	Agent     func(agent string) bool
	AgentHint string
	// Cites keeps entries citing a path it accepts; CitesHint, when set,
	// is a string the line of every such entry holds.
	Cites     func(path string) bool
	CitesHint string
}

// Found is an entry Search returns.
type Found struct {
	Listed
	Score float64 `json:"score,omitempty"` // relevance to the words (BM25); 0 without words
}

// Search returns the entries that pass opt's filters, the most relevant to
// its words first, newest first among equals (and without words).
//
// It reads the log twice and holds only the best N entries, whatever the
// log's length. The first pass notes what is superseded, as OpenLive does,
// and which lines mention a word (search.Query.Mentions, one bit a line)
// and how many do, which weighs the words (rare words count more). The
// second parses only the lines that can pass (logformat.ReadBody, which
// reads the words of a line without decoding it) and keeps the best in a
// heap; those few are decoded at the end.
//
// It takes at most search.MaxWords words (a *search.TooManyWordsError
// otherwise), and stops, returning ctx's error, soon after ctx ends: the
// page's server stops a search whose page went away.
func Search(ctx context.Context, r *gitstore.Repo, opt SearchOptions) ([]Found, error) {
	if err := search.CheckWords(opt.Words); err != nil {
		return nil, err
	}
	f, err := openLog(r.LogPath())
	if f == nil {
		return nil, err
	}
	defer f.Close()
	q := search.NewQuery(opt.Words)
	// What superseded each entry (the first replacement, when there are
	// several).
	supersededBy := map[idKey]idKey{}
	note := func(by, target idKey) {
		if old, ok := supersededBy[target]; !ok || bytes.Compare(by[:], old[:]) < 0 {
			supersededBy[target] = by
		}
	}
	df := make([]int, len(q.Terms()))
	lines, mentions, parts, err := firstPass(ctx, f, q, note, df)
	if err != nil {
		return nil, err
	}
	q.SetCounts(lines, df)

	trackKinds := len(opt.Kinds) > 0 && len(supersededBy) > 0
	if trackKinds {
		// What a replacement stands for is learnt in the log's order.
		parts = []logPart{{start: 0, end: parts[len(parts)-1].end}}
	}
	var kindsOrReplacement []string
	if len(opt.Kinds) > 0 {
		kindsOrReplacement = append(slices.Clone(opt.Kinds), logformat.KindSupersede)
	}
	agentHint, citesHint := []byte(opt.AgentHint), []byte(opt.CitesHint)
	since := ""
	if !opt.Since.IsZero() {
		since = opt.Since.UTC().Format(logformat.TimeFormat)
	}
	// scan is the second pass on one part of the log: it keeps the best of
	// its lines in best.
	scan := func(p logPart, best *topHeap) error {
		// The kind each superseded entry met so far stands for (as
		// OpenLive's standsFor has it), found in the log's order: an entry
		// comes before what replaces it. A replacement stands for what the
		// entry it replaces stands for.
		stands := map[idKey]string{}
		kinds := map[string]string{} // each kind once, as stands holds it
		standsFor := func(h *logformat.Head) string {
			if k, ok := stands[keyOf(h.Supersedes)]; ok {
				return k
			}
			return logformat.KindSupersede
		}
		doc := q.NewDoc()
		var h logformat.Head
		var body logformat.Body
		i := p.line - 1
		var stopped error
		_, err := readLines(io.NewSectionReader(f, p.start, p.end-p.start), p.start, func(line []byte) bool {
			i++
			if i%checkEvery == 0 {
				if stopped = ctx.Err(); stopped != nil {
					return false
				}
			}
			line = trimLine(line)
			if len(line) == 0 {
				return true
			}
			want := (q.Empty() || i/64 < len(mentions) && mentions[i/64]&(1<<(i%64)) != 0) &&
				(since == "" || !canonicalBefore(line, since)) &&
				(len(kindsOrReplacement) == 0 || mayBeOfKind(line, kindsOrReplacement)) &&
				(len(agentHint) == 0 || bytes.Contains(line, agentHint)) &&
				(len(citesHint) == 0 || bytes.Contains(line, citesHint))
			// A replaced entry's kind is needed for what replaces it, which
			// comes later in the log.
			track := trackKinds && !want && mayBeIn(line, supersededBy)
			if !want && !track {
				return true
			}
			if !logformat.ReadBody(line, &h, &body) {
				return true
			}
			id := keyOf(h.ID)
			_, superseded := supersededBy[id]
			if superseded && trackKinds {
				k := h.Kind
				if k == logformat.KindSupersede {
					k = standsFor(&h)
				}
				kk, ok := kinds[k]
				if !ok {
					kk = strings.Clone(k) // h's strings are the line's bytes
					kinds[kk] = kk
				}
				stands[id] = kk
			}
			if !want || !opt.All && !holds(&h, superseded) {
				return true
			}
			if len(opt.Kinds) > 0 && !slices.Contains(opt.Kinds, h.Kind) &&
				!(h.Kind == logformat.KindSupersede && !h.Retired && slices.Contains(opt.Kinds, standsFor(&h))) {
				return true
			}
			if since != "" && !atOrAfter(h.At, opt.Since, since) {
				return true
			}
			if opt.Agent != nil && !opt.Agent(jsonString(body.Agent)) {
				return true
			}
			if opt.Cites != nil && !slices.ContainsFunc(body.Evidence, func(ev logformat.RawEvidence) bool { return opt.Cites(jsonString(ev.Path)) }) {
				return true
			}
			score := 0.0
			if !q.Empty() {
				doc.Reset()
				doc.AddJSON(body.Text)
				doc.AddJSON(body.Diff)
				for _, ev := range body.Evidence {
					doc.AddJSON(ev.Path)
					doc.AddJSON(ev.Text)
				}
				if score = doc.Score(); score == 0 {
					return true
				}
			}
			best.offer(score, h.At, h.ID, line)
			return true
		})
		return cmp.Or(err, stopped)
	}
	// The parts are read at once, each keeping its best N; the best N of
	// those are the answer.
	bests := make([]*topHeap, len(parts))
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		bests[i] = &topHeap{n: max(opt.N, 1)}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = scan(p, bests[i])
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	best := bests[0]
	for _, other := range bests[1:] {
		for _, it := range other.items {
			best.offerHit(it)
		}
	}

	items := best.items
	slices.SortFunc(items, func(a, b *hit) int { return b.compare(a) })
	out := make([]Found, 0, len(items))
	for _, it := range items {
		e, err := logformat.DecodeEntry(it.line)
		if err != nil {
			continue // its head read, the rest does not: as invalid
		}
		f := Found{Listed: Listed{Entry: e}, Score: it.score}
		if by, ok := supersededBy[keyOf(e.ID)]; ok {
			f.SupersededBy = string(by[:])
		}
		out = append(out, f)
	}
	return out, nil
}

// firstPass reads the log in blocks: what replaces what (noteReplacement
// of each line that mentions a supersede, for note, in no set order),
// and, for a query with words, which lines may hold one (one bit a line)
// and how many lines hold each (df). It returns the number of lines,
// counted as forwardLines does. A long log is read in parts at once, as
// Count reads it.
func firstPass(ctx context.Context, f *os.File, q *search.Query, note func(by, target idKey), df []int) (lines int, mentions []uint64, parts []logPart, err error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, nil, nil, err
	}
	bounds, err := logParts(f, fi.Size())
	if err != nil {
		return 0, nil, nil, err
	}
	type part struct {
		lines    int
		mentions []uint64
		df       []int
		err      error
	}
	read := make([]part, len(bounds)-1)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range read {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &read[i]
			p.df = make([]int, len(df))
			p.lines, p.mentions, p.err = readBlocks(ctx, io.NewSectionReader(f, bounds[i], bounds[i+1]-bounds[i]), q,
				func(by, target idKey) {
					mu.Lock()
					note(by, target)
					mu.Unlock()
				}, p.df)
		}()
	}
	wg.Wait()
	for i, p := range read {
		if p.err != nil {
			return 0, nil, nil, p.err
		}
		parts = append(parts, logPart{start: bounds[i], end: bounds[i+1], line: lines})
		for j, n := range p.df {
			df[j] += n
		}
		if q.Empty() {
			lines += p.lines
			continue
		}
		for len(mentions)*64 < lines+p.lines {
			mentions = append(mentions, 0)
		}
		for j := range p.lines {
			if p.mentions[j/64]&(1<<(j%64)) != 0 {
				mentions[(lines+j)/64] |= 1 << ((lines + j) % 64)
			}
		}
		lines += p.lines
	}
	return lines, mentions, parts, nil
}

// logPart is a part of the log that firstPass read: its bytes, and the
// index of its first line in the log.
type logPart struct {
	start, end int64
	line       int
}

// readBlocks is firstPass on one part of the log; it stops with ctx's
// error when ctx ends.
func readBlocks(ctx context.Context, r io.Reader, q *search.Query, note func(by, target idKey), df []int) (lines int, mentions []uint64, err error) {
	buf := make([]byte, searchBlock)
	var lowered []byte
	var starts []int
	var freq *[256]int
	have := 0 // the start of a line, left from the last block
	for {
		if err := ctx.Err(); err != nil {
			return 0, nil, err
		}
		n, err := io.ReadFull(r, buf[have:])
		have += n
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return 0, nil, err
		}
		more := err == nil
		end := bytes.LastIndexByte(buf[:have], '\n') + 1 // whole lines only
		if end == 0 && more {
			buf = append(buf, make([]byte, len(buf))...) // a line longer than the block
			continue
		}
		block := buf[:end]
		starts = starts[:0]
		for i := 0; i < len(block); i += bytes.IndexByte(block[i:], '\n') + 1 {
			starts = append(starts, i)
		}
		lineEnd := func(line int) int {
			if line+1 < len(starts) {
				return starts[line+1]
			}
			return len(block)
		}
		base := lines
		lines += len(starts)
		if freq == nil {
			// How often each byte occurs, from the first block: the log's
			// lines are alike throughout.
			freq = new([256]int)
			for _, c := range block {
				freq[c]++
			}
		}
		search.Find(block, starts, []byte(logformat.KindSupersede), freq, func(line int) {
			noteReplacement(block[starts[line]:lineEnd(line)-1], note)
		})
		if !q.Empty() {
			for len(mentions)*64 < lines {
				mentions = append(mentions, 0)
			}
			lowered = search.Lower(lowered[:0], block)
			q.Mentions(lowered, starts, freq, df, func(line int) {
				i := base + line
				mentions[i/64] |= 1 << (i % 64)
			})
		}
		if !more {
			return lines, mentions, nil
		}
		have = copy(buf, buf[end:have])
	}
}

// searchBlock is the size of the blocks firstPass reads (a variable for
// the tests).
var searchBlock = 256 << 10

// checkEvery is how many lines the second pass reads between two looks
// at whether its context ended.
const checkEvery = 1024

// The shape of a line as lucid writes it: the id, then the time.
const (
	idPrefix = `{"id":"`
	atPrefix = `","at":"`
	atStart  = len(idPrefix) + logformat.IDLen + len(atPrefix)
)

// canonicalBefore reports whether line is an entry as lucid writes it
// whose time is before since (in lucid's layout), without parsing it.
func canonicalBefore(line []byte, since string) bool {
	end := atStart + len(logformat.TimeFormat)
	if len(line) <= end || !bytes.HasPrefix(line, []byte(idPrefix)) || string(line[atStart-len(atPrefix):atStart]) != atPrefix || line[end] != '"' {
		return false
	}
	return string(line[atStart:end]) < since
}

// mayBeOfKind reports whether line may be an entry of one of kinds
// (which holds supersede when a replacement may stand for one of them),
// without parsing it: false only when every "kind" key in the line has
// another value.
func mayBeOfKind(line []byte, kinds []string) bool {
	const key = `"kind":"`
	found := false
	for at := 0; ; {
		i := bytes.Index(line[at:], []byte(key))
		if i < 0 {
			return !found
		}
		found = true
		at += i + len(key)
		rest := line[at:]
		for _, k := range kinds {
			if len(rest) > len(k) && string(rest[:len(k)]) == k && rest[len(k)] == '"' {
				return true
			}
		}
	}
}

// mayBeIn reports whether line may be the entry of an id in ids: lucid
// writes the id first, so its place is known; a line of another shape
// may be any.
func mayBeIn(line []byte, ids map[idKey]idKey) bool {
	if !bytes.HasPrefix(line, []byte(idPrefix)) || len(line) < len(idPrefix)+logformat.IDLen+1 || line[len(idPrefix)+logformat.IDLen] != '"' {
		return true
	}
	_, ok := ids[idKey(line[len(idPrefix):len(idPrefix)+logformat.IDLen])]
	return ok
}

// atOrAfter reports whether the time at is at or after t, which formats
// as text in lucid's own layout: such times compare as text.
func atOrAfter(at string, t time.Time, text string) bool {
	if len(at) == len(logformat.TimeFormat) && at[len(at)-1] == 'Z' {
		return at >= text
	}
	parsed, err := time.Parse(logformat.TimeFormat, at)
	return err == nil && !parsed.Before(t)
}

// jsonString decodes the content of a JSON string, which needs decoding
// only when it holds escapes.
func jsonString(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	var s string
	quoted := append(append([]byte{'"'}, raw...), '"')
	if json.Unmarshal(quoted, &s) != nil {
		return string(raw)
	}
	return s
}

// hit is a line kept by topHeap, with what orders it.
type hit struct {
	score float64
	key   []byte // orderKey
	line  []byte
}

// compare orders hits by score, then by age (orderKey), the newest last.
func (a *hit) compare(b *hit) int {
	switch {
	case a.score < b.score:
		return -1
	case a.score > b.score:
		return 1
	}
	return bytes.Compare(a.key, b.key)
}

// topHeap keeps the n best hits offered, the worst at the root. A hit
// that falls out lends its buffers to the next: in a listing newest first,
// every line that passes is offered and kept for a while.
type topHeap struct {
	n     int
	items []*hit
	cand  hit
}

// offerHit is offer of a hit kept by another topHeap.
func (t *topHeap) offerHit(it *hit) {
	if len(t.items) < t.n {
		heap.Push(t, it)
	} else if it.compare(t.items[0]) > 0 {
		t.items[0] = it
		heap.Fix(t, 0)
	}
}

// offer keeps line if it is among the n best so far; at and id may share
// line's bytes.
func (t *topHeap) offer(score float64, at, id string, line []byte) {
	c := &t.cand
	c.score = score
	c.key = append(append(append(c.key[:0], at...), 0), id...)
	if len(t.items) < t.n {
		heap.Push(t, &hit{score: score, key: bytes.Clone(c.key), line: bytes.Clone(line)})
		return
	}
	worst := t.items[0]
	if c.compare(worst) <= 0 {
		return
	}
	worst.score = score
	worst.key = append(worst.key[:0], c.key...)
	worst.line = append(worst.line[:0], line...)
	heap.Fix(t, 0)
}

func (t *topHeap) Len() int           { return len(t.items) }
func (t *topHeap) Less(i, j int) bool { return t.items[i].compare(t.items[j]) < 0 }
func (t *topHeap) Swap(i, j int)      { t.items[i], t.items[j] = t.items[j], t.items[i] }
func (t *topHeap) Push(x any)         { t.items = append(t.items, x.(*hit)) }
func (t *topHeap) Pop() any {
	x := t.items[len(t.items)-1]
	t.items = t.items[:len(t.items)-1]
	return x
}
