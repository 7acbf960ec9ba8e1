package logformat

import (
	"fmt"
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
		`<<<<<<< HEAD`, `null`, `[]`, `{}`, `{"id":1}`, `{"evidence":{}}`, `{"text":"a` + "\x01" + `"}`,
	} {
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
