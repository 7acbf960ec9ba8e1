package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/search"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/internal/view/board"
)

// serving is s served on its address until the test ends, and a client
// that sends its token, as the page does.
func serving(t *testing.T, s *Server) *http.Client {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return within 10 s of its end")
		}
	})
	jar, _ := cookiejar.New(nil)
	resp, err := (&http.Client{Jar: jar, Timeout: 20 * time.Second}).Get(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Request.URL.String() != s.URL() {
		t.Fatalf("the printed URL: %d at %s", resp.StatusCode, resp.Request.URL)
	}
	if c := jar.Cookies(resp.Request.URL); len(c) != 0 {
		t.Fatalf("the printed URL set cookies %v, want none", c)
	}
	return &http.Client{Transport: withToken(s.token), Timeout: 20 * time.Second}
}

// withToken sends each request with the token, as the page's script does.
type withToken string

func (tok withToken) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(tok))
	return http.DefaultTransport.RoundTrip(r)
}

func getJSON(t *testing.T, c *http.Client, s *Server, path string, v any) int {
	t.Helper()
	resp, err := c.Get("http://" + s.host + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return resp.StatusCode
}

func postJSON(t *testing.T, c *http.Client, s *Server, path, body string, v any) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, "http://"+s.host+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://"+s.host)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return resp.StatusCode
}

// The page's reads and the person's actions, over HTTP, on a real
// repository.
func TestAPI(t *testing.T) {
	gittest.Setenv(t)
	s := newTestServer(t, Options{})
	c := serving(t, s)

	var b shown
	if code := getJSON(t, c, s, "/api/board", &b); code != http.StatusOK || b.Top != s.repo.Top || b.ReadOnly {
		t.Fatalf("/api/board: %d %+v", code, b)
	}
	for _, text := range []string{"first <b>note</b>", "second note", "third note"} {
		var e map[string]any
		if code := postJSON(t, c, s, "/api/record", `{"kind":"note","text":"`+text+`"}`, &e); code != http.StatusOK || e["text"] != text {
			t.Fatalf("/api/record %q: %d %v", text, code, e)
		}
	}
	var page logPage
	if code := getJSON(t, c, s, "/api/log?n=2", &page); code != http.StatusOK || len(page.Entries) != 2 || !page.More || page.Tail == nil {
		t.Fatalf("/api/log?n=2: %d %+v", code, page)
	}
	if page.Entries[0].Text != "third note" || page.Entries[1].Text != "second note" {
		t.Errorf("the first page: %q, %q; want the newest first", page.Entries[0].Text, page.Entries[1].Text)
	}
	var older logPage
	getJSON(t, c, s, "/api/log?n=2&before="+page.Entries[1].ID, &older)
	if len(older.Entries) != 1 || older.Entries[0].Text != "first <b>note</b>" || older.More || older.Tail != nil {
		t.Errorf("the older page: %+v", older)
	}
	// The encoder escapes markup, as it does by default.
	resp, err := c.Get("http://" + s.host + "/api/log?n=50")
	if err != nil {
		t.Fatal(err)
	}
	raw := make([]byte, 1<<16)
	n, _ := resp.Body.Read(raw)
	resp.Body.Close()
	if strings.Contains(string(raw[:n]), "<b>") || !strings.Contains(string(raw[:n]), `\u003cb\u003e`) {
		t.Errorf("the log's JSON does not escape markup:\n%s", raw[:n])
	}

	var decisions logPage
	postJSON(t, c, s, "/api/record", `{"kind":"decision","text":"keep bcrypt for passwords"}`, &map[string]any{})
	getJSON(t, c, s, "/api/log?kind=decision", &decisions)
	if len(decisions.Entries) != 1 || decisions.Entries[0].Text != "keep bcrypt for passwords" {
		t.Errorf("/api/log?kind=decision: %+v", decisions.Entries)
	}
	var found logPage
	getJSON(t, c, s, "/api/log?q=bcrypt", &found)
	if len(found.Entries) != 1 || found.Entries[0].Kind != "decision" {
		t.Errorf("/api/log?q=bcrypt: %+v", found.Entries)
	}

	var p board.Plan
	if code := getJSON(t, c, s, "/api/plan", &p); code != http.StatusOK || p.Hash == "" {
		t.Fatalf("/api/plan: %d %+v", code, p)
	}
	var e map[string]string
	if code := postJSON(t, c, s, "/api/plan", `{"text":"# Plan\n\nShip it.\n","base":"`+p.Hash+`"}`, &e); code != http.StatusOK {
		t.Fatalf("writing the plan: %d %v", code, e)
	}
	if got, _ := os.ReadFile(s.repo.PlanPath()); string(got) != "# Plan\n\nShip it.\n" {
		t.Errorf("plan.md: %q", got)
	}
	if code := postJSON(t, c, s, "/api/plan", `{"text":"mine","base":"`+p.Hash+`"}`, &e); code != http.StatusConflict || e["error"] != board.ErrPlanChanged.Error() {
		t.Errorf("writing the plan on an old base: %d %v, want 409 and what to do", code, e)
	}
	if code := postJSON(t, c, s, "/api/message", `{"to":"nobody-known","text":"hi"}`, &e); code < 400 || code > 499 || e["error"] == "" {
		t.Errorf("a message to nobody: %d %v, want a 4xx saying why", code, e)
	}
	if code := getJSON(t, c, s, "/api/tree?top="+url.QueryEscape(os.TempDir()), &e); code != http.StatusBadRequest {
		t.Errorf("the tree of a folder that is no work tree here: %d %v", code, e)
	}
	var tree board.Tree
	if code := getJSON(t, c, s, "/api/tree", &tree); code != http.StatusOK || tree.Top != s.repo.Top {
		t.Errorf("/api/tree: %d %+v", code, tree)
	}
}

// An open event stream is sent what is appended to the log, and the board,
// without asking; a page that comes back with its tail is sent what it
// missed.
func TestEvents(t *testing.T) {
	s, c, tail := openPage(t)
	var e map[string]any
	postJSON(t, c, s, "/api/record", `{"kind":"note","text":"missed"}`, &e)
	first := stream(t, c, s, tailQuery(tail))
	second := stream(t, c, s, "") // a page that read nothing yet
	first.next("entries", `"missed"`)
	first.next("hello", "")
	second.next("hello", "")
	postJSON(t, c, s, "/api/record", `{"kind":"decision","text":"appended while open"}`, &e)
	// Both pages are told, by the server's one watch.
	for _, st := range []*events{first, second} {
		st.next("entries", `"appended while open"`)
		st.next("board", `"agents"`)
	}
}

// openPage is a server with no tick, served, and a page of it that read
// the log's first page: its client, and the tail that page gave.
func openPage(t *testing.T) (*Server, *http.Client, board.Tail) {
	t.Helper()
	gittest.Setenv(t)
	s := newTestServer(t, Options{Tick: time.Hour})
	c := serving(t, s)
	var page logPage
	getJSON(t, c, s, "/api/log", &page)
	if page.Tail == nil {
		t.Fatal("the log's first page has no tail")
	}
	return s, c, *page.Tail
}

// tailQuery is the query of an event stream that follows from tail.
func tailQuery(tail board.Tail) string {
	b, _ := json.Marshal(tail)
	return "?tail=" + url.QueryEscape(string(b))
}

// events is an open event stream's events, name and data.
type events struct {
	t  *testing.T
	ch chan [2]string
}

func stream(t *testing.T, c *http.Client, s *Server, query string) *events {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+s.host+"/api/events"+query, nil)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("/api/events: %s", ct)
	}
	ev := &events{t: t, ch: make(chan [2]string, 100)}
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		var name string
		for sc.Scan() {
			switch line := sc.Text(); {
			case strings.HasPrefix(line, "event: "):
				name = line[len("event: "):]
			case strings.HasPrefix(line, "data: "):
				ev.ch <- [2]string{name, line[len("data: "):]}
			}
		}
		close(ev.ch)
	}()
	return ev
}

// next waits for the next event named want whose data holds text.
func (ev *events) next(want, text string) {
	ev.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case e, ok := <-ev.ch:
			if !ok {
				ev.t.Fatalf("the stream ended before the %s event with %q", want, text)
			}
			if e[0] == want && strings.Contains(e[1], text) {
				return
			}
		case <-timeout:
			ev.t.Fatalf("no %s event with %q within 10 s", want, text)
		}
	}
}

// A page back after more was appended than one event carries is told to
// read the log again, not sent it all.
func TestEventsReload(t *testing.T) {
	s, c, tail := openPage(t)
	for i := range maxPushed + 1 {
		if _, err := board.Record(s.repo, "note", fmt.Sprintf("note %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	ev := stream(t, c, s, tailQuery(tail))
	ev.next("reload", "")
	ev.next("hello", "")
}

// A search of the log takes at most search.MaxWords words: ten thousand
// are refused at once, in one line, not read against every line of the
// log for minutes. A search whose page went away (its request's context
// ended) stops: nothing is answered, and the log is not read.
func TestSearchBounds(t *testing.T) {
	gittest.Setenv(t)
	s := newTestServer(t, Options{Tick: time.Hour})
	for i := range 50 {
		if _, err := board.Record(s.repo, "note", fmt.Sprintf("the cache holds note %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	c := serving(t, s)
	words := make([]string, 10000)
	for i := range words {
		words[i] = fmt.Sprintf("w%d", i)
	}
	var e map[string]string
	began := time.Now()
	code := getJSON(t, c, s, "/api/log?q="+url.QueryEscape(strings.Join(words, " ")), &e)
	if code != http.StatusBadRequest || e["error"] != (&search.TooManyWordsError{N: 10000}).Error() {
		t.Errorf("a search of 10,000 words: %d %v, want 400 and that it takes at most %d", code, e, search.MaxWords)
	}
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("refusing 10,000 words took %v", d)
	}
	var found logPage
	if code := getJSON(t, c, s, "/api/log?q=cache&n=5", &found); code != http.StatusOK || len(found.Entries) != 5 {
		t.Fatalf("a search of one word: %d %+v", code, found)
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel() // the page went away
	rec := httptest.NewRecorder()
	s.getLog(rec, httptest.NewRequestWithContext(ctx, http.MethodGet, "/api/log?q=cache", nil))
	if rec.Body.Len() != 0 {
		t.Errorf("a search whose page went away was answered: %d %s", rec.Code, rec.Body)
	}
}

// A page that read the log while it was empty, and reconnects its event
// stream after 100,000 entries came (a merge, a long sleep), is told to
// read the log again; the server reads no more of the log than one event
// carries to know it (it read every entry into memory: 320 MB at 200,000).
func TestEventsCatchUpFromAnEmptyLog(t *testing.T) {
	s, c, tail := openPage(t)
	if tail.Size != 0 {
		t.Fatalf("the tail of an empty log: %+v", tail)
	}
	var b []byte
	at := time.Now().Add(-time.Hour)
	for i := range 100000 {
		line, _ := logformat.EncodeEntry(logformat.NewEntry(at.Add(time.Duration(i)*time.Millisecond), "human", logformat.KindNote, fmt.Sprintf("note %d, merged while the page slept", i)))
		b = append(b, line...)
	}
	if err := os.WriteFile(s.repo.LogPath(), b, 0o644); err != nil {
		t.Fatal(err)
	}
	b = nil
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ev := stream(t, c, s, tailQuery(tail))
	ev.next("reload", "")
	ev.next("hello", "")
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("the catch-up from an empty log's tail allocated %d MB", got>>20)
	}
}
