package logstore

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// After a merge appended the other branch's older entries, List is still
// newest first, and stays so as the log grows and when it is rewritten.
func TestListNewestFirstAfterMerge(t *testing.T) {
	dir := t.TempDir()
	gittest.Run(t, dir, "init", "-q")
	repo, err := gitstore.Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.Init(); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	add := func(minutes ...int) {
		for _, m := range minutes {
			e := logformat.NewEntry(base.Add(time.Duration(m)*time.Minute), "human", logformat.KindFact, fmt.Sprintf("at %d", m))
			if err := Append(repo.LogPath(), e); err != nil {
				t.Fatal(err)
			}
		}
	}
	check := func(when string) {
		t.Helper()
		list, _, err := List(repo, ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range list {
			got = append(got, l.Text)
		}
		want := slices.Clone(got)
		slices.SortFunc(want, func(a, b string) int {
			var x, y int
			fmt.Sscanf(a, "at %d", &x)
			fmt.Sscanf(b, "at %d", &y)
			return y - x
		})
		if !slices.Equal(got, want) {
			t.Errorf("%s: lucid log lists %v, want %v", when, got, want)
		}
		if n, _, _ := List(repo, ListOptions{N: 2}); len(n) != 2 || n[0].Text != want[0] || n[1].Text != want[1] {
			t.Errorf("%s: -n 2 lists %v, want %v", when, n, want[:2])
		}
	}
	add(10, 20, 30)
	check("one run")
	add(5, 15, 25) // a merge appends the other branch's, older
	check("after a merge")
	add(40, 1, 50) // more appends, and another older one
	check("as the log grows")
	b, _ := os.ReadFile(repo.LogPath())
	os.WriteFile(repo.LogPath(), b[:len(b)/2], 0o644) // a rewrite
	add(60)
	check("after a rewrite")
}
