package merge

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/log/logformat"
)

// runDriver writes the three sides into a temp folder, runs Driver as git
// would, and returns what it left in ours.
func runDriver(t *testing.T, base, ours, theirs string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{"O": base, "A": ours, "B": theirs} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Driver(filepath.Join(dir, "O"), filepath.Join(dir, "A"), filepath.Join(dir, "B")); err != nil {
		t.Fatalf("Driver: %v", err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "A"))
	if err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".lucid-merge-*"))
	if len(left) > 0 {
		t.Errorf("Driver left temp files: %v", left)
	}
	return string(got)
}

// reference is the driver's rules written plainly, to check Driver's
// fast paths against: every line of ours, then theirs' entries that ours
// lacks by id in (at, id) order, then theirs' other non-blank lines that
// ours lacks by bytes; entries are what logformat.DecodeEntry accepts.
func reference(ours, theirs string) string {
	split := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	}
	trim := func(l string) string { return strings.TrimSuffix(l, "\r") }
	ids, junk := map[string]bool{}, map[string]bool{}
	for _, l := range split(ours) {
		if e, err := logformat.DecodeEntry([]byte(trim(l))); err == nil {
			ids[e.ID] = true
		} else {
			junk[trim(l)] = true
		}
	}
	type ent struct{ at, id, line string }
	var entries []ent
	var others []string
	for _, l := range split(theirs) {
		if e, err := logformat.DecodeEntry([]byte(trim(l))); err == nil {
			if !ids[e.ID] {
				ids[e.ID] = true
				entries = append(entries, ent{e.At, e.ID, l})
			}
		} else if strings.TrimSpace(l) != "" && !junk[trim(l)] {
			junk[trim(l)] = true
			others = append(others, l)
		}
	}
	slices.SortFunc(entries, func(x, y ent) int {
		if c := strings.Compare(x.at, y.at); c != 0 {
			return c
		}
		return strings.Compare(x.id, y.id)
	})
	out := ours
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	for _, e := range entries {
		out += e.line + "\n"
	}
	for _, o := range others {
		out += o + "\n"
	}
	return out
}

func TestDriverUnites(t *testing.T) {
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	base := entryLine(t, at, "base one") + entryLine(t, at.Add(time.Second), "base two")
	ours1 := entryLine(t, at.Add(5*time.Second), "ours, late")
	ours2 := entryLine(t, at.Add(2*time.Second), "ours, early")
	theirs1 := entryLine(t, at.Add(4*time.Second), "theirs, later")
	theirs2 := entryLine(t, at.Add(3*time.Second), "theirs, earlier")
	ours := base + ours1 + ours2
	theirs := base + theirs1 + theirs2
	// Ours as it was (its own order), then theirs in time order.
	want := ours + theirs2 + theirs1
	if got := runDriver(t, base, ours, theirs); got != want {
		t.Errorf("merge:\n%s\nwant:\n%s", got, want)
	}
	// An entry both sides added (a cherry-pick, a copy) comes out once.
	shared := entryLine(t, at.Add(6*time.Second), "both")
	if got := runDriver(t, base, ours+shared, theirs+shared); got != ours+shared+theirs2+theirs1 {
		t.Errorf("an entry on both sides:\n%s", got)
	}
	// Theirs repeating itself, in order and out of it: once each.
	for _, th := range []string{base + theirs2 + theirs2 + theirs1 + theirs1, base + theirs1 + theirs2 + theirs1 + theirs2} {
		if got := runDriver(t, base, ours, th); got != want {
			t.Errorf("theirs with doubles:\n%s\nwant:\n%s", got, want)
		}
	}
	// No base at all (a log that both branches created) is fine.
	if got := runDriver(t, "", ours1, theirs1); got != ours1+theirs1 {
		t.Errorf("without a base:\n%s", got)
	}
	// Theirs only, or ours only.
	if got := runDriver(t, "", "", theirs1+theirs2); got != theirs2+theirs1 {
		t.Errorf("ours empty:\n%s", got)
	}
	if got := runDriver(t, "", ours, ""); got != ours {
		t.Errorf("theirs empty:\n%s", got)
	}
}

func TestDriverKeepsOtherLines(t *testing.T) {
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	e1, e2 := entryLine(t, at, "one"), entryLine(t, at.Add(time.Second), "two")
	// The same id with other bytes (an edit by hand) is the same entry.
	e1edited := strings.Replace(e1, `"text":"one"`, `"text":"one, edited"`, 1)
	ours := e1 + "not json\n" + "\n"
	theirs := e1edited + "not json\n" + "{\"id\":\"torn\n" + "   \n" + "also not json\r\n" + e2
	want := ours + e2 + "{\"id\":\"torn\n" + "also not json\r\n"
	got := runDriver(t, "", ours, theirs)
	if got != want {
		t.Errorf("merge:\n%q\nwant:\n%q", got, want)
	}
	if got != reference(ours, theirs) {
		t.Errorf("the reference says otherwise")
	}
}

func TestDriverTornLastLine(t *testing.T) {
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	e1, e2, e3 := entryLine(t, at, "one"), entryLine(t, at.Add(time.Second), "two"), entryLine(t, at.Add(2*time.Second), "three")
	torn := `{"id":"01KTC4VN86Q9S4HEG3T05G1190","at":"2026-05-06T07:08:`
	// Torn on ours: kept in place, with a newline, before theirs' entries.
	if got, want := runDriver(t, e1, e1+torn, e1+e2), e1+torn+"\n"+e2; got != want {
		t.Errorf("torn ours:\n%q\nwant:\n%q", got, want)
	}
	// Torn on theirs: kept, after theirs' entries.
	if got, want := runDriver(t, e1, e1+e2, e1+e3+torn), e1+e2+e3+torn+"\n"; got != want {
		t.Errorf("torn theirs:\n%q\nwant:\n%q", got, want)
	}
	// A whole entry without its newline is an entry.
	whole := strings.TrimSuffix(e3, "\n")
	if got, want := runDriver(t, e1, e1+e2, e1+whole), e1+e2+e3; got != want {
		t.Errorf("an entry without its newline:\n%q\nwant:\n%q", got, want)
	}
	if got, want := runDriver(t, e1, e1+whole, e1+e2), e1+e3+e2; got != want {
		t.Errorf("ours' last entry without its newline:\n%q\nwant:\n%q", got, want)
	}
}

func TestDriverLongLines(t *testing.T) {
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	// Lines longer than the read buffer, on both sides.
	long := func(i int, text string) string {
		return entryLine(t, at.Add(time.Duration(i)*time.Second), text+strings.Repeat("x", bufSize+1000*i))
	}
	base := long(0, "base")
	ours := base + long(1, "ours")
	theirs := base + long(3, "theirs later") + long(2, "theirs earlier") + strings.Repeat("j", 2*bufSize) + "\n"
	if got, want := runDriver(t, base, ours, theirs), reference(ours, theirs); got != want {
		t.Errorf("long lines: got %d bytes, want %d", len(got), len(want))
	}
}

// TestDriverMatchesReference merges random sides, with entries in and out
// of order, repeated, edited, with CRLF, blank and invalid lines and torn
// ends, and checks Driver against the plain rules.
func TestDriverMatchesReference(t *testing.T) {
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	var pool []string
	for i := range 60 {
		// Several entries share a millisecond: ties go by id.
		line := entryLine(t, at.Add(time.Duration(i/3)*time.Millisecond), "entry "+strings.Repeat("é", i%4))
		pool = append(pool, strings.TrimSuffix(line, "\n"))
	}
	pool = append(pool,
		"garbage", "", "  ", `{"id":"01KTC4VN86Q9S4HEG3T05G1190"}`,
		`{"id":"01KTC4VN86Q9S4HEG3T05G1190","at":"2026-02-30T00:00:00.000Z","kind":"fact"}`,
		// Decoded, the id is the second one: only DecodeEntry knows.
		`{"id":"01KTC4VN86Q9S4HEG3T05G1190","at":"2026-02-03T00:00:00.000Z","kind":"fact","ID":"01KTC4VN86Q9S4HEG3T05G1191"}`,
		`{ "at" : "2026-02-03T00:00:00.000Z", "kind":"fact", "id":"01KTC4VN86Q9S4HEG3T05G1192" }`,
	)
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(n int) string {
		var b strings.Builder
		for range n {
			line := pool[r.IntN(len(pool))]
			if r.IntN(8) == 0 {
				line += "\r"
			}
			b.WriteString(line + "\n")
		}
		return b.String()
	}
	for i := range 300 {
		base := pick(r.IntN(10))
		ours, theirs := base+pick(r.IntN(12)), base+pick(r.IntN(12))
		if r.IntN(4) == 0 {
			theirs = pick(r.IntN(20)) // no shared start
		}
		if r.IntN(5) == 0 {
			ours = strings.TrimSuffix(ours, "\n")
		}
		if r.IntN(5) == 0 {
			theirs = strings.TrimSuffix(theirs, "\n")
		}
		got := runDriver(t, base, ours, theirs)
		if want := reference(ours, theirs); got != want {
			t.Fatalf("case %d:\nours:\n%q\ntheirs:\n%q\ngot:\n%q\nwant:\n%q", i, ours, theirs, got, want)
		}
		if again := runDriver(t, base, ours, theirs); again != got {
			t.Fatalf("case %d: a second run gave other bytes", i)
		}
	}
}

func TestDriverManyOutOfOrder(t *testing.T) {
	// Theirs' entries far out of time order: each waits for its turn.
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	r := rand.New(rand.NewPCG(3, 4))
	var ours, theirs strings.Builder
	for i := range 2000 {
		line := entryLine(t, at.Add(time.Duration(r.IntN(500))*time.Second), "n")
		if i%3 == 0 {
			ours.WriteString(line)
		} else {
			theirs.WriteString(line)
		}
	}
	if got, want := runDriver(t, "", ours.String(), theirs.String()), reference(ours.String(), theirs.String()); got != want {
		t.Errorf("out of order: the result differs from the reference")
	}
}

func TestDriverKeepsMode(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "A"), filepath.Join(dir, "B")
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	os.WriteFile(a, []byte(entryLine(t, at, "a")), 0o600)
	os.WriteFile(b, []byte(entryLine(t, at.Add(time.Second), "b")), 0o644)
	os.Chmod(a, 0o640)
	if err := Driver(filepath.Join(dir, "missing"), a, b); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(a); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode of the result: %v %v, want 0640", fi.Mode(), err)
	}
}

func TestDriverUnreadableSide(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "A")
	content := "ours as it was\n"
	os.WriteFile(a, []byte(content), 0o644)
	os.Mkdir(filepath.Join(dir, "folder"), 0o755)
	for _, c := range []struct{ name, ours, theirs, want string }{
		{"theirs missing", a, filepath.Join(dir, "missing"), "cannot read their side of the log"},
		{"theirs a folder", a, filepath.Join(dir, "folder"), "their side " + filepath.Join(dir, "folder") + " is not a file"},
		{"ours missing", filepath.Join(dir, "missing"), a, "cannot read our side of the log"},
	} {
		err := Driver(filepath.Join(dir, "O"), c.ours, c.theirs)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", c.name, err, c.want)
		}
		if got, _ := os.ReadFile(a); string(got) != content {
			t.Errorf("%s: ours changed to %q", c.name, got)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".lucid-merge-*")); len(left) > 0 {
		t.Errorf("temp files left: %v", left)
	}
}

func TestCommonPrefix(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("0123456789abcde\n", 10000) // several chunks
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"a\n", "a\n", 2},
		{"a\nb", "a\nb", 3},        // identical, torn alike
		{"a\nb", "a\nbc\n", 2},     // a torn line is not shared with a longer one
		{"a\nb\n", "a\nb\nc\n", 4}, // ours is a prefix of theirs
		{"a\nx\n", "a\ny\n", 2},
		{"x", "y", 0},
		{big + "a\n", big + "b\n", len(big)},
		{big, big + "more\n", len(big)},
	} {
		pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		os.WriteFile(pa, []byte(c.a), 0o644)
		os.WriteFile(pb, []byte(c.b), 0o644)
		fa, _ := os.Open(pa)
		fb, _ := os.Open(pb)
		got, err := commonPrefix(fa, fb)
		fa.Close()
		fb.Close()
		if err != nil || got != int64(c.want) {
			t.Errorf("commonPrefix(%.20q, %.20q) = %d, %v; want %d", c.a, c.b, got, err, c.want)
		}
	}
}
