package e2e

// lucid web in a real browser: headless Chromium (Debian's chromium
// package) driven with chromedp, against a repository where agents act
// through the real `lucid hook` and lucid's commands, and the page served
// by the real `lucid web` (which runs lucid-view). Without a Chromium the
// browser scenarios skip, saying so; the refusals are plain HTTP and run.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	browserpkg "github.com/lucid-dev/lucid/internal/testkit/browser"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// The sessions of two Claude Code agents.
const (
	webA = "30df32ba-0d45-4195-af71-803394f51561" // lead·30df32
	webB = "0b218250-bcad-4f28-bb25-013e7e946655" // lead·0b2182
)

// webBins is lucid and lucid-view, built once into one folder (lucid
// finds lucid-view beside itself), removed when the suite ends.
var webBins struct {
	once  sync.Once
	dir   string
	lucid string
	err   error
}

func cleanupWeb() {
	if webBins.dir != "" {
		os.RemoveAll(webBins.dir)
	}
}

// webWorld is a repository with lucid set up, holding src/auth.go, where
// the web scenarios' agents act.
type webWorld struct {
	*env
	lucid string
}

func newWebWorld(t *testing.T) *webWorld {
	t.Helper()
	webBins.once.Do(func() {
		if webBins.dir, webBins.err = os.MkdirTemp("", "lucid-e2e-web"); webBins.err != nil {
			return
		}
		if webBins.lucid, webBins.err = gittest.BuildLucid(webBins.dir); webBins.err == nil {
			_, webBins.err = gittest.BuildView(webBins.dir)
		}
	})
	if webBins.err != nil {
		t.Fatal(webBins.err)
	}
	w := &webWorld{env: newWorld(t, t.TempDir()), lucid: webBins.lucid}
	w.git("init", "-q")
	w.write(w.path("src/auth.go"), "package auth\n\n// Login returns nil when the password matches.\nfunc Login(user, password string) error {\n\treturn check(user, password)\n}\n")
	w.write(w.path("README.md"), "# scratch\n")
	w.run("init")
	w.git("add", "-A")
	w.git("commit", "-qm", "scratch")
	return w
}

func (w *webWorld) git(args ...string) {
	w.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = w.repo, w.environ()
	if out, err := cmd.CombinedOutput(); err != nil {
		w.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// lucidAs runs lucid with args as agent ("" for the person), stdin given;
// it returns stdout and the exit code.
func (w *webWorld) lucidAs(agent, stdin string, args ...string) (string, int) {
	w.t.Helper()
	cmd := exec.Command(w.lucid, args...)
	cmd.Dir, cmd.Env = w.repo, w.environ("LUCID_AGENT="+agent)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		w.t.Fatalf("lucid %s: %v", strings.Join(args, " "), err)
	}
	if stderr.Len() > 0 {
		w.t.Logf("lucid %s: stderr: %s", strings.Join(args, " "), stderr.String())
	}
	return stdout.String(), code
}

// run runs lucid as the person; a failure fails the test.
func (w *webWorld) run(args ...string) string {
	w.t.Helper()
	out, code := w.lucidAs("", "", args...)
	if code != 0 {
		w.t.Fatalf("lucid %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// hook runs `lucid hook --client claude EVENT` for session with Claude
// Code's payload of name (testdata/payloads), set keys changed, and
// returns its stdout.
func (w *webWorld) hook(event, name, session string, set map[string]any) string {
	w.t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "payloads", "claude-code-2.1.332", name))
	if err != nil {
		w.t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(bytes.ReplaceAll(raw, []byte("/home/dev/repo"), []byte(w.repo)), &doc); err != nil {
		w.t.Fatal(err)
	}
	doc["session_id"] = session
	for k, v := range set {
		doc[k] = v
	}
	in, _ := json.Marshal(doc)
	out, code := w.lucidAs("", string(in), "hook", "--client", "claude", event)
	if code != 0 {
		w.t.Fatalf("lucid hook %s (%s): exit %d\n%s", event, name, code, out)
	}
	return out
}

// edit is session's PreToolUse of an Edit of rel, as Claude Code sends it.
func (w *webWorld) edit(session, rel string) string {
	return w.hook("PreToolUse", "PreToolUse-Edit-lead.json", session, map[string]any{
		"tool_input": map[string]any{"file_path": w.path(rel), "old_string": "nil", "new_string": "no error", "replace_all": false}})
}

// serve starts `lucid web args` in the repository and returns the URL it
// printed; the server is stopped with SIGINT when the test ends, and must
// exit 0.
func (w *webWorld) serve(args ...string) string {
	w.t.Helper()
	return serveWeb(w.t, w.lucid, w.repo, w.environ(), args...)
}

// serveWeb starts `lucid web args` with lucid in dir, as serve does.
func serveWeb(t *testing.T, lucid, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(lucid, append([]string{"web"}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u := regexp.MustCompile(`^http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{64}$`).FindString(sc.Text()); u != "" {
				found <- u
			}
		}
		close(found)
	}()
	var u string
	select {
	case u = <-found:
	case <-time.After(30 * time.Second):
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("lucid web did not stop cleanly on SIGINT: %v\n%s", err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Errorf("lucid web did not stop within 10 s of SIGINT")
		}
	})
	if u == "" {
		cmd.Process.Kill()
		t.Fatalf("lucid web printed no URL\n%s", stderr.String())
	}
	return u
}

// browser is a tab of a fresh headless Chromium, closed when the test
// ends; without a Chromium the test skips, saying why.
func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := browserpkg.Path(); err != nil {
		t.Skip(err.Error() + ": the browser scenarios skip")
	}
	ctx, cancelTime := context.WithTimeout(context.Background(), 3*time.Minute)
	tab, stop, err := browserpkg.Start(ctx, t.TempDir())
	if err != nil {
		cancelTime()
		t.Fatal(err)
	}
	t.Cleanup(func() { stop(); cancelTime() })
	return tab
}

// do runs browser actions; a failure fails the test.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates expr in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitPage waits until expr is true in the page (an exception is false:
// the page is not there yet).
func waitPage(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool]("(() => { try { return !!("+expr+") } catch { return false } })()",
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf("the page never showed %s (%s: %v); it shows:\n%s", what, expr, err, text)
	}
}

// view clicks the view's button and waits for it to show.
func view(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	do(t, ctx, chromedp.Click(chromedp.CSS(`#nav button[data-view="`+name+`"]`)))
	waitPage(t, ctx, "the "+name+" view", `!document.getElementById("view-`+name+`").hidden`)
}

// press clicks the element sel selects inside the page, in one step: the
// board's next change may draw a view again between a query and a click
// made from outside, and the clicked node is then gone.
func press(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	waitPage(t, ctx, "a click on "+sel, `(() => { const e = document.querySelector(`+js(sel)+`); if (!e) return false; e.click(); return true })()`)
}

// screenshot saves the page as a test artifact and in bin/screenshots.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	saveShot(t, name, png)
}

// saveShot keeps a screenshot as a test artifact and in bin/screenshots.
func saveShot(t *testing.T, name string, png []byte) {
	t.Helper()
	for _, dir := range []string{t.ArtifactDir(), filepath.Join("..", "bin", "screenshots")} {
		err := os.MkdirAll(dir, 0o755)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
		}
		if err != nil {
			t.Errorf("screenshot %s: %v", name, err)
		}
	}
}

// js quotes s for a JavaScript expression.
func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// An agent's claim shows on the tree; a fact another process appends shows
// without a reload; the person releases the claim from the page, and the
// agent it stopped writes, and its owner is told. A screenshot of each
// view is kept.
func TestWebPage(t *testing.T) {
	w := newWebWorld(t)
	ctx := browser(t)
	w.hook("SessionStart", "SessionStart-lead.json", webA, nil)
	w.hook("SessionStart", "SessionStart-lead.json", webB, nil)
	w.lucidAs(webA, "", "claim", "src/**", "--for", "rework auth")
	w.run("fact", "Login delegates the password check to check()", "-e", "src/auth.go:5")
	if out := w.edit(webB, "src/auth.go"); !strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Fatalf("B's edit of src/auth.go under A's claim was not denied:\n%s", out)
	}
	w.write(w.path(".lucid/plan.md"), "# Plan\n\n- Ship the login page first.\n- Leave the admin pages alone.\n")

	u := w.serve()
	do(t, ctx, chromedp.Navigate(u))
	waitPage(t, ctx, "the agents", `document.querySelectorAll("#view-agents tbody tr").length === 2`)
	if loc := eval[string](t, ctx, `location.href`); strings.Contains(loc, "token") {
		t.Errorf("the token stayed in the address bar: %s", loc)
	}
	if n := eval[int](t, ctx, `performance.getEntriesByName("lucid-first-data").length`); n != 1 {
		t.Errorf("performance mark lucid-first-data set %d times, want once", n)
	}
	agents := eval[string](t, ctx, `document.getElementById("view-agents").innerText`)
	for _, want := range []string{"lead·30df32", "lead·0b2182", "claude", "src/**", "rework auth", "src/auth.go by lead·30df32"} {
		if !strings.Contains(agents, want) {
			t.Errorf("the agents view lacks %q:\n%s", want, agents)
		}
	}
	screenshot(t, ctx, "agents")

	view(t, ctx, "tree")
	claimed := `document.querySelector('#view-tree .file.claimed[data-path="src/auth.go"]')`
	waitPage(t, ctx, "src/auth.go claimed on the tree", claimed)
	if on := eval[string](t, ctx, claimed+`.innerText`); !strings.Contains(on, "lead·30df32") || !strings.Contains(on, "rework auth") {
		t.Errorf("src/auth.go on the tree shows %q, want A's claim for rework auth", on)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#view-tree .file.claimed').length`); n != 1 {
		t.Errorf("%d files shown claimed, want src/auth.go alone", n)
	}
	// A folder the person opens stays open as the board moves on.
	press(t, ctx, `#view-tree details[data-dir=".lucid/"] > summary`)
	waitPage(t, ctx, ".lucid/ open", `document.querySelector('#view-tree .file[data-path=".lucid/plan.md"]')`)
	redrawn := eval[int](t, ctx, `window.lucidBoards`)
	w.hook("PreToolUse", "PreToolUse-Bash-lead.json", webA, map[string]any{
		"tool_input": map[string]any{"command": "echo look", "description": "look"}})
	waitPage(t, ctx, "the board after A's tool call", fmt.Sprintf(`window.lucidBoards > %d`, redrawn))
	if !eval[bool](t, ctx, `document.querySelector('#view-tree details[data-dir=".lucid/"]').open`) {
		t.Error("the folder the person opened closed when the board changed")
	}
	screenshot(t, ctx, "claims")

	view(t, ctx, "log")
	waitPage(t, ctx, "the fact", `document.getElementById("entries").innerText.includes("Login delegates")`)
	const fact = "The session cookie is set in src/auth.go"
	w.lucidAs(webA, "", "fact", fact)
	appended := time.Now()
	waitPage(t, ctx, "the fact appended by another process, without a reload", `document.getElementById("entries").innerText.includes(`+js(fact)+`)`)
	t.Logf("an append showed on the page %v after lucid fact returned", time.Since(appended).Round(time.Millisecond))
	if first := eval[string](t, ctx, `document.querySelector("#entries .entry .text").textContent`); first != "«"+fact+"»" {
		t.Errorf("the newest entry on the page is %q, want the appended fact first", first)
	}
	if n := eval[int](t, ctx, `Object.keys(window.lucidSeen).length`); n < 2 {
		t.Errorf("lucidSeen holds %d entries, want each entry on the page", n)
	}

	// The file the first fact cites changes, and an agent acts: the fact
	// is marked stale on the page, saying why, and a toast says so.
	// Where the person allowed them, a new notice is a browser notification
	// too. Headless Chromium shows none: the page's Notification is a
	// stand-in, allowed, that keeps what the page gave it.
	eval[bool](t, ctx, `(() => {
		window.lucidNotified = [];
		window.Notification = class { static permission = "granted"; constructor(title, opts) { window.lucidNotified.push({title, body: opts.body}) } };
		return true })()`)
	w.write(w.path("src/auth.go"), "package auth\n\n// Login is gone.\n")
	w.hook("PreToolUse", "PreToolUse-Bash-lead.json", webB, map[string]any{
		"tool_input": map[string]any{"command": "echo look", "description": "look"}})
	waitPage(t, ctx, "the fact marked stale", `[...document.querySelectorAll("#entries .entry")].some(e => e.textContent.includes("Login delegates") && e.querySelector(".stale"))`)
	if why := eval[string](t, ctx, `document.querySelector("#entries .stale").textContent`); !strings.Contains(why, "src/auth.go") {
		t.Errorf("the stale mark says %q, want what changed", why)
	}
	waitPage(t, ctx, "a toast of the stale fact", `[...document.querySelectorAll("#toasts .toast")].some(e => e.textContent.includes("src/auth.go"))`)
	waitPage(t, ctx, "a browser notification of the stale fact", `window.lucidNotified.some(n => n.title === "lucid: stale" && n.body.includes("src/auth.go"))`)
	screenshot(t, ctx, "log")

	view(t, ctx, "plan")
	waitPage(t, ctx, "the plan", `document.querySelector("#view-plan .plan-text li")`)
	screenshot(t, ctx, "plan")
	view(t, ctx, "notices")
	screenshot(t, ctx, "notices")

	// The person releases A's claim from the claims view, saying why.
	const why = "B must fix the login bug now"
	view(t, ctx, "tree")
	press(t, ctx, `#view-tree .claim button.act`)
	do(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`#view-tree .claim input[name="why"]`), why),
		chromedp.Click(chromedp.CSS(`#view-tree .claim button[type="submit"]`)))
	waitPage(t, ctx, "no claim left", `document.querySelector("#view-tree .empty") && !document.querySelector("#view-tree .claim")`)
	if out := w.edit(webB, "src/auth.go"); strings.Contains(out, "deny") {
		t.Errorf("B's edit after the release was still denied:\n%s", out)
	}
	delta := w.hook("PreToolUse", "PreToolUse-Bash-lead.json", webA, map[string]any{
		"tool_input": map[string]any{"command": "echo next", "description": "next"}})
	if !strings.Contains(delta, "a person released your claim on 'src/**'") || !strings.Contains(delta, why) {
		t.Errorf("A's next delta does not say a person released its claim, and why:\n%s", delta)
	}
	view(t, ctx, "log")
	waitPage(t, ctx, "the release in the log", `document.querySelector("#entries .entry.release")`)
}

// The person edits the plan on the page; an edit made meanwhile elsewhere
// is not overwritten, and the page says what to do.
func TestWebPlan(t *testing.T) {
	w := newWebWorld(t)
	ctx := browser(t)
	w.write(w.path(".lucid/plan.md"), "# Plan\n\nShip the login page first.\n")
	do(t, ctx, chromedp.Navigate(w.serve()+"#plan"))
	waitPage(t, ctx, "the plan", `document.querySelector("#view-plan .plan-text")`)
	press(t, ctx, `#view-plan > button.act`)
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#view-plan textarea`), "# Plan\n\nShip the login page first.\nThen the signup page.\n"),
		chromedp.Click(chromedp.CSS(`#view-plan button[type="submit"]`)))
	waitPage(t, ctx, "the saved plan", `document.querySelector("#view-plan .plan-text").innerText.includes("Then the signup page.")`)
	if got := w.read(".lucid/plan.md"); !strings.Contains(got, "Then the signup page.") {
		t.Fatalf("plan.md after the page saved it:\n%s", got)
	}
	waitPage(t, ctx, "the change in the plan's history", `document.querySelector("#view-plan .diff")`)

	press(t, ctx, `#view-plan > button.act`)
	w.write(w.path(".lucid/plan.md"), "# Plan\n\nSomeone else's plan.\n")
	do(t, ctx, chromedp.SetValue(chromedp.CSS(`#view-plan textarea`), "# Plan\n\nMine.\n"),
		chromedp.Click(chromedp.CSS(`#view-plan button[type="submit"]`)))
	waitPage(t, ctx, "the conflict", `document.querySelector("#view-plan .error").textContent.includes("the plan changed since you opened it")`)
	if got := w.read(".lucid/plan.md"); !strings.Contains(got, "Someone else's plan.") {
		t.Errorf("the page overwrote a change made meanwhile:\n%s", got)
	}
}

// Text a model wrote is shown as text: markup is not run, and control
// characters and bidi controls are shown escaped, as lucid's commands
// print them, not obeyed.
func TestWebEscapes(t *testing.T) {
	w := newWebWorld(t)
	ctx := browser(t)
	w.hook("SessionStart", "SessionStart-lead.json", webA, nil)
	const hostile = "<img src=x onerror=alert(1)> \x1b[31mred\x1b[0m <script>alert(2)</script> \u202eevil"
	w.lucidAs(webA, "", "note", hostile)
	do(t, ctx, chromedp.Navigate(w.serve()+"#log"))
	waitPage(t, ctx, "the note", `document.querySelector("#entries .entry .text")`)
	text := eval[string](t, ctx, `document.querySelector("#entries .entry .text").textContent`)
	for _, want := range []string{"<img src=x onerror=alert(1)>", "<script>alert(2)</script>", `\x1b[31mred\x1b[0m`, `\u202eevil`} {
		if !strings.Contains(text, want) {
			t.Errorf("the note shows %q, want %q in it as text", text, want)
		}
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("img, main script").length`); n != 0 {
		t.Errorf("the note's markup made %d elements", n)
	}
	screenshot(t, ctx, "escapes")
}

// The server refuses a request without the token (in the Authorization
// header: the printed URL sets no cookie), one naming another host, and a
// change from another origin; the page's own request passes.
func TestWebRefusals(t *testing.T) {
	w := newWebWorld(t)
	u, err := url.Parse(w.serve())
	if err != nil {
		t.Fatal(err)
	}
	base, token := "http://"+u.Host, u.Query().Get("token")
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	send := func(method, path, host, body string, header map[string]string) (int, string) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		if host != "" {
			req.Host = host
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	bearer := map[string]string{"Authorization": "Bearer " + token}
	if code, body := send("GET", "/api/board", "", "", nil); code != http.StatusUnauthorized || !strings.Contains(body, "no token") {
		t.Errorf("without the token: %d %s", code, body)
	}
	if code, body := send("GET", u.RequestURI(), "", "", nil); code != http.StatusOK || !strings.Contains(body, "app.js") {
		t.Fatalf("the printed URL: %d %s", code, body)
	}
	if c := jar.Cookies(u); len(c) != 0 {
		t.Errorf("the printed URL set cookies %v", c)
	}
	if code, body := send("GET", "/api/board", "", "", nil); code != http.StatusUnauthorized {
		t.Errorf("after the printed URL, without the token: %d %s", code, body)
	}
	if code, _ := send("GET", "/api/board", "", "", bearer); code != http.StatusOK {
		t.Errorf("with the token: %d", code)
	}
	if code, body := send("GET", "/api/board", "rebound.example:"+u.Port(), "", bearer); code != http.StatusForbidden || !strings.Contains(body, "not this server's") {
		t.Errorf("a foreign Host: %d %s", code, body)
	}
	post := func(origin string) (int, string) {
		h := map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + token}
		if origin != "" {
			h["Origin"] = origin
		}
		return send("POST", "/api/record", "", `{"kind":"note","text":"from `+origin+`"}`, h)
	}
	for _, origin := range []string{"http://evil.example", ""} {
		if code, body := post(origin); code != http.StatusForbidden {
			t.Errorf("a change from origin %q: %d %s", origin, code, body)
		}
	}
	if code, body := post(base); code != http.StatusOK {
		t.Errorf("the page's own change: %d %s", code, body)
	}
	log := w.read(".lucid/log.jsonl")
	if strings.Contains(log, "evil.example") || !strings.Contains(log, "from "+base) {
		t.Errorf("the log after the refusals and the page's note:\n%s", log)
	}
}

// A read-only page (a shared screen) shows, and offers no action.
func TestWebReadOnly(t *testing.T) {
	w := newWebWorld(t)
	ctx := browser(t)
	w.hook("SessionStart", "SessionStart-lead.json", webA, nil)
	w.lucidAs(webA, "", "claim", "src/**", "--for", "rework auth")
	w.lucidAs(webA, "", "fact", "Login delegates the password check to check()")
	do(t, ctx, chromedp.Navigate(w.serve("--read-only")+"#log"))
	waitPage(t, ctx, "the fact", `document.getElementById("entries").innerText.includes("Login delegates")`)
	if !eval[bool](t, ctx, `!document.getElementById("readonly").hidden`) {
		t.Error("the page does not say it is read-only")
	}
	view(t, ctx, "tree")
	waitPage(t, ctx, "the claim", `document.querySelector("#view-tree .claim")`)
	for _, v := range []string{"agents", "tree", "log", "plan"} {
		view(t, ctx, v)
		if n := eval[int](t, ctx, `document.querySelectorAll("#view-`+v+` button.act:not(#older), #view-`+v+` textarea").length`); n != 0 && v != "log" {
			t.Errorf("the read-only %s view offers %d actions", v, n)
		}
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#view-log .entry button, #view-log input[name=record-text]").length`); n != 0 {
		t.Errorf("the read-only log offers %d actions", n)
	}

	// An agent stopped by the claim while the page is open: a toast, and
	// the notice in the list.
	w.hook("SessionStart", "SessionStart-lead.json", webB, nil)
	if out := w.edit(webB, "src/auth.go"); !strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Fatalf("B's edit under A's claim was not denied:\n%s", out)
	}
	waitPage(t, ctx, "a toast of the denial", `[...document.querySelectorAll("#toasts .toast")].some(e => e.textContent.includes("lead·0b2182") && e.textContent.includes("src/auth.go"))`)
	view(t, ctx, "notices")
	if got := eval[string](t, ctx, `document.getElementById("view-notices").innerText`); !strings.Contains(got, "denied") || !strings.Contains(got, "src/auth.go") {
		t.Errorf("the notices list: %s", got)
	}
}

// The person's other actions from the page: a note recorded, superseded,
// then retired from the log, and a message sent from the agents view, which
// the agent is given with its next tool call.
func TestWebHand(t *testing.T) {
	w := newWebWorld(t)
	ctx := browser(t)
	w.hook("SessionStart", "SessionStart-lead.json", webB, nil)
	do(t, ctx, chromedp.Navigate(w.serve()+"#log"))
	waitPage(t, ctx, "the log", `document.querySelector("#view-log input[name=record-text]")`)

	do(t, ctx, chromedp.SetValue(chromedp.CSS(`#view-log select[name=record-kind]`), "decision"),
		chromedp.SendKeys(chromedp.CSS(`#view-log input[name=record-text]`), "Keep bcrypt"),
		chromedp.Click(chromedp.CSS(`#view-log form:has(input[name=record-text]) button[type=submit]`)))
	waitPage(t, ctx, "the decision", `document.querySelector("#entries .entry.decision .text")?.textContent === "«Keep bcrypt»"`)
	press(t, ctx, `#entries .entry.decision button.act`) // Supersede
	do(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`#entries .entry.decision input[name=text]`), "Keep bcrypt, cost 12"),
		chromedp.Click(chromedp.CSS(`#entries .entry.decision button[type=submit]`)))
	waitPage(t, ctx, "the replacement, and the old one gone",
		`[...document.querySelectorAll("#entries .text")].map(e => e.textContent).join("|") === "«Keep bcrypt, cost 12»"`)
	if log := w.run("log", "--json"); !strings.Contains(log, `"kind": "supersede"`) || !strings.Contains(log, "Keep bcrypt, cost 12") {
		t.Errorf("the log after superseding from the page:\n%s", log)
	}
	press(t, ctx, `#view-log input[name=all]`)
	waitPage(t, ctx, "the superseded entry, shown", `[...document.querySelectorAll("#entries .entry.superseded .text")].some(e => e.textContent === "«Keep bcrypt»")`)

	view(t, ctx, "agents")
	waitPage(t, ctx, "B", `document.querySelector('#view-agents tr[data-agent="`+webB+`"]')`)
	row := `#view-agents tr[data-agent="` + webB + `"]`
	press(t, ctx, row+` button.act`) // Message
	do(t, ctx,
		chromedp.SendKeys(chromedp.CSS(row+` input[name=text]`), "Please look at the login bug first"),
		chromedp.Click(chromedp.CSS(row+` button[type=submit]`)))
	waitPage(t, ctx, "the form closed", `!document.querySelector('`+row+` form')`)
	delta := w.hook("PreToolUse", "PreToolUse-Bash-lead.json", webB, map[string]any{
		"tool_input": map[string]any{"command": "echo next", "description": "next"}})
	if !strings.Contains(delta, "Please look at the login bug first") {
		t.Errorf("B's next tool call does not carry the person's message:\n%s", delta)
	}
	screenshot(t, ctx, "hand")
}

// A tool call that changes nothing but the agent's time brings a board
// that draws nothing again, so the view does not move under the person's
// pointer; a new claim is drawn.
func TestWebDrawsOnlyChanges(t *testing.T) {
	w := newWebWorld(t)
	ctx := browser(t)
	w.hook("SessionStart", "SessionStart-lead.json", webA, nil)
	do(t, ctx, chromedp.Navigate(w.serve()+"#agents"))
	waitPage(t, ctx, "A", `document.querySelector('#view-agents tr[data-agent="`+webA+`"]')`)
	time.Sleep(500 * time.Millisecond) // the boards of the start have come
	boards, draws := eval[int](t, ctx, `window.lucidBoards`), eval[int](t, ctx, `window.lucidDraws`)
	w.hook("PreToolUse", "PreToolUse-Bash-lead.json", webA, map[string]any{
		"tool_input": map[string]any{"command": "echo look", "description": "look"}})
	waitPage(t, ctx, "the board after A's tool call", fmt.Sprintf(`window.lucidBoards > %d`, boards))
	if now := eval[int](t, ctx, `window.lucidDraws`); now != draws {
		t.Errorf("a board that moved only A's time drew the agents %d more times", now-draws)
	}
	w.lucidAs(webA, "", "claim", "src/**", "--for", "rework auth")
	waitPage(t, ctx, "A's claim drawn", `document.querySelector('#view-agents tr[data-agent="`+webA+`"]').textContent.includes("rework auth")`)
}
