package logformat

import (
	"sort"
	"testing"
	"time"
)

func TestIDsSortByTimeAndAreUnique(t *testing.T) {
	base := time.Date(2026, 12, 2, 7, 52, 18, 123e6, time.UTC)
	seen := map[string]bool{}
	var ids []string
	for i := 0; i < 5000; i++ {
		// Many ids in the same millisecond, then later ones.
		id := NewID(base.Add(time.Duration(i/100) * time.Millisecond))
		if !ValidID(id) {
			t.Fatalf("NewID gave %q, which is not a valid id", id)
		}
		if seen[id] {
			t.Fatalf("NewID repeated %q", id)
		}
		seen[id] = true
		ids = append(ids, id)
	}
	if !sort.StringsAreSorted(ids) {
		t.Fatal("ids made one after another do not sort in the order they were made")
	}
	if got := IDTime(ids[0]); !got.Equal(base) {
		t.Fatalf("IDTime = %v, want %v", got, base)
	}
}

func TestIDEncodesMilliseconds(t *testing.T) {
	// 2^48-1 ms is the largest time an id holds: all ones after the padding.
	id := encodeBase32([16]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	if id != "7ZZZZZZZZZ0000000000000000" {
		t.Fatalf("max time encodes as %s", id)
	}
	if got := IDTime(id).UnixMilli(); got != 1<<48-1 {
		t.Fatalf("IDTime(max) = %d", got)
	}
}

func TestValidID(t *testing.T) {
	for _, tc := range []struct {
		id string
		ok bool
	}{
		{"01JEXAMPLE0000000000000000", true},
		{"01JEXAMPLE000000000000000", false},   // 25 characters
		{"01JEXAMPLE00000000000000000", false}, // 27
		{"81JEXAMPLE0000000000000000", false},  // over 128 bits
		{"01JEXAMPLI0000000000000000", true},   // I reads as 1
		{"01JEXAMPL-0000000000000000", false},
		{"01jexample0000000000000000", false}, // lower case
		{"", false},
	} {
		if got := ValidID(tc.id); got != tc.ok {
			t.Errorf("ValidID(%q) = %v, want %v", tc.id, got, tc.ok)
		}
	}
}
