package logstore

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

func TestListFilters(t *testing.T) {
	r := repotest.Lucid(t)
	base := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var ids []string
	add := func(agent, kind, text, supersedes string) {
		e := logformat.NewEntry(base.Add(time.Duration(len(ids))*time.Minute), agent, kind, text)
		e.Supersedes = supersedes
		if err := Append(r.LogPath(), e); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	add("claude/1", logformat.KindFact, "f1", "")
	add("claude/1/sub", logformat.KindDecision, "d1", "")
	add("claude/10", logformat.KindFact, "f2", "")
	add("human", logformat.KindSupersede, "f1 again", ids[0])
	add("human", logformat.KindSupersede, "f1 once more", ids[0]) // a second replacement, as a merge may leave
	f, _ := os.OpenFile(r.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("not an entry\n")
	f.Close()
	texts := func(l []Listed) (out []string) {
		for _, e := range l {
			out = append(out, e.Text+"<"+e.SupersededBy)
		}
		return out
	}
	for _, c := range []struct {
		opt  ListOptions
		want []string
	}{
		{ListOptions{}, []string{"f1 once more<", "f1 again<", "f2<", "d1<"}},
		{ListOptions{All: true}, []string{"f1 once more<", "f1 again<", "f2<", "d1<", "f1<" + ids[4]}},
		{ListOptions{Kind: logformat.KindFact, All: true}, []string{"f2<", "f1<" + ids[4]}},
		{ListOptions{Agent: "claude/1"}, []string{"d1<"}},
		{ListOptions{Agent: "claude/1", All: true}, []string{"d1<", "f1<" + ids[4]}},
		{ListOptions{N: 1, Kind: logformat.KindDecision}, []string{"d1<"}},
		{ListOptions{N: 2, All: true}, []string{"f1 once more<", "f1 again<"}},
	} {
		got, invalid, err := List(r, c.opt)
		if err != nil || invalid != 1 || !slices.Equal(texts(got), c.want) {
			t.Errorf("List(%+v) = %v, %d invalid, %v; want %v, 1 invalid", c.opt, texts(got), invalid, err, c.want)
		}
	}
	// Skimming for a kind finds the same entries, and pages go on from
	// the entry they ended at.
	for _, c := range []struct {
		opt  ListOptions
		want []string
	}{
		{ListOptions{Kind: logformat.KindFact, All: true, SkimKind: true}, []string{"f2<", "f1<" + ids[4]}},
		{ListOptions{Kind: logformat.KindFact, SkimKind: true}, []string{"f2<"}},
		{ListOptions{N: 2, All: true, Before: ids[3]}, []string{"f2<", "d1<"}},
		{ListOptions{Kind: logformat.KindFact, All: true, Before: ids[2]}, []string{"f1<" + ids[4]}},
	} {
		got, _, err := List(r, c.opt)
		if err != nil || !slices.Equal(texts(got), c.want) {
			t.Errorf("List(%+v) = %v, %v; want %v", c.opt, texts(got), err, c.want)
		}
	}
}

func TestListOfAMissingLog(t *testing.T) {
	r := repotest.Lucid(t)
	os.Remove(r.LogPath())
	if l, invalid, err := List(r, ListOptions{}); err != nil || len(l) != 0 || invalid != 0 {
		t.Fatalf("List of a missing log: %v, %d, %v", l, invalid, err)
	}
}

func TestKnownKind(t *testing.T) {
	for _, k := range append(RecordKinds, logformat.KindPlan, logformat.KindSupersede, logformat.KindViolation, logformat.KindDream) {
		if !KnownKind(k) {
			t.Errorf("%s is not known", k)
		}
	}
	for _, k := range []string{"", "future-kind", "Fact"} {
		if KnownKind(k) {
			t.Errorf("%q is known", k)
		}
	}
}
