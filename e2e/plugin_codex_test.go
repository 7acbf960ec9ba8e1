package e2e

// lucid's Codex CLI plugin (.agents/plugins/marketplace.json and
// plugins/codex), installed the way its users install plugins: the real
// `codex plugin marketplace add` of this repository's folder, then `codex
// plugin add lucid@lucid`, into the test's CODEX_HOME. Codex 0.169.0 reads
// .agents/plugins/marketplace.json before .claude-plugin/marketplace.json,
// so it gets its own plugin, not Claude Code's. It runs a plugin's hooks
// only once they are trusted, and `codex plugin add` trusts nothing: the
// tests trust them as Codex's own "Trust all and continue" does, not with
// --dangerously-bypass-hook-trust.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	rs "github.com/lucid-dev/lucid/internal/testkit/scripted/responses"
)

// codexPluginWorld is a Codex world on e's repository, with a CODEX_HOME
// of its own and the shim first on PATH for lucid's hooks; the plugin is
// not installed yet (installCodexPlugin), since config writes the whole
// of config.toml.
func codexPluginWorld(t *testing.T, e *env) *codexEnvT {
	t.Helper()
	bin := needCodex(t)
	root := t.TempDir()
	c := &codexEnvT{env: *e, bin: bin, codex: filepath.Join(root, "codex-home"), hookDir: filepath.Join(root, "hook"), lucid: true}
	for _, d := range []string{c.codex, c.hookDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// installCodexPlugin adds this repository as a marketplace and installs
// lucid's plugin from it, as a user would, then trusts the plugin's hooks.
func (e *codexEnvT) installCodexPlugin() {
	e.t.Helper()
	for _, args := range [][]string{{"plugin", "marketplace", "add", repoTop(e.t)}, {"plugin", "add", "lucid@lucid"}} {
		cmd := exec.Command(e.bin, args...)
		cmd.Dir, cmd.Env = e.home, e.environ()
		out, err := cmd.CombinedOutput()
		if err != nil {
			e.t.Fatalf("codex %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		e.t.Logf("codex %s: %s", strings.Join(args, " "), strings.TrimSpace(string(out)))
	}
	if n := e.trustCodexPlugin(); n != len(codexPluginEvents) {
		e.t.Fatalf("Codex lists %d hooks of lucid's plugin, want %d", n, len(codexPluginEvents))
	}
}

// codexPluginEvents are the events of the plugin's hooks/hooks.json.
var codexPluginEvents = []string{"SessionStart", "SubagentStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
	"Stop", "SubagentStop", "PreCompact", "SessionEnd"}

// trustCodexPlugin trusts the hooks of lucid@lucid as Codex does when the
// person trusts them: `codex app-server`'s hooks/list gives each hook's
// key and current hash, and config/batchWrite writes them as
// hooks.state, the write Codex makes itself (for the plugins it trusts on
// its own). It returns how many hooks it trusted.
func (e *codexEnvT) trustCodexPlugin() int {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
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
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	call := func(id int, method string, params any) json.RawMessage {
		p, _ := json.Marshal(params)
		fmt.Fprintf(stdin, `{"id":%d,"method":%q,"params":%s}`+"\n", id, method, p)
		for sc.Scan() {
			var msg struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.ID != id {
				continue
			}
			if msg.Error != nil {
				e.t.Fatalf("codex app-server %s: %s", method, msg.Error)
			}
			return msg.Result
		}
		e.t.Fatalf("codex app-server gave no answer to %s (%v)", method, sc.Err())
		return nil
	}
	call(1, "initialize", map[string]any{"clientInfo": map[string]string{"name": "lucid-e2e", "version": "0"}})
	fmt.Fprintln(stdin, `{"method":"initialized"}`)
	var list struct {
		Data []struct {
			Hooks []struct {
				Key         string  `json:"key"`
				PluginID    *string `json:"pluginId"`
				CurrentHash string  `json:"currentHash"`
			} `json:"hooks"`
		} `json:"data"`
	}
	if err := json.Unmarshal(call(2, "hooks/list", map[string]any{"cwds": []string{e.repo}}), &list); err != nil || len(list.Data) != 1 {
		e.t.Fatalf("hooks/list: %v %+v", err, list)
	}
	state := map[string]any{}
	for _, h := range list.Data[0].Hooks {
		if h.PluginID != nil && *h.PluginID == "lucid@lucid" {
			state[h.Key] = map[string]string{"trusted_hash": h.CurrentHash}
		}
	}
	call(3, "config/batchWrite", map[string]any{"reloadUserConfig": true,
		"edits": []any{map[string]any{"keyPath": "hooks.state", "value": state, "mergeStrategy": "upsert"}}})
	return len(state)
}

// lucidCodex runs lucid in the repository with the world's CODEX_HOME.
func (e *codexEnvT) lucidCodex(args ...string) {
	e.t.Helper()
	cmd := exec.Command(realLucid, args...)
	cmd.Dir, cmd.Env = e.repo, e.environ()
	if out, err := cmd.CombinedOutput(); err != nil {
		e.t.Fatalf("lucid %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// patchAuth is a patch of src/auth.go, which another agent claims.
const patchAuth = "*** Begin Patch\n*** Update File: src/auth.go\n@@\n-// Login returns nil when the password matches.\n+// Login checks.\n*** End Patch\n"

// With the plugin alone (no project hooks), a session gets the digest and
// a write into another agent's claim is denied, with lucid's reason in
// the model's next request, and the file stays as it was.
func TestCodexPluginGuards(t *testing.T) {
	e := codexPluginWorld(t, bareRepo(t))
	e.claimAs(otherAgent, "src/**", "rewrite auth")
	before := e.read("src/auth.go")
	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		rs.Calls(rs.ApplyPatch(patchAuth)),
		rs.Say("Done."),
	}}
	srv := rs.New(lead)
	defer srv.Close()
	e.config(srv, "")
	e.installCodexPlugin()
	e.exec(srv, "[[codex-lead]] Edit the auth code.") // no --dangerously-bypass-hook-trust
	reqs := srv.Conversation("lead")
	if len(reqs) != 2 {
		t.Fatalf("want 2 requests, got %d\n%s", len(reqs), srv.Dump())
	}
	if first := reqs[0].Responses.Developer(); countIn(first, digestHeader) != 1 {
		t.Errorf("the first request does not carry the digest once:\n%s", strings.Join(first, "\n---\n"))
	}
	if out := lastOutput(reqs[1].Responses); !strings.Contains(out, "Command blocked by PreToolUse hook: lucid: src/auth.go is claimed by") {
		t.Errorf("the patch on the claim was not denied with lucid's reason; the call's output:\n%s", out)
	}
	if e.read("src/auth.go") != before {
		t.Error("src/auth.go changed under the claim")
	}
}

// Where a teammate ran lucid init --client codex --trust-codex, Codex runs
// the project's entries and the plugin's, both: the plugin's call stands
// aside, so each event's hooks start lucid twice, lucid answers once, and
// the model reads one digest and one denial.
func TestCodexPluginBesideProjectHooks(t *testing.T) {
	e := codexPluginWorld(t, bareRepo(t))
	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		rs.Calls(rs.ApplyPatch(patchAuth)),
		rs.Say("Done."),
	}}
	srv := rs.New(lead)
	defer srv.Close()
	e.config(srv, "")
	// The plugin first: Codex's own trust write leaves a [hooks.state]
	// header that lucid's trust then goes beside.
	e.installCodexPlugin()
	e.lucidCodex("init", "--client", "codex", "--trust-codex")
	e.git("add", "-A")
	e.git("commit", "-qm", "codex")
	e.claimAs(otherAgent, "src/**", "rewrite auth")
	before := e.read("src/auth.go")
	e.exec(srv, "[[codex-lead]] Edit the auth code.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 2 {
		t.Fatalf("want 2 requests, got %d\n%s", len(reqs), srv.Dump())
	}
	if first := reqs[0].Responses.Developer(); countIn(first, digestHeader) != 1 {
		t.Errorf("the first request does not carry the digest once:\n%s", strings.Join(first, "\n---\n"))
	}
	if out := lastOutput(reqs[1].Responses); strings.Count(out, "src/auth.go is claimed by") != 1 {
		t.Errorf("the patch was not denied once with lucid's reason; the call's output:\n%s", out)
	}
	if e.read("src/auth.go") != before {
		t.Error("src/auth.go changed under the claim")
	}
	// Both entries start lucid (the plugin's is trusted and runs); one
	// answers, the other stands aside with nothing to say.
	started, answered := map[string]int{}, map[string]int{}
	for _, c := range e.calls() {
		args := slices.DeleteFunc(slices.Clone(c.Args), func(a string) bool { return a == "--user" })
		if len(args) == 4 && args[0] == "hook" && args[1] == "--client" && args[2] == "codex" {
			started[args[3]]++
			if strings.TrimSpace(c.Stdout) != "" {
				answered[args[3]]++
			}
		}
	}
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "Stop"} {
		if started[ev] != 2 {
			t.Errorf("lucid hook --client codex %s started %d times, want 2: the project's and the plugin's (all: %v)", ev, started[ev], started)
		}
	}
	for _, ev := range []string{"SessionStart", "PreToolUse"} {
		if answered[ev] != 1 {
			t.Errorf("lucid hook --client codex %s answered %d times, want once (all: %v)", ev, answered[ev], answered)
		}
	}
}

// Without lucid on PATH the plugin blocks nothing: the write goes ahead,
// and the model is not told of the missing binary (Codex's terminal UI
// shows the person the SessionStart hook's message; codex exec prints no
// hook's message).
func TestCodexPluginWithoutLucid(t *testing.T) {
	e := codexPluginWorld(t, bareRepo(t))
	e.claimAs(otherAgent, "src/**", "rewrite auth")
	lead := &rs.Script{Name: "lead", Marker: "[[codex-lead]]", Steps: []rs.Step{
		rs.Calls(rs.ApplyPatch(patchAuth)),
		rs.Say("Done."),
	}}
	srv := rs.New(lead)
	defer srv.Close()
	e.config(srv, "")
	e.installCodexPlugin()
	// Codex's PATH is this process's, without lucid's folders.
	e.lucid = false
	t.Setenv("PATH", withoutLucid(t))
	res := e.exec(srv, "[[codex-lead]] Edit the auth code.")
	if got := e.read("src/auth.go"); !strings.Contains(got, "// Login checks.") {
		t.Errorf("the write did not go ahead without lucid:\n%s", got)
	}
	if !strings.Contains(res.stderr, "hook: SessionStart Completed") {
		t.Errorf("the plugin's SessionStart hook did not run:\n%s", clip(res.stderr, 3000))
	}
	for _, r := range srv.Conversation("lead") {
		if all := strings.Join(r.Responses.Developer(), "\n"); strings.Contains(all, "no lucid binary is on PATH") || strings.Contains(all, digestHeader) {
			t.Errorf("the model was told of lucid, or of the missing binary meant for the person:\n%s", clip(all, 3000))
			break
		}
	}
}
