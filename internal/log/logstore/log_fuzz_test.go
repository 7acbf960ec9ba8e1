package logstore

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/log/logformat"
)

// FuzzDecodeEntry: any line decodes or is refused without a panic, within
// memory in proportion to the line; an entry that decodes encodes to one
// line that decodes to the same entry.
func FuzzDecodeEntry(f *testing.F) {
	e := logformat.NewEntry(time.Date(2026, 12, 2, 7, 52, 18, 0, time.UTC), "lead", logformat.KindFact, "text \x1b[2J\u2028")
	e.Evidence = []logformat.Evidence{{Path: "a.go", Line: 3, Blake3: "00"}}
	line, _ := logformat.EncodeEntry(e)
	f.Add(bytes.TrimSuffix(line, []byte{'\n'}))
	f.Add([]byte(`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","kind":"supersede","supersedes":"x","retired":true}`))
	f.Add([]byte(`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","kind":"fact","evidence":[{"line":-1}]}`))
	f.Add([]byte(`{"id":1}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		e, err := logformat.DecodeEntry(line)
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(64*len(line))+1<<20 {
			t.Fatalf("decoding %d bytes allocated %d", len(line), grew)
		}
		if err != nil {
			return
		}
		out, err := logformat.EncodeEntry(e)
		if err != nil {
			t.Fatalf("a decoded entry does not encode: %v", err)
		}
		if bytes.IndexByte(out[:len(out)-1], '\n') >= 0 || out[len(out)-1] != '\n' {
			t.Fatalf("an entry encodes to more than one line: %q", out)
		}
		again, err := logformat.DecodeEntry(out[:len(out)-1])
		if err != nil {
			t.Fatalf("re-encoded entry does not decode: %v\n%s", err, out)
		}
		out2, _ := logformat.EncodeEntry(again)
		if !bytes.Equal(out, out2) {
			t.Fatalf("encoding is not stable:\n%s\n%s", out, out2)
		}
	})
}

// FuzzScanLog: any log file scans forward and backward to the same entries
// (in opposite orders) and the same count of invalid lines, without a
// panic.
func FuzzScanLog(f *testing.F) {
	e1, _ := logformat.EncodeEntry(logformat.NewEntry(time.Now(), "a", logformat.KindNote, "one"))
	e2, _ := logformat.EncodeEntry(logformat.NewEntry(time.Now(), "a", logformat.KindNote, "two"))
	f.Add(append(append([]byte(nil), e1...), e2...))
	f.Add(append(append(append([]byte(nil), e1...), "garbage\n\r\n"...), e2[:20]...))
	f.Add([]byte("\n\n\r\n"))
	path := filepath.Join(f.TempDir(), "log.jsonl")
	f.Fuzz(func(t *testing.T, content []byte) {
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		var fwd, back []string
		inv1, err1 := Scan(path, func(e logformat.Entry) bool { fwd = append(fwd, e.ID); return true })
		inv2, err2 := ScanBackward(path, func(e logformat.Entry) bool { back = append(back, e.ID); return true })
		if err1 != nil || err2 != nil {
			t.Fatalf("scan errors: %v, %v", err1, err2)
		}
		slices.Reverse(back)
		if !slices.Equal(fwd, back) || inv1 != inv2 {
			t.Fatalf("forward %v (%d invalid), backward %v (%d invalid)", fwd, inv1, back, inv2)
		}
	})
}
