package e2e

import (
	"os"
	"path/filepath"
	"testing"

	cc "github.com/lucid-dev/lucid/internal/testkit/scripted/chatcompletions"
)

// TestCrushRecordPayloads records what Crush gives its hooks, when
// LUCID_E2E_CRUSH_RECORD names a folder: a recorder hook with no matcher,
// in the user config beside lucid's in the project's, writes each payload (stdin) and the hook's
// environment there, one file each, in the order of the calls. It is how
// testdata/payloads/crush-* was made; the adapter's tests read those.
func TestCrushRecordPayloads(t *testing.T) {
	out := os.Getenv("LUCID_E2E_CRUSH_RECORD")
	if out == "" {
		t.Skip("LUCID_E2E_CRUSH_RECORD is not set: nothing to record into")
	}
	w := newCrushLucid(t)
	rec := filepath.Join(t.TempDir(), "rec.sh")
	w.write(rec, `#!/bin/sh
n=$(ls "$REC_DIR" | wc -l)
n=$(printf %03d $((n / 2)))
cat > "$REC_DIR/$n-$CRUSH_TOOL_NAME.json"
env | grep -E '^(CRUSH|AGENT|AI_AGENT)' | sort > "$REC_DIR/$n-$CRUSH_TOOL_NAME.env"
`)
	os.Chmod(rec, 0o755)
	// The recorder is the user's hook; lucid's, the project's, runs too.
	w.userHooks = `{"PreToolUse": [{"name": "rec", "command": "` + rec + `"}]}`
	// The bash tool's own environment, as a command sees it.
	shellEnv := filepath.Join(out, "shell.env")
	lead := &cc.Script{Name: "lead", Marker: "[[crush-lead]]", Steps: []cc.Step{
		crushWrite(w.path("new.txt"), "new\n"),
		cc.CallTool("view", map[string]any{"file_path": w.path("notes.txt")}),
		crushEdit(w.path("notes.txt"), "hello world", "hello crush"),
		cc.CallTool("multiedit", map[string]any{"file_path": w.path("notes.txt"), "edits": []map[string]any{{"old_string": "line two", "new_string": "line 2"}}}),
		cc.CallTool("bash", map[string]any{"command": "env | grep -E '^(CRUSH|AGENT|AI_AGENT)' | sort > " + shellEnv, "description": "env", "working_dir": "src"}),
		cc.Say("Recorded."),
	}}
	srv := cc.New(lead)
	defer srv.Close()
	w.crush(srv, "[[crush-lead]] Record.", "REC_DIR="+out)
}
