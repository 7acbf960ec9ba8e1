package copilot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/answer"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/jsonread"
	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

// tree is every file under dir with its bytes, and every folder.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if fi.IsDir() {
			out[rel+"/"] = ""
			if fi.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		b, _ := os.ReadFile(p)
		out[rel] = string(b)
		return nil
	})
	return out
}

func sameTree(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s: %s is %q, was %q", what, k, g, v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: %s is left", what, k)
		}
	}
}

// lucid's hook file, laid out whole: every event with the fail-open
// command, the write tools' matcher anchored; a second init changes
// nothing; uninstall gives the tree back as it was, byte for byte, the
// folders init created gone and those that were there kept.
func TestInstallOwnFile(t *testing.T) {
	for _, there := range []string{"", ".github", ".github/hooks"} {
		repo := installertest.NewRepo(t)
		if there != "" {
			os.MkdirAll(repo.Abs(there), 0o755)
		}
		before := tree(t, repo.Top)
		ch, err := (Client{}).Setup().Install(repo, installers.Options{})
		if err != nil || len(ch) != 1 || ch[0].Path != HooksName {
			t.Fatalf("install: %v %v", ch, err)
		}
		file := installertest.ReadFile(t, repo, HooksName)
		for _, want := range []string{
			"{\n  \"version\": 1,\n  \"hooks\": {\n    \"sessionStart\": [\n      {\n        \"type\": \"command\",\n        \"bash\": \"command -v lucid >/dev/null 2>&1 || exit 0; lucid hook --client copilot sessionStart || true\",\n        \"timeoutSec\": 15\n      }\n    ],",
			`"matcher": "^(bash|powershell|create|edit|apply_patch)$"`,
			`"matcher": "^(bash|powershell|create|edit|apply_patch|task)$"`,
			`lucid hook --client copilot sessionEnd || true",` + "\n        \"timeoutSec\": 2",
		} {
			if !strings.Contains(file, want) {
				t.Errorf("%s lacks %s:\n%s", HooksName, want, file)
			}
		}
		if !Hooks.SetUp(repo) || !detected(repo) || !ownFile([]byte(file)) || !isLucidFile([]byte(file)) {
			t.Error("lucid's own file not known as lucid's")
		}
		if f := Hooks.CheckHooks(repo, "c", "none", "fix"); !f.OK || !strings.Contains(f.Detail, "all 9 events") {
			t.Errorf("doctor: %+v", f)
		}
		if ch, err := (Client{}).Setup().Install(repo, installers.Options{}); err != nil || len(ch) != 0 {
			t.Errorf("a second init: %v %v", ch, err)
		}
		if ch, err := (Client{}).Setup().Uninstall(repo); err != nil || len(ch) != 1 || !strings.Contains(ch[0].What, "removed") {
			t.Errorf("uninstall: %v %v", ch, err)
		}
		sameTree(t, "after uninstall with "+there+" there", tree(t, repo.Top), before)
		if _, err := os.Stat(recordPath(repo)); !os.IsNotExist(err) {
			t.Errorf("the record stays: %v", err)
		}
	}
}

// A file at lucid's name that is not lucid's is refused, with what to do;
// lucid's hooks of another version are replaced; hooks someone added to
// lucid's file stay at uninstall, and so does the file with them.
func TestInstallOtherFiles(t *testing.T) {
	repo := installertest.NewRepo(t)
	mine := `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"./check.sh","timeoutSec":5}]}}`
	installertest.WriteSettings(t, repo, HooksName, mine)
	if _, err := (Client{}).Setup().Install(repo, installers.Options{}); err == nil || !strings.Contains(err.Error(), "is not lucid's") || !strings.Contains(err.Error(), "rename it") {
		t.Errorf("a file of the user's: %v", err)
	}
	if installertest.ReadFile(t, repo, HooksName) != mine {
		t.Error("the user's file changed")
	}
	old := `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"lucid hook --client copilot preToolUse","timeoutSec":30}]}}`
	installertest.WriteSettings(t, repo, HooksName, old)
	if ch, err := (Client{}).Setup().Install(repo, installers.Options{}); err != nil || len(ch) != 1 {
		t.Fatalf("another version's file: %v %v", ch, err)
	}
	if f := Hooks.CheckHooks(repo, "c", "none", "fix"); !f.OK {
		t.Errorf("after replacing another version's: %+v", f)
	}
	// Someone adds a hook of their own to lucid's file.
	b := installertest.ReadFile(t, repo, HooksName)
	b = strings.Replace(b, `"hooks":{`, `"hooks":{"errorOccurred": [{"type": "command", "bash": "./mine.sh"}],`, 1)
	installertest.WriteSettings(t, repo, HooksName, b)
	if _, err := (Client{}).Setup().Uninstall(repo); err != nil {
		t.Fatal(err)
	}
	if got := installertest.ReadFile(t, repo, HooksName); !installers.SameJSON([]byte(got), []byte(`{"version":1,"hooks":{"errorOccurred":[{"type":"command","bash":"./mine.sh"}]}}`)) {
		t.Errorf("uninstall of a file with the user's hook: %s", got)
	}
	if ownFile([]byte("[1]")) || ownFile([]byte(`{"version":1,"extra":true}`)) || ownFile([]byte(`{"hooks":[]}`)) {
		t.Error("a file of another shape taken for lucid's")
	}
}

// --trust-copilot adds the work tree to trustedFolders in
// $COPILOT_HOME/config.json, keeping every byte of the user's (the //
// lines the CLI writes at its top included); uninstall takes away exactly
// that; a folder Copilot trusts already (itself or one above it) is left
// alone, and so is its trust at uninstall.
func TestTrust(t *testing.T) {
	for _, tc := range []struct{ name, before string }{
		{"no file", ""},
		{"comments and other keys", "// User settings belong in settings.json.\n// This file is managed automatically.\n{\n  \"firstLaunchAt\": \"2026-12-05T03:00:00.000Z\",\n  \"trustedFolders\": [\n    \"/elsewhere\"\n  ]\n}\n"},
		{"no trustedFolders", "// managed\n{\n  \"firstLaunchAt\": \"x\"\n}\n"},
		{"empty object", "{}"},
		{"empty list", "{\"trustedFolders\": []}\n"},
		{"one line", `{"a":1,"trustedFolders":["/x","/y"],"b":2}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("COPILOT_HOME", home)
			t.Setenv("COPILOT_ALLOW_ALL", "")
			repo := installertest.NewRepo(t)
			cfg := filepath.Join(home, "config.json")
			if tc.before != "" {
				os.WriteFile(cfg, []byte(tc.before), 0o600)
			}
			if f := checkTrust(repo); f.OK || !strings.Contains(f.Fix, "--trust-copilot") || !strings.Contains(f.Fix, "COPILOT_ALLOW_ALL") || !strings.Contains(f.Fix, "--trust-folder") {
				t.Errorf("untrusted: %+v", f)
			}
			if a := (Client{}).Setup().Advice(repo); !strings.Contains(a, "--trust-copilot") {
				t.Errorf("advice: %q", a)
			}
			ch, err := (Client{}).Setup().Install(repo, installers.Options{Trust: true})
			if err != nil || len(ch) != 2 || ch[1].Path != cfg {
				t.Fatalf("install: %v %v", ch, err)
			}
			after, _ := os.ReadFile(cfg)
			if f := checkTrust(repo); !f.OK {
				t.Errorf("trusted: %+v\n%s", f, after)
			}
			if tc.before != "" && strings.HasPrefix(tc.before, "//") && !strings.HasPrefix(string(after), strings.SplitN(tc.before, "{", 2)[0]) {
				t.Errorf("the comments changed:\n%s", after)
			}
			if ch, err := (Client{}).Setup().Install(repo, installers.Options{Trust: true}); err != nil || len(ch) != 0 {
				t.Errorf("a second init: %v %v", ch, err)
			}
			if _, err := (Client{}).Setup().Uninstall(repo); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(cfg)
			if tc.before == "" {
				if !os.IsNotExist(err) {
					t.Errorf("the config lucid wrote stays: %s", got)
				}
				return
			}
			if string(got) != tc.before {
				t.Errorf("uninstall:\n got %q\nwant %q\n(installed %q)", got, tc.before, after)
			}
		})
	}
	// A folder above the work tree trusts it: nothing to add, nothing to
	// take away.
	home := t.TempDir()
	t.Setenv("COPILOT_HOME", home)
	repo := installertest.NewRepo(t)
	cfg := filepath.Join(home, "config.json")
	above := `{"trustedFolders":["` + filepath.Dir(repo.Top) + `"]}`
	os.WriteFile(cfg, []byte(above), 0o600)
	if ch, err := Trust(repo); err != nil || len(ch) != 0 {
		t.Errorf("trusted from above: %v %v", ch, err)
	}
	if ch, err := Untrust(repo); err != nil || len(ch) != 0 {
		t.Errorf("untrust of what lucid did not add: %v %v", ch, err)
	}
	if b, _ := os.ReadFile(cfg); string(b) != above {
		t.Errorf("changed: %s", b)
	}
	t.Setenv("COPILOT_ALLOW_ALL", "true")
	os.Remove(cfg)
	if f := checkTrust(repo); !f.OK || !strings.Contains(f.Detail, "COPILOT_ALLOW_ALL") {
		t.Errorf("COPILOT_ALLOW_ALL: %+v", f)
	}
	t.Setenv("COPILOT_ALLOW_ALL", "")
	os.WriteFile(cfg, []byte("// x\n{oops"), 0o600)
	if f := checkTrust(repo); f.OK || !strings.Contains(f.Detail, "not a JSON object") && !strings.Contains(f.Detail, "not valid JSON") {
		t.Errorf("a broken config: %+v", f)
	}
	if _, err := Trust(repo); err == nil {
		t.Error("trust written into a broken config")
	}
}

// Under Copilot, a hook of another client's entry (Claude Code's
// .claude/settings.json, which Copilot runs too, without COPILOT_HOOK_DIR)
// is hosted: it stands aside where lucid's Copilot file is installed, and
// serves where it is not; Copilot's own hooks, and hooks outside Copilot,
// are not hosted.
func TestHosts(t *testing.T) {
	repo := installertest.NewRepo(t)
	envOf := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	claudeUnderCopilot := envOf(map[string]string{"COPILOT_CLI": "1", "COPILOT_PROJECT_DIR": repo.Top, "CLAUDE_PROJECT_DIR": repo.Top})
	copilotFile := envOf(map[string]string{"COPILOT_CLI": "1", "COPILOT_PROJECT_DIR": repo.Top, "COPILOT_HOOK_DIR": repo.Abs(".github/hooks")})
	claudeCode := envOf(map[string]string{"CLAUDE_PROJECT_DIR": repo.Top})
	c := Client{}
	if hosts, aside := c.Hosts("claude", claudeUnderCopilot); !hosts || aside {
		t.Errorf("with no Copilot entry: hosts %v, aside %v", hosts, aside)
	}
	if _, err := c.Setup().Install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	if hosts, aside := c.Hosts("claude", claudeUnderCopilot); !hosts || !aside {
		t.Errorf("the Claude Code entry runs beside lucid's Copilot entry: hosts %v, aside %v", hosts, aside)
	}
	for name, env := range map[string]func(string) string{"Claude Code": claudeCode, "a Copilot hook file": copilotFile} {
		if hosts, _ := c.Hosts("claude", env); hosts {
			t.Errorf("%s taken for a hosted call", name)
		}
	}
	if hosts, _ := c.Hosts("copilot", claudeUnderCopilot); hosts {
		t.Error("hosts itself")
	}
}

// A Claude-shaped answer that Copilot runs gets its context at the top
// too, where Copilot reads it, but at PreToolUse, where it reads
// hookSpecificOutput's; a deny and a block are left as they are.
func TestEncodeHosted(t *testing.T) {
	for _, tc := range []struct {
		event string
		out   client.Output
		want  string
	}{
		{client.SessionStart, client.Output{Context: "digest"}, `{"additionalContext":"digest","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"digest"}}`},
		{client.PostToolUse, client.Output{Context: "news"}, `{"additionalContext":"news","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"news"}}`},
		{client.PreToolUse, client.Output{Context: "news"}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"news"}}`},
		{client.PreToolUse, client.Output{Deny: "no"}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
		{client.Stop, client.Output{Block: "record"}, `{"decision":"block","reason":"record"}`},
		{client.Stop, client.Output{}, ``},
	} {
		b, _, code := Client{}.EncodeHosted(claudeShaped{}, client.Input{Event: tc.event}, &tc.out)
		if want := tc.want; strings.TrimSuffix(string(b), "\n") != want || code != 0 {
			t.Errorf("%s %+v: %s (exit %d), want %s", tc.event, tc.out, b, code, want)
		}
	}
}

// A Claude-shaped payload that Copilot runs names the file of its Write
// and Edit in tool_input.path: the guard reads it there; nothing says what
// a shell command wrote; the lead's Stop gates; a compaction starts no
// session.
func TestDecodeHosted(t *testing.T) {
	for _, name := range []string{"PascalCase-PreToolUse-Write.json", "PascalCase-PreToolUse-Edit.json"} {
		in, err := Client{}.DecodeHosted(claudeShaped{}, "PreToolUse", adapter.Recorded(t, name))
		if err != nil || in.Tool != client.ToolEdit || len(in.Paths) != 1 || !strings.HasPrefix(in.Paths[0], "/home/dev/repo/") ||
			!in.Caps.Has(client.Unrecorded) || !in.Caps.Has(client.GateLead) || !in.Caps.Has(client.NoRestart) {
			t.Errorf("%s: %+v, %v", name, in, err)
		}
	}
}

// claudeShaped reads and answers as Claude Code (a stand-in for its
// adapter: a Write whose file is in file_path, answers by client/answer).
type claudeShaped struct{ client.Client }

func (claudeShaped) Decode(event string, b []byte) (client.Input, error) {
	var p struct {
		Cwd, ToolName string
		ToolInput     []byte
	}
	err := jsonread.Fields(b, map[string]any{"cwd": &p.Cwd, "tool_name": &p.ToolName, "tool_input": &p.ToolInput})
	in := client.Input{Event: event, Cwd: p.Cwd, ToolName: p.ToolName, ToolInput: p.ToolInput}
	if p.ToolName == "Write" || p.ToolName == "Edit" {
		in.Tool = client.ToolEdit
	}
	return in, err
}

func (claudeShaped) Encode(in client.Input, out *client.Output) ([]byte, string, int) {
	return answer.Encode(in, out)
}

// detected is whether plain lucid init finds Copilot's folder.
func detected(repo *gitstore.Repo) bool {
	_, found := Hooks.Detected(repo)
	return found
}
