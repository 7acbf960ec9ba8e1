package opencode

import (
	"slices"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/testkit/clienttest"
)

// What lucid makes of the plugin's payloads: the files each writing tool
// names, resolved against the project; a child session as the lead's
// subagent; the news never at PreToolUse.
func TestDecode(t *testing.T) {
	cases := []struct {
		name, event, payload string
		want                 client.Input
		keep                 bool // KeepClaims
	}{
		{"write, relative", client.PreToolUse, `{"cwd":"/r","sessionID":"ses_a","tool":"write","args":{"filePath":"new.txt","content":"x"}}`,
			client.Input{SessionID: "ses_a", Tool: client.ToolEdit, Paths: []string{"/r/new.txt"}}, false},
		{"edit, absolute", client.PreToolUse, `{"cwd":"/r","sessionID":"ses_a","tool":"edit","args":{"filePath":"/r/src/a.go"}}`,
			client.Input{SessionID: "ses_a", Tool: client.ToolEdit, Paths: []string{"/r/src/a.go"}}, false},
		{"apply_patch", client.PreToolUse, `{"cwd":"/r","sessionID":"ses_a","tool":"apply_patch","args":{"patchText":"*** Begin Patch\n*** Add File: p.txt\n+x\n*** Update File: hello.txt\n@@\n-a\n+b\n*** End Patch"}}`,
			client.Input{SessionID: "ses_a", Tool: client.ToolEdit, Paths: []string{"/r/p.txt", "/r/hello.txt"}}, false},
		{"bash in workdir", client.PreToolUse, `{"cwd":"/r","sessionID":"ses_a","tool":"bash","args":{"command":"ls","workdir":"src"}}`,
			client.Input{SessionID: "ses_a", Tool: client.ToolShell, Command: "ls", Cwd: "/r/src"}, false},
		{"Kilo's background process", client.PreToolUse, `{"cwd":"/r","sessionID":"ses_a","tool":"background_process","args":{"action":"start","command":"npm run dev","workdir":"web"}}`,
			client.Input{SessionID: "ses_a", Tool: client.ToolShell, Command: "npm run dev", Cwd: "/r/web"}, false},
		{"child session", client.PreToolUse, `{"cwd":"/r","sessionID":"ses_c","parentID":"ses_a","tool":"bash","args":{"command":"ls"}}`,
			client.Input{SessionID: "ses_a", AgentID: "ses_c", Tool: client.ToolShell, Command: "ls", Cwd: "/r"}, false},
		{"child's start", client.SessionStart, `{"cwd":"/r","sessionID":"ses_c","parentID":"ses_a"}`,
			client.Input{Event: client.SubagentStart, SessionID: "ses_a", AgentID: "ses_c", Cwd: "/r"}, false},
		{"child's idle", client.Stop, `{"cwd":"/r","sessionID":"ses_c","parentID":"ses_a"}`,
			client.Input{Event: client.SubagentStop, SessionID: "ses_a", AgentID: "ses_c", Cwd: "/r"}, false},
		{"text's end", client.Stop, `{"cwd":"/r","sessionID":"ses_a","textEnd":true}`,
			client.Input{Event: client.Stop, SessionID: "ses_a", Cwd: "/r"}, true},
		{"child's text's end", client.Stop, `{"cwd":"/r","sessionID":"ses_c","parentID":"ses_a","textEnd":true}`,
			client.Input{Event: client.SubagentStop, SessionID: "ses_a", AgentID: "ses_c", Cwd: "/r"}, true},
		{"task", client.PostToolUse, `{"cwd":"/r","sessionID":"ses_a","tool":"task","args":{"prompt":"x"}}`,
			client.Input{SessionID: "ses_a", Tool: client.ToolAgent}, false},
		{"args not an object", client.PreToolUse, `{"cwd":"/r","sessionID":"ses_a","tool":"write","args":7}`,
			client.Input{SessionID: "ses_a", Tool: client.ToolEdit}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, err := Client{}.Decode(tc.event, []byte(tc.payload))
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if want.Event == "" {
				want.Event = tc.event
			}
			if want.Cwd == "" {
				want.Cwd = "/r"
			}
			if in.Event != want.Event || in.SessionID != want.SessionID || in.AgentID != want.AgentID ||
				in.Tool != want.Tool || in.Command != want.Command || in.Cwd != want.Cwd || !slices.Equal(in.Paths, want.Paths) {
				t.Errorf("got %+v\nwant %+v", in, want)
			}
			if in.Caps.Has(client.KeepClaims) != tc.keep {
				t.Errorf("KeepClaims %v, want %v", in.Caps.Has(client.KeepClaims), tc.keep)
			}
			if in.Caps.Has(client.Mute) != (tc.event == client.PreToolUse) {
				t.Errorf("Mute %v at %s", in.Caps.Has(client.Mute), tc.event)
			}
		})
	}
	if _, err := (Client{}).Decode(client.PreToolUse, []byte("[1]")); err == nil {
		t.Error("a payload that is not an object decoded")
	}
}

// The answer as the plugin reads it: a deny's reason, a block, context
// (none at the mute PreToolUse), nothing at all when lucid says nothing.
func TestEncode(t *testing.T) {
	pre := client.Input{Event: client.PreToolUse, Caps: client.Mute}
	post := client.Input{Event: client.PostToolUse}
	clienttest.Adapter{Client: Client{}}.TestEncode(t, []clienttest.Encoding{
		{Name: "deny", In: pre, Out: client.Output{Deny: `src/a.go is "claimed"`}, Want: `{"deny":"src/a.go is \"claimed\""}`},
		{Name: "context and a signed command at PreToolUse", In: pre, Out: client.Output{Context: "news", Command: "LUCID_AGENT=x lucid fact y"}, Want: ""},
		{Name: "context after a tool", In: post, Out: client.Output{Context: "news"}, Want: `{"context":"news"}`},
		{Name: "block at Stop", In: client.Input{Event: client.Stop}, Out: client.Output{Block: "record"}, Want: `{"block":"record"}`},
	})
}

// An agent's shell is known by the id the plugin sets; the plugin's own
// hook calls are not a shell.
func TestShell(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	sh, ok := Client{}.AgentShell(env(map[string]string{identity.OpencodeAgentVar: "ses_a/ses_c", "OPENCODE": "1"}))
	if !ok || sh.Agent != "ses_a/ses_c" {
		t.Errorf("agent shell: %+v %v", sh, ok)
	}
	if _, ok := (Client{}).AgentShell(env(map[string]string{"OPENCODE": "1"})); ok {
		t.Error("opencode's process without the plugin's variable is an agent's shell")
	}
	if own, _ := (Client{}).OwnHook(env(map[string]string{identity.OpencodeHookVar: "1"})); !own {
		t.Error("the plugin's hook call is not its own")
	}
	if Agent("ses_c", "ses_a") != "ses_a/ses_c" || Agent("ses_a", "") != "ses_a" {
		t.Error("Agent")
	}
}
