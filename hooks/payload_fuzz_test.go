package hooks

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// FuzzDecodeInput: any payload decodes or is refused without a panic, and
// decoding costs memory in proportion to the payload, not more.
func FuzzDecodeInput(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "payloads", "*", "*.json"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add("PostToolUse", b)
		}
	}
	f.Add("PreToolUse", []byte(`{"tool_name":"Bash","tool_input":{"command":"x"}}`))
	f.Add("PostToolUse", []byte(`{"tool_name":"Bash","tool_response":{"bashEditDiff":{"changedFiles":["/a"]}}}`))
	f.Add("PostToolUse", []byte(`{"tool_name":"Write","tool_input":[1,2],"tool_response":"x"}`))
	f.Add("SessionStart", []byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`))
	f.Fuzz(func(t *testing.T, event string, payload []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		in, err := decodeInput(event, payload)
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(64*len(payload))+1<<20 {
			t.Fatalf("decoding %d bytes allocated %d", len(payload), grew)
		}
		if err != nil {
			return
		}
		if in.Event != event {
			t.Fatalf("event %q, want %q", in.Event, event)
		}
		n := len(in.tool.FilePath) + len(in.tool.NotebookPath) + len(in.tool.Command)
		for _, c := range in.changed {
			n += len(c)
		}
		if n > 3*len(payload) { // an invalid byte decodes to U+FFFD, three bytes
			t.Fatalf("%d bytes of paths and commands out of a %d-byte payload", n, len(payload))
		}
	})
}
