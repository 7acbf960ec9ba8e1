package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/view/board"
)

// heartbeat is how often a quiet stream carries a comment, so that a proxy
// or the browser does not take it for dead.
const heartbeat = 15 * time.Second

// An event for the pages: its name and its data, encoded once for all.
type event struct {
	name string
	data []byte
}

// hub is the server's one watch of the repository, shared by every open
// page: on a change it reads what was appended to the log since its tail
// and the board, once, and sends both to every page.
type hub struct {
	repo     *gitstore.Repo
	naming   present.Naming
	readOnly bool
	mu       sync.Mutex
	tail     board.Tail
	subs     map[chan []event]bool
}

// maxPushed is the most entries one event carries: more at once (a merge,
// a page back after a long sleep, a page that read an empty log) and the
// page is told to read the log's first page again instead, so that neither
// holds them all. The server reads no more than that many from the log's
// end to know it (board.Since).
const maxPushed = 500

// subBuffer is how many changes a page may fall behind before its stream
// is closed (the page reconnects from its tail).
const subBuffer = 64

func newHub(repo *gitstore.Repo, naming present.Naming, readOnly bool) *hub {
	return &hub{repo: repo, naming: naming, readOnly: readOnly, subs: map[chan []event]bool{}}
}

// appended is the data of an entries event: what was appended, oldest
// first, and the tail to follow from.
type appended struct {
	Entries []board.Entry `json:"entries"`
	Tail    board.Tail    `json:"tail"`
}

// start watches the repository, then takes the log's end as the hub's
// tail: a change after that read is one the watch sees. The server serves
// only once it returns, so no page's append falls between the two.
func (h *hub) start(ctx context.Context) (*board.Watcher, error) {
	w := board.NewWatcher(ctx, h.repo)
	h.mu.Lock()
	defer h.mu.Unlock()
	tail, err := board.End(h.repo)
	h.tail = tail
	return w, err
}

// changed reads what changed and sends it to every page.
func (h *hub) changed() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.subs) == 0 {
		// Nobody to tell: keep the tail at the end, so that the next
		// page's first change reads only what is new.
		if t, err := board.End(h.repo); err == nil {
			h.tail = t
		}
		return
	}
	var evs []event
	entries, next, reload, err := board.Since(h.repo, h.naming, h.tail, maxPushed)
	switch {
	case err != nil:
	case reload:
		h.tail = next
		evs = append(evs, event{name: "reload", data: []byte("{}")})
	default:
		h.tail = next
		if len(entries) > 0 {
			evs = append(evs, encode("entries", appended{Entries: entries, Tail: next}))
		}
	}
	if b, err := board.Load(h.repo, h.naming, time.Now()); err == nil {
		evs = append(evs, encode("board", shown{Board: b, ReadOnly: h.readOnly}))
	}
	if len(evs) == 0 {
		return
	}
	for c := range h.subs {
		select {
		case c <- evs:
		default: // too far behind: it starts again from its tail
			delete(h.subs, c)
			close(c)
		}
	}
}

func encode(name string, v any) event {
	data, _ := json.Marshal(v)
	return event{name: name, data: data}
}

// subscribe adds a page that has read the log up to from (nil when it
// has not), and returns what it missed since then and its channel.
func (h *hub) subscribe(from *board.Tail) ([]event, chan []event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var missed []event
	if from != nil {
		// Read under the lock: the hub's tail is at most where this read
		// ends, so that the page misses nothing (it may get an entry twice,
		// and drops it by id).
		entries, next, reload, err := board.Since(h.repo, h.naming, *from, maxPushed)
		switch {
		case err != nil || reload:
			missed = append(missed, event{name: "reload", data: []byte("{}")})
		case len(entries) > 0:
			missed = append(missed, encode("entries", appended{Entries: entries, Tail: next}))
		}
	}
	c := make(chan []event, subBuffer)
	h.subs[c] = true
	return missed, c
}

func (h *hub) unsubscribe(c chan []event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[c] {
		delete(h.subs, c)
		close(c)
	}
}

// events streams the changes to a page, as Server-Sent Events: entries
// (appended to the log), board, and reload (the log was rewritten: read it
// again). ?tail= is the tail the page read the log up to, as the log's
// first page gave it.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	var from *board.Tail
	if t := r.URL.Query().Get("tail"); t != "" {
		from = new(board.Tail)
		if err := json.Unmarshal([]byte(t), from); err != nil {
			refuse(w, http.StatusBadRequest, "tail is the log's tail as GET /api/log gave it, in JSON")
			return
		}
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		refuse(w, http.StatusInternalServerError, "this connection cannot stream")
		return
	}
	missed, c := s.hub.subscribe(from)
	defer s.hub.unsubscribe(c)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	send := func(evs []event) bool {
		for _, e := range evs {
			if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, e.data); err != nil {
				return false
			}
		}
		flusher.Flush()
		return true
	}
	if !send(append(missed, event{name: "hello", data: []byte("{}")})) {
		return
	}
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case evs, ok := <-c:
			if !ok || !send(evs) {
				return
			}
		case <-beat.C:
			if _, err := fmt.Fprint(w, ": beat\n\n"); err != nil {
				return
			}
			flusher.Flush()
		}
	}
}
