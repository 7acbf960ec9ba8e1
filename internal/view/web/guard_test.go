package web

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

// newTestServer is a server of a fresh repository, not serving: its
// handler is called directly.
func newTestServer(t *testing.T, opt Options) *Server {
	t.Helper()
	opt.Naming = identity.Naming() // as lucid-view serves it
	s, err := Listen(repotest.Lucid(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.ln.Close() })
	return s
}

// request is one request to s, as the page's script would send it: to s's
// own host, with the token in the Authorization header unless noToken;
// header holds the others (an Authorization there replaces the token's).
type request struct {
	method, path, body string
	host               string // "" is the server's
	noToken            bool
	header             map[string]string
}

func (s *Server) do(t *testing.T, req request) *httptest.ResponseRecorder {
	t.Helper()
	if req.method == "" {
		req.method = http.MethodGet
	}
	r := httptest.NewRequest(req.method, req.path, strings.NewReader(req.body))
	r.Host = s.host
	if req.host != "" {
		r.Host = req.host
	}
	if !req.noToken {
		r.Header.Set("Authorization", "Bearer "+s.token)
	}
	for k, v := range req.header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	s.handler().ServeHTTP(w, r)
	return w
}

// refusal checks that w is status with one line of JSON holding an error
// that says want.
func refusal(t *testing.T, w *httptest.ResponseRecorder, status int, want string) {
	t.Helper()
	body := w.Body.String()
	if w.Code != status {
		t.Fatalf("status %d, want %d: %s", w.Code, status, body)
	}
	var e struct{ Error string }
	if err := json.Unmarshal([]byte(body), &e); err != nil || strings.Count(body, "\n") != 1 || !strings.Contains(e.Error, want) {
		t.Errorf("body %q, want one line of JSON with an error saying %q", body, want)
	}
}

func TestToken(t *testing.T) {
	s := newTestServer(t, Options{})
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") || len(s.token) != 64 {
		t.Fatalf("URL %s, token %q: want the loopback address and 32 random bytes in hex", s.URL(), s.token)
	}
	if s2 := newTestServer(t, Options{}); s2.token == s.token {
		t.Error("two servers have the same token")
	}

	// The printed URL: the page, which takes the token from the address.
	// No cookie is set: the browser would send it to every port of the
	// host.
	w := s.do(t, request{path: "/?token=" + s.token + "&x=1", noToken: true})
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `<script src="app.js"`) {
		t.Fatalf("the printed URL: %d\n%s", w.Code, w.Body)
	}
	if c := w.Header().Values("Set-Cookie"); len(c) != 0 {
		t.Errorf("the printed URL sets cookies %q, want none", c)
	}
	// A reload, with the token in the page's script alone.
	for _, path := range []string{"/", "/app.js", "/app.css", "/favicon.svg", "/?x=1#plan"} {
		if w := s.do(t, request{path: path, noToken: true}); w.Code != http.StatusOK || len(w.Header().Values("Set-Cookie")) != 0 {
			t.Errorf("%s without the token: %d %v, want 200 and no cookie", path, w.Code, w.Header().Values("Set-Cookie"))
		}
	}
	// A token of another server in the address is said at once.
	refusal(t, s.do(t, request{path: "/?token=" + strings.Repeat("0", 64), noToken: true}), http.StatusForbidden, "the token in the address is not this server's")
	refusal(t, s.do(t, request{method: http.MethodPost, path: "/", noToken: true}), http.StatusMethodNotAllowed, "POST is not served")

	// Everything else needs the token, in the Authorization header.
	w = s.do(t, request{path: "/api/board"})
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"agents"`) {
		t.Fatalf("/api/board with the token: %d\n%s", w.Code, w.Body)
	}
	if w := s.do(t, request{path: "/api/board", header: map[string]string{"Authorization": "bearer  " + s.token}}); w.Code != http.StatusOK {
		t.Errorf("/api/board with the scheme in lower case: %d %s", w.Code, w.Body)
	}
	for _, c := range []struct {
		name   string
		header map[string]string
		path   string
		want   string
	}{
		{"no token", nil, "/api/board", "no token: open the URL lucid web printed"},
		{"no token, to the stream", nil, "/api/events", "no token"},
		{"no token, to what is not served", nil, "/nothing", "no token"},
		{"a cookie of the old pages", map[string]string{"Cookie": "lucid_" + s.host[strings.LastIndex(s.host, ":")+1:] + "=" + s.token}, "/api/board", "no token"},
		{"a cookie of any name", map[string]string{"Cookie": "token=" + s.token}, "/api/board", "no token"},
		{"the token in the query", nil, "/api/board?token=" + s.token, "no token"},
		{"the token in the stream's query", nil, "/api/events?token=" + s.token, "no token"},
		{"another server's token", map[string]string{"Authorization": "Bearer " + s.token[:63] + "x"}, "/api/board", "the token is not this server's"},
		{"the token cut short", map[string]string{"Authorization": "Bearer " + s.token[:32]}, "/api/board", "the token is not this server's"},
		{"the token with no scheme", map[string]string{"Authorization": s.token}, "/api/board", "not Bearer TOKEN"},
		{"the token as Basic", map[string]string{"Authorization": "Basic " + s.token}, "/api/board", "not Bearer TOKEN"},
		{"an empty Bearer", map[string]string{"Authorization": "Bearer "}, "/api/board", "the token is not this server's"},
	} {
		w := s.do(t, request{path: c.path, noToken: true, header: c.header})
		if w.Header().Get("WWW-Authenticate") != `Bearer realm="lucid web"` {
			t.Errorf("%s: WWW-Authenticate %q", c.name, w.Header().Get("WWW-Authenticate"))
		}
		t.Run(c.name, func(t *testing.T) { refusal(t, w, http.StatusUnauthorized, c.want) })
	}
	// The same, for an action: nothing is done.
	json := map[string]string{"Origin": "http://" + s.host, "Content-Type": "application/json", "Cookie": "lucid_x=" + s.token}
	refusal(t, s.do(t, request{method: http.MethodPost, path: "/api/record", body: `{"kind":"note","text":"by a cookie"}`, noToken: true, header: json}),
		http.StatusUnauthorized, "no token")
	if log, _ := os.ReadFile(s.repo.LogPath()); strings.Contains(string(log), "by a cookie") {
		t.Errorf("an action with no token was done:\n%s", log)
	}

	w = s.do(t, request{path: "/"})
	for k, want := range map[string]string{
		"Content-Security-Policy": "default-src 'self'; script-src 'self'",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
		"X-Frame-Options":         "DENY",
	} {
		if got := w.Header().Get(k); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if js := s.do(t, request{path: "/app.js"}); js.Code != http.StatusOK || !strings.Contains(js.Header().Get("Content-Type"), "javascript") {
		t.Errorf("app.js: %d %s", js.Code, js.Header().Get("Content-Type"))
	}
	js := s.do(t, request{path: "/app.js"}).Body.String()
	// The page's script puts no data in the page as markup.
	if strings.Contains(js, "innerHTML") || strings.Contains(js, "insertAdjacentHTML") {
		t.Error("app.js uses innerHTML or insertAdjacentHTML")
	}
	// It keeps the token where only its origin reads it: not in a cookie
	// (every port of the host gets those), not in localStorage.
	for _, bad := range []string{"document.cookie", "localStorage", "new EventSource"} {
		if strings.Contains(js, bad) {
			t.Errorf("app.js uses %s", bad)
		}
	}
}

// The event stream takes the token as every other request does, in the
// Authorization header; it is refused without it before it starts.
func TestEventsToken(t *testing.T) {
	gittest.Setenv(t)
	s := newTestServer(t, Options{Tick: time.Hour})
	c := serving(t, s)
	stream(t, c, s, "").next("hello", "")
	for _, auth := range []string{"", "Bearer " + strings.Repeat("f", 64)} {
		req, _ := http.NewRequest(http.MethodGet, "http://"+s.host+"/api/events?token="+s.token, nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("Content-Type") == "text/event-stream" || strings.Count(string(b), "\n") != 1 {
			t.Errorf("the stream with Authorization %q: %d %s %q, want 401 and one line", auth, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
	}
}

func TestHost(t *testing.T) {
	s := newTestServer(t, Options{})
	port := s.host[strings.LastIndex(s.host, ":")+1:]
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port} {
		if w := s.do(t, request{path: "/", host: host}); w.Code != http.StatusOK {
			t.Errorf("Host %s: %d, want 200", host, w.Code)
		}
	}
	// A site whose name was pointed at 127.0.0.1 (DNS rebinding) sends its
	// own name: refused, with the token or without, the page's files too.
	for _, host := range []string{"evil.example:" + port, "evil.example", "127.0.0.1:1", "localhost", "127.0.0.2:" + port} {
		refusal(t, s.do(t, request{path: "/api/board", host: host}), http.StatusForbidden, "not this server's")
		refusal(t, s.do(t, request{path: "/?token=" + s.token, host: host, noToken: true}), http.StatusForbidden, "not this server's")
		refusal(t, s.do(t, request{path: "/app.js", host: host, noToken: true}), http.StatusForbidden, "not this server's")
	}
}

func TestCrossSite(t *testing.T) {
	s := newTestServer(t, Options{})
	origin := "http://" + s.host
	json := map[string]string{"Origin": origin, "Content-Type": "application/json"}
	// Past the guard: the handler refuses the empty text.
	refusal(t, s.do(t, request{method: http.MethodPost, path: "/api/record", body: `{"kind":"note","text":""}`, header: json}),
		http.StatusBadRequest, "text is what to record")
	refusal(t, s.do(t, request{method: http.MethodPost, path: "/api/record", body: `{"text":""}`,
		header: map[string]string{"Sec-Fetch-Site": "same-origin", "Content-Type": "application/json; charset=utf-8"}}),
		http.StatusBadRequest, "text is what to record")

	for _, c := range []struct {
		header map[string]string
		want   string
	}{
		{map[string]string{"Content-Type": "application/json"}, "names no origin"},
		{map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, "names no origin"},
		{map[string]string{"Origin": "http://evil.example", "Content-Type": "application/json"}, `comes from "http://evil.example"`},
		{map[string]string{"Origin": "null", "Content-Type": "application/json"}, `comes from "null"`},
		{map[string]string{"Origin": "https://" + s.host, "Content-Type": "application/json"}, "not from this server's page"},
		{map[string]string{"Origin": origin, "Content-Type": "text/plain"}, "not application/json"},
		{map[string]string{"Origin": origin, "Content-Type": "application/x-www-form-urlencoded"}, "not application/json"},
		{map[string]string{"Origin": origin}, "not application/json"},
	} {
		w := s.do(t, request{method: http.MethodPost, path: "/api/record", body: `{"kind":"note","text":"x"}`, header: c.header})
		refusal(t, w, http.StatusForbidden, c.want)
	}
	// Without the token the origin does not matter.
	refusal(t, s.do(t, request{method: http.MethodPost, path: "/api/record", body: `{}`, header: json, noToken: true}),
		http.StatusUnauthorized, "no token")
	refusal(t, s.do(t, request{method: http.MethodPut, path: "/api/plan", body: `{}`, header: json}),
		http.StatusMethodNotAllowed, "PUT is not served")
}

func TestNothingElseServed(t *testing.T) {
	s := newTestServer(t, Options{})
	for _, path := range []string{"/index.html.bak", "/static/app.js", "/go.mod", "/.lucid/log.jsonl", "/api/nothing", "/%2e%2e/go.mod"} {
		if w := s.do(t, request{path: path}); w.Code != http.StatusNotFound && w.Code != http.StatusMovedPermanently {
			t.Errorf("%s: %d, want 404\n%s", path, w.Code, w.Body)
		}
	}
	refusal(t, s.do(t, request{path: "/.lucid/plan.md"}), http.StatusNotFound, "nothing is served")
}

func TestRequestErrors(t *testing.T) {
	s := newTestServer(t, Options{})
	json := map[string]string{"Origin": "http://" + s.host, "Content-Type": "application/json"}
	post := func(path, body string) *httptest.ResponseRecorder {
		return s.do(t, request{method: http.MethodPost, path: path, body: body, header: json})
	}
	refusal(t, post("/api/record", `{"kind":"note","text":"x","extra":1}`), http.StatusBadRequest, `unknown field "extra"`)
	refusal(t, post("/api/record", `not json`), http.StatusBadRequest, "not the JSON this takes")
	refusal(t, post("/api/record", `{"text":"a"} {"text":"b"}`), http.StatusBadRequest, "more than one JSON value")
	refusal(t, post("/api/record", `{"text":"`+strings.Repeat("a", maxBody)+`"}`), http.StatusBadRequest, "over 1 MiB")
	refusal(t, post("/api/release", `{"globs":["src/**"]}`), http.StatusBadRequest, "owner names the agent")
	refusal(t, post("/api/plan", `{"text":"x"}`), http.StatusBadRequest, "base is the plan's hash")
	refusal(t, post("/api/supersede", `{"text":"x"}`), http.StatusBadRequest, "id names the entry")
	refusal(t, post("/api/supersede", `{"id":"01J","text":" "}`), http.StatusBadRequest, "text is the new entry's text")
	refusal(t, post("/api/message", `{"text":"x"}`), http.StatusBadRequest, "to names the agent")
	refusal(t, post("/api/message", `{"to":"lead","text":""}`), http.StatusBadRequest, "text is the message")
	refusal(t, s.do(t, request{path: "/api/log?n=many"}), http.StatusBadRequest, "n is how many entries")
	refusal(t, s.do(t, request{path: "/api/events?tail=nope"}), http.StatusBadRequest, "tail is the log's tail")

	ro := newTestServer(t, Options{ReadOnly: true})
	json["Origin"] = "http://" + ro.host
	for _, path := range []string{"/api/release", "/api/plan", "/api/record", "/api/supersede", "/api/message"} {
		w := ro.do(t, request{method: http.MethodPost, path: path, body: `{}`, header: json})
		refusal(t, w, http.StatusForbidden, "read-only")
	}
}

func TestListen(t *testing.T) {
	repo := repotest.Lucid(t)
	if _, err := Listen(repo, Options{Addr: "8080"}); err == nil || !strings.Contains(err.Error(), "HOST:PORT") {
		t.Errorf("--addr 8080: %v, want HOST:PORT asked for", err)
	}
	s, err := Listen(repo, Options{Addr: "localhost:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.ln.Close()
	// The URL names the address bound, which no other server holds while
	// this one runs, not localhost, which a browser may take for the other
	// loopback address.
	bound := s.ln.Addr().(*net.TCPAddr)
	if s.Exposed() != "" || !bound.IP.IsLoopback() || s.URL() != "http://"+bound.String()+"/?token="+s.token {
		t.Errorf("localhost: exposed %v, URL %s, bound to %s", s.Exposed(), s.URL(), bound)
	}
	for _, host := range []string{"localhost:" + strconv.Itoa(bound.Port), bound.String()} {
		if w := s.do(t, request{path: "/api/board", host: host}); w.Code != http.StatusOK {
			t.Errorf("--addr localhost, Host %s: %d", host, w.Code)
		}
	}
	s2, err := Listen(repo, Options{Addr: "0.0.0.0:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.ln.Close()
	if !strings.HasPrefix(s2.Exposed(), "0.0.0.0:") || strings.HasSuffix(s2.Exposed(), ":0") || !strings.HasPrefix(s2.URL(), "http://127.0.0.1:") {
		t.Errorf("0.0.0.0: exposed %v, URL %s; want exposed, and the loopback address printed", s2.Exposed(), s2.URL())
	}
	// Listening on every address, a request may name any of the machine's
	// by its number, and none by another name.
	port := s2.host[strings.LastIndex(s2.host, ":")+1:]
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ip, ok := a.(*net.IPNet); ok {
			if w := s2.do(t, request{path: "/", host: net.JoinHostPort(ip.IP.String(), port)}); w.Code != http.StatusOK {
				t.Errorf("Host %s on 0.0.0.0: %d", ip.IP, w.Code)
			}
		}
	}
	refusal(t, s2.do(t, request{path: "/", host: "rebound.example:" + port}), http.StatusForbidden, "not this server's")
}
