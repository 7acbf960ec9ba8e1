package opencode

import (
	"slices"
	"testing"

	"github.com/lucid-dev/lucid/hooks"
)

// What lucid makes of the plugin's payloads: the files each writing tool
// names, resolved against the project; a child session as the lead's
// subagent; the news never at PreToolUse.
func TestDecode(t *testing.T) {
	cases := []struct {
		name, event, payload string
		want                 hooks.Input
		keep                 bool // KeepClaims
	}{
		{"write, relative", hooks.PreToolUse, `{"cwd":"/r","sessionID":"ses_a","tool":"write","args":{"filePath":"new.txt","content":"x"}}`,
			hooks.Input{SessionID: "ses_a", Tool: hooks.ToolEdit, Paths: []string{"/r/new.txt"}}, false},
		{"edit, absolute", hooks.PreToolUse, `{"cwd":"/r","sessionID":"ses_a","tool":"edit","args":{"filePath":"/r/src/a.go"}}`,
			hooks.Input{SessionID: "ses_a", Tool: hooks.ToolEdit, Paths: []string{"/r/src/a.go"}}, false},
		{"apply_patch", hooks.PreToolUse, `{"cwd":"/r","sessionID":"ses_a","tool":"apply_patch","args":{"patchText":"*** Begin Patch\n*** Add File: p.txt\n+x\n*** Update File: hello.txt\n@@\n-a\n+b\n*** End Patch"}}`,
			hooks.Input{SessionID: "ses_a", Tool: hooks.ToolEdit, Paths: []string{"/r/p.txt", "/r/hello.txt"}}, false},
		{"bash in workdir", hooks.PreToolUse, `{"cwd":"/r","sessionID":"ses_a","tool":"bash","args":{"command":"ls","workdir":"src"}}`,
			hooks.Input{SessionID: "ses_a", Tool: hooks.ToolShell, Command: "ls", Cwd: "/r/src"}, false},
		{"Kilo's background process", hooks.PreToolUse, `{"cwd":"/r","sessionID":"ses_a","tool":"background_process","args":{"action":"start","command":"npm run dev","workdir":"web"}}`,
			hooks.Input{SessionID: "ses_a", Tool: hooks.ToolShell, Command: "npm run dev", Cwd: "/r/web"}, false},
		{"child session", hooks.PreToolUse, `{"cwd":"/r","sessionID":"ses_c","parentID":"ses_a","tool":"bash","args":{"command":"ls"}}`,
			hooks.Input{SessionID: "ses_a", AgentID: "ses_c", Tool: hooks.ToolShell, Command: "ls", Cwd: "/r"}, false},
		{"child's start", hooks.SessionStart, `{"cwd":"/r","sessionID":"ses_c","parentID":"ses_a"}`,
			hooks.Input{Event: hooks.SubagentStart, SessionID: "ses_a", AgentID: "ses_c", Cwd: "/r"}, false},
		{"child's idle", hooks.Stop, `{"cwd":"/r","sessionID":"ses_c","parentID":"ses_a"}`,
			hooks.Input{Event: hooks.SubagentStop, SessionID: "ses_a", AgentID: "ses_c", Cwd: "/r"}, false},
		{"text's end", hooks.Stop, `{"cwd":"/r","sessionID":"ses_a","textEnd":true}`,
			hooks.Input{Event: hooks.Stop, SessionID: "ses_a", Cwd: "/r"}, true},
		{"child's text's end", hooks.Stop, `{"cwd":"/r","sessionID":"ses_c","parentID":"ses_a","textEnd":true}`,
			hooks.Input{Event: hooks.SubagentStop, SessionID: "ses_a", AgentID: "ses_c", Cwd: "/r"}, true},
		{"task", hooks.PostToolUse, `{"cwd":"/r","sessionID":"ses_a","tool":"task","args":{"prompt":"x"}}`,
			hooks.Input{SessionID: "ses_a", Tool: hooks.ToolAgent}, false},
		{"args not an object", hooks.PreToolUse, `{"cwd":"/r","sessionID":"ses_a","tool":"write","args":7}`,
			hooks.Input{SessionID: "ses_a", Tool: hooks.ToolEdit}, false},
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
			if in.KeepClaims != tc.keep {
				t.Errorf("KeepClaims %v, want %v", in.KeepClaims, tc.keep)
			}
			if in.Mute != (tc.event == hooks.PreToolUse) {
				t.Errorf("Mute %v at %s", in.Mute, tc.event)
			}
		})
	}
	if _, err := (Client{}).Decode(hooks.PreToolUse, []byte("[1]")); err == nil {
		t.Error("a payload that is not an object decoded")
	}
}

// The answer as the plugin reads it: a deny's reason, a block, context
// (none at the mute PreToolUse), nothing at all when lucid says nothing.
func TestEncode(t *testing.T) {
	pre := hooks.Input{Event: hooks.PreToolUse, Mute: true}
	post := hooks.Input{Event: hooks.PostToolUse}
	for _, tc := range []struct {
		in   hooks.Input
		out  hooks.Output
		want string
	}{
		{pre, hooks.Output{Deny: `src/a.go is "claimed"`}, `{"deny":"src/a.go is \"claimed\""}` + "\n"},
		{pre, hooks.Output{Context: "news", Command: "LUCID_AGENT=x lucid fact y"}, ""},
		{post, hooks.Output{Context: "news"}, `{"context":"news"}` + "\n"},
		{hooks.Input{Event: hooks.Stop}, hooks.Output{Block: "record"}, `{"block":"record"}` + "\n"},
	} {
		b, line, code := Client{}.Encode(tc.in, &tc.out)
		if string(b) != tc.want || line != "" || code != 0 {
			t.Errorf("%+v: %q %q %d, want %q", tc.out, b, line, code, tc.want)
		}
	}
}

// An agent's shell is known by the id the plugin sets; the plugin's own
// hook calls are not a shell.
func TestShell(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	sh, ok := Client{}.AgentShell(env(map[string]string{AgentVar: "ses_a/ses_c", "OPENCODE": "1"}))
	if !ok || sh.Agent != "ses_a/ses_c" {
		t.Errorf("agent shell: %+v %v", sh, ok)
	}
	if _, ok := (Client{}).AgentShell(env(map[string]string{"OPENCODE": "1"})); ok {
		t.Error("opencode's process without the plugin's variable is an agent's shell")
	}
	if own, _ := (Client{}).OwnHook(env(map[string]string{HookVar: "1"})); !own {
		t.Error("the plugin's hook call is not its own")
	}
	if Agent("ses_c", "ses_a") != "ses_a/ses_c" || Agent("ses_a", "") != "ses_a" {
		t.Error("Agent")
	}
}
