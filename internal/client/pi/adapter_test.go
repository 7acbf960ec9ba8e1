package pi

import (
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/testkit/clienttest"
)

const (
	sess   = "01a24d37-fd9f-70cf-a5b7-d319f5e3db07"
	omp    = "01a24d30-a49f-73b8-85f3-bc25618bb82d"
	child  = "01a24d30-b1c2-7000-8000-000000000001"
	repo   = "/home/dev/repo"
	always = client.NewsAfter | client.Unrecorded
)

// What lucid makes of the extension's payloads (testdata/payloads/pi-extension,
// built from the events Pi and omp sent): the files each writing tool
// names, resolved against the session's folder; omp's bash in its own
// folder; an omp subagent's session as the lead's subagent; the gate's
// Stop keeping the claims; the news never at PreToolUse.
func TestDecode(t *testing.T) {
	a := clienttest.Adapter{Client: Client{}, Version: "pi-extension"}
	lead := client.Input{SessionID: sess, Cwd: repo, Caps: always | client.GateLead}
	pre := func(tool string, kind client.Tool, f func(*client.Input)) client.Input {
		return clienttest.With(lead, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Caps = client.PreToolUse, tool, kind, in.Caps|client.Mute
			f(in)
		})
	}
	a.TestDecode(t, []clienttest.Decoding{
		{File: "start.json", Event: client.SessionStart, Want: clienttest.With(lead, func(in *client.Input) { in.Event, in.Source = client.SessionStart, "startup" })},
		{File: "write-src.json", Event: client.PreToolUse, Want: pre("write", client.ToolEdit, func(in *client.Input) { in.Paths = []string{repo + "/src/a.go"} })},
		{File: "edit-src.json", Event: client.PreToolUse, Want: pre("edit", client.ToolEdit, func(in *client.Input) { in.Paths = []string{repo + "/src/a.go"} })},
		{File: "bash-src.json", Event: client.PreToolUse, Want: pre("bash", client.ToolShell, func(in *client.Input) { in.Command = "sed -i s/a/b/ src/a.go" })},
		{File: "omp-bash-src.json", Event: client.PreToolUse, Want: pre("bash", client.ToolShell, func(in *client.Input) {
			in.SessionID, in.Command, in.Cwd = omp, "echo x > a.go", repo+"/src"
		})},
		{File: "write-docs.json", Event: client.PostToolUse, Want: clienttest.With(lead, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths, in.Caps = client.PostToolUse, "write", client.ToolEdit, []string{repo + "/docs/notes.md"}, in.Caps|client.WarnAfter
		})},
		{File: "omp-child-start.json", Event: client.SessionStart, Want: client.Input{
			Event: client.SubagentStart, SessionID: omp, AgentID: child, AgentType: "subagent", Cwd: repo, Source: "startup", Caps: always,
		}},
		{File: "stop-gate.json", Event: client.Stop, Want: clienttest.With(lead, func(in *client.Input) { in.Event, in.Caps = client.Stop, in.Caps|client.KeepClaims })},
		{File: "stop-end.json", Event: client.Stop, Want: clienttest.With(lead, func(in *client.Input) { in.Event, in.StopHookActive = client.Stop, true })},
		{File: "end.json", Event: client.SessionEnd, Want: clienttest.With(lead, func(in *client.Input) { in.Event = client.SessionEnd })},
		{Event: client.SessionStart, Payload: `{"sessionID":"s","cwd":"/r","source":"compact"}`,
			Want: client.Input{Event: client.SessionStart, SessionID: "s", Cwd: "/r", Source: "compact", Caps: always | client.GateLead}},
		{Event: client.PreToolUse, Payload: `{"sessionID":"s","cwd":"/r","tool":"write","args":7}`,
			Want: client.Input{Event: client.PreToolUse, SessionID: "s", Cwd: "/r", ToolName: "write", Tool: client.ToolEdit, Caps: always | client.GateLead | client.Mute}},
		{Event: client.PreToolUse, Payload: `[1]`, Err: "payload is not a JSON object"},
	})
}

// omp's edit tool names its files inside its patch text in its default
// (hashline) and apply_patch modes, and its renames beside the path in
// patch mode; ast_edit takes paths, of which a glob names no one file.
// Each file named is guarded, once.
func TestDecodeOmpEditModes(t *testing.T) {
	a := clienttest.Adapter{Client: Omp{}, Version: "pi-extension"}
	pre := func(tool string, paths ...string) client.Input {
		return client.Input{Event: client.PreToolUse, SessionID: "s", Cwd: "/r", ToolName: tool, Tool: client.ToolEdit,
			Paths: paths, Caps: always | client.GateLead | client.Mute}
	}
	a.TestDecode(t, []clienttest.Decoding{
		{Event: client.PreToolUse, Payload: `{"sessionID":"s","cwd":"/r","tool":"edit","args":{"input":"*** Begin Patch\n[src/auth.go#ab12]\nPUT 3.=3:\n+x\n[ new file.txt ]\nPUT >$:\n+[not/a/header.go#ab12]\n[docs/b.md#00ff]\nMV docs/c.md\n[/abs/x.txt#ab12]\nREM\n[src/auth.go#cd34]\nPUT 1.=1:\n+y\n*** End Patch\n"}}`,
			Want: pre("edit", "/r/src/auth.go", "/r/new file.txt", "/r/docs/b.md", "/r/docs/c.md", "/abs/x.txt")},
		{Event: client.PreToolUse, Payload: `{"sessionID":"s","cwd":"/r","tool":"edit","args":{"input":"*** Begin Patch\r\n*** Add File: hello.txt\r\n+Hello\r\n*** Update File: src/app.py\r\n*** Move to: src/main.py\r\n@@\r\n-a\r\n [x]\r\n*** Delete File: old.txt\r\n*** End Patch\r\n"}}`,
			Want: pre("edit", "/r/hello.txt", "/r/src/app.py", "/r/src/main.py", "/r/old.txt")},
		{Event: client.PreToolUse, Payload: `{"sessionID":"s","cwd":"/r","tool":"edit","args":{"path":"a.txt","edits":[{"op":"update","rename":"b.txt","diff":"@@"},{"op":"delete"}]}}`,
			Want: pre("edit", "/r/a.txt", "/r/b.txt")},
		{Event: client.PreToolUse, Payload: `{"sessionID":"s","cwd":"/r","tool":"ast_edit","args":{"ops":[{"pat":"a","out":"b"}],"paths":["src/a.ts","src/**/*.ts","lib","file:///x"]}}`,
			Want: pre("ast_edit", "/r/src/a.ts", "/r/lib")},
		{Event: client.PreToolUse, Payload: `{"sessionID":"s","cwd":"/r","tool":"edit","args":{"input":7,"edits":"x","paths":{}}}`,
			Want: pre("edit")},
	})
}

// The answer as the extension reads it: a deny's reason, a block,
// context (none at the mute PreToolUse), nothing when lucid says nothing.
func TestEncode(t *testing.T) {
	pre := client.Input{Event: client.PreToolUse, Caps: client.Mute}
	post := client.Input{Event: client.PostToolUse}
	for _, c := range []client.Client{Client{}, Omp{}} {
		clienttest.Adapter{Client: c}.TestEncode(t, []clienttest.Encoding{
			{Name: "deny", In: pre, Out: client.Output{Deny: `src/a.go is "claimed"`}, Want: `{"deny":"src/a.go is \"claimed\""}`},
			{Name: "context and a signed command at PreToolUse", In: pre, Out: client.Output{Context: "news", Command: "LUCID_AGENT=x lucid fact y"}, Want: ""},
			{Name: "context after a tool", In: post, Out: client.Output{Context: "news"}, Want: `{"context":"news"}`},
			{Name: "block at Stop", In: client.Input{Event: client.Stop}, Out: client.Output{Block: "record"}, Want: `{"block":"record"}`},
		})
	}
}

// An agent's shell is known by the id the extension sets, each client's
// by its own variable; the extension's own hook calls are not a shell;
// each client's process is its own.
func TestShell(t *testing.T) {
	if sh, ok := (Client{}).AgentShell(clienttest.Env(identity.PiAgentVar, sess, "PI_CODING_AGENT", "true")); !ok || sh.Agent != sess || sh.Client != "pi" {
		t.Errorf("Pi's agent shell: %+v %v", sh, ok)
	}
	if sh, ok := (Omp{}).AgentShell(clienttest.Env(identity.OmpAgentVar, omp+"/"+child, "OMPCODE", "1")); !ok || sh.Agent != omp+"/"+child || sh.Client != "omp" {
		t.Errorf("omp's agent shell: %+v %v", sh, ok)
	}
	if _, ok := (Client{}).AgentShell(clienttest.Env("PI_CODING_AGENT", "true")); ok {
		t.Error("Pi's process without the extension's variable is an agent's shell")
	}
	if _, ok := (Client{}).AgentShell(clienttest.Env(identity.PiAgentVar, sess, identity.PiHookVar, "1")); ok {
		t.Error("the extension's hook call is an agent's shell")
	}
	if own, known := (Omp{}).OwnHook(clienttest.Env(identity.PiHookVar, "1")); !own || !known {
		t.Error("the extension's hook call is not its own")
	}
	piArgs := []string{"/usr/bin/node", "/x/node_modules/@mariozechner/pi-coding-agent/dist/cli.js", "-p"}
	ompArgs := []string{"/x/bun", "/x/node_modules/@oh-my-pi/pi-coding-agent/dist/cli.js", "-p"}
	if !(Client{}).ClientProcess("node", piArgs) || (Client{}).ClientProcess("bun", ompArgs) {
		t.Error("Pi's process")
	}
	if !(Omp{}).ClientProcess("bun", ompArgs) || (Omp{}).ClientProcess("node", piArgs) {
		t.Error("omp's process")
	}
	if Agent(child, omp) != omp+"/"+child || Agent(sess, "") != sess {
		t.Error("Agent")
	}
}
