package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client/codex"
	"github.com/lucid-dev/lucid/internal/setup"
	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

// codexListedHook is an entry of `codex app-server`'s hooks/list.
type codexListedHook struct {
	Key         string  `json:"key"`
	Command     string  `json:"command"`
	Matcher     *string `json:"matcher"`
	TimeoutSec  int     `json:"timeoutSec"`
	CurrentHash string  `json:"currentHash"`
	TrustStatus string  `json:"trustStatus"`
}

// hooksList asks `codex app-server` (JSON-RPC over stdio) for the hooks
// it sees in the repository, as `lucid doctor` could.
func (e *codexEnvT) hooksList() []codexListedHook {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.bin, "app-server")
	cmd.Dir, cmd.Env = e.repo, e.environ()
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() }()
	reqs := []string{
		`{"id":1,"method":"initialize","params":{"clientInfo":{"name":"lucid-e2e","version":"0"}}}`,
		`{"method":"initialized"}`,
		fmt.Sprintf(`{"id":2,"method":"hooks/list","params":{"cwds":[%q]}}`, e.repo),
	}
	if _, err := stdin.Write([]byte(strings.Join(reqs, "\n") + "\n")); err != nil {
		e.t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var msg struct {
			ID     int `json:"id"`
			Result struct {
				Data []struct {
					Hooks    []codexListedHook `json:"hooks"`
					Warnings []string          `json:"warnings"`
				} `json:"data"`
			} `json:"result"`
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.ID != 2 {
			continue
		}
		if msg.Error != nil || len(msg.Result.Data) != 1 {
			e.t.Fatalf("hooks/list: %s", sc.Bytes())
		}
		return msg.Result.Data[0].Hooks
	}
	e.t.Fatalf("codex app-server gave no hooks/list answer (%v)", sc.Err())
	return nil
}

// The trust hash computed here is the one Codex computes (hooks/list's
// currentHash) for every event; written into config.toml it makes a hook
// run without --dangerously-bypass-hook-trust, and a hook left out, or
// trusted with a stale hash, is skipped without a word.
func TestCodexHookTrust(t *testing.T) {
	e := newCodexEnv(t)
	hooksFile := e.path(".codex/hooks.json")
	handlers := map[string]codex.Handler{}
	for _, ev := range codexEvents {
		handlers[codex.HookKey(hooksFile, ev, 0, 0)] = codex.Handler{Event: ev, Matcher: "*", Command: e.hookBin + " " + ev}
	}

	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		rs.Calls(rs.Exec("echo trusted")),
		rs.Say("Done."),
	}}
	srv := rs.New(lead)
	defer srv.Close()
	e.config(srv, "")

	listed := e.hooksList()
	if len(listed) != len(codexEvents) {
		t.Fatalf("hooks/list shows %d hooks, want %d: %+v", len(listed), len(codexEvents), listed)
	}
	for _, l := range listed {
		h, ok := handlers[l.Key]
		if !ok {
			t.Errorf("hooks/list has a key this test does not compute: %q", l.Key)
			continue
		}
		if got := codex.HookHash(h); got != l.CurrentHash {
			t.Errorf("%s: computed %s, Codex says %s", l.Key, got, l.CurrentHash)
		}
		if l.TrustStatus != "untrusted" {
			t.Errorf("%s: trust status %q before any trust, want untrusted", l.Key, l.TrustStatus)
		}
	}

	// Trust every hook but UserPromptSubmit; give Stop a stale hash.
	var state strings.Builder
	for _, ev := range codexEvents {
		hash := codex.HookHash(handlers[codex.HookKey(hooksFile, ev, 0, 0)])
		switch ev {
		case "UserPromptSubmit":
			continue
		case "Stop":
			hash = codex.HookHash(codex.Handler{Event: ev, Command: e.hookBin + " Stop --edited"})
		}
		fmt.Fprintf(&state, "\n[hooks.state.%q]\ntrusted_hash = %q\n", codex.HookKey(hooksFile, ev, 0, 0), hash)
	}
	e.config(srv, state.String())
	for _, l := range e.hooksList() {
		want := "trusted"
		switch {
		case strings.Contains(l.Key, ":user_prompt_submit:"):
			want = "untrusted"
		case strings.Contains(l.Key, ":stop:"):
			want = "modified"
		}
		if l.TrustStatus != want {
			t.Errorf("%s: trust status %q, want %q", l.Key, l.TrustStatus, want)
		}
	}

	res := e.exec(srv, "[[codex-lead]] Run one command.") // no --dangerously-bypass-hook-trust
	ran := map[string]int{}
	for _, c := range e.hookCalls("") {
		ran[c.Event]++
	}
	for _, ev := range []string{"SessionStart", "PreModelRequest", "PreToolUse", "PostToolUse", "SessionEnd"} {
		if ran[ev] == 0 {
			t.Errorf("the trusted %s hook did not run (ran: %v)\nstderr:\n%s", ev, ran, clip(res.stderr, 2000))
		}
	}
	for _, ev := range []string{"UserPromptSubmit", "Stop"} {
		if ran[ev] != 0 {
			t.Errorf("the %s hook ran %d times without a matching trusted_hash", ev, ran[ev])
		}
		if strings.Contains(res.stderr, "hook: "+ev) {
			t.Errorf("codex mentions the skipped %s hook on stderr", ev) // it never does: skipped silently
		}
	}
}

// The hash, checked without the binary against a recorded hooks/list
// (testdata/payloads/codex-0.169.0): every event, a second group, a
// second handler, a timeout of 0 (Codex makes it 1), the defaults.
func TestCodexHookHashRecorded(t *testing.T) {
	dir := "../testdata/payloads/codex-0.169.0/"
	var file struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Command       string `json:"command"`
				Timeout       *int   `json:"timeout"`
				Async         bool   `json:"async"`
				StatusMessage string `json:"statusMessage"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	var listed struct {
		Result struct {
			Data []struct {
				Hooks []codexListedHook `json:"hooks"`
			} `json:"data"`
		} `json:"result"`
	}
	for name, v := range map[string]any{"hooks-list-hooks.json": &file, "app-server-hooks-list.json": &listed} {
		b, err := os.ReadFile(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	const hooksFile = "/tmp/cxt/repo/.codex/hooks.json" // where it was when recorded
	want := map[string]string{}
	for _, l := range listed.Result.Data[0].Hooks {
		want[l.Key] = l.CurrentHash
	}
	n := 0
	for ev, groups := range file.Hooks {
		for g, group := range groups {
			for i, h := range group.Hooks {
				key := codex.HookKey(hooksFile, ev, g, i)
				got := codex.HookHash(codex.Handler{Event: ev, Matcher: group.Matcher, Command: h.Command,
					Timeout: h.Timeout, Async: h.Async, StatusMessage: h.StatusMessage})
				if got != want[key] {
					t.Errorf("%s: computed %s, recorded %s", key, got, want[key])
				}
				n++
			}
		}
	}
	if n != len(want) || n < len(codexEvents)+2 {
		t.Errorf("checked %d handlers, the recording lists %d", n, len(want))
	}
}

// lucid's own way of trusting, checked with the binary: lucid init's
// entries in .codex/hooks.json (after the user's, so at group 1) are
// untrusted until --trust-codex, then trusted, every one, while the
// user's stay untrusted; one edited by hand is "modified"; and lucid
// doctor says each time what Codex says.
func TestCodexTrustByLucidInit(t *testing.T) {
	e := newCodexEnv(t)
	srv := rs.New()
	defer srv.Close()
	e.config(srv, "")
	t.Setenv("CODEX_HOME", e.codex)
	repo, err := gitstore.Find(e.repo)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := codex.Hooks.InstallHooks(repo); err != nil {
		t.Fatal(err)
	}
	status := func() (lucid, user map[string]string) {
		lucid, user = map[string]string{}, map[string]string{}
		for _, l := range e.hooksList() {
			if strings.Contains(l.Command, "lucid hook --client codex") {
				lucid[l.Key] = l.TrustStatus
			} else {
				user[l.Key] = l.TrustStatus
			}
		}
		return lucid, user
	}
	doctor := func() setup.Finding {
		for _, f := range (codex.Client{}).Setup().Check(repo) {
			if f.Check == "codex hook trust" {
				return f
			}
		}
		t.Fatal("lucid doctor has no codex hook trust check")
		return setup.Finding{}
	}
	lucid, _ := status()
	if len(lucid) != len(codex.Hooks.Events) {
		t.Fatalf("hooks/list shows %d of lucid's hooks, want %d: %v", len(lucid), len(codex.Hooks.Events), lucid)
	}
	for k, s := range lucid {
		if s != "untrusted" {
			t.Errorf("%s: %q before --trust-codex", k, s)
		}
	}
	if f := doctor(); f.OK {
		t.Errorf("doctor says trusted before --trust-codex: %s", f.Detail)
	}
	if _, err := codex.Trust(repo); err != nil {
		t.Fatal(err)
	}
	lucid, user := status()
	for k, s := range lucid {
		if s != "trusted" || !strings.Contains(k, ":1:0") {
			t.Errorf("%s: %q after --trust-codex, want trusted (at group 1)", k, s)
		}
	}
	for k, s := range user {
		if s != "untrusted" {
			t.Errorf("the user's %s: %q after --trust-codex: lucid trusts its own hooks alone", k, s)
		}
	}
	if f := doctor(); !f.OK {
		t.Errorf("doctor after --trust-codex: %s", f.Detail)
	}
	// An entry edited by hand: Codex calls it modified, and skips it.
	doc := e.read(".codex/hooks.json")
	e.write(e.path(".codex/hooks.json"), strings.Replace(doc, "--client codex Stop\",", "--client codex Stop --x\",", 1))
	lucid, _ = status()
	modified := 0
	for k, s := range lucid {
		if s == "modified" && strings.Contains(k, ":stop:") {
			modified++
		}
	}
	if modified != 1 {
		t.Errorf("after editing lucid's Stop entry, hooks/list says %v", lucid)
	}
	if f := doctor(); f.OK || !strings.Contains(f.Detail, ": Stop") {
		t.Errorf("doctor after the edit: %s", f.Detail)
	}
}
