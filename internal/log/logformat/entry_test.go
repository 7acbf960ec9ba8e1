package logformat

import (
	"strings"
	"testing"
	"time"
)

func TestEntryRoundTrip(t *testing.T) {
	e := NewEntry(time.Date(2026, 12, 2, 7, 52, 18, 123456789, time.FixedZone("X", 3600)), "s/a", KindFact, "a <b> & \"c\"\nnext line")
	e.Evidence = []Evidence{{Path: "src/auth.ts", Line: 42, Blake3: strings.Repeat("ab", 32), Text: "func Login()"}}
	e.Supersedes = "01JEXAMPLE0000000000000000"
	e.Diff = "@@ -1 +1 @@\n-a\n+b\n"
	line, err := EncodeEntry(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"` + e.ID + `","at":"2026-12-02T06:52:18.123Z","agent":"s/a","kind":"fact","text":"a <b> & \"c\"\nnext line","evidence":[{"path":"src/auth.ts","line":42,"blake3":"` + strings.Repeat("ab", 32) + `","text":"func Login()"}],"supersedes":"01JEXAMPLE0000000000000000","diff":"@@ -1 +1 @@\n-a\n+b\n"}` + "\n"
	if string(line) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", line, want)
	}
	back, err := DecodeEntry(line[:len(line)-1])
	if err != nil {
		t.Fatal(err)
	}
	again, _ := EncodeEntry(back)
	if string(again) != string(line) {
		t.Fatalf("decode and encode changed the line:\n%s\n%s", line, again)
	}
}

func TestEncodeLeavesOutEmptyKeys(t *testing.T) {
	e := Entry{ID: "01JEXAMPLE0000000000000000", At: "2026-12-02T07:52:18.123Z", Kind: KindNote, Text: "x"}
	line, err := EncodeEntry(e)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(line); got != `{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","kind":"note","text":"x"}`+"\n" {
		t.Fatalf("got %s", got)
	}
}

func TestDecodeRejectsWhatIsNotAnEntry(t *testing.T) {
	for _, line := range []string{
		``,
		`not json`,
		`[1,2]`,
		`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z"}`,
		`{"id":"01JEXAMPLE0000000000000000","kind":"fact"}`,
		`{"id":"short","at":"2026-12-02T07:52:18.123Z","kind":"fact"}`,
		`{"id":"01JEXAMPLE0000000000000000","at":"yesterday","kind":"fact"}`,
		`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","kind":"fact"`,
	} {
		if _, err := DecodeEntry([]byte(line)); err == nil {
			t.Errorf("DecodeEntry(%s) took it as an entry", line)
		}
	}
	if _, err := EncodeEntry(Entry{Kind: KindFact}); err == nil {
		t.Error("EncodeEntry wrote an entry without an id")
	}
}
