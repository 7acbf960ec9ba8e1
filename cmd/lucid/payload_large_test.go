package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/agents/agentstore"
)

// bigWrite is a PreToolUse payload of a Write whose content makes it
// larger than 16 MiB, the content before file_path as Claude Code may send
// it; input holds tool_input's other members.
func bigWrite(t *testing.T, cwd string, input map[string]any) []byte {
	t.Helper()
	in := map[string]any{"content": strings.Repeat("x", 17<<20)}
	for k, v := range input {
		in[k] = v
	}
	b, err := json.Marshal(map[string]any{
		"session_id":      "9f0c2a7e-5b1d-4c3e-8a6f-2d4b1e7c9a30",
		"cwd":             cwd,
		"hook_event_name": "PreToolUse",
		"tool_name":       "Write",
		"tool_input":      in,
		"tool_use_id":     "toolu_big",
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A Write over 16 MiB to a claimed file is denied like any other: the
// payload is streamed for the tool and its path. Only one whose path
// cannot be found fails open, and says so.
func TestLargeWritePayload(t *testing.T) {
	repo := newLucidRepo(t)
	if out, err := lucidCmd(repo, "", "claim", "big.txt", "--for", "the big file").CombinedOutput(); err != nil {
		t.Fatalf("claim: %v\n%s", err, out)
	}
	run := func(payload []byte) (string, string) {
		t.Helper()
		cmd := lucidCmd(repo, "", "hook", "PreToolUse")
		cmd.Stdin = bytes.NewReader(payload)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("lucid hook PreToolUse: %v\n%s", err, stderr.String())
		}
		return stdout.String(), stderr.String()
	}

	out, errs := run(bigWrite(t, repo.Top, map[string]any{"file_path": filepath.Join(repo.Top, "big.txt")}))
	if !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "the big file") {
		t.Errorf("a 17 MiB Write of a claimed file was not denied:\nstdout %.300s\nstderr %s", out, errs)
	}

	out, errs = run(bigWrite(t, repo.Top, map[string]any{"file_path": filepath.Join(repo.Top, "free.txt")}))
	if strings.Contains(out, "deny") || errs != "" {
		t.Errorf("a 17 MiB Write of a free file: stdout %.300s, stderr %s", out, errs)
	}

	out, errs = run(bigWrite(t, repo.Top, nil))
	if out != "" || !strings.Contains(errs, "lucid hook PreToolUse: payload over 16 MiB names no file for Write: not checked") {
		t.Errorf("a 17 MiB Write without a path: stdout %.300s, stderr %s", out, errs)
	}
}

// A prompt over 16 MiB is read too: the hook goes on as for any prompt.
func TestLargePromptPayload(t *testing.T) {
	repo := newLucidRepo(t)
	b, err := json.Marshal(map[string]any{
		"session_id": "9f0c2a7e-5b1d-4c3e-8a6f-2d4b1e7c9a30", "cwd": repo.Top,
		"hook_event_name": "UserPromptSubmit", "prompt": strings.Repeat("y", 17<<20),
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := lucidCmd(repo, "", "hook", "UserPromptSubmit")
	cmd.Stdin = bytes.NewReader(b)
	out, err := cmd.CombinedOutput()
	if err != nil || len(out) != 0 {
		t.Errorf("a 17 MiB prompt: %v, %q", err, out)
	}
	if _, _, ok := agentstore.Load(repo, "9f0c2a7e-5b1d-4c3e-8a6f-2d4b1e7c9a30"); !ok {
		t.Error("the hook did not record the agent, as it does for any prompt")
	}
}
