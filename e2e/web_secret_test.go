package e2e

// The page's secret stays with the page: other servers on the loopback
// (an agent's dev server, a preview) that the person opens in the same
// browser get nothing of it, and cannot act as the person.

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
)

// hostile is an HTTP server of another port of the loopback, as an agent's
// dev server would be, that keeps every request it is sent: the headers a
// browser gives it, cookies with them.
type hostile struct {
	base string // its origin, as the browser names it
	mu   sync.Mutex
	seen []string // each request: its line, its Host and its headers
}

// newHostile serves on 127.0.0.1, on a free port, named name:port in the
// browser (127.0.0.1 or localhost); it stops when the test ends.
func newHostile(t *testing.T, name string) *hostile {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	h := &hostile{base: "http://" + net.JoinHostPort(name, port)}
	srv := &http.Server{Handler: http.HandlerFunc(h.serve), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return h
}

func (h *hostile) serve(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\nHost: %s\n", r.Method, r.URL, r.Host)
	r.Header.Write(&b)
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	b.Write(body)
	h.mu.Lock()
	h.seen = append(h.seen, b.String())
	h.mu.Unlock()
	switch r.URL.Path {
	case "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><title>a dev server</title><p id="x">a preview</p><img src="/pixel.png" alt="">`)
	default:
		http.NotFound(w, r)
	}
}

// requests is what h was sent, every request in full.
func (h *hostile) requests() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return strings.Join(h.seen, "\n")
}

// attack is what a hostile page tries against lucid's server at lucid, as
// the person's browser runs it: it reads what its own origin holds, and
// asks the server to release owner's claims, with whatever the browser adds
// to a request (a fetch as JSON, a fetch the server can read but the page
// cannot, a form posted as text/plain whose body is the JSON). It resolves
// to what each gave.
func attack(lucid, owner string) string {
	return `(async () => {
	const lucid = ` + js(lucid) + `;
	const body = JSON.stringify({ owner: ` + js(owner) + `, globs: [], why: "a hostile page" });
	const out = { cookie: document.cookie, storage: JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }) };
	const attempt = async (name, path, opt) => {
		try {
			const r = await fetch(lucid + path, opt);
			out[name] = r.type + " " + r.status + " " + (r.type === "opaque" ? "" : await r.text());
		} catch (e) { out[name] = "failed: " + e.message; }
	};
	await attempt("json", "/api/release", { method: "POST", credentials: "include", headers: { "Content-Type": "application/json" }, body });
	await attempt("simple", "/api/release", { method: "POST", mode: "no-cors", credentials: "include", headers: { "Content-Type": "text/plain" }, body });
	await attempt("read", "/api/board", { credentials: "include" });
	await new Promise(done => {
		const frame = document.createElement("iframe");
		frame.name = "sink";
		document.body.append(frame);
		const form = document.createElement("form");
		Object.assign(form, { method: "POST", action: lucid + "/api/release", enctype: "text/plain", target: "sink" });
		const input = document.createElement("input");
		// The body is name=value: {"owner":…,"why":"a hostile page="}
		Object.assign(input, { type: "hidden", name: body.slice(0, -2), value: '"}' });
		form.append(input);
		document.body.append(form);
		frame.addEventListener("load", done);
		setTimeout(done, 3000);
		form.submit();
	});
	out.form = "posted";
	return JSON.stringify(out);
})()`
}

// A page another server on the loopback serves, opened in the browser that
// holds lucid's page (on another port of 127.0.0.1, and on localhost),
// receives no token and no cookie of lucid's, finds none where its origin
// reads, and its requests to lucid's /api/release release nothing; nor does
// a replay, from that server, of everything the browser sent it.
func TestWebSecretStaysWithPage(t *testing.T) {
	w := newWebWorld(t)
	ctx := browser(t)
	w.hook("SessionStart", "SessionStart-lead.json", webA, nil)
	w.lucidAs(webA, "", "claim", "src/**", "--for", "rework auth")
	printed := w.serve()
	u, err := url.Parse(printed)
	if err != nil {
		t.Fatal(err)
	}
	token, lucid := u.Query().Get("token"), "http://"+u.Host
	do(t, ctx, chromedp.Navigate(printed))
	waitPage(t, ctx, "the agents", `document.querySelectorAll("#view-agents tbody tr").length === 1`)

	hostiles := []*hostile{newHostile(t, "127.0.0.1"), newHostile(t, "localhost")}
	other, closeOther := chromedp.NewContext(ctx) // a second tab, as the person opens the preview
	defer closeOther()
	for _, h := range hostiles {
		do(t, other, chromedp.Navigate(h.base+"/"))
		waitPage(t, other, "the hostile page", `document.getElementById("x")`)
		got, err := chromedp.Run(other, chromedp.Evaluate[string](attack(lucid, webA), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("the hostile page at %s: %v", h.base, err)
		}
		t.Logf("the hostile page at %s got %s", h.base, got)
		var out map[string]string
		if err := json.Unmarshal([]byte(got), &out); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out["cookie"]+out["storage"], token) || strings.Contains(out["cookie"], "lucid_") {
			t.Errorf("the page at %s reads lucid's secret where its origin reads: %s", h.base, got)
		}
		for _, name := range []string{"json", "read"} {
			if !strings.HasPrefix(out[name], "failed") {
				t.Errorf("the page at %s read lucid's answer to its %s request: %s", h.base, name, out[name])
			}
		}
	}
	// The person's own tab goes to the preview too, and back.
	do(t, ctx, chromedp.Navigate(hostiles[0].base+"/"))
	waitPage(t, ctx, "the hostile page in lucid's tab", `document.getElementById("x")`)
	if got := eval[string](t, ctx, `document.cookie + JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage })`); strings.Contains(got, token) || strings.Contains(got, "lucid_") {
		t.Errorf("the hostile page in lucid's tab reads %s", got)
	}

	creds := map[string]bool{"": true} // what a hostile server could replay; "" is nothing
	hex := regexp.MustCompile(`[0-9a-f]{64}`)
	for _, h := range hostiles {
		seen := h.requests()
		if !strings.Contains(seen, "GET /pixel.png") {
			t.Errorf("%s saw no request of its page's image:\n%s", h.base, seen)
		}
		if strings.Contains(seen, token) || strings.Contains(seen, "lucid_") {
			t.Errorf("%s received lucid's secret:\n%s", h.base, seen)
		}
		for _, line := range strings.Split(seen, "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Cookie: "); ok {
				creds["Cookie: "+v] = true
			}
		}
		for _, tok := range hex.FindAllString(seen, -1) {
			creds["Authorization: Bearer "+tok], creds["?token="+tok] = true, true
		}
	}
	// A hostile server acts with all it was given, as lucid's own page
	// would: its origin, JSON.
	for c := range creds {
		path := "/api/release"
		if q, ok := strings.CutPrefix(c, "?"); ok {
			path += "?" + q
		}
		req, _ := http.NewRequest(http.MethodPost, lucid+path, strings.NewReader(`{"owner":"`+webA+`","globs":[],"why":"replayed"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", lucid)
		if k, v, ok := strings.Cut(c, ": "); ok {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("a replay with %q: %d %s, want 401", c, resp.StatusCode, b)
		}
	}
	if claims := w.run("claims"); !strings.Contains(claims, "src/**") {
		t.Fatalf("A's claim was released by another server's page or its replay:\n%s", claims)
	}

	// Back in its tab, lucid's page still acts: the claim released from it.
	do(t, ctx, chromedp.Navigate(lucid+"/#tree"))
	press(t, ctx, `#view-tree .claim button.act`)
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#view-tree .claim input[name="why"]`), "done"),
		chromedp.Click(chromedp.CSS(`#view-tree .claim button[type="submit"]`)))
	waitPage(t, ctx, "no claim left", `document.querySelector("#view-tree .empty") && !document.querySelector("#view-tree .claim")`)
	if claims := w.run("claims"); strings.Contains(claims, "src/**") {
		t.Errorf("the page's release did not release:\n%s", claims)
	}
}

// The printed URL opens the page in one step, and the page keeps working:
// through a reload, in a second tab opened from the printed URL, and when
// --open opened it. The browser holds no cookie; a tab opened on the
// server's address without the token says how to get one.
func TestWebTokenInPage(t *testing.T) {
	w := newWebWorld(t)
	ctx := browser(t)
	w.hook("SessionStart", "SessionStart-lead.json", webA, nil)
	env := w.environ()
	opened := filepath.Join(t.TempDir(), "opened")
	if runtime.GOOS == "linux" {
		// --open runs xdg-open; this one keeps the address it is given.
		bin := t.TempDir()
		w.write(filepath.Join(bin, "xdg-open"), "#!/bin/sh\nprintf %s \"$1\" > "+opened+"\n")
		if err := os.Chmod(filepath.Join(bin, "xdg-open"), 0o755); err != nil {
			t.Fatal(err)
		}
		for i, kv := range env {
			if v, ok := strings.CutPrefix(kv, "PATH="); ok {
				env[i] = "PATH=" + bin + string(os.PathListSeparator) + v
			}
		}
	}
	printed := serveWeb(t, w.lucid, w.repo, env, "--open")
	u, _ := url.Parse(printed)
	lucid := "http://" + u.Host

	do(t, ctx, chromedp.Navigate(printed+"#log"))
	waitPage(t, ctx, "the log", `document.getElementById("status").textContent === "live"`)
	if loc := eval[string](t, ctx, `location.href`); loc != lucid+"/#log" {
		t.Errorf("the address bar shows %s, want %s/#log", loc, lucid)
	}
	if got, err := chromedp.CallBrowser(ctx, storage.GetCookies, storage.GetCookiesParams{}); err != nil || len(got.Cookies) != 0 {
		var cookies []string
		if err == nil {
			for _, c := range got.Cookies {
				cookies = append(cookies, c.Name+" for "+c.Domain)
			}
		}
		t.Errorf("the browser holds cookies %q (%v), want none", cookies, err)
	}

	do(t, ctx, chromedp.Reload())
	waitPage(t, ctx, "the page after a reload, live", `document.getElementById("status").textContent === "live"`)
	const fact = "The session cookie is set in src/auth.go"
	w.lucidAs(webA, "", "fact", fact)
	waitPage(t, ctx, "a fact appended after the reload", `document.getElementById("entries").innerText.includes(`+js(fact)+`)`)

	second, closeSecond := chromedp.NewContext(ctx)
	defer closeSecond()
	do(t, second, chromedp.Navigate(printed))
	waitPage(t, second, "the agents in a second tab", `document.querySelectorAll("#view-agents tbody tr").length === 1`)

	if runtime.GOOS == "linux" {
		var got []byte
		for range 100 {
			if got, _ = os.ReadFile(opened); len(got) > 0 {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if string(got) != printed {
			t.Fatalf("--open opened %q, want the printed URL %s", got, printed)
		}
		third, closeThird := chromedp.NewContext(ctx)
		defer closeThird()
		do(t, third, chromedp.Navigate(string(got)))
		waitPage(t, third, "the page --open opened", `document.getElementById("status").textContent === "live"`)
	}

	bare, closeBare := chromedp.NewContext(ctx)
	defer closeBare()
	do(t, bare, chromedp.Navigate(lucid+"/"))
	waitPage(t, bare, "that the token is missing", `document.getElementById("view-agents").innerText.includes("open the URL lucid web printed")`)
}
