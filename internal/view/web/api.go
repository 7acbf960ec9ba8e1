package web

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/view/board"
)

// maxBody bounds a request's body: a plan is the largest.
const maxBody = 1 << 20

// planHistory is how many changes of the plan the page is shown.
const planHistory = 20

func (s *Server) handler() http.Handler {
	mux := http.NewServeMux()
	files, _ := fs.Sub(static, "static")
	page := http.FileServerFS(files)
	for path := range pageFiles {
		if path == "/" {
			path = "/{$}"
		}
		mux.Handle("GET "+path, page)
	}
	mux.HandleFunc("GET /api/board", s.getBoard)
	mux.HandleFunc("GET /api/log", s.getLog)
	mux.HandleFunc("GET /api/plan", s.getPlan)
	mux.HandleFunc("GET /api/tree", s.getTree)
	mux.HandleFunc("GET /api/events", s.events)
	for path, act := range map[string]func(*http.Request) (any, error){
		"/api/release":   s.release,
		"/api/plan":      s.writePlan,
		"/api/record":    s.record,
		"/api/supersede": s.supersede,
		"/api/message":   s.message,
	} {
		mux.HandleFunc("POST "+path, func(w http.ResponseWriter, r *http.Request) {
			if s.readOnly {
				refuse(w, http.StatusForbidden, "this page is read-only (lucid web --read-only): act with lucid's commands")
				return
			}
			v, err := act(r)
			if err != nil {
				fail(w, err, http.StatusUnprocessableEntity)
				return
			}
			writeJSON(w, v)
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		refuse(w, http.StatusNotFound, "nothing is served at "+strconv.Quote(r.URL.Path)+": the page is at /")
	})
	return s.guard(mux)
}

// shown is the board as the page gets it: with whether it may act.
type shown struct {
	*board.Board
	ReadOnly bool `json:"read_only,omitempty"`
}

func (s *Server) loadBoard() (*shown, error) {
	b, err := board.Load(s.repo, s.naming, time.Now())
	if err != nil {
		return nil, err
	}
	return &shown{Board: b, ReadOnly: s.readOnly}, nil
}

func (s *Server) getBoard(w http.ResponseWriter, r *http.Request) {
	b, err := s.loadBoard()
	if err != nil {
		fail(w, err, http.StatusInternalServerError)
		return
	}
	writeJSON(w, b)
}

// logPage is a page of the log; the first page of the whole log also
// carries the log's tail from before it was read, from which the page's
// event stream follows what is appended.
type logPage struct {
	*board.LogPage
	Tail *board.Tail `json:"tail,omitempty"`
}

func (s *Server) getLog(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	lq := board.LogQuery{Before: q.Get("before"), Kind: q.Get("kind"), Agent: q.Get("agent"),
		Path: q.Get("path"), Words: q.Get("q"), All: q.Get("all") == "1" || q.Get("all") == "true"}
	if n := q.Get("n"); n != "" {
		v, err := strconv.Atoi(n)
		if err != nil || v < 1 {
			refuse(w, http.StatusBadRequest, "n is how many entries a page holds: a number from 1 to 500")
			return
		}
		lq.N = min(v, 500)
	}
	var out logPage
	if lq.Before == "" {
		tail, err := board.End(s.repo)
		if err != nil {
			fail(w, err, http.StatusInternalServerError)
			return
		}
		out.Tail = &tail
	}
	// The request's context ends when the page goes away (a new search
	// typed over it, the tab closed): the search stops with it.
	page, err := board.Log(r.Context(), s.repo, s.naming, lq)
	if r.Context().Err() != nil {
		return // nobody to answer
	}
	if err != nil {
		fail(w, err, http.StatusInternalServerError)
		return
	}
	out.LogPage = page
	writeJSON(w, out)
}

func (s *Server) getPlan(w http.ResponseWriter, r *http.Request) {
	p, err := board.LoadPlan(s.repo, s.naming, planHistory)
	if err != nil {
		fail(w, err, http.StatusInternalServerError)
		return
	}
	writeJSON(w, p)
}

func (s *Server) getTree(w http.ResponseWriter, r *http.Request) {
	b, err := board.Load(s.repo, s.naming, time.Now())
	if err != nil {
		fail(w, err, http.StatusInternalServerError)
		return
	}
	top := r.URL.Query().Get("top")
	t, err := board.LoadTree(s.repo, s.naming, b, top)
	if errors.Is(err, board.ErrUnknownTree) {
		refuse(w, http.StatusBadRequest, "top "+strconv.Quote(top)+" is "+err.Error())
		return
	}
	if err != nil {
		fail(w, err, http.StatusInternalServerError)
		return
	}
	writeJSON(w, t)
}

// The person's actions: each reads its request, calls board, and answers
// what was done.

func (s *Server) release(r *http.Request) (any, error) {
	var req struct {
		Owner string   `json:"owner"`
		Globs []string `json:"globs"`
		Why   string   `json:"why"`
	}
	if err := readJSON(r, &req); err != nil {
		return nil, err
	}
	if req.Owner == "" {
		return nil, badRequestError("owner names the agent whose claims to release")
	}
	released, err := board.Release(s.repo, req.Owner, req.Globs, req.Why)
	if err != nil {
		return nil, err
	}
	return map[string]any{"released": released}, nil
}

func (s *Server) writePlan(r *http.Request) (any, error) {
	var req struct {
		Text string `json:"text"`
		Base string `json:"base"`
	}
	if err := readJSON(r, &req); err != nil {
		return nil, err
	}
	if req.Base == "" {
		return nil, badRequestError("base is the plan's hash when you opened it (GET /api/plan gives it)")
	}
	return board.WritePlan(s.repo, req.Text, req.Base)
}

func (s *Server) record(r *http.Request) (any, error) {
	var req struct {
		Kind string `json:"kind"`
		Text string `json:"text"`
	}
	if err := readJSON(r, &req); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Text) == "" {
		return nil, badRequestError("text is what to record, and it is empty")
	}
	return board.Record(s.repo, req.Kind, req.Text)
}

func (s *Server) supersede(r *http.Request) (any, error) {
	var req struct {
		ID     string `json:"id"`
		Text   string `json:"text"`
		Retire bool   `json:"retire"`
	}
	if err := readJSON(r, &req); err != nil {
		return nil, err
	}
	if req.ID == "" {
		return nil, badRequestError("id names the entry to supersede or retire")
	}
	if strings.TrimSpace(req.Text) == "" {
		return nil, badRequestError("text is the new entry's text, or why it is retired, and it is empty")
	}
	return board.Supersede(s.repo, req.ID, req.Text, req.Retire)
}

func (s *Server) message(r *http.Request) (any, error) {
	var req struct {
		To   string `json:"to"`
		Text string `json:"text"`
		Ask  bool   `json:"ask"`
	}
	if err := readJSON(r, &req); err != nil {
		return nil, err
	}
	if req.To == "" {
		return nil, badRequestError("to names the agent to send to (an id, a label, lead or all)")
	}
	if strings.TrimSpace(req.Text) == "" {
		return nil, badRequestError("text is the message, and it is empty")
	}
	return board.Send(s.repo, s.naming, req.To, req.Text, req.Ask)
}

// badRequestError is a mistake in a request, told to the page as it is.
type badRequestError string

func (e badRequestError) Error() string { return string(e) }

func readJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return badRequestError("the request's body is over 1 MiB")
		}
		return badRequestError("the request's body is not the JSON this takes: " + err.Error())
	}
	if _, err := dec.Token(); err != io.EOF {
		return badRequestError("the request's body holds more than one JSON value")
	}
	return nil
}

// fail answers err, with status when it is none of the errors known here:
// the page's actions fail with 4xx (their errors are the person's mistakes,
// said as the commands say them), its reads with 500.
func fail(w http.ResponseWriter, err error, status int) {
	var bad badRequestError
	var busy *gitstore.LockBusyError
	var query *board.QueryError
	switch {
	case errors.As(err, &bad), errors.As(err, &query):
		refuse(w, http.StatusBadRequest, err.Error())
	case errors.Is(err, board.ErrPlanChanged):
		refuse(w, http.StatusConflict, err.Error())
	case errors.As(err, &busy):
		refuse(w, http.StatusServiceUnavailable, err.Error())
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, gitstore.ErrNotInitialised):
		refuse(w, http.StatusNotFound, err.Error())
	default:
		refuse(w, status, err.Error())
	}
}

// refuse answers status with {"error": why}.
func refuse(w http.ResponseWriter, status int, why string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": oneLine(why)})
}

// oneLine makes an error one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// writeJSON answers v. The encoder escapes <, > and & (HTML) as it does by
// default: the log's text is written by models.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	json.NewEncoder(w).Encode(v)
}
