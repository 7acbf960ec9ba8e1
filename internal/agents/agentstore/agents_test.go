package agentstore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

// A record saved is the record loaded, every field of it: the hand-written
// decoder reads the names that json.Marshal writes.
func TestAgentRecordRoundTrip(t *testing.T) {
	r := repotest.Lucid(t)
	want := Record{
		ID: "30df32ba-0d45-4195-af71-803394f51561/aalpha-29065e", Type: "general-purpose", Client: "codex",
		Worktree: r.Top, Started: "2026-12-03T08:00:00Z",
		Cursor:      logstore.Cursor{Size: 1 << 40, Inode: 1<<63 + 5, MTime: -1, Tail: "9f86d081884c7d65"},
		KnownBefore: 1796285464398, Seen: []string{"a\x00b", "é\u2028", `"q"`},
		Edits: 3, Entries: 4, Asked: true, Compacted: true, Lich: "lich-one",
	}
	if err := Save(r, want); err != nil {
		t.Fatal(err)
	}
	got, _, ok := Load(r, want.ID)
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("loaded %+v (ok %v), saved %+v", got, ok, want)
	}
	recs, _, err := Agents(r)
	if err != nil || len(recs) != 1 || !reflect.DeepEqual(recs[0], want) {
		t.Fatalf("Agents() = %+v, %v; want the one saved", recs, err)
	}
}

// linked is a work tree linked to r's repository, as gitstore finds it.
func linked(t *testing.T, r *gitstore.Repo) *gitstore.Repo {
	t.Helper()
	dir := filepath.Join(filepath.Dir(r.Top), "linked")
	gittest.Run(t, r.Top, "worktree", "add", "-q", dir)
	l, err := gitstore.Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// A lead and its subagent, each recorded where it works, are known to
// every work tree of the repository, each with when it was last seen; an
// agent never recorded is not.
func TestAgentsAcrossWorkTrees(t *testing.T) {
	r := repotest.Lucid(t)
	wt := linked(t, r)
	const session = "30df32ba-0d45-4195-af71-803394f51561"
	lead := Record{ID: AgentID(session, ""), Worktree: r.Top, Started: "2026-12-03T08:00:00Z"}
	sub := Record{ID: AgentID(session, "a2adb9a7d441d9c57"), Type: "Explore", Worktree: wt.Top, Started: "2026-12-03T08:01:00Z"}
	if lead.ID != session || sub.ID != session+"/a2adb9a7d441d9c57" {
		t.Fatalf("ids %q and %q", lead.ID, sub.ID)
	}
	before := time.Now().Add(-time.Second)
	if err := Save(r, lead); err != nil {
		t.Fatal(err)
	}
	if err := Save(wt, sub); err != nil {
		t.Fatal(err)
	}
	for _, from := range []*gitstore.Repo{r, wt} {
		for _, want := range []Record{lead, sub} {
			got, seen, ok := Load(from, want.ID)
			if !ok || !reflect.DeepEqual(got, want) || seen.Before(before) {
				t.Errorf("from %s, %s: %+v last seen %v (ok %v)", from.Top, want.ID, got, seen, ok)
			}
		}
		recs, seen, err := Agents(from)
		if err != nil || len(recs) != 2 || len(seen) != 2 {
			t.Fatalf("from %s: %+v, %v", from.Top, recs, err)
		}
		ids := []string{recs[0].ID, recs[1].ID}
		slices.Sort(ids)
		if ids[0] != lead.ID || ids[1] != sub.ID {
			t.Errorf("from %s: agents %q", from.Top, ids)
		}
	}
	if _, _, ok := Load(r, session+"/a0000000000000000"); ok {
		t.Error("an agent never recorded was loaded")
	}
}

// An agent seen again is seen now, its record as it was; an agent without
// a record is not touched into one.
func TestTouchAgent(t *testing.T) {
	r := repotest.Lucid(t)
	rec := Record{ID: "019a6f3c-1f7b-7d02-9a33-8c0e4b2d77ae", Client: "codex", Worktree: r.Top, Edits: 2}
	if Touch(r, rec.ID) {
		t.Fatal("an agent without a record was touched")
	}
	if _, _, ok := Load(r, rec.ID); ok {
		t.Fatal("touching made a record")
	}
	if err := Save(r, rec); err != nil {
		t.Fatal(err)
	}
	long := time.Now().Add(-3 * time.Hour)
	if err := os.Chtimes(r.AgentPath(rec.ID), long, long); err != nil {
		t.Fatal(err)
	}
	if _, seen, _ := Load(r, rec.ID); seen.After(long.Add(time.Second)) {
		t.Fatalf("last seen %v, want %v", seen, long)
	}
	if !Touch(r, rec.ID) {
		t.Fatal("the recorded agent was not touched")
	}
	got, seen, ok := Load(r, rec.ID)
	if !ok || !reflect.DeepEqual(got, rec) || time.Since(seen) > time.Minute {
		t.Errorf("after a touch: %+v last seen %v (ok %v)", got, seen, ok)
	}
}

// Whatever else lies among the records (a record of another id, a file
// that is not a record, one cut short, one without an id, a folder) is
// no agent's, and lists as none; a repository where no agent ran has none.
func TestAgentsSkipWhatIsNotARecord(t *testing.T) {
	r := repotest.Lucid(t)
	if recs, seen, err := Agents(r); err != nil || recs != nil || seen != nil {
		t.Fatalf("no agent ran: %+v, %v, %v", recs, seen, err)
	}
	const id = "0b218250-bcad-4f28-bb25-013e7e946655"
	if err := Save(r, Record{ID: id, Worktree: r.Top}); err != nil {
		t.Fatal(err)
	}
	dir := r.AgentsDir()
	for name, content := range map[string]string{
		"notes.txt":   `{"id":"x"}`,
		"cut.json":    `{"id":"cut","worktree":`,
		"noid.json":   `{"worktree":"/w"}`,
		"array.json":  `[1,2]`,
		"other.json":  `{"id":"someone-else"}`,
		"folder.json": "",
	} {
		path := filepath.Join(dir, name)
		if name == "folder.json" {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	recs, _, err := Agents(r)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, rec := range recs {
		ids = append(ids, rec.ID)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []string{id, "someone-else"}) {
		t.Errorf("agents %q", ids)
	}
	// other.json holds a record, but not the one its name is kept for.
	if _, _, ok := Load(r, "other"); ok {
		t.Error("a record of another id was loaded")
	}
	if _, _, ok := Load(r, "cut"); ok {
		t.Error("a record cut short was loaded")
	}
}

// A record is not saved where its folder cannot be made, and the caller
// hears why; nor is the list read where the folder is not one.
func TestSaveAgentWithoutItsFolder(t *testing.T) {
	r := repotest.Lucid(t)
	if err := os.MkdirAll(filepath.Dir(r.AgentsDir()), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(r.AgentsDir(), []byte("not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Save(r, Record{ID: "30df32ba-0d45-4195-af71-803394f51561"}); err == nil {
		t.Error("a record was saved where the agents' folder is a file")
	}
	if _, _, err := Agents(r); err == nil {
		t.Error("the agents' folder, a file, was listed")
	}
}

// The ids an agent saw stay at most MaxSeen; those that fell off still
// count as seen, through SeenBefore, up to the newest of them.
func TestSeenIsBounded(t *testing.T) {
	var rec Record
	start := time.UnixMilli(1796285464398)
	ids := make([]string, MaxSeen+3)
	for i := range ids {
		ids[i] = logformat.NewID(start.Add(time.Duration(i) * time.Millisecond))
	}
	rec.AddSeen(ids[:MaxSeen]...)
	if len(rec.Seen) != MaxSeen || rec.SeenBefore != 0 || !rec.HasSeen(ids[0]) || !rec.HasSeen(ids[MaxSeen-1]) {
		t.Fatalf("full: %d ids, seen before %d", len(rec.Seen), rec.SeenBefore)
	}
	rec.AddSeen("not-an-id")
	rec.AddSeen(ids[MaxSeen:]...)
	if len(rec.Seen) != MaxSeen {
		t.Fatalf("%d ids seen, want %d", len(rec.Seen), MaxSeen)
	}
	for i, id := range ids {
		if got, want := rec.HasSeen(id), i >= 4; got != want {
			t.Errorf("id %d in the list: %v, want %v", i, got, want)
		}
	}
	if !rec.HasSeen("not-an-id") || rec.HasSeen("never") {
		t.Error("the list holds what was added, and only that")
	}
	// The four oldest fell off: each is older than SeenBefore, and the
	// oldest kept is not.
	if want := logformat.IDTime(ids[3]).UnixMilli() + 1; rec.SeenBefore != want {
		t.Errorf("seen before %d, want %d", rec.SeenBefore, want)
	}
	if logformat.IDTime(ids[4]).UnixMilli() < rec.SeenBefore {
		t.Error("an id still in the list is counted as forgotten")
	}
	rec.AddSeen(make([]string, MaxSeen)...) // ids that are no ids drop without a trace
	if want := logformat.IDTime(ids[len(ids)-1]).UnixMilli() + 1; rec.SeenBefore != want {
		t.Errorf("seen before %d, want %d", rec.SeenBefore, want)
	}
}

// FuzzAgentRecordDecode: a record file, whatever is in it, reads as
// encoding/json reads it into the struct.
func FuzzAgentRecordDecode(f *testing.F) {
	f.Add([]byte(`{"id":"s1","worktree":"/w","started":"x","cursor":{"size":5,"inode":7,"mtime_ns":-3,"tail":"ab"},"known_before":9,"seen":["a","b"],"edits":1,"entries":2,"asked":true,"compacted":false}`))
	f.Add([]byte(`{"id":"s1","cursor":null,"seen":null,"edits":1.5}`))
	f.Add([]byte(`{"cursor":{"size":"5"},"id":"x"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if caseVariant(b) {
			return // encoding/json would take "ID" for "id"; lucid writes only its own names
		}
		var want, got Record
		werr := json.Unmarshal(b, &want)
		err := got.decode(b)
		if (err == nil) != (werr == nil) {
			t.Fatalf("decode(%q): error %v, encoding/json: %v", b, err, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decode(%q) = %+v, encoding/json %+v", b, got, want)
		}
	})
}

// caseVariant reports whether b may hold a key that encoding/json takes
// for one of the record's names in another case ("ID", "\u0049d", or
// "ſeen" with the long s that folds to s); lucid writes only its own.
func caseVariant(b []byte) bool {
	for _, c := range b {
		if c >= 'A' && c <= 'Z' || c == '\\' || c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// Notices wait in order, a delivered part leaves while one added since
// stays, and gc removes those no agent took in time.
func TestNotices(t *testing.T) {
	r := repotest.Lucid(t)
	if HasNotices(r, "a") {
		t.Fatal("notices before any")
	}
	one := Notice{Kind: NoticeEditing, Worktree: r.Top, Path: "a.go", By: "b", At: 1, Since: 0}
	two := Notice{Kind: NoticeChanged, Worktree: r.Top, Path: "b.go", By: "c", At: 2}
	if err := AddNotices(r, "a", []Notice{one}); err != nil {
		t.Fatal(err)
	}
	got, n, err := Notices(r, "a")
	if err != nil || len(got) != 1 || got[0] != one {
		t.Fatalf("Notices: %+v, %v", got, err)
	}
	if err := AddNotices(r, "a", []Notice{two}); err != nil {
		t.Fatal(err)
	}
	if err := TakeNotices(r, "a", n); err != nil {
		t.Fatal(err)
	}
	if got, _, err := Notices(r, "a"); err != nil || len(got) != 1 || got[0] != two {
		t.Fatalf("after taking the first: %+v, %v", got, err)
	}
	if removed, err := GCNotices(r, time.Now(), time.Hour); err != nil || removed != 0 {
		t.Fatalf("gc of fresh notices: %d, %v", removed, err)
	}
	if removed, err := GCNotices(r, time.Now().Add(2*time.Hour), time.Hour); err != nil || removed != 1 || HasNotices(r, "a") {
		t.Fatalf("gc of old notices: %d, %v", removed, err)
	}
}
