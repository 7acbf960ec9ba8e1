package merge

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/logformat"
)

// lineSeeds are lines quickEntry must judge as DecodeEntry does: what
// lucid writes, and what a person, a tool or a torn write could leave.
func lineSeeds(t testing.TB) []string {
	at := time.Date(2026, 12, 2, 7, 52, 18, 123e6, time.UTC)
	e := logformat.NewEntry(at, "30df32ba-0d45-4195-af71-803394f51561/a1b2c3", logformat.KindDecision,
		`the "strict" decoder, C:\Users\dev, <script>, x < y && y > z, é ü ø →`)
	e.Evidence = []logformat.Evidence{{Path: "src/a.go", Line: 42, Blake3: strings.Repeat("ab", 32), Text: "if err != nil {"}, {Path: "b", Blake3: "00"}}
	plan := logformat.NewEntry(at, "human", logformat.KindPlan, "plan.md changed")
	plan.Diff = "@@ -1 +1 @@\n-old\n+new\t\"quoted\"\n"
	sup := logformat.NewEntry(at, "human", logformat.KindSupersede, "no longer holds")
	sup.Supersedes, sup.Retired = e.ID, true
	var seeds []string
	for _, x := range []logformat.Entry{e, plan, sup, logformat.NewEntry(at, "", logformat.KindNote, "")} {
		b, err := logformat.EncodeEntry(x)
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

// checkLine fails when quickEntry answers for line where DecodeEntry would
// not, or differently, or when lineEntry and DecodeEntry disagree.
func checkLine(t testing.TB, line string) {
	e, err := logformat.DecodeEntry([]byte(line))
	if id, at, ok := quickEntry(line); ok && (err != nil || id != e.ID || at != e.At) {
		t.Fatalf("quickEntry(%q) = %q, %q, true; DecodeEntry: %q, %q, %v", line, id, at, e.ID, e.At, err)
	}
	id, at, ok := lineEntry(line)
	if ok != (err == nil) || ok && (id != e.ID || at != e.At) {
		t.Fatalf("lineEntry(%q) = %q, %q, %v; DecodeEntry: %q, %q, %v", line, id, at, ok, e.ID, e.At, err)
	}
}

func TestQuickEntryAgrees(t *testing.T) {
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

// TestQuickEntryFast checks that what lucid writes takes the fast path:
// otherwise the driver would be six times slower, and no test would fail.
func TestQuickEntryFast(t *testing.T) {
	for _, line := range lineSeeds(t)[:4] {
		if _, _, ok := quickEntry(line); !ok {
			t.Errorf("quickEntry(%q) is not sure", line)
		}
	}
}

func FuzzQuickEntry(f *testing.F) {
	for _, line := range lineSeeds(f) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) { checkLine(t, line) })
}

// checkAt fails unless validAt accepts exactly the times that time.Parse
// accepts and that read back as they were written: lucid's form. (Parse
// takes a little more, which DecodeEntry then judges.)
func checkAt(t testing.TB, at string) {
	tm, err := time.Parse(logformat.TimeFormat, at)
	lucids := err == nil && tm.Format(logformat.TimeFormat) == at
	if validAt(at) != lucids {
		t.Fatalf("validAt(%q) = %v, time.Parse: %v, %v", at, validAt(at), tm, err)
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

func FuzzValidAt(f *testing.F) {
	f.Add("2026-12-02T07:52:18.123Z")
	f.Add("2024-02-29T00:00:00.000Z")
	f.Fuzz(func(t *testing.T, at string) { checkAt(t, at) })
}
