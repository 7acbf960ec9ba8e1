package gemini

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/guard/shell"
	"github.com/lucid-dev/lucid/guard/stamp"
)

// geminiPayloads holds BeforeTool payloads recorded from Gemini CLI 0.61.0
// (its NOTES.md says how).
const geminiPayloads = "../../../testdata/payloads/gemini-0.61.0"

func TestGeminiWritesOfRecordedPayloads(t *testing.T) {
	for name, want := range map[string][]shell.Write{
		"subagent-BeforeTool-write_file.json":        {{Path: "/home/dev/repo/src/sub.go", By: "write_file"}},
		"relative-BeforeTool-write_file.json":        {{Path: "/home/dev/repo/src/rel.go", By: "write_file"}},
		"relative-BeforeTool-replace.json":           {{Path: "/home/dev/repo/notes.txt", By: "replace"}},
		"relative-BeforeTool-run_shell_command.json": {{Path: "/home/dev/repo/src/here.txt", By: ">"}},
		"subagent-BeforeTool-invoke_agent.json":      nil,
		"subagent-BeforeTool-complete_task.json":     nil,
	} {
		b, err := os.ReadFile(filepath.Join(geminiPayloads, name))
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Cwd       string          `json:"cwd"`
			ToolName  string          `json:"tool_name"`
			ToolInput json.RawMessage `json:"tool_input"`
		}
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := Writes(p.ToolName, p.ToolInput, p.Cwd); !slices.Equal(got, want) {
			t.Errorf("%s: Writes = %v, want %v", name, got, want)
		}
	}
}

func TestGeminiWrites(t *testing.T) {
	const cwd = "/w/repo"
	for _, c := range []struct {
		tool, input string
		want        []shell.Write
	}{
		{"write_file", `{"file_path":"/w/repo/a/../b.go","content":"x"}`, []shell.Write{{Path: "/w/repo/b.go", By: "write_file"}}},
		{"replace", `{"file_path":"src/a.go","old_string":"a","new_string":"b","instruction":"i","allow_multiple":true}`,
			[]shell.Write{{Path: "/w/repo/src/a.go", By: "replace"}}},
		// Outside the workspace is still a path: whether it is lucid's
		// business is for the caller to say.
		{"write_file", `{"file_path":"../other/x","content":""}`, []shell.Write{{Path: "/w/other/x", By: "write_file"}}},
		{"run_shell_command", `{"command":"sed -i s/a/b/ a.go && echo ok > /tmp/out","description":"d"}`,
			[]shell.Write{{Path: "/w/repo/a.go", By: "sed -i"}, {Path: "/tmp/out", By: ">"}}},
		{"run_shell_command", `{"command":"echo x > f","dir_path":"/w/repo/sub","is_background":true}`,
			[]shell.Write{{Path: "/w/repo/sub/f", By: ">"}}},
		{"run_shell_command", `{"command":"ls -la"}`, nil},
		{"read_file", `{"file_path":"src/a.go"}`, nil},
		{"write_todos", `{"todos":[{"description":"x","status":"pending"}]}`, nil},
		// What the client would refuse to run writes nothing.
		{"write_file", `{"content":"no path"}`, nil},
		{"write_file", `{"file_path":42}`, nil},
		{"replace", `not json`, nil},
		{"run_shell_command", `{"command":"echo x >"}`, nil},
	} {
		if got := Writes(c.tool, json.RawMessage(c.input), cwd); !slices.Equal(got, c.want) {
			t.Errorf("Writes(%s, %s) = %v, want %v", c.tool, c.input, got, c.want)
		}
	}
}

func TestGeminiWithCommand(t *testing.T) {
	in := json.RawMessage(`{"command":"lucid fact \"x > y\" -e a.go:1 && go test ./...","description":"record","dir_path":"src","is_background":false}`)
	st := stamp.Lucid(`lucid fact "x > y" -e a.go:1 && go test ./...`, "gem-1")
	out := WithCommand(in, st.Command)
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the new input is not JSON: %v\n%s", err, out)
	}
	// Every argument is there: Gemini runs exactly this input.
	want := map[string]any{"command": `LUCID_AGENT=gem-1 lucid fact "x > y" -e a.go:1 && go test ./...`,
		"description": "record", "dir_path": "src", "is_background": false}
	if len(got) != len(want) {
		t.Errorf("new input %s, want the keys of %v", out, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("new input's %s = %v, want %v", k, got[k], v)
		}
	}
	if strings.Contains(string(out), `\u003e`) {
		t.Errorf("the new input escapes > for HTML: %s", out)
	}
	for _, in := range []string{`[]`, `null`, `not json`} {
		if out := WithCommand(json.RawMessage(in), "x"); out != nil {
			t.Errorf("WithCommand(%s) = %s, want nil", in, out)
		}
	}
}

func TestGeminiShellCommand(t *testing.T) {
	for in, want := range map[string][2]string{
		`{"command":"make"}`:                       {"make", "/w/repo"},
		`{"command":"make","dir_path":"sub/dir"}`:  {"make", "/w/repo/sub/dir"},
		`{"command":"make","dir_path":"/w/other"}`: {"make", "/w/other"},
	} {
		cmd, dir, ok := ShellCommand(json.RawMessage(in), "/w/repo")
		if !ok || cmd != want[0] || dir != want[1] {
			t.Errorf("ShellCommand(%s) = %q, %q, %v; want %q, %q", in, cmd, dir, ok, want[0], want[1])
		}
	}
	if _, _, ok := ShellCommand(json.RawMessage(`{"command":1}`), "/w/repo"); ok {
		t.Error("a command that is not a string reads as a command")
	}
}
