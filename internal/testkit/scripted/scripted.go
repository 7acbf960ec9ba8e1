// Package scripted is the skeleton of the scripted model servers that
// tests run real clients against: an HTTP server on 127.0.0.1, the scripts
// a conversation follows (told apart by a marker, one step a model turn),
// and the log of every request the client sent, with a wait for the next
// one. Each API's wire format (its requests, replies and streams) is a
// package under this one: messages (Anthropic's Messages API, for Claude
// Code), responses (OpenAI's Responses API, for Codex), generatecontent
// (Gemini's generateContent, for Gemini CLI) and chatcompletions (OpenAI's
// Chat Completions API, for GitHub Copilot CLI and Qwen Code).
package scripted

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Request is what the server keeps of every HTTP request the client sent,
// whatever its API. A wire format's own request type embeds it.
type Request struct {
	Seq    int       // 1 for the first request the server saw
	At     time.Time // when it arrived
	Method string
	Path   string            // with the query, as in "/v1/messages?beta=true"
	Header map[string]string // lower-case names; the credentials left out
	Body   []byte

	// For a call a script answered: its conversation ("" for a side
	// request, and for a request no script claimed) and the step of its
	// script.
	Conversation string
	Step         int
}

func (r *Request) base() *Request { return r }

// Record is a wire format's request type: a pointer to a struct that
// embeds Request.
type Record interface{ base() *Request }

// Server serves one API from scripts and logs its requests. A wire
// format's server embeds it and handles the requests it is given.
type Server[R Record] struct {
	URL string // http://127.0.0.1:PORT, plus the wire's base path

	http   *httptest.Server
	wrap   func(Request) R
	serve  func(http.ResponseWriter, *http.Request, R)
	detail func(R) string

	logMu  sync.Mutex
	reqs   []R
	probs  []string
	notify chan struct{} // closed and replaced at every request
}

// New makes a server on a free port of 127.0.0.1, not serving yet; basePath
// is added to its URL. Every request is made into an R by wrap, body read
// (gzip undone), then handed to serve, which must Add it; detail describes
// a request for Dump, "" when it is not the wire's own call. A wire
// format's server stores what New returns, then calls Start: its handlers
// read that field, and a field written after the first request could
// arrive is a race. Close it when done.
func New[R Record](basePath string, wrap func(Request) R, serve func(http.ResponseWriter, *http.Request, R), detail func(R) string) *Server[R] {
	s := &Server[R]{wrap: wrap, serve: serve, detail: detail}
	s.http = httptest.NewUnstartedServer(http.HandlerFunc(s.handle))
	s.URL = "http://" + s.http.Listener.Addr().String() + basePath
	return s
}

// Start serves requests.
func (s *Server[R]) Start() { s.http.Start() }

// Close stops the server.
func (s *Server[R]) Close() { s.http.Close() }

// credentials are the headers the log leaves out.
var credentials = map[string]bool{"Authorization": true, "X-Api-Key": true, "X-Goog-Api-Key": true}

func (s *Server[R]) handle(w http.ResponseWriter, hr *http.Request) {
	base := Request{At: time.Now(), Method: hr.Method, Path: hr.URL.RequestURI(), Header: map[string]string{}}
	for k := range hr.Header {
		if !credentials[k] {
			base.Header[strings.ToLower(k)] = hr.Header.Get(k)
		}
	}
	body, err := readBody(hr)
	base.Body = body
	r := s.wrap(base)
	if err != nil {
		s.Add(r)
		s.Problem("request #%d %s: %v", r.base().Seq, r.base().Path, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.serve(w, hr, r)
}

// readBody reads a request body, gzip-compressed or not. Codex compresses
// with zstd only for OpenAI's own endpoints; a zstd body here is a problem
// the test must see, not guess at.
func readBody(hr *http.Request) ([]byte, error) {
	var r io.Reader = hr.Body
	switch enc := strings.ToLower(hr.Header.Get("Content-Encoding")); enc {
	case "", "identity":
	case "gzip":
		gz, err := gzip.NewReader(hr.Body)
		if err != nil {
			return nil, fmt.Errorf("gzip body: %v", err)
		}
		r = gz
	default:
		return nil, fmt.Errorf("body in Content-Encoding %q, which the scripted server does not read", enc)
	}
	return io.ReadAll(r)
}

// Unknown logs a request the wire does not serve, as a problem a test
// can see, and answers 404 with the API's error body.
func (s *Server[R]) Unknown(w http.ResponseWriter, r R, errorBody string) {
	s.Add(r)
	s.Problem("unknown request %s %s", r.base().Method, r.base().Path)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	io.WriteString(w, errorBody)
}

// Conversation returns the requests the script named name answered, in
// order.
func (s *Server[R]) Conversation(name string) []R {
	var out []R
	for _, r := range s.Requests() {
		if name != "" && r.base().Conversation == name {
			out = append(out, r)
		}
	}
	return out
}

// Dump writes the request log for a failing test: one line a request,
// what the wire tells of its own calls, and the problems.
func (s *Server[R]) Dump() string {
	var b strings.Builder
	for _, r := range s.Requests() {
		q := r.base()
		fmt.Fprintf(&b, "#%d %s %s %s", q.Seq, q.At.Format("15:04:05.000"), q.Method, q.Path)
		if d := s.detail(r); d != "" {
			b.WriteString(d)
		} else {
			fmt.Fprintf(&b, " body=%q\n", Clip(string(q.Body), 300))
		}
	}
	for _, p := range s.Problems() {
		fmt.Fprintf(&b, "problem: %s\n", p)
	}
	return b.String()
}

// WriteJSON answers with v as JSON.
func WriteJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// WriteEvents answers with a whole server-sent event stream at once.
func WriteEvents(w http.ResponseWriter, stream []byte) error {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	_, err := w.Write(stream)
	return err
}
