package logformat

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// FuzzDecodeHead holds DecodeHead to DecodeEntry: where it is sure, it
// accepts exactly the lines DecodeEntry accepts, with the same head.
func FuzzDecodeHead(f *testing.F) {
	for _, s := range []string{
		`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","agent":"a","kind":"fact","text":"t \"q\" \u00e9","evidence":[{"path":"a.go","line":42,"blake3":"00","text":"x"}]}`,
		`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","kind":"supersede","supersedes":"01JEXAMPLE0000000000000001","retired":true}`,
		`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","kind":"fact","Kind":"x"}`,
		`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","kind":"fact","evidence":[{"line":1.5}]}`,
		`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","kind":"fact","retired":"yes"}`,
		`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","kind":"fact","x":{"y":[1,-2.5e3,true,null,"s"]}} `,
		`{"id":"01JEXAMPLE0000000000000000","at":"bad","kind":"fact"}`,
		`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","agent":"a","kind":"message","text":"t","to":["b",null],"ask":true,"reply_to":"01JEXAMPLE0000000000000001","claim":["src/**"],"owner":"c"}`,
		`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","kind":"message","to":"b"}`,
		`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","kind":"message","ask":"yes"}`,
		`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","kind":"message","claim":[1]}`,
		`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","kind":"message","To":["b"]}`,
		`<<<<<<< HEAD`, `null`, `[]`, `{}`, `{"id":1}`, `{"evidence":{}}`, `{"text":"a` + "\x01" + `"}`,
	} {
		f.Add([]byte(s))
	}
	for _, s := range lineSeeds(f) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var h Head
		ok, sure := DecodeHead(line, &h)
		if !sure {
			return
		}
		e, err := DecodeEntry(line)
		if ok != (err == nil) {
			t.Fatalf("decodeHead says valid=%v, DecodeEntry says %v, for %q", ok, err, line)
		}
		if ok && (h.ID != e.ID || h.At != e.At || h.Kind != e.Kind || h.Supersedes != e.Supersedes || h.Retired != e.Retired) {
			t.Fatalf("decodeHead read %+v, DecodeEntry %+v, from %q", h, e, line)
		}
	})
}

// TestCanonicalTime holds canonicalTime to time.Parse on every day of a
// leap year and of the years around it, and on times out of range.
func TestCanonicalTime(t *testing.T) {
	check := func(s string) {
		ok, sure := canonicalTime(s)
		_, err := time.Parse(TimeFormat, s)
		if !sure || ok != (err == nil) {
			t.Errorf("canonicalTime(%q) = %v, %v; time.Parse: %v", s, ok, sure, err)
		}
	}
	for _, y := range []int{1900, 2000, 2023, 2024, 2100} {
		for m := 1; m <= 12; m++ {
			for d := 0; d <= 32; d++ {
				check(fmt.Sprintf("%04d-%02d-%02dT23:59:59.999Z", y, m, d))
			}
		}
	}
	for _, s := range []string{"2026-00-01T00:00:00.000Z", "2026-13-01T00:00:00.000Z", "2026-01-01T24:00:00.000Z", "2026-01-01T00:60:00.000Z", "2026-01-01T00:00:60.000Z", "0000-01-01T00:00:00.000Z"} {
		check(s)
	}
	if _, sure := canonicalTime("2026-1-01T00:00:00.000Z "); sure {
		t.Errorf("canonicalTime is sure of a time of another shape")
	}
}

// lineSeeds are lines DecodeHead must judge as DecodeEntry does: what
// lucid writes, and what a person, a tool or a torn write could leave.
func lineSeeds(t testing.TB) []string {
	at := time.Date(2026, 12, 2, 7, 52, 18, 123e6, time.UTC)
	e := NewEntry(at, "30df32ba-0d45-4195-af71-803394f51561/a1b2c3", KindDecision,
		`the "strict" decoder, C:\Users\dev, <script>, x < y && y > z, é ü ø →`)
	e.Evidence = []Evidence{{Path: "src/a.go", Line: 42, Blake3: strings.Repeat("ab", 32), Text: "if err != nil {"}, {Path: "b", Blake3: "00"}}
	plan := NewEntry(at, "human", KindPlan, "plan.md changed")
	plan.Diff = "@@ -1 +1 @@\n-old\n+new\t\"quoted\"\n"
	sup := NewEntry(at, "human", KindSupersede, "no longer holds")
	sup.Supersedes, sup.Retired = e.ID, true
	var seeds []string
	for _, x := range []Entry{e, plan, sup, NewEntry(at, "", KindNote, "")} {
		b, err := EncodeEntry(x)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, strings.TrimSuffix(string(b), "\n"))
	}
	id := `"01KTC4VN86Q9S4HEG3T05G1190"`
	return append(seeds,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact"}`,
		` { "id" : `+id+` , "at":"2026-12-02T07:52:18.123Z","kind":"fact" } `,
		`{"at":"2026-12-02T07:52:18.123Z","kind":"fact","id":`+id+`}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","extra":{"a":[1,2.5e3,true,null,"x"]}}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","ID":"01KTC4VN86Q9S4HEG3T05G1191"}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","id":"01KTC4VN86Q9S4HEG3T05G1191"}`,
		`{"id":"\u00301KTC4VN86Q9S4HEG3T05G1190","at":"2026-12-02T07:52:18.123Z","kind":"fact"}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","text":null}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","text":5}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","retired":"yes"}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","evidence":[{"path":"a","line":1.5}]}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","evidence":[{"path":"a","line":99999999999999999999}]}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","evidence":[null]}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","evidence":{}}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","Kind":"note"}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":""}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z"}`,
		`{"id":`+id+`,"at":"2026-02-29T07:52:18.123Z","kind":"fact"}`,
		`{"id":`+id+`,"at":"2024-02-29T07:52:18.123Z","kind":"fact"}`,
		`{"id":`+id+`,"at":"2026-12-02T24:52:18.123Z","kind":"fact"}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18Z","kind":"fact"}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact"} x`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact"}`+"\r",
		`{"id":"81KTC4VN86Q9S4HEG3T05G1190","at":"2026-12-02T07:52:18.123Z","kind":"fact"}`,
		`{"id":"01ktc4vn86q9s4heg3t05g1190","at":"2026-12-02T07:52:18.123Z","kind":"fact"}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fa`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","text":"a`+"\x01"+`b"}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","text":"\x"}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","text":"\ud800 \uZZZZ"}`,
		`{"id":`+id+`,"at":"2026-12-02T07:52:18.123Z","kind":"fact","text":"`+"\xff\xfe"+`"}`,
		`[]`, `{}`, ``, `null`, `"x"`, `{"id":`+id+`,}`,
	)
}

// checkLine fails when DecodeHead, where it is sure, or ReadHead, always,
// answers for line otherwise than DecodeEntry.
func checkLine(t testing.TB, line string) {
	e, err := DecodeEntry([]byte(line))
	for _, read := range []func([]byte, *Head) bool{ReadHead, ReadHeadShared} {
		var h Head
		if ok := read([]byte(line), &h); ok != (err == nil) || ok && (h.ID != e.ID || h.At != e.At || h.Kind != e.Kind) {
			t.Fatalf("ReadHead(%q) = %+v, %v; DecodeEntry: %+v, %v", line, h, ok, e, err)
		}
	}
	for _, decode := range []func([]byte, *Head) (bool, bool){DecodeHead, DecodeHeadShared} {
		var h Head
		ok, sure := decode([]byte(line), &h)
		if sure && (ok != (err == nil) || ok && (h.ID != e.ID || h.At != e.At)) {
			t.Fatalf("DecodeHead(%q) = %+v, %v; DecodeEntry: %q, %q, %v", line, h, ok, e.ID, e.At, err)
		}
	}
}

func TestDecodeHeadAgrees(t *testing.T) {
	for _, line := range lineSeeds(t) {
		checkLine(t, line)
	}
	// And every cut of a lucid line (a torn write), and each byte changed.
	r := rand.New(rand.NewPCG(5, 6))
	for _, line := range lineSeeds(t)[:4] {
		for i := range len(line) {
			checkLine(t, line[:i])
			b := []byte(line)
			const swaps = "\"\\{}[],: 0aZ\x00\xc3-.eE"
			b[i] = swaps[r.IntN(len(swaps))]
			checkLine(t, string(b))
		}
	}
}

// TestDecodeHeadFast checks that what lucid writes is read by DecodeHead
// with certainty: otherwise the merge driver and the whole-log readers
// would be several times slower, and no other test would fail.
func TestDecodeHeadFast(t *testing.T) {
	for _, line := range lineSeeds(t)[:4] {
		var h Head
		if ok, sure := DecodeHead([]byte(line), &h); !ok || !sure {
			t.Errorf("DecodeHead(%q) = %v, %v", line, ok, sure)
		}
	}
}

// checkAt fails unless canonicalTime, where sure, agrees with time.Parse,
// and is sure of every time in lucid's form (one that reads back as it was
// written).
func checkAt(t testing.TB, at string) {
	tm, err := time.Parse(TimeFormat, at)
	lucids := err == nil && tm.Format(TimeFormat) == at
	ok, sure := canonicalTime(at)
	if sure && ok != (err == nil) || lucids && !(sure && ok) {
		t.Fatalf("canonicalTime(%q) = %v, %v; time.Parse: %v, %v", at, ok, sure, tm, err)
	}
}

func TestValidAt(t *testing.T) {
	check := func(at string) { checkAt(t, at) }
	// Every day of four years around leap days, at edges of the clock.
	for _, y := range []int{1900, 2000, 2024, 2026} {
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				check(fmt.Sprintf("%04d-%02d-%02dT23:59:59.999Z", y, m, d))
			}
		}
	}
	for _, at := range []string{"2026-12-02T24:00:00.000Z", "2026-12-02T00:60:00.000Z", "2026-12-02T00:00:60.000Z",
		"0000-01-01T00:00:00.000Z", "2026-12-02T07:52:18.1234Z", "2026-12-02T07:52:18.12Z", "2026-12-02 07:52:18.123Z",
		"2026-12-02T07:52:18.123+", "+026-12-02T07:52:18.123Z", "2026-1a-02T07:52:18.123Z", "",
		"0000-01-01T0:00:00,000Z", "2026-12-02T07:52:18,123Z", "2026-12-02T7:52:18.123Z", "0000-01-01T00:00:00.+00Z"} {
		check(at)
	}
}

func FuzzCanonicalTime(f *testing.F) {
	f.Add("2026-12-02T07:52:18.123Z")
	f.Add("2024-02-29T00:00:00.000Z")
	f.Fuzz(func(t *testing.T, at string) { checkAt(t, at) })
}

// FuzzReadBody holds ReadBody to DecodeEntry: the same answer and head as
// ReadHead, and the agent, text, diff and evidence of the entry, once
// their JSON escapes are read.
func FuzzReadBody(f *testing.F) {
	for _, s := range lineSeeds(f) {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","agent":"a\"b","kind":"fact","text":"t \"q\" \u00e9\n","diff":"-a\n+b","evidence":[{"path":"a.go","line":42,"blake3":"00","text":"x"},null,{"path":"b\\c.go"}]}`))
	f.Add([]byte(`{"id":"01JEXAMPLE0000000000000000","at":"2026-12-02T07:52:18.123Z","kind":"fact","KIND":"x","text":"t"}`))
	unquote := func(raw []byte) string {
		var s string
		if err := json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s); err != nil {
			return "<" + err.Error() + ">"
		}
		return s
	}
	var b Body
	f.Fuzz(func(t *testing.T, line []byte) {
		var h, want Head
		ok := ReadBody(line, &h, &b)
		if wantOK := ReadHead(line, &want); ok != wantOK || ok && h != want {
			t.Fatalf("ReadBody: %v %+v; ReadHead: %v %+v; of %q", ok, h, wantOK, want, line)
		}
		if !ok {
			return
		}
		e, _ := DecodeEntry(line)
		got := Entry{Agent: unquote(b.Agent), Text: unquote(b.Text), Diff: unquote(b.Diff)}
		wantBody := Entry{Agent: e.Agent, Text: e.Text, Diff: e.Diff}
		for _, ev := range b.Evidence {
			got.Evidence = append(got.Evidence, Evidence{Path: unquote(ev.Path), Text: unquote(ev.Text)})
		}
		for _, ev := range e.Evidence {
			wantBody.Evidence = append(wantBody.Evidence, Evidence{Path: ev.Path, Text: ev.Text})
		}
		if fmt.Sprint(got) != fmt.Sprint(wantBody) {
			t.Fatalf("ReadBody read %+v, DecodeEntry %+v, from %q", got, wantBody, line)
		}
	})
}
