package claude

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/answer"
	"github.com/lucid-dev/lucid/internal/testkit/clienttest"
)

// The adapter against the payloads Claude Code 2.1.332 sent (recorded,
// paths moved to /home/dev/repo), and lucid's answers in the shapes Claude
// Code honours.

const version = "claude-code-2.1.332"

var adapter = clienttest.Adapter{Client: Client{}, Version: version}

// noUserSettings keeps the user's Claude Code settings out of a test.
func noUserSettings(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CLAUDE_CODE_BASH_EDIT_DIFF", "")
}

// What lucid reads of each kind of payload: who calls, what its tool
// writes or runs, and what the call changed.
func TestDecodeRecorded(t *testing.T) {
	noUserSettings(t)
	const repo = "/home/dev/repo"
	adapter.TestDecode(t, []clienttest.Decoding{
		{File: "SessionStart-lead.json", Want: client.Input{Event: "SessionStart", SessionID: "30df32ba-0d45-4195-af71-803394f51561", Cwd: repo, Source: "startup"}},
		{File: "SessionStart-compact-teammate.json", Want: client.Input{Event: "SessionStart", SessionID: "ec360ae2-0342-45da-810f-72acc96b5586",
			AgentID: "aalpha-a940cfca617398a0", AgentType: "alpha", Cwd: repo, Source: "compact"}},
		{File: "SubagentStart-teammate.json", Want: client.Input{Event: "SubagentStart", SessionID: "cdf8b8c6-87ff-4e1e-9319-850bf8d257fb",
			AgentID: "abeta-0b849a257b503a38", AgentType: "beta", Cwd: repo}},
		{File: "PreToolUse-Edit-lead.json", Want: client.Input{Event: "PreToolUse", SessionID: "67b3c406-886c-4a35-9f06-b5d384ace39a", Cwd: repo,
			PermissionMode: "bypassPermissions", ToolName: "Edit", Tool: client.ToolEdit, Paths: []string{repo + "/a.txt"}}},
		{File: "PreToolUse-Write-subagent.json", Want: client.Input{Event: "PreToolUse", SessionID: "30df32ba-0d45-4195-af71-803394f51561",
			AgentID: "a2adb9a7d441d9c57", AgentType: "general-purpose", Cwd: repo, PermissionMode: "bypassPermissions",
			ToolName: "Write", Tool: client.ToolEdit, Paths: []string{repo + "/c.txt"}}},
		{File: "PreToolUse-NotebookEdit-lead.json", Want: client.Input{Event: "PreToolUse", SessionID: "67b3c406-886c-4a35-9f06-b5d384ace39a", Cwd: repo,
			PermissionMode: "bypassPermissions", ToolName: "NotebookEdit", Tool: client.ToolEdit, Paths: []string{repo + "/nb.ipynb"}}},
		{File: "PreToolUse-Bash-lead.json", Want: client.Input{Event: "PreToolUse", SessionID: "0b218250-bcad-4f28-bb25-013e7e946655", Cwd: repo,
			PermissionMode: "bypassPermissions", ToolName: "Bash", Tool: client.ToolShell, Command: "sleep 1; echo changed-by-other > /home/dev/repo/a.txt"}},
		{File: "PreToolUse-Agent-lead.json", Want: client.Input{Event: "PreToolUse", SessionID: "30df32ba-0d45-4195-af71-803394f51561", Cwd: repo,
			PermissionMode: "bypassPermissions", ToolName: "Agent", Tool: client.ToolAgent}},
		{File: "PreToolUse-Read-lead.json", Want: client.Input{Event: "PreToolUse", SessionID: "0b218250-bcad-4f28-bb25-013e7e946655", Cwd: repo,
			PermissionMode: "bypassPermissions", ToolName: "Read"}},
		{File: "PostToolUse-Write-lead.json", Want: client.Input{Event: "PostToolUse", SessionID: "0b218250-bcad-4f28-bb25-013e7e946655", Cwd: repo,
			PermissionMode: "bypassPermissions", ToolName: "Write", Tool: client.ToolEdit, Paths: []string{repo + "/newdir/sub/x.txt"}, Changed: []string{repo + "/newdir/sub/x.txt"}}},
		// The command's own record of what it changed.
		{File: "PostToolUse-Bash-lead.json", Want: client.Input{Event: "PostToolUse", SessionID: "0b218250-bcad-4f28-bb25-013e7e946655", Cwd: repo,
			PermissionMode: "bypassPermissions", ToolName: "Bash", Tool: client.ToolShell,
			Command: "export LUCID_AGENT=x1; sleep 1; echo changed-by-other > /home/dev/repo/a.txt", Changed: []string{repo + "/a.txt"}}},
		// A record shared with another command's: the file the command
		// names is its own, the other is unsure.
		{File: "PostToolUse-Bash-shared-subagent.json", Want: client.Input{Event: "PostToolUse", SessionID: "fe694699-9a78-417c-a2bf-5e7c0b5d308f",
			AgentID: "a8d2f99cab08460fe", AgentType: "general-purpose", Cwd: repo, PermissionMode: "bypassPermissions", ToolName: "Bash", Tool: client.ToolShell,
			Command: "sleep 2; echo f > /home/dev/repo/b.txt", Changed: []string{repo + "/b.txt"}, Unsure: []string{repo + "/a.txt"}}},
		{File: "SubagentStop-subagent.json", Want: client.Input{Event: "SubagentStop", SessionID: "30df32ba-0d45-4195-af71-803394f51561",
			AgentID: "a2adb9a7d441d9c57", AgentType: "general-purpose", Cwd: repo, PermissionMode: "bypassPermissions"}},
		{File: "TaskCompleted-teammate.json", Want: client.Input{Event: "TaskCompleted", SessionID: "cdf8b8c6-87ff-4e1e-9319-850bf8d257fb",
			AgentID: "aalpha-29065eaa7bbaa962", AgentType: "alpha", TeammateName: "alpha", Cwd: repo}},
	})
}

// A payload that is not a JSON object is refused; tool input lucid does
// not expect reads as empty.
func TestDecodeOddPayloads(t *testing.T) {
	const refused = "payload is not a JSON object"
	adapter.TestDecode(t, []clienttest.Decoding{
		{Payload: "", Event: "PreToolUse", Err: refused},
		{Payload: "[1]", Event: "PreToolUse", Err: refused},
		{Payload: "{not json", Event: "PreToolUse", Err: refused},
		{Payload: `"s"`, Event: "PreToolUse", Err: refused},
	})
	in, err := Client{}.Decode("PreToolUse", []byte(`{"session_id":"s","tool_name":"Write","tool_input":[1]}`))
	if err != nil || in.Tool != client.ToolEdit || len(in.Paths) != 0 {
		t.Errorf("a Write whose input is no object: %+v, %v", in, err)
	}
}

// When the lead closes a teammate's task, the payload names nobody: the
// task list Claude Code keeps names its owner.
func TestTaskCompletedByTheLead(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", dir)
	if in := adapter.Decode(t, "TaskCompleted-lead.json"); in.TeammateName != "" {
		t.Errorf("without the task list: teammate %q", in.TeammateName)
	}
	tasks := filepath.Join(dir, "tasks", "session-29b1f7f5")
	os.MkdirAll(tasks, 0o755)
	os.WriteFile(filepath.Join(tasks, "2.json"), []byte(`{"id":"2","subject":"task b","owner":"beta","status":"in_progress"}`), 0o644)
	if in := adapter.Decode(t, "TaskCompleted-lead.json"); in.TeammateName != "beta" || in.AgentID != "" {
		t.Errorf("the lead closing beta's task: %+v", in)
	}
}

// Claude Code takes lucid's answer in the shape package answer encodes.
func TestEncodeIsAnswers(t *testing.T) {
	bash := adapter.Decode(t, "PreToolUse-Bash-lead.json")
	out := client.Output{Deny: "lucid: a.txt is claimed"}
	b, _, _ := Client{}.Encode(bash, &out)
	want, _, _ := answer.Encode(bash, &out)
	if string(b) != string(want) || len(b) == 0 {
		t.Errorf("%q, want %q", b, want)
	}
}

// Claude Code's Bash tool and its hooks, by the environment it gives them
// (2.1.332): AI_AGENT ends in _agent in the shell, in _harness in a hook;
// an older client marks its shell by CLAUDECODE=1 alone.
func TestShellAndHookEnvironments(t *testing.T) {
	env := clienttest.Env
	c := Client{}
	if c.Name() != "claude" || !slices.Equal(client.EventNames(c.Events()), client.Events) {
		t.Errorf("Name %q, Events %v", c.Name(), client.EventNames(c.Events()))
	}
	shell := env("AI_AGENT", "claude-code_2.1.332_agent", "CLAUDECODE", "1", "CLAUDE_CODE_SESSION_ID", "s1")
	if sh, ok := c.AgentShell(shell); !ok || sh != (client.Shell{Client: "Claude Code", Session: "s1"}) {
		t.Errorf("the Bash tool's shell: %+v %v", sh, ok)
	}
	if own, known := c.OwnHook(shell); own || !known {
		t.Errorf("the Bash tool's shell taken for a hook: %v %v", own, known)
	}
	hook := env("AI_AGENT", "claude-code_2.1.332_harness", "CLAUDECODE", "1", "CLAUDE_PROJECT_DIR", "/home/dev/repo")
	if _, ok := c.AgentShell(hook); ok {
		t.Error("a hook taken for the Bash tool's shell")
	}
	if own, known := c.OwnHook(hook); !own || !known {
		t.Errorf("a hook not known as one: %v %v", own, known)
	}
	if _, ok := c.AgentShell(env("CLAUDECODE", "1")); !ok {
		t.Error("an older client's shell (CLAUDECODE=1 alone) not known")
	}
	if _, ok := c.AgentShell(env("CLAUDECODE", "1", "CLAUDE_PROJECT_DIR", "/r")); ok {
		t.Error("an older client's hook taken for its shell")
	}
	if _, ok := c.AgentShell(env()); ok {
		t.Error("a person's terminal taken for an agent's shell")
	}
}

// lucid doctor's lines on Claude Code: the record of shell changes, and
// sessions started outside the folder of the project's settings.
func TestFindings(t *testing.T) {
	noUserSettings(t)
	if f := DiffFinding(); !f.OK || !strings.HasPrefix(f.Detail, "on only in bypassPermissions and auto modes") || !strings.Contains(f.Detail, `add "bashEditDiffEnabled": true to `+UserSettings()) {
		t.Errorf("the record off: %+v", f)
	}
	t.Setenv("CLAUDE_CODE_BASH_EDIT_DIFF", "true")
	if f := DiffFinding(); !f.OK || !strings.HasPrefix(f.Detail, "on in every permission mode") {
		t.Errorf("the record on: %+v", f)
	}
	if f := SessionsFinding(true); !f.OK || !strings.Contains(f.Detail, UserSettings()) {
		t.Errorf("set up for the user: %+v", f)
	}
	if f := SessionsFinding(false); !f.OK || !strings.HasSuffix(f.Detail, "run `lucid init --user` to guard every session on this machine") {
		t.Errorf("not set up for the user: %+v", f)
	}
}

// A hook of the user's settings stands aside where the folder the session
// started in (CLAUDE_PROJECT_DIR) registers lucid's project hook for the
// event; doctor's checks of Claude Code itself are two.
func TestUserHookStandsAside(t *testing.T) {
	noUserSettings(t)
	dir := t.TempDir()
	t.Setenv("CLAUDE_PROJECT_DIR", dir)
	if (Client{}).UserHookStandsAside("PreToolUse") {
		t.Error("stands aside where no project hook is registered")
	}
	settings := filepath.Join(dir, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"lucid hook PreToolUse"}]}]}}`), 0o644)
	// Written after the client (here the test's parent) started, the
	// project's hook is one Claude Code has not loaded.
	if (Client{}).UserHookStandsAside("PreToolUse") {
		t.Error("stands aside for a project hook registered after the session started")
	}
	readAsTheyAre(t)
	if !(Client{}).UserHookStandsAside("PreToolUse") {
		t.Error("runs beside the project's own hook")
	}
	if fs := (Client{}).Setup().ClientChecks(); len(fs) != 2 {
		t.Errorf("doctor: %+v", fs)
	}
	// A payload without cwd names the project's folder.
	in, err := Client{}.Decode("SessionStart", []byte(`{"session_id":"s"}`))
	if err != nil || in.ProjectDir != dir {
		t.Errorf("ProjectDir %q, %v", in.ProjectDir, err)
	}
}

// lucid's plugin guards every session as lucid init --user does: doctor
// says so, and fails where both are set up, since each event would run
// lucid twice.
func TestPluginFinding(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", home)
	settings := filepath.Join(home, "settings.json")
	if pluginEnabled(settings) {
		t.Error("no settings: the plugin taken as enabled")
	}
	os.WriteFile(settings, []byte(`{"enabledPlugins": {"lucid@lucid": true, "other@x": true}}`), 0o644)
	if !pluginEnabled(settings) {
		t.Error("enabledPlugins names lucid@lucid: the plugin not taken as enabled")
	}
	if f := PluginFinding(SessionsFinding(false), true); !f.OK || !strings.Contains(f.Detail, "plugin") {
		t.Errorf("the plugin alone: %+v", f)
	}
	if f := PluginFinding(SessionsFinding(true), true); f.OK || !strings.Contains(f.Detail, "twice") || !strings.Contains(f.Fix, "lucid uninstall --user") {
		t.Errorf("the plugin and the user's hooks: %+v", f)
	}
	if f := PluginFinding(SessionsFinding(true), false); !f.OK {
		t.Errorf("the user's hooks alone: %+v", f)
	}
}

// readAsTheyAre has the user hooks read the project's settings as they are,
// as though the client had started after they were written.
func readAsTheyAre(t *testing.T) {
	t.Helper()
	was := readLoadedHooks
	readLoadedHooks = func(path string) ([]byte, error) { return os.ReadFile(path) }
	t.Cleanup(func() { readLoadedHooks = was })
}
