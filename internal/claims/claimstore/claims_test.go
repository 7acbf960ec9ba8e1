package claimstore

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
)

func TestClaimsRoundTrip(t *testing.T) {
	repo := &gitstore.Repo{Top: t.TempDir(), CommonDir: t.TempDir()}
	at := time.UnixMilli(1764662400123)
	want := []Claim{
		{ID: "c1", Owner: "30df32ba-0d45-4195-af71-803394f51561/a2adb9a7d441d9c57", Created: at, Worktree: "/w/t", Task: "plain", Globs: []string{"src/**", "a.go"}},
		{ID: "c2", Owner: agentstore.AgentHuman, Created: at, Worktree: "/w/with\ttab", Task: "100% sure\nsecond line\r", Globs: []string{"odd%09name", "x\ty"}},
		{ID: "c3", Owner: "s3", Created: at, Worktree: "/elsewhere", Task: "remote", Globs: []string{"a"}, Machine: "laptop (4f2a)", Expires: at.Add(time.Hour)},
	}
	if err := Save(repo, want); err != nil {
		t.Fatal(err)
	}
	got, bad, err := Load(repo)
	if err != nil || bad != 0 {
		t.Fatalf("Load: %v, %d bad", err, bad)
	}
	for i := range got {
		if !got[i].Created.Equal(want[i].Created) {
			t.Errorf("claim %d created %v, want %v", i, got[i].Created, want[i].Created)
		}
		if !got[i].Expires.Equal(want[i].Expires) {
			t.Errorf("claim %d expires %v, want %v", i, got[i].Expires, want[i].Expires)
		}
		got[i].Created, got[i].Expires = want[i].Created, want[i].Expires
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\n got %#v\nwant %#v", got, want)
	}

	// A damaged line is skipped and counted; the others still read.
	b, _ := os.ReadFile(repo.ClaimsPath())
	os.WriteFile(repo.ClaimsPath(), append([]byte("garbage without tabs\n"), b...), 0o644)
	got, bad, _ = Load(repo)
	if bad != 1 || len(got) != 3 {
		t.Errorf("with a bad line: %d claims, %d bad; want 3 and 1", len(got), bad)
	}

	// No claims: no file.
	if err := Save(repo, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(repo.ClaimsPath()); !os.IsNotExist(err) {
		t.Errorf("the store of no claims exists: %v", err)
	}
	if got, _, err := Load(repo); err != nil || len(got) != 0 {
		t.Errorf("missing store: %v, %v", got, err)
	}
}

func TestFindClaims(t *testing.T) {
	repo := &gitstore.Repo{Top: t.TempDir(), CommonDir: t.TempDir()}
	at := time.UnixMilli(1764662400123)
	long := strings.Repeat("x", 40000) // longer than Find' buffer
	claims := []Claim{
		{ID: "c1", Owner: "a", Created: at, Worktree: "/w", Task: "t", Globs: []string{"src/**", "docs/*.md"}},
		{ID: "c2", Owner: "b", Created: at, Worktree: "/w", Task: long, Globs: []string{"web/**"}},
		{ID: "c3", Owner: "c", Created: at, Worktree: "/w", Task: "a\tb", Globs: []string{"odd%name/*", "x"}},
	}
	if err := Save(repo, claims); err != nil {
		t.Fatal(err)
	}
	ids := func(cs []Claim) string {
		var s []string
		for _, c := range cs {
			s = append(s, c.ID)
		}
		return strings.Join(s, ",")
	}
	for _, tc := range []struct{ glob, want string }{
		{"src/**", "c1"},
		{"docs/*.md", "c1"},
		{"web/**", "c2"},
		{"x", "c3"},          // after a task with a tab in it
		{"odd%name/*", "c3"}, // unescaped before want sees it
		{"nothing", ""},
	} {
		got, err := Find(repo, func(g []byte) bool { return string(g) == tc.glob })
		if err != nil || ids(got) != tc.want {
			t.Errorf("Find(%q) = %q, %v; want %q", tc.glob, ids(got), err, tc.want)
		}
	}
	got, _ := Find(repo, func([]byte) bool { return true })
	if len(got) != 3 || got[1].Task != long {
		t.Errorf("all claims: %d, the long one whole: %v", len(got), len(got) > 1 && got[1].Task == long)
	}
}

func TestEditClaims(t *testing.T) {
	repo := &gitstore.Repo{Top: t.TempDir(), CommonDir: t.TempDir()}
	at := time.UnixMilli(1764662400123)
	mk := func(id string) Claim {
		return Claim{ID: id, Owner: "o", Created: at, Worktree: "/w", Task: "t", Globs: []string{id + "/**"}}
	}
	// Into no store at all, then dropping and adding.
	if err := Edit(repo, nil, []Claim{mk("a"), mk("b\tc"), mk("d")}); err != nil {
		t.Fatal(err)
	}
	if err := Edit(repo, map[string]bool{"b\tc": true, "missing": true}, []Claim{mk("e")}); err != nil {
		t.Fatal(err)
	}
	got, bad, err := Load(repo)
	if err != nil || bad != 0 {
		t.Fatalf("Load: %v, %d bad", err, bad)
	}
	var ids []string
	for _, c := range got {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, ",") != "a,d,e" {
		t.Errorf("after the edits: %v, want a,d,e", ids)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(repo.ClaimsPath()), ".lucid-tmp-*")); len(m) != 0 {
		t.Errorf("temp files left: %v", m)
	}
}

// A claim added with nothing to drop is appended: the other claims' bytes
// stay as they were, and the store keeps its inode. A last line without its
// newline (a write under way, or one that failed) is no claim to any
// reader, and the next edit drops it rather than gluing a claim to it.
func TestEditClaimsAppends(t *testing.T) {
	repo := &gitstore.Repo{Top: t.TempDir(), CommonDir: t.TempDir()}
	at := time.UnixMilli(1764662400123)
	mk := func(id string) Claim {
		return Claim{ID: id, Owner: "o", Created: at, Worktree: "/w", Task: "t", Globs: []string{id + "/**"}}
	}
	if err := Save(repo, []Claim{mk("a"), mk("b")}); err != nil {
		t.Fatal(err)
	}
	path := repo.ClaimsPath()
	before, _ := os.ReadFile(path)
	st1, _ := os.Stat(path)
	if err := Edit(repo, nil, []Claim{mk("c")}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	st2, _ := os.Stat(path)
	if !bytes.HasPrefix(after, before) || !os.SameFile(st1, st2) {
		t.Errorf("adding a claim rewrote the store:\n%q\nthen\n%q", before, after)
	}
	ids := func() string {
		t.Helper()
		got, bad, err := Load(repo)
		if err != nil || bad != 0 {
			t.Fatalf("Load: %v, %d bad", err, bad)
		}
		found, err := Find(repo, func([]byte) bool { return true })
		if err != nil || len(found) != len(got) {
			t.Fatalf("Find: %v, %d claims where Load has %d", err, len(found), len(got))
		}
		var s []string
		for _, c := range got {
			s = append(s, c.ID)
		}
		return strings.Join(s, ",")
	}
	if got := ids(); got != "a,b,c" {
		t.Errorf("after appending: %s, want a,b,c", got)
	}
	// A torn tail: half of a claim's line.
	line := Encode([]Claim{mk("torn")})
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(line[:len(line)/2])
	f.Close()
	if got := ids(); got != "a,b,c" {
		t.Errorf("with a torn last line: %s, want a,b,c", got)
	}
	if err := Edit(repo, nil, []Claim{mk("d")}); err != nil {
		t.Fatal(err)
	}
	if got := ids(); got != "a,b,c,d" {
		t.Errorf("after an edit of a torn store: %s, want a,b,c,d", got)
	}
	if b, _ := os.ReadFile(path); bytes.Contains(b, []byte("torn")) {
		t.Errorf("the torn line is still in the store:\n%s", b)
	}
}

// A claim's field comes back as it was written, and its line stays one
// line of tab-separated fields.
func FuzzClaimField(f *testing.F) {
	for _, s := range []string{"", "plain", "50% done", "a\tb\nc\rd", "%09 is a tab", "%%25"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := escapeField(s)
		if strings.ContainsAny(e, "\t\n\r") {
			t.Fatalf("escapeField(%q) = %q holds a separator", s, e)
		}
		if got := unescapeField(e); got != s {
			t.Fatalf("unescapeField(escapeField(%q)) = %q", s, got)
		}
	})
}

// A claims file with another name (a hard link an agent's script made)
// is written anew as lucid's own at the next read: emptying the other
// name then empties nothing of lucid's.
func TestClaimsLinkedAreWrittenAnew(t *testing.T) {
	r := &gitstore.Repo{Top: t.TempDir(), CommonDir: t.TempDir()}
	c := Claim{ID: "01JEXAMPLE0000000000000000", Owner: "a", Created: time.UnixMilli(1000), Worktree: r.Top, Task: "t", Globs: []string{"src/**"}}
	if err := Save(r, []Claim{c}); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "h")
	if err := os.Link(r.ClaimsPath(), other); err != nil {
		t.Fatal(err)
	}
	got, err := Find(r, func([]byte) bool { return true })
	if err != nil || len(got) != 1 {
		t.Fatalf("Find: %v, %v", got, err)
	}
	if err := os.WriteFile(other, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(r, func([]byte) bool { return true }); err != nil || len(got) != 1 {
		t.Fatalf("after the other name was emptied: %v, %v; want the claim still", got, err)
	}
}
