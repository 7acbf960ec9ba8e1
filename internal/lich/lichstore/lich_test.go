package lichstore

import (
	"bufio"
	"encoding/json"
	"errors"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// lichTestdata is the folder of the lich fixtures.
var lichTestdata = filepath.Join("..", "..", "..", "testdata", "lich")

// TestLichHashMatchesLich checks marker names against hashes that lich's
// own hashing (JavaScript, charCodeAt) made, non-ASCII paths included, and
// that an ASCII path's name is hash/fnv's New32a of its bytes.
func TestLichHashMatchesLich(t *testing.T) {
	f, err := os.Open(filepath.Join(lichTestdata, "hashes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		want, path, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad line in hashes.txt: %q", line)
		}
		n++
		if got := Hash(path); got != want {
			t.Errorf("Hash(%q) = %s, lich says %s", path, got, want)
		}
		if isASCII(path) {
			h := fnv.New32a()
			h.Write([]byte(path))
			if got := Hash(path); got != hexOf(h.Sum32()) {
				t.Errorf("Hash(%q) = %s, fnv.New32a says %s", path, got, hexOf(h.Sum32()))
			}
		}
	}
	if n < 5 {
		t.Fatalf("hashes.txt has %d cases", n)
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func hexOf(h uint32) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 8)
	for i := 7; i >= 0; i-- {
		b[i] = digits[h&0xf]
		h >>= 4
	}
	return string(b)
}

// writeLichMarker writes content where lich's guard would put path's marker.
func writeLichMarker(t *testing.T, r *gitstore.Repo, path, content string) string {
	t.Helper()
	file := lichMarkerPath(r, path)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func findRepo(t *testing.T, path string) *gitstore.Repo {
	t.Helper()
	r, err := gitstore.Find(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestReadLichMarkerInLichFormat(t *testing.T) {
	r := findRepo(t, gittest.Committed(t))
	file := writeLichMarker(t, r, "/r/a.go", `{"path":"/r/a.go","session":"s1","at":1733000000000}`)
	if want := filepath.Join(gittest.Run(t, r.Top, "rev-parse", "--absolute-git-dir"), "lich-edits", "578c1298"); file != want {
		t.Fatalf("marker at %s, lich puts it at %s", file, want)
	}
	m, err := ReadMarker(r, "/r/a.go")
	if err != nil || m == nil {
		t.Fatalf("ReadMarker = %v, %v", m, err)
	}
	want := []Edit{{Session: "s1", At: 1733000000000}}
	if m.Path != "/r/a.go" || m.Session != "s1" || m.At != 1733000000000 || !reflect.DeepEqual(m.Edits(), want) {
		t.Fatalf("read %+v (edits %+v)", m, m.Edits())
	}
	if !m.Edits()[0].Time().Equal(time.Date(2024, 11, 30, 20, 53, 20, 0, time.UTC)) {
		t.Fatalf("time %v", m.Edits()[0].Time())
	}
}

func TestReadLichMarkerIgnoresAnotherFilesMarker(t *testing.T) {
	r := findRepo(t, gittest.Committed(t))
	writeLichMarker(t, r, "/r/a.go", `{"path":"/r/other.go","session":"s1","at":1733000000000}`)
	m, err := ReadMarker(r, "/r/a.go")
	if err != nil || m != nil {
		t.Fatalf("a collision read as %+v, %v; want nothing", m, err)
	}
	if m, err := ReadMarker(r, "/r/none.go"); err != nil || m != nil {
		t.Fatalf("no marker read as %+v, %v", m, err)
	}
}

func TestReadLichMarkerCorrupt(t *testing.T) {
	r := findRepo(t, gittest.Committed(t))
	for _, content := range []string{``, `{"path":"/r/a.go","sess`, `not json`, `{"path":"/r/a.go","at":1}`, `{"path":"/r/a.go","session":"s1"}`, `[1,2]`, `null`} {
		writeLichMarker(t, r, "/r/a.go", content)
		m, err := ReadMarker(r, "/r/a.go")
		if !errors.Is(err, ErrCorrupt) || m != nil {
			t.Errorf("marker %q read as %+v, %v; want ErrCorrupt", content, m, err)
		}
	}
}

func TestRecordEditKeepsRecentSessions(t *testing.T) {
	top := gittest.Committed(t)
	r := findRepo(t, top)
	path := filepath.Join(top, "a.go")
	t0 := time.UnixMilli(1733000000000)
	edit := func(session string, minute int) {
		t.Helper()
		if err := RecordEdit(r, path, session, t0.Add(time.Duration(minute)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	content := func() string {
		t.Helper()
		b, err := os.ReadFile(lichMarkerPath(r, path))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	at := func(minute int) int64 { return t0.Add(time.Duration(minute) * time.Minute).UnixMilli() }

	edit("s1", 0)
	if got, want := content(), `{"path":"`+path+`","session":"s1","at":1733000000000}`; got != want {
		t.Fatalf("one session's marker is\n%s\nlich writes\n%s", got, want)
	}
	edit("s1", 1) // the same session again: still lich's three fields
	if got, want := content(), `{"path":"`+path+`","session":"s1","at":`+itoa(at(1))+`}`; got != want {
		t.Fatalf("re-edit marker is\n%s\nwant\n%s", got, want)
	}
	for _, step := range []struct {
		session string
		minute  int
		want    []Edit
	}{
		{"s2", 2, []Edit{{"s2", at(2)}, {"s1", at(1)}}},
		{"s3", 3, []Edit{{"s3", at(3)}, {"s2", at(2)}, {"s1", at(1)}}},
		{"s1", 4, []Edit{{"s1", at(4)}, {"s3", at(3)}, {"s2", at(2)}}},
		{"s4", 5, []Edit{{"s4", at(5)}, {"s1", at(4)}, {"s3", at(3)}, {"s2", at(2)}}},
	} {
		edit(step.session, step.minute)
		m, err := ReadMarker(r, path)
		if err != nil || m == nil {
			t.Fatalf("after %s: %v, %v", step.session, m, err)
		}
		if !reflect.DeepEqual(m.Edits(), step.want) {
			t.Fatalf("after %s at +%d min: edits %+v, want %+v", step.session, step.minute, m.Edits(), step.want)
		}
		// What lich's guard reads: JSON.parse, three fields of the same types.
		var js map[string]any
		if err := json.Unmarshal([]byte(content()), &js); err != nil {
			t.Fatal(err)
		}
		if js["path"] != path || js["session"] != step.session || js["at"] != float64(at(step.minute)) {
			t.Fatalf("lich would read %v", js)
		}
		if !strings.HasPrefix(content(), `{"path":`) {
			t.Fatalf("keys out of lich's order: %s", content())
		}
	}
	// Past RecentMax distinct sessions, the one that edited longest ago
	// is forgotten.
	for i := 5; i <= RecentMax+1; i++ {
		edit("s"+strconv.Itoa(i), 5+i)
	}
	m, err := ReadMarker(r, path)
	if err != nil || m == nil {
		t.Fatal(m, err)
	}
	edits := m.Edits()
	if len(edits) != RecentMax || edits[0].Session != "s"+strconv.Itoa(RecentMax+1) || slices.ContainsFunc(edits, func(e Edit) bool { return e.Session == "s2" }) {
		t.Fatalf("after %d sessions the marker keeps %+v; want the newest %d, s2 forgotten", RecentMax+1, edits, RecentMax)
	}
	entries, err := os.ReadDir(filepath.Join(r.GitDir, gitstore.LichEditsDir))
	if err != nil || len(entries) != 1 {
		t.Fatalf("lich-edits holds %v (%v); want the one marker, no temp files", entries, err)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestRecordLichEditReplacesCorruptAndForeignMarkers(t *testing.T) {
	top := gittest.Committed(t)
	r := findRepo(t, top)
	path := filepath.Join(top, "a.go")
	for _, old := range []string{`garbage`, `{"path":"/elsewhere","session":"s9","at":1733000000000}`} {
		writeLichMarker(t, r, path, old)
		if err := RecordEdit(r, path, "s1", time.UnixMilli(1733000000000)); err != nil {
			t.Fatal(err)
		}
		m, err := ReadMarker(r, path)
		if err != nil || m == nil || !reflect.DeepEqual(m.Edits(), []Edit{{"s1", 1733000000000}}) {
			t.Fatalf("over %q: %+v, %v", old, m, err)
		}
	}
}

// TestLichMarkerJSONIsJSONStringify checks the bytes against
// encoding/json's decoding for awkward strings: what JSON.stringify leaves
// alone (<, >, &, U+2028) stays as it is, and what it escapes round-trips.
func TestLichMarkerJSONIsJSONStringify(t *testing.T) {
	for _, s := range []string{"/r/<a>&b.go", "/r/q\"uote\\.go", "/r/tab\tnl\n\x01\x1f.go", "/r/\u2028\u2029é😀.go"} {
		m := &Marker{Path: s, Session: "s<1>", At: 1733000000000}
		b := m.appendJSON(nil)
		var back map[string]any
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%q: %s is not JSON: %v", s, b, err)
		}
		if back["path"] != s || back["session"] != "s<1>" {
			t.Fatalf("%q round-trips as %v", s, back)
		}
		if strings.Contains(string(b), `\u003c`) || strings.Contains(string(b), `\u2028`) {
			t.Fatalf("%s escapes what JSON.stringify does not", b)
		}
	}
}

// TestLichMarkerAgainstNode runs lich's marker code's counterpart in
// JavaScript (testdata/lich/marker.js) when node is installed: a marker
// lich writes reads in lucid, lucid's reads in lich with the same types,
// and one session's marker is the same bytes from both.
func TestLichMarkerAgainstNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	script, _ := filepath.Abs(filepath.Join(lichTestdata, "marker.js"))
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(node, append([]string{script}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("node marker.js %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	top := gittest.Committed(t)
	r := findRepo(t, top)
	for _, name := range []string{"a.go", "<b>&c.go", "é 😀 \u2028.go", "q\"uote.go"} {
		path := filepath.Join(top, name)
		run("write", r.GitDir, path, "lich-b", "1733000000000")
		lichBytes, err := os.ReadFile(lichMarkerPath(r, path))
		if err != nil {
			t.Fatalf("%s: lich's marker is not where lucid looks: %v", name, err)
		}
		m, err := ReadMarker(r, path)
		if err != nil || m == nil || m.Session != "lich-b" || m.At != 1733000000000 {
			t.Fatalf("%s: lucid reads lich's marker as %+v, %v", name, m, err)
		}
		os.Remove(lichMarkerPath(r, path))
		if err := RecordEdit(r, path, "lich-b", time.UnixMilli(1733000000000)); err != nil {
			t.Fatal(err)
		}
		lucidBytes, _ := os.ReadFile(lichMarkerPath(r, path))
		if string(lucidBytes) != string(lichBytes) {
			t.Fatalf("%s: lucid writes\n%s\nlich writes\n%s", name, lucidBytes, lichBytes)
		}
		if err := RecordEdit(r, path, "lucid-a", time.UnixMilli(1733000060000)); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Path, Session string
			At            float64
			Types         []string
		}
		if err := json.Unmarshal([]byte(run("read", r.GitDir, path)), &got); err != nil {
			t.Fatal(err)
		}
		if got.Path != path || got.Session != "lucid-a" || got.At != 1733000060000 ||
			!reflect.DeepEqual(got.Types, []string{"string", "string", "number"}) {
			t.Fatalf("%s: lich reads lucid's marker as %+v", name, got)
		}
	}
}

func TestLichNews(t *testing.T) {
	top := gittest.Committed(t)
	r := findRepo(t, top)
	if n, err := ReadNews(r, "s1"); n != nil || err != nil {
		t.Fatalf("no news read as %+v, %v", n, err)
	}
	want := News{Session: "s1", Path: filepath.Join(top, "a.go"), By: `"quiet-comet"`, At: 1733000000000}
	if err := WriteNews(r, want); err != nil {
		t.Fatal(err)
	}
	if n, err := ReadNews(r, "s1"); err != nil || n == nil || *n != want {
		t.Fatalf("read %+v, %v; want %+v", n, err, want)
	}
	if n, err := ReadNews(r, "s2"); n != nil || err != nil {
		t.Fatalf("s2 reads s1's news: %+v, %v", n, err)
	}
	newer := want
	newer.Path, newer.At = filepath.Join(top, "b.go"), 1733000060000
	if err := WriteNews(r, newer); err != nil {
		t.Fatal(err)
	}
	if n, _ := ReadNews(r, "s1"); n == nil || *n != newer {
		t.Fatalf("newer news did not replace: %+v", n)
	}
}

func TestLichGC(t *testing.T) {
	top := gittest.Committed(t)
	linked := filepath.Join(filepath.Dir(top), "linked")
	gittest.Run(t, top, "worktree", "add", "-q", linked)
	main, wt := findRepo(t, top), findRepo(t, linked)
	if main.GitDir == wt.GitDir {
		t.Fatal("the linked work tree has the main git dir")
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	old, fresh := now.Add(-8*24*time.Hour), now.Add(-6*24*time.Hour)
	for _, r := range []*gitstore.Repo{main, wt} {
		for _, e := range []struct {
			name string
			at   time.Time
		}{{"old.go", old}, {"fresh.go", fresh}} {
			if err := RecordEdit(r, filepath.Join(r.Top, e.name), "s1", e.at); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A corrupt marker is judged by its modification time.
	corruptOld := writeLichMarker(t, main, "/x/corrupt-old", "garbage")
	os.Chtimes(corruptOld, old, old)
	corruptNew := writeLichMarker(t, main, "/x/corrupt-new", "garbage")
	os.Chtimes(corruptNew, fresh, fresh)
	WriteNews(main, News{Session: "old", Path: "/x/a", By: "s2", At: old.UnixMilli()})
	WriteNews(main, News{Session: "fresh", Path: "/x/a", By: "s2", At: fresh.UnixMilli()})

	n, err := GC(wt, now)
	if err != nil || n != 4 {
		t.Fatalf("GC removed %d (%v), want 4: two old markers, a corrupt one, old news", n, err)
	}
	for _, r := range []*gitstore.Repo{main, wt} {
		if m, _ := ReadMarker(r, filepath.Join(r.Top, "old.go")); m != nil {
			t.Errorf("old marker kept in %s", r.GitDir)
		}
		if m, _ := ReadMarker(r, filepath.Join(r.Top, "fresh.go")); m == nil {
			t.Errorf("fresh marker removed in %s", r.GitDir)
		}
	}
	if _, err := os.Stat(corruptOld); err == nil {
		t.Error("old corrupt marker kept")
	}
	if _, err := os.Stat(corruptNew); err != nil {
		t.Error("recent corrupt marker removed")
	}
	if n, _ := ReadNews(main, "old"); n != nil {
		t.Error("old news kept")
	}
	if n, _ := ReadNews(main, "fresh"); n == nil {
		t.Error("fresh news removed")
	}
	if n, err := GC(main, now); n != 0 || err != nil {
		t.Fatalf("a second GC removed %d (%v)", n, err)
	}
}
