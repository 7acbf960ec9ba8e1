package copilot

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/testkit/clienttest"
)

// The adapter against the payloads GitHub Copilot CLI 1.0.102 sent
// (recorded, paths moved to /home/dev/repo), and lucid's answers in the
// shapes Copilot honours.

const version = "copilot-cli-1.0.102"

var adapter = clienttest.Adapter{Client: Client{}, Version: version}

// What lucid reads of each kind of payload: Copilot's events under lucid's
// names; the write tools' paths, apply_patch's from its raw patch; the
// shell's command; the lead as its session, a subagent as its agentId in
// the lead's session, inside it (where sessionId is the agentId) and at
// its start and stop; the stop gate at the lead's agentStop only. Every
// call says nothing of what a command changed, and its news waits for
// postToolUse, since preToolUse's context reaches the model only after
// the tool's result.
func TestDecodeRecorded(t *testing.T) {
	const (
		repo  = "/home/dev/repo"
		lead  = "fb2d5c0f-2408-4388-aa74-4a88124a7649"
		main  = "27e13b0a-a67f-4812-9875-0bedcdaeaa0b" // the session of the subagent runs
		sub   = "1e71c2e2-2bcf-4edf-9083-70ee581a78de"
		patch = "1bf85ca8-955a-43a5-9d50-eae402b762ec"
	)
	base := client.Input{SessionID: lead, Cwd: repo, Caps: client.NewsAfter | client.GateLead | client.Unrecorded | client.NoRestart}
	inSub := func(in *client.Input) {
		in.SessionID, in.AgentID, in.AgentType, in.Caps = main, sub, "task", in.Caps&^client.GateLead
	}
	adapter.TestDecode(t, []clienttest.Decoding{
		{File: "sessionStart.json", Want: clienttest.With(base, func(in *client.Input) { in.Event, in.Source = "SessionStart", "startup" })},
		{File: "sessionStart-resume.json", Want: clienttest.With(base, func(in *client.Input) {
			in.SessionID, in.Event, in.Source = "ad06c344-b8ed-4b1f-9e7c-1bd8b3fdada6", "SessionStart", "resume"
		})},
		{File: "userPromptSubmitted.json", Want: clienttest.With(base, func(in *client.Input) { in.Event = "UserPromptSubmit" })},
		{File: "preToolUse-bash.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool = "PreToolUse", "bash", client.ToolShell
			in.Caps |= client.Mute
			in.Command = "echo from-shell > shell.txt && env | sort > shell_env.txt"
		})},
		{File: "preToolUse-create.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PreToolUse", "create", client.ToolEdit, []string{repo + "/created.txt"}
			in.Caps |= client.Mute
		})},
		{File: "preToolUse-edit.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PreToolUse", "edit", client.ToolEdit, []string{repo + "/notes.txt"}
			in.Caps |= client.Mute
		})},
		{File: "preToolUse-apply_patch.json", Want: clienttest.With(base, func(in *client.Input) {
			in.SessionID, in.Event, in.ToolName, in.Tool = patch, "PreToolUse", "apply_patch", client.ToolEdit
			in.Caps |= client.Mute
			in.Paths = []string{repo + "/patched.txt", repo + "/notes.txt"}
		})},
		{File: "postToolUse-edit.json", Want: clienttest.With(base, func(in *client.Input) {
			in.Event, in.ToolName, in.Tool, in.Paths = "PostToolUse", "edit", client.ToolEdit, []string{repo + "/notes.txt"}
		})},
		{File: "postToolUse-task.json", Want: clienttest.With(base, func(in *client.Input) {
			in.SessionID, in.Event, in.ToolName, in.Tool = main, "PostToolUse", "task", client.ToolAgent
		})},
		{File: "agentStop.json", Want: clienttest.With(base, func(in *client.Input) { in.Event = "Stop" })},
		{File: "sessionEnd.json", Want: clienttest.With(base, func(in *client.Input) { in.Event = "SessionEnd" })},
		{File: "subagentStart.json", Want: clienttest.With(base, func(in *client.Input) { inSub(in); in.Event = "SubagentStart" })},
		{File: "userPromptSubmitted-in-subagent.json", Want: clienttest.With(base, func(in *client.Input) { inSub(in); in.Event = "UserPromptSubmit" })},
		{File: "preToolUse-bash-in-subagent.json", Want: clienttest.With(base, func(in *client.Input) {
			inSub(in)
			in.Event, in.ToolName, in.Tool, in.Command = "PreToolUse", "bash", client.ToolShell, "env | sort > sub_env_A.txt"
			in.Caps |= client.Mute
		})},
		// On Windows the shell tool is powershell, with bash's arguments
		// (the tool's name as Copilot 1.0.102's runtime holds it; no
		// payload was recorded there): its line is PowerShell's.
		{Payload: `{"sessionId":"` + lead + `","cwd":"` + repo + `","toolName":"powershell","toolArgs":{"command":"Set-Content -Path a.txt -Value x","description":"write a file"}}`,
			Event: "preToolUse", Want: clienttest.With(base, func(in *client.Input) {
				in.Event, in.ToolName, in.Tool, in.Command = "PreToolUse", "powershell", client.ToolShell, "Set-Content -Path a.txt -Value x"
				in.Caps |= client.Mute | client.PowerShell
			})},
		// A subagent's agentStop ends its turn; its subagentStop runs the gate.
		{File: "agentStop-in-subagent.json", Want: clienttest.With(base, func(in *client.Input) { inSub(in); in.Event = "Stop" })},
		{File: "subagentStop.json", Want: clienttest.With(base, func(in *client.Input) { inSub(in); in.Event = "SubagentStop" })},
		{Payload: "{", Event: "preToolUse", Err: "payload is not a JSON object"},
	})
	if in := adapter.Decode(t, "agentStop-after-block.json"); !in.StopHookActive || in.Event != "Stop" {
		t.Errorf("agentStop after a block: %+v", in)
	}
	if in := adapter.Decode(t, "subagentStop-after-block.json"); !in.StopHookActive || in.Event != "SubagentStop" || in.AgentID == "" {
		t.Errorf("subagentStop after a block: %+v", in)
	}
	// A relative path is the session folder's; a malformed patch still
	// names its files; arguments of the wrong shape name nothing.
	for _, tc := range []struct {
		payload string
		want    []string
	}{
		{`{"sessionId":"s","cwd":"/r","toolName":"create","toolArgs":{"path":"src/a.go"}}`, []string{"/r/src/a.go"}},
		{`{"sessionId":"s","cwd":"/r","toolName":"apply_patch","toolArgs":"*** Begin Patch\n*** Update File: b.go\n@@ junk"}`, []string{"/r/b.go"}},
		{`{"sessionId":"s","cwd":"/r","toolName":"edit","toolArgs":"edit a.go"}`, nil},
		{`{"sessionId":"s","cwd":"/r","toolName":"apply_patch","toolArgs":{"patch":"x"}}`, nil},
	} {
		in, err := Client{}.Decode("preToolUse", []byte(tc.payload))
		if err != nil || in.Tool != client.ToolEdit || !slices.Equal(in.Paths, tc.want) {
			t.Errorf("%s: %v %q, %v", tc.payload, in.Tool, in.Paths, err)
		}
	}
}

// lucid's answers in the forms Copilot honours, all with exit 0: a deny
// as permissionDecision, a block at the end of a turn as decision
// "block"; context flat, at preToolUse too, whose context the model reads
// after the tool ran (lucid gives none of the news there, only what it
// says of the call itself); a signed command as the tool's whole
// arguments, with no permission decision ("ask" would deny in -p).
func TestEncode(t *testing.T) {
	before := adapter.Decode(t, "preToolUse-bash.json")
	adapter.TestEncode(t, []clienttest.Encoding{
		{Name: "deny", In: before, Out: client.Output{Deny: "lucid: a.txt is claimed"}, Want: `{"permissionDecision":"deny","permissionDecisionReason":"lucid: a.txt is claimed"}`},
		{Name: "block at agentStop", In: adapter.Decode(t, "agentStop.json"), Out: client.Output{Block: "Before you stop: record"}, Want: `{"decision":"block","reason":"Before you stop: record"}`},
		{Name: "block at subagentStop", In: adapter.Decode(t, "subagentStop.json"), Out: client.Output{Block: "record"}, Want: `{"decision":"block","reason":"record"}`},
		{Name: "context at sessionStart", In: adapter.Decode(t, "sessionStart.json"), Out: client.Output{Context: "# lucid: digest"}, Want: `{"additionalContext":"# lucid: digest"}`},
		{Name: "context at subagentStart", In: adapter.Decode(t, "subagentStart.json"), Out: client.Output{Context: "# lucid: digest"}, Want: `{"additionalContext":"# lucid: digest"}`},
		{Name: "context at postToolUse", In: adapter.Decode(t, "postToolUse-bash.json"), Out: client.Output{Context: "news"}, Want: `{"additionalContext":"news"}`},
		{Name: "context at preToolUse", In: before, Out: client.Output{Context: "lucid: a.txt is claimed in the work tree /w"}, Want: `{"additionalContext":"lucid: a.txt is claimed in the work tree /w"}`},
		{Name: "nothing", In: before, Out: client.Output{}, Want: ""},
		{Name: "signed command", In: before, Out: client.Output{Command: "LUCID_AGENT=c lucid note x", Permission: "ask"},
			Want: `{"modifiedArgs":{"command":"LUCID_AGENT=c lucid note x","description":"write a file"}}`},
		{Name: "signed command in a subagent", In: adapter.Decode(t, "preToolUse-bash-in-subagent.json"), Out: client.Output{Command: "LUCID_AGENT=c/a lucid note x", Permission: "allow"},
			Want: `{"modifiedArgs":{"command":"LUCID_AGENT=c/a lucid note x","description":"dump env A"}}`},
	})
}

// env reads a recorded environment (NAME=value lines after a # header).
func env(t *testing.T, name string) func(string) string {
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(adapter.Recorded(t, name)))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok && !strings.HasPrefix(k, "#") {
			m[k] = v
		}
	}
	return func(k string) string { return m[k] }
}

// Copilot's shells are marked by COPILOT_CLI=1 and name no agent lucid
// knows (the lead's session in the lead's, an internal id in a
// subagent's); its hooks by COPILOT_PROJECT_DIR (the recorded
// environments).
func TestShellAndHookEnvironments(t *testing.T) {
	c := Client{}
	for _, name := range []string{"env-shell.txt", "env-shell-in-subagent.txt"} {
		shell := env(t, name)
		if sh, ok := c.AgentShell(shell); !ok || sh != (client.Shell{Client: "GitHub Copilot CLI"}) {
			t.Errorf("%s: %+v %v", name, sh, ok)
		}
		if own, known := c.OwnHook(shell); own || !known {
			t.Errorf("%s taken for a hook: %v %v", name, own, known)
		}
	}
	hook := env(t, "env-hook.txt")
	if _, ok := c.AgentShell(hook); ok {
		t.Error("a hook taken for the shell")
	}
	if own, known := c.OwnHook(hook); !own || !known {
		t.Errorf("a hook not known as one: %v %v", own, known)
	}
}

// The events lucid registers in Copilot, and the lucid events they are.
func TestEvents(t *testing.T) {
	c := Client{}
	want := []string{"sessionStart", "subagentStart", "userPromptSubmitted", "preToolUse", "postToolUse", "agentStop", "subagentStop", "preCompact", "sessionEnd"}
	if c.Name() != "copilot" || !slices.Equal(client.EventNames(c.Events()), want) {
		t.Errorf("Name %q, Events %v", c.Name(), client.EventNames(c.Events()))
	}
	for _, e := range c.Events() {
		if !slices.Contains(client.Events, e.Lucid) || lucidEvent(e.Name) != e.Lucid {
			t.Errorf("%s maps to %q", e.Name, e.Lucid)
		}
	}
	if lucidEvent("permissionRequest") != "" {
		t.Error("an event lucid does not register maps to one of lucid's")
	}
}

// Copilot CLI 1.0.102 sends toolArgs as an object; GitHub's hooks
// reference shows it as a JSON string that holds the object. Every
// recorded payload with toolArgs (this repository's, and the fuller set in
// ../shared/fixtures, where it is at hand) decodes the same in both forms:
// the same tool, paths and command, and the object as the tool's input,
// from which a signed command's modifiedArgs is made. A string that holds
// no object (apply_patch's patch, a word) is read as before.
func TestToolArgsAsString(t *testing.T) {
	_, here, _, _ := runtime.Caller(0)
	dirs := []string{filepath.Join(filepath.Dir(here), "..", "..", "..", "testdata", "payloads", version)}
	shared := filepath.Join(filepath.Dir(here), "..", "..", "..", "shared", "fixtures", version)
	if _, err := os.Stat(shared); err == nil {
		dirs = append(dirs, shared)
	} else {
		t.Logf("%s is not at hand: the recorded payloads of testdata alone", shared)
	}
	tools := map[string]bool{}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, file := range files {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]json.RawMessage
			if json.Unmarshal(raw, &doc) != nil || len(doc["toolArgs"]) == 0 || doc["toolArgs"][0] != '{' {
				continue // no tool, or apply_patch's patch
			}
			text, _ := json.Marshal(string(doc["toolArgs"]))
			doc["toolArgs"] = text
			asString, _ := json.Marshal(doc)
			event, _, _ := strings.Cut(filepath.Base(file), "-")
			want, err1 := Client{}.Decode(event, raw)
			got, err2 := Client{}.Decode(event, asString)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: %v, %v", file, err1, err2)
			}
			var wantArgs, gotArgs bytes.Buffer
			json.Compact(&wantArgs, want.ToolInput)
			json.Compact(&gotArgs, got.ToolInput)
			want.ToolInput, got.ToolInput = nil, nil
			if !reflect.DeepEqual(got, want) || wantArgs.String() != gotArgs.String() {
				t.Errorf("%s with toolArgs as a string:\n got %+v %s\nwant %+v %s", file, got, gotArgs.String(), want, wantArgs.String())
			}
			if want.Tool != client.ToolOther {
				tools[want.ToolName] = true
			}
		}
	}
	for _, tool := range []string{Bash, Create, Edit} {
		if !tools[tool] {
			t.Errorf("no recorded payload of %s was read in both forms", tool)
		}
	}
	for _, tc := range []struct {
		payload string
		tool    client.Tool
		paths   []string
		command string
	}{
		{`{"sessionId":"s","cwd":"/r","toolName":"create","toolArgs":"{\"path\":\"src/a.go\",\"file_text\":\"x\"}"}`, client.ToolEdit, []string{"/r/src/a.go"}, ""},
		{`{"sessionId":"s","cwd":"/r","toolName":"edit","toolArgs":" {\"path\":\"/r/b.go\"} "}`, client.ToolEdit, []string{"/r/b.go"}, ""},
		{`{"sessionId":"s","cwd":"/r","toolName":"bash","toolArgs":"{\"command\":\"rm -rf dist\"}"}`, client.ToolShell, nil, "rm -rf dist"},
		{`{"sessionId":"s","cwd":"/r","toolName":"bash","toolArgs":"rm -rf dist"}`, client.ToolShell, nil, ""},
		{`{"sessionId":"s","cwd":"/r","toolName":"edit","toolArgs":"{\"path\":"}`, client.ToolEdit, nil, ""},
		{`{"sessionId":"s","cwd":"/r","toolName":"apply_patch","toolArgs":"*** Begin Patch\n*** Add File: c.go\n+x\n*** End Patch\n"}`, client.ToolEdit, []string{"/r/c.go"}, ""},
	} {
		in, err := Client{}.Decode("preToolUse", []byte(tc.payload))
		if err != nil || in.Tool != tc.tool || !slices.Equal(in.Paths, tc.paths) || in.Command != tc.command {
			t.Errorf("%s: %v %q %q, %v", tc.payload, in.Tool, in.Paths, in.Command, err)
		}
	}
	// A signed command's arguments: the object the string held.
	in, _ := Client{}.Decode("preToolUse", []byte(`{"sessionId":"s","cwd":"/r","toolName":"bash","toolArgs":"{\"command\":\"lucid note x\",\"description\":\"d\"}"}`))
	if b, _, _ := (Client{}).Encode(in, &client.Output{Command: "LUCID_AGENT=s lucid note x"}); string(b) != `{"modifiedArgs":{"command":"LUCID_AGENT=s lucid note x","description":"d"}}`+"\n" {
		t.Errorf("a signed command given as a string: %s", b)
	}
}
