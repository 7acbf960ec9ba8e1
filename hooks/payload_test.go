package hooks

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"strings"
	"testing"
)

// readLarge keeps what a handler reads, exactly as encoding/json reads the
// whole payload, and drops the bulky members, whatever their escapes and
// wherever the reader's buffers end.
func TestReadLarge(t *testing.T) {
	// Escapes of every kind, one of them astride each buffer boundary.
	content := strings.Repeat(`a"b\c`+"\n\t\u00e9\u2028", 9000) + strings.Repeat("x", 64<<10-1) + `\"`
	payloads := []map[string]any{
		{"session_id": "s", "cwd": "/r", "hook_event_name": "PreToolUse", "tool_name": "Write",
			"tool_input": map[string]any{"content": content, "file_path": `/r/a "b"\c.txt`}, "extra": []any{1.5, true, nil, map[string]any{"k": "}]"}}},
		{"session_id": "s", "agent_id": "a1", "cwd": "/r", "hook_event_name": "PostToolUse", "tool_name": "Bash",
			"tool_input":    map[string]any{"command": "echo '" + content + "' > out", "description": "write"},
			"tool_response": map[string]any{"stdout": content, "bashEditDiff": map[string]any{"changedFiles": []string{"/r/out"}, "shared": true}}},
		{"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Edit",
			"tool_input": map[string]any{"old_string": content, "new_string": content, "file_path": "/r/e"}},
	}
	// What the adapters read of a payload: everything but the bulky members.
	kept := func(doc map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range doc {
			switch k {
			case "tool_input":
				in := map[string]any{}
				for ik, iv := range v.(map[string]any) {
					if !bulky(ik) {
						in[ik] = iv
					}
				}
				out[k] = in
			case "tool_response":
				if d, ok := v.(map[string]any)["bashEditDiff"]; ok {
					out[k] = map[string]any{"bashEditDiff": d}
				} else {
					out[k] = map[string]any{}
				}
			default:
				out[k] = v
			}
		}
		return out
	}
	for _, p := range payloads {
		raw, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var whole map[string]any
		json.Unmarshal(raw, &whole)
		got, err := readLarge(bytes.NewReader(raw), shapeOf(nil))
		if err != nil {
			t.Fatalf("%s: %v", p["tool_name"], err)
		}
		var read map[string]any
		if err := json.Unmarshal(got, &read); err != nil {
			t.Fatalf("%s: readLarge gave no JSON object: %v", p["tool_name"], err)
		}
		want, _ := json.Marshal(kept(whole))
		have, _ := json.Marshal(read)
		if !bytes.Equal(want, have) {
			t.Errorf("%s: read\n%.300s\nwant\n%.300s", p["tool_name"], have, want)
		}
	}
	for _, bad := range []string{`{"tool_name": "Write", "tool_input": {"content": "cut`, `[1]`, `{"a" 1}`, `{"a": tru}`} {
		if _, err := readLarge(strings.NewReader(bad), shapeOf(nil)); err == nil {
			t.Errorf("%q read without an error", bad)
		}
	}
}

// camelClient keeps a tool's input in toolArgs, with its file's text in
// file_text, as some clients do.
type camelClient struct{ wholeClient }

func (camelClient) LargeInput() (string, []string) { return "toolArgs", []string{"file_text"} }

// A payload past MaxPayload whose client names its input's member and its
// bulky members is read without them, in bounded memory: the path stays,
// the text is never held. A patch given as the input itself (a string) is
// kept, since the files it names are in it.
func TestLargePayloadOfItsClient(t *testing.T) {
	const size = 3 * MaxPayload
	payload := io.MultiReader(strings.NewReader(`{"toolName":"create","toolArgs":{"path":"src/a.go","file_text":"`),
		io.LimitReader(xs{}, size), strings.NewReader(`"},"cwd":"/r"}`))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, large, err := readPayload(payload, shapeOf(camelClient{}))
	runtime.ReadMemStats(&after)
	if err != nil || !large {
		t.Fatalf("readPayload: large %v, %v", large, err)
	}
	if want := `{"cwd":"/r","toolArgs":{"path":"src/a.go"},"toolName":"create"}`; string(got) != want {
		t.Errorf("read %.200s, want %s", got, want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2*size { // the first MaxPayload is read whole
		t.Errorf("reading a %d MiB payload allocated %d MiB: its text was held", size>>20, alloc>>20)
	}
	patch := "*** Begin Patch\n*** Add File: src/n.go\n+" + strings.Repeat("x", MaxPayload) + "\n*** End Patch\n"
	b, _ := json.Marshal(map[string]any{"toolName": "apply_patch", "toolArgs": patch})
	got, _, err = readPayload(bytes.NewReader(b), shapeOf(camelClient{}))
	if err != nil || !strings.Contains(string(got), `*** Add File: src/n.go`) {
		t.Errorf("a large patch was not kept: %v %.100s", err, got)
	}
}
