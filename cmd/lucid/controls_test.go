package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// nasty holds what a hostile entry, name or file name can carry: a title
// change (OSC ... BEL), a screen clear, a carriage return that hides text,
// NUL, DEL, a C1 control and a bidi override.
const nasty = "a\x1b]0;pwned\x07b\x1b[2Jc\rd\x00e\x7ff\u0085g\u202eh"

// TestControlsEscaped: control characters in an entry's text, an agent's
// name and type, a claim's task and globs, an evidence path and a plan
// diff come out escaped on every path lucid prints for a person or a
// model: log, status, claims, dream and doctor (text and JSON), the digest
// and the delta, a deny reason, a violation line, a lich note and the
// status line.
func TestControlsEscaped(t *testing.T) {
	repo := newLucidRepo(t)
	const session = "9d1f4a52-7c0e-4e7b-8d43-0f5b8a1c2e77"
	writer := "c0ffee00-1111-4222-8333-444455556666/agent\x1b[31m"
	// What a pulled branch can bring: entries written by anyone, as JSON
	// escapes that decode to control characters.
	evPath := "src/ev" + "\x1b]0;x\x07" + ".go"
	if err := os.MkdirAll(filepath.Join(repo.Top, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo.Top, evPath), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	fact := logformat.NewEntry(now, writer, logformat.KindFact, nasty+"\nsecond line "+nasty)
	fact.Evidence = []logformat.Evidence{{Path: evPath, Line: 1, Blake3: "00"}} // stale: the hash differs
	plan := logformat.NewEntry(now, writer, logformat.KindPlan, "plan.md changed")
	plan.Diff = "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+" + nasty + "\n"
	sup := logformat.NewEntry(now, writer, logformat.KindSupersede, nasty)
	sup.Supersedes = "X\x1b[2J"
	for _, e := range []logformat.Entry{fact, plan, sup} {
		if err := logstore.Append(repo.LogPath(), e); err != nil {
			t.Fatal(err)
		}
	}
	// A subagent whose type carries controls, known from its start.
	sub := session + "/a1b2c3d4"
	hook := func(event, extra string, env ...string) string {
		t.Helper()
		cmd := lucidCmd(repo, "", "hook", event)
		cmd.Env = append(cmd.Env, env...)
		cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":%q%s}`, session, repo.Top, event, extra))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("hook %s: %v", event, err)
		}
		return string(out)
	}
	hook("SubagentStart", `,"agent_id":"a1b2c3d4","agent_type":"evil\u001b]0;t\u0007\r\u0000"`)
	if err := logstore.Append(repo.LogPath(), logformat.NewEntry(now, sub, logformat.KindNote, "from the subagent "+nasty)); err != nil {
		t.Fatal(err)
	}
	// Claims with hostile tasks and globs, one through the command line.
	claimed := "src/claimed\x1b(0.go"
	if out, err := lucidCmd(repo, "77777777-8888-4999-aaaa-bbbbccccdddd", "claim", claimed, "--for", "task \x1b]0;x\x07\rhidden").CombinedOutput(); err != nil {
		t.Fatalf("claim: %v\n%s", err, out)
	} else if escape.Needed(string(out), true) {
		t.Errorf("lucid claim printed a control character raw: %q", out)
	}
	claims, _, err := claimstore.Load(repo)
	if err != nil {
		t.Fatal(err)
	}
	claims = append(claims, claimstore.Claim{ID: logformat.NewID(now), Owner: writer, Created: now, Worktree: repo.Top + "\x1b[2J", Task: nasty, Globs: []string{"docs/\x1b(0**"}})
	if err := claimstore.Save(repo, claims); err != nil {
		t.Fatal(err)
	}

	check := func(what, out string, wantEscaped bool) {
		t.Helper()
		if escape.Needed(out, true) {
			t.Errorf("%s: a control character came out raw:\n%q", what, out)
		}
		if wantEscaped && !strings.Contains(out, `\x1b`) && !strings.Contains(out, `\u001b`) {
			t.Errorf("%s: no escaped ESC (\\x1b, or \\u001b in JSON) in its output, so the hostile text went missing:\n%s", what, out)
		}
	}
	// checkHook decodes a hook's JSON: what the model reads is the
	// decoded strings.
	checkHook := func(what, out string, want string) {
		t.Helper()
		var o struct {
			Specific struct {
				Context string `json:"additionalContext"`
				Reason  string `json:"permissionDecisionReason"`
			} `json:"hookSpecificOutput"`
			Reason string `json:"reason"`
		}
		if err := json.Unmarshal([]byte(out), &o); err != nil {
			t.Fatalf("%s: not JSON: %v\n%s", what, err, out)
		}
		text := o.Specific.Context + o.Specific.Reason + o.Reason
		check(what, text, true)
		if !strings.Contains(text, want) {
			t.Errorf("%s: %q not in %q", what, want, text)
		}
	}

	for _, args := range [][]string{
		{"log"}, {"log", "--all"}, {"log", "--json"}, {"status"}, {"status", "--json"},
		{"claims"}, {"claims", "--json"}, {"dream"}, {"dream", "--json"},
	} {
		out, err := lucidCmd(repo, "", args...).CombinedOutput()
		if err != nil {
			t.Fatalf("lucid %v: %v\n%s", args, err, out)
		}
		check("lucid "+strings.Join(args, " "), string(out), true)
		if args[len(args)-1] == "--json" && !json.Valid(out) {
			t.Errorf("lucid %v: not valid JSON:\n%s", args, out)
		}
	}
	// doctor names paths: a repository whose folder's name carries
	// controls.
	odd := filepath.Join(t.TempDir(), "repo\x1b]0;x\x07")
	gittest.Run(t, filepath.Dir(odd), "init", "-q", odd)
	lucidInit(t, odd)
	doctor := exec.Command("lucid", "doctor")
	doctor.Dir = odd
	out, _ := doctor.CombinedOutput()
	check("lucid doctor", string(out), true)

	checkHook("SessionStart (the digest)", hook("SessionStart", `,"source":"startup"`), "from the subagent")
	if err := logstore.Append(repo.LogPath(), logformat.NewEntry(time.Now(), writer, logformat.KindFact, "news "+nasty)); err != nil {
		t.Fatal(err)
	}
	checkHook("UserPromptSubmit (the delta)", hook("UserPromptSubmit", `,"prompt":"go"`), "news a")
	edit := func(path string) string {
		b, _ := json.Marshal(filepath.Join(repo.Top, path))
		return fmt.Sprintf(`,"tool_name":"Edit","tool_input":{"file_path":%s,"old_string":"a","new_string":"b"}`, b)
	}
	checkHook("PreToolUse deny reason", hook("PreToolUse", edit(claimed)), "is claimed by")
	b, _ := json.Marshal(filepath.Join(repo.Top, claimed))
	checkHook("PostToolUse violation", hook("PostToolUse", fmt.Sprintf(`,"tool_name":"Bash","tool_input":{"command":"make"},"tool_response":{"bashEditDiff":{"changedFiles":[%s]}}`, b)), "your command changed")

	// lich: one session edits a file, another is told, and its status line
	// names the first.
	lichFile := "lib/x\x1b[2J.go"
	os.MkdirAll(filepath.Join(repo.Top, "lib"), 0o755)
	os.WriteFile(filepath.Join(repo.Top, lichFile), []byte("x\n"), 0o644)
	post := strings.Replace(edit(lichFile), `"tool_name":"Edit"`, `"tool_name":"Edit","tool_response":{}`, 1)
	hook("PostToolUse", post, "LICH_SESSION_ID=lich\x1b]0;a\x07")
	checkHook("lich note", hook("PreToolUse", edit(lichFile), "LICH_SESSION_ID=lich-b"), "was also edited by the lich session")
	st := exec.Command("lucid", "statusline")
	st.Dir = repo.Top
	st.Env = append(os.Environ(), "LICH_SESSION_ID=lich-b")
	st.Stdin = strings.NewReader(fmt.Sprintf(`{"workspace":{"current_dir":%q}}`, repo.Top))
	out, err = st.Output()
	if err != nil || !strings.Contains(string(out), "also edited by") {
		t.Errorf("statusline: %v %q", err, out)
	}
	check("lucid statusline", string(out), true)
}
