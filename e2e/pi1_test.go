package e2e

// The Pi 1.x scenarios: the real `pi` of @earendil-works/pi-coding-agent
// 1.6.0 (the package Pi went on as after 0.73.1), run by the node 22 that
// scripts/install-pi1 puts beside it, headless and offline as in
// pi_test.go. Pi 1.x loads a project's .pi/extensions only in a folder it
// was told to trust; in `pi -p` an untrusted folder's extensions are
// skipped without a word. lucid's extension in the user's agent folder
// (`lucid init --user --client pi`) loads in every folder.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
)

const (
	pi1Env     = "LUCID_E2E_PI1"
	pi1Version = "1.6.0"
)

var pi1Binary clientBinary

// needPi1 skips the test when Pi 1.6.0 cannot be had, saying why, and
// returns its launcher.
func needPi1(t *testing.T) string {
	t.Helper()
	return pi1Binary.need(t, pi1Env, "Pi "+pi1Version, piVersionCheck(pi1Env, pi1Version))
}

// newPi1Lucid is a repository with lucid set up for Pi as plain lucid
// init does it (the project's .pi/extensions/lucid.js), committed, run by
// Pi 1.6.0; with user, lucid's extension is in the user's agent folder
// too.
func newPi1Lucid(t *testing.T, user bool) *piWorld {
	t.Helper()
	w := &piWorld{env: newScratch(t, t.TempDir()), bin: needPi1(t)}
	w.run("lucid", "init", "--client", "pi")
	if user {
		w.run("lucid", "init", "--user", "--client", "pi")
	}
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lucid for pi")
	return w
}

// pi1Writes is a script that writes, edits and sed-s src/auth.go, then
// answers.
func pi1Writes() *cc.Script {
	return &cc.Script{Name: "lead", Marker: "[[pi1-lead]]", Steps: []cc.Step{
		cc.CallTool("write", map[string]any{"path": "src/auth.go", "content": "package auth\n"}),
		cc.CallTool("edit", map[string]any{"path": "src/auth.go", "edits": []map[string]any{{"oldText": "Login returns nil", "newText": "Login fails"}}}),
		cc.CallTool("bash", map[string]any{"command": "sed -i s/Login/LogIn/ src/auth.go"}),
		cc.Say("Lead done."),
	}}
}

// checkGuarded fails t unless every request of srv's lead carried the
// digest and each of the three writes was blocked with lucid's reason,
// the file as it was.
func checkGuarded(t *testing.T, w *piWorld, srv *cc.Server, before string) {
	t.Helper()
	reqs := srv.Conversation("lead")
	if len(reqs) != 4 {
		t.Fatalf("want 4 requests, got %d\n%s", len(reqs), srv.Dump())
	}
	for i, r := range reqs {
		if n := strings.Count(r.Chat.SystemText(), digestHeader); n != 1 {
			t.Errorf("request %d holds the digest %d times in its system prompt, want 1", i+1, n)
		}
	}
	for _, i := range []int{1, 2, 3} {
		r, ok := reqs[i].Chat.LastToolResult()
		if reason := r.Text(); !ok || !strings.Contains(reason, "lucid: src/auth.go is claimed by") || !strings.Contains(reason, "for «rework auth»") {
			t.Errorf("request %d: the tool was not blocked with lucid's reason: %q", i+1, reason)
		}
	}
	if got := w.read("src/auth.go"); got != before {
		t.Errorf("src/auth.go changed under the claim:\n%s", got)
	}
}

// Pi 1.6.0's trust gate, as lucid meets it. With lucid's extension in the
// project only, `pi -p` in the folder it does not trust skips it: the
// model gets no digest and writes another agent's claimed file. With
// `lucid init --user --client pi` no trust is needed: the user's copy
// loads, the digest reaches the model and the writes on the claim are
// denied, the file unchanged. Told to trust the folder (--approve), Pi
// loads the project's copy too, and the model still reads one digest;
// the project's copy alone, approved, guards as well.
func TestPi1TrustGate(t *testing.T) {
	w := newPi1Lucid(t, false)
	w.claimAs(otherAgent, "src/**", "rework auth")
	before := w.read("src/auth.go")

	srv := cc.New(&cc.Script{Name: "lead", Marker: "[[pi1-lead]]", Steps: []cc.Step{
		cc.CallTool("write", map[string]any{"path": "src/auth.go", "content": "package auth\n"}),
		cc.Say("Lead done."),
	}})
	w.pi(srv, "[[pi1-lead]] Edit the auth code.")
	srv.Close()
	reqs := srv.Conversation("lead")
	if len(reqs) == 0 || strings.Contains(reqs[0].Chat.SystemText(), digestHeader) {
		t.Errorf("an untrusted folder's extension ran (the digest reached the model): Pi %s's trust gate is not what this test knows", pi1Version)
	}
	if got := w.read("src/auth.go"); got != "package auth\n" {
		t.Errorf("without lucid's extension loaded the write should have landed; src/auth.go is:\n%s", got)
	}
	w.run("git", "checkout", "--", "src/auth.go")

	w.run("lucid", "init", "--user", "--client", "pi")
	srv = cc.New(pi1Writes())
	res := w.pi(srv, "[[pi1-lead]] Edit the auth code.")
	srv.Close()
	checkGuarded(t, w, srv, before)
	if !strings.Contains(res.stdout, "Lead done.") {
		t.Errorf("pi printed %q, not the model's last answer", res.stdout)
	}

	// Told to trust the folder, Pi loads the project's copy as well: the
	// first copy to see a session handles it, and the model reads one
	// digest.
	srv = cc.New(pi1Writes())
	w.piArgs(srv, []string{"--approve", "-p", "[[pi1-lead]] Edit the auth code."})
	srv.Close()
	checkGuarded(t, w, srv, before)

	// The project's copy alone, in a folder Pi is told to trust, guards.
	a := newPi1Lucid(t, false)
	a.claimAs(otherAgent, "src/**", "rework auth")
	srv = cc.New(pi1Writes())
	a.piArgs(srv, []string{"--approve", "-p", "[[pi1-lead]] Edit the auth code."})
	srv.Close()
	checkGuarded(t, a, srv, before)
	if _, err := os.Stat(filepath.Join(a.home, ".pi", "agent", "trust.json")); err == nil {
		t.Logf("pi --approve recorded its trust in ~/.pi/agent/trust.json")
	}
}

// The stop gate works in Pi 1.6.0 as in 0.73.1: the extension asks for
// one more turn as the assistant's last message ends, and Pi -p takes it.
func TestPi1StopGate(t *testing.T) {
	w := newPi1Lucid(t, true)
	srv := cc.New(&cc.Script{Name: "lead", Marker: "[[pi1-lead]]", Steps: []cc.Step{
		cc.CallTool("write", map[string]any{"path": "docs/gate.md", "content": "gate\n"}),
		cc.Say("First answer."),
		cc.Say("Second answer."),
	}})
	defer srv.Close()
	res := w.pi(srv, "[[pi1-lead]] Write the gate notes.")
	reqs := srv.Conversation("lead")
	if len(reqs) != 3 {
		t.Fatalf("want 3 requests (one more turn), got %d\n%s", len(reqs), srv.Dump())
	}
	if got := reqs[2].Chat.LastUserText(); !strings.Contains(got, "lucid") {
		t.Errorf("the extra turn's prompt is not lucid's: %q", got)
	}
	if !strings.Contains(res.stdout, "Second answer.") {
		t.Errorf("pi printed %q, not the extra turn's answer", res.stdout)
	}
	if out := w.run("lucid", "claims"); strings.Contains(out, "docs/gate.md") {
		t.Errorf("the write's lease outlived the session:\n%s", out)
	}
}
