package clients

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/hooks"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// Every client's agent editing a file is told what the log knows of it
// once: at the edit's PreToolUse where the client shows the model its
// context, at its PostToolUse where it does not.
func TestFileFactsReachEveryClient(t *testing.T) {
	payloads := editPayloads
	for _, c := range Adapters() {
		t.Run(c.Name(), func(t *testing.T) {
			p, ok := payloads[c.Name()]
			if c.Name() == "kilo" {
				p, ok = payloads["opencode"] // the same plugin
			}
			if !ok {
				t.Fatalf("no payloads for %s: add its edit here", c.Name())
			}
			gittest.Setenv(t)
			t.Setenv("LUCID_BUDGET", "")
			repo, err := gitstore.Find(gittest.Init(t))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := repo.Init(); err != nil {
				t.Fatal(err)
			}
			gittest.WriteFile(t, repo.Top, "src/auth.go", "package auth\n\nfunc Login() {}\n")
			e := logformat.NewEntry(time.Now(), "someone-else", logformat.KindFact, "Login is called by the audit hook")
			ev, err := logstore.Cite(repo, repo.Top, "src/auth.go:3")
			if err != nil {
				t.Fatal(err)
			}
			e.Evidence = []logformat.Evidence{ev}
			if err := logstore.Append(repo.LogPath(), e); err != nil {
				t.Fatal(err)
			}
			for range 80 { // the digest lists none of the entries before them
				if err := logstore.Append(repo.LogPath(), logformat.NewEntry(time.Now(), "someone-else", logformat.KindNote, strings.Repeat("a note on the build scripts ", 4))); err != nil {
					t.Fatal(err)
				}
			}
			run := runner(t, c, p, repo.Top)
			if start := run(0); strings.Contains(start, e.ID) {
				t.Fatalf("the digest lists the entry: %s", start)
			}
			pre, post := run(1), run(2)
			mute := muteBefore(t, c, p, repo.Top) // the model is shown nothing from the hook before
			where, other := pre, post
			if mute {
				where, other = post, pre
			}
			if strings.Count(where, e.ID) != 1 || strings.Contains(other, e.ID) {
				t.Errorf("the edit's hooks said:\nbefore: %s\nafter: %s\nwant the entry once, %s", pre, post, map[bool]string{true: "after", false: "before"}[mute])
			}
			if again := run(1) + run(2); strings.Contains(again, e.ID) {
				t.Errorf("the next edit was told it again: %s", again)
			}
		})
	}
}

// Every client's agent about to edit a file another agent (a Claude Code
// session's) just changed is told who, once: at the edit's PreToolUse
// where the client shows the model its context, at its PostToolUse where it
// does not; and the other agent learns at its next prompt that this one is
// editing its file.
func TestAwarenessReachesEveryClient(t *testing.T) {
	claude := editPayloads["claude"]
	const otherSession = "0b218250-bcad-4f28-bb25-013e7e946655"
	for _, c := range Adapters() {
		t.Run(c.Name(), func(t *testing.T) {
			p, ok := editPayloads[c.Name()]
			if c.Name() == "kilo" {
				p, ok = editPayloads["opencode"]
			}
			if !ok {
				t.Fatalf("no payloads for %s: add its edit here", c.Name())
			}
			gittest.Setenv(t)
			t.Setenv("LICH_SESSION_ID", "")
			t.Setenv("LUCID_LEASES", "off") // the two sessions' writes of one file are told, not stopped
			repo, err := gitstore.Find(gittest.Init(t))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := repo.Init(); err != nil {
				t.Fatal(err)
			}
			gittest.WriteFile(t, repo.Top, "src/auth.go", "package auth\n")
			first := runner(t, Default(), claude, repo.Top, "$S", otherSession)
			first(0)
			first(1)
			first(2)
			run := runner(t, c, p, repo.Top)
			run(0)
			pre, post := run(1), run(2)
			where, other := pre, post
			if muteBefore(t, c, p, repo.Top) {
				where, other = post, pre
			}
			const note = "src/auth.go was changed since your last write of it by lead·0b2182 (Claude Code)"
			if strings.Count(where, note) != 1 || strings.Contains(other, note) {
				t.Errorf("the edit's hooks said:\nbefore: %s\nafter: %s\nwant the note once, where the model sees it", pre, post)
			}
			if again := run(1) + run(2); strings.Contains(again, note) {
				t.Errorf("the next edit was told it again: %s", again)
			}
			prompt := runner(t, Default(), [3]struct{ event, body string }{{"UserPromptSubmit",
				`{"session_id":"$S","cwd":"$DIR","hook_event_name":"UserPromptSubmit","prompt":"go on"}`}}, repo.Top, "$S", otherSession)
			if got := prompt(0); !strings.Contains(got, "(") || !strings.Contains(got, " is now editing src/auth.go, which you changed") {
				t.Errorf("the first agent's next prompt got %s; want that the %s agent is editing its file", got, c.Name())
			}

			// With leases on, the Claude Code session's write of another
			// file leases it: this client's agent is stopped before its
			// edit, the reason in the client's own form.
			t.Setenv("LUCID_LEASES", "on")
			lease := func(p [3]struct{ event, body string }) [3]struct{ event, body string } {
				for i := range p {
					p[i].body = strings.ReplaceAll(p[i].body, "src/auth.go", "src/lease.go")
				}
				return p
			}
			runner(t, Default(), lease(claude), repo.Top, "$S", otherSession)(1)
			if got := runner(t, c, lease(p), repo.Top)(1); !strings.Contains(got, "src/lease.go is being edited by lead·0b2182") {
				t.Errorf("the %s agent's edit of the file the Claude Code session leased got %s; want it stopped by the lease", c.Name(), got)
			}
		})
	}
}

// runner runs the hooks of client c with the payloads p (their $DIR the
// work tree top, $S a session id, or what subst says).
func runner(t *testing.T, c client.Client, p [3]struct{ event, body string }, top string, subst ...string) func(int) string {
	fill := strings.NewReplacer(append(subst, "$S", "7d1f3a52-4c1e-4f7e-9b7a-2f4c8e9d0a11", "$DIR", top)...)
	return func(i int) string {
		var out, errs bytes.Buffer
		hooks.Run(c, Adapters(), identity.Naming(), p[i].event, strings.NewReader(fill.Replace(p[i].body)), &out, &errs)
		if errs.Len() > 0 {
			t.Logf("%s: %s", p[i].event, errs.String())
		}
		return out.String()
	}
}

// muteBefore reports whether c shows the model nothing from the hook
// before its edit (p[1]).
func muteBefore(t *testing.T, c client.Client, p [3]struct{ event, body string }, top string) bool {
	in, err := c.Decode(p[1].event, []byte(strings.NewReplacer("$S", "s", "$DIR", top).Replace(p[1].body)))
	if err != nil {
		t.Fatal(err)
	}
	return in.Caps.Has(client.Mute)
}

// editPayloads are each client's start, and its edit's hook before and
// after, with $DIR for the work tree and $S for the session.
var editPayloads = map[string][3]struct{ event, body string }{
	"claude": {
		{"SessionStart", `{"session_id":"$S","cwd":"$DIR","hook_event_name":"SessionStart","source":"startup"}`},
		{"PreToolUse", `{"session_id":"$S","cwd":"$DIR","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"$DIR/src/auth.go","old_string":"a","new_string":"b"}}`},
		{"PostToolUse", `{"session_id":"$S","cwd":"$DIR","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"$DIR/src/auth.go","old_string":"a","new_string":"b"},"tool_response":{}}`},
	},
	"codex": {
		{"SessionStart", `{"session_id":"$S","cwd":"$DIR","hook_event_name":"SessionStart","source":"startup"}`},
		{"PreToolUse", `{"session_id":"$S","cwd":"$DIR","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: src/auth.go\n@@\n-a\n+b\n*** End Patch\n"}}`},
		{"PostToolUse", `{"session_id":"$S","cwd":"$DIR","hook_event_name":"PostToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: src/auth.go\n@@\n-a\n+b\n*** End Patch\n"},"tool_response":"ok"}`},
	},
	"gemini": {
		{"SessionStart", `{"session_id":"$S","cwd":"$DIR","hook_event_name":"SessionStart","source":"startup"}`},
		{"BeforeTool", `{"session_id":"$S","cwd":"$DIR","hook_event_name":"BeforeTool","tool_name":"replace","tool_input":{"file_path":"$DIR/src/auth.go","old_string":"a","new_string":"b"}}`},
		{"AfterTool", `{"session_id":"$S","cwd":"$DIR","hook_event_name":"AfterTool","tool_name":"replace","tool_input":{"file_path":"$DIR/src/auth.go","old_string":"a","new_string":"b"},"tool_response":{"llmContent":"ok"}}`},
	},
	"copilot": {
		{"sessionStart", `{"sessionId":"$S","timestamp":1796321748498,"cwd":"$DIR","source":"new","initialPrompt":"go"}`},
		{"preToolUse", `{"sessionId":"$S","timestamp":1796321749954,"cwd":"$DIR","toolName":"edit","toolArgs":{"path":"$DIR/src/auth.go","old_str":"a","new_str":"b"}}`},
		{"postToolUse", `{"sessionId":"$S","timestamp":1796321750084,"cwd":"$DIR","toolName":"edit","toolArgs":{"path":"$DIR/src/auth.go","old_str":"a","new_str":"b"},"toolResult":{"resultType":"success","textResultForLlm":"ok"}}`},
	},
	"qwen": {
		{"SessionStart", `{"session_id":"$S","cwd":"$DIR","hook_event_name":"SessionStart","source":"startup"}`},
		{"PreToolUse", `{"session_id":"$S","cwd":"$DIR","hook_event_name":"PreToolUse","tool_name":"edit","tool_input":{"file_path":"$DIR/src/auth.go","old_string":"a","new_string":"b"}}`},
		{"PostToolUse", `{"session_id":"$S","cwd":"$DIR","hook_event_name":"PostToolUse","tool_name":"edit","tool_input":{"file_path":"$DIR/src/auth.go","old_string":"a","new_string":"b"},"tool_response":{"llmContent":"ok"}}`},
	},
	// Crush has PreToolUse alone: its agent starts at its first tool call,
	// and the call after the edit is another PreToolUse.
	"crush": {
		{"PreToolUse", `{"event":"PreToolUse","session_id":"$S","cwd":"$DIR","tool_name":"bash","tool_input":{"command":"true","description":"d"}}`},
		{"PreToolUse", `{"event":"PreToolUse","session_id":"$S","cwd":"$DIR","tool_name":"edit","tool_input":{"file_path":"$DIR/src/auth.go","old_string":"a","new_string":"b"}}`},
		{"PreToolUse", `{"event":"PreToolUse","session_id":"$S","cwd":"$DIR","tool_name":"view","tool_input":{"file_path":"$DIR/README.md"}}`},
	},
	"opencode": {
		{"SessionStart", `{"cwd":"$DIR","sessionID":"$S","parentID":""}`},
		{"PreToolUse", `{"cwd":"$DIR","sessionID":"$S","parentID":"","callID":"call_1","tool":"edit","args":{"filePath":"src/auth.go","oldString":"a","newString":"b"}}`},
		{"PostToolUse", `{"cwd":"$DIR","sessionID":"$S","parentID":"","callID":"call_1","tool":"edit","args":{"filePath":"src/auth.go","oldString":"a","newString":"b"}}`},
	},
	"pi": {
		{"SessionStart", `{"sessionID":"$S","parentID":"","cwd":"$DIR","source":"startup"}`},
		{"PreToolUse", `{"sessionID":"$S","parentID":"","cwd":"$DIR","tool":"edit","callID":"call_4_0","args":{"path":"src/auth.go","edits":[{"oldText":"a","newText":"b"}]}}`},
		{"PostToolUse", `{"sessionID":"$S","parentID":"","cwd":"$DIR","tool":"edit","callID":"call_4_0","args":{"path":"src/auth.go","edits":[{"oldText":"a","newText":"b"}]}}`},
	},
	"omp": { // omp's edit with PI_EDIT_VARIANT=replace
		{"SessionStart", `{"sessionID":"$S","parentID":"","cwd":"$DIR","source":"startup"}`},
		{"PreToolUse", `{"sessionID":"$S","parentID":"","cwd":"$DIR","tool":"edit","callID":"call_4_0","args":{"path":"src/auth.go","old_string":"a","new_string":"b"}}`},
		{"PostToolUse", `{"sessionID":"$S","parentID":"","cwd":"$DIR","tool":"edit","callID":"call_4_0","args":{"path":"src/auth.go","old_string":"a","new_string":"b"}}`},
	},
	"cline": {
		{"TaskStart", `{"clineVersion":"","taskId":"conv_1","sessionContext":{"rootSessionId":"$S"},"workspaceRoots":["$DIR"],"workspaceInfo":{"rootPath":"$DIR"},"agent_id":"agent_1","parent_agent_id":null,"hookName":"agent_start","taskStart":{"taskMetadata":{}}}`},
		{"PreToolUse", `{"clineVersion":"","taskId":"conv_1","sessionContext":{"rootSessionId":"$S"},"workspaceRoots":["$DIR"],"workspaceInfo":{"rootPath":"$DIR"},"agent_id":"agent_1","parent_agent_id":null,"hookName":"tool_call","iteration":1,"tool_call":{"id":"call_1","name":"editor","input":{"path":"$DIR/src/auth.go","old_text":"a","new_text":"b"}}}`},
		{"PostToolUse", `{"clineVersion":"","taskId":"conv_1","sessionContext":{"rootSessionId":"$S"},"workspaceRoots":["$DIR"],"workspaceInfo":{"rootPath":"$DIR"},"agent_id":"agent_1","parent_agent_id":null,"hookName":"tool_result","iteration":1,"tool_result":{"id":"call_1","name":"editor","input":{"path":"$DIR/src/auth.go","old_text":"a","new_text":"b"},"output":{"query":"edit:$DIR/src/auth.go","result":"Edited","success":true}}}`},
	},
}
