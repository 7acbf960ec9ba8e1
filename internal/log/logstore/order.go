package logstore

import (
	"container/heap"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
)

// The log's order.
//
// Lines are appended as entries are written, so the log is in the order of
// their time (at, then id, as the merge driver orders them) except where a merge appended the
// other branch's entries after ours: lucid's merge driver keeps ours as it
// was and adds theirs in order at the end, older than ours' newest. The
// log is then a few ascending runs one after the other, and newest first
// is a merge of the runs read from their ends. The runs' starts are kept
// in the work tree's git dir with the log's cursor, and only what was
// appended since is read to bring them up to date.

// runsCache is the start of each ascending run of the log, up to Cursor.
type runsCache struct {
	Cursor Cursor  `json:"cursor"`
	Last   string  `json:"last"` // the greatest order key up to Cursor
	Starts []int64 `json:"starts"`
}

func runsPath(r *gitstore.Repo) string { return filepath.Join(r.GitDir, "lucid", "log.runs") }

// logRuns returns the offsets where the log's ascending runs start (the
// first is 0), and the cursor at the end of what they cover.
func logRuns(r *gitstore.Repo) ([]int64, Cursor, error) {
	path := r.LogPath()
	var c runsCache
	if b, err := gitstore.ReadFileIfExists(runsPath(r), gitstore.MaxRecord); err == nil && b != nil {
		if json.Unmarshal(b, &c) != nil || !Grown(path, c.Cursor) {
			c = runsCache{}
		}
	}
	if len(c.Starts) == 0 {
		c = runsCache{Starts: []int64{0}}
	}
	f, cur, err := openCursor(path)
	if f == nil {
		return c.Starts, cur, err
	}
	defer f.Close()
	if cur.SameFile(c.Cursor) {
		return c.Starts, cur, nil
	}
	off := c.Cursor.Size
	var h logformat.Head
	end, err := forwardLines(f, off, func(line []byte) bool {
		start := off
		off += int64(len(line)) + 1
		h = logformat.Head{}
		if ok, _ := logformat.DecodeHead(trimLine(line), &h); !ok || !logformat.ValidID(h.ID) {
			return true
		}
		key := orderKey(&h)
		if c.Last != "" && key < c.Last {
			c.Starts = append(c.Starts, start)
		}
		c.Last = max(c.Last, key)
		return true
	})
	if err != nil {
		return nil, cur, err
	}
	cur.Size = end
	if cur.Tail, err = tailHash(f, end); err != nil {
		return nil, cur, err
	}
	c.Cursor = cur
	// Keeping the runs is a saving, not a need: a failed write costs the
	// next reader a scan.
	if b, err := json.Marshal(c); err == nil && os.MkdirAll(filepath.Dir(runsPath(r)), 0o755) == nil {
		gitstore.WriteFileAtomic(runsPath(r), b, 0o644)
	}
	return c.Starts, c.Cursor, nil
}

// orderKey is the key the log is ordered by: the entry's time, then its id.
// Times are written in one fixed format, so their text sorts as they do.
func orderKey(h *logformat.Head) string { return h.At + "\x00" + h.ID }

// newestFirst calls fn with each line of the log, the newest entry first
// (see orderKey), until fn returns false.
func newestFirst(r *gitstore.Repo, fn func(line []byte) bool) error {
	starts, cur, err := logRuns(r)
	if err != nil {
		return err
	}
	f, err := openLog(r.LogPath())
	if f == nil {
		return err
	}
	defer f.Close()
	if len(starts) == 1 {
		return backwardLines(f, fn)
	}
	// A merge of the runs, each read from its end: a heap of each run's
	// next line by its id.
	var h runHeap
	for i, s := range starts {
		end := cur.Size
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		run := &runReader{back: newBackReader(f, s, end, false)}
		if err := run.advance(); err != nil {
			return err
		}
		if run.line != nil {
			h = append(h, run)
		}
	}
	heap.Init(&h)
	for len(h) > 0 {
		run := h[0]
		if !fn(run.line) {
			return nil
		}
		if err := run.advance(); err != nil {
			return err
		}
		if run.line == nil {
			heap.Pop(&h)
		} else {
			heap.Fix(&h, 0)
		}
	}
	return nil
}

// runReader is one run of the log, read from its end.
type runReader struct {
	back *backReader
	line []byte // the next line; nil past the run's first
	key  string // its orderKey, "" for a line that is not an entry
}

func (r *runReader) advance() error {
	line, ok, err := r.back.next()
	if err != nil || !ok {
		r.line, r.key = nil, ""
		return err
	}
	var h logformat.Head
	r.line, r.key = line, ""
	if ok, _ := logformat.DecodeHead(trimLine(line), &h); ok {
		r.key = orderKey(&h)
	}
	return nil
}

// runHeap orders runs by their next line's key, greatest first; a line
// that is not an entry comes out as soon as its run reaches it.
type runHeap []*runReader

func (h runHeap) Len() int { return len(h) }
func (h runHeap) Less(i, j int) bool {
	if h[i].key == "" || h[j].key == "" {
		return h[i].key == ""
	}
	return strings.Compare(h[i].key, h[j].key) > 0
}
func (h runHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)   { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
