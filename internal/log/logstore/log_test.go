package logstore

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

// writeLog writes a log of n entries with texts of random length (some
// longer than ScanBackward's block), invalid and blank lines between them,
// and, when torn, a last line without its newline. It returns the ids of
// the valid entries in file order and the number of invalid lines.
func writeLog(t *testing.T, path string, n int, seed uint64, torn bool) ([]string, int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	var ids []string
	invalid := 0
	for i := 0; i < n; i++ {
		size := rng.IntN(300)
		if rng.IntN(50) == 0 {
			size = 70<<10 + rng.IntN(100<<10)
		}
		e := logformat.NewEntry(time.Now(), "a", logformat.KindNote, strings.Repeat("x", size)+strconv.Itoa(i))
		line, err := logformat.EncodeEntry(e)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		ids = append(ids, e.ID)
		switch rng.IntN(20) {
		case 0:
			b.WriteString("garbage line\n")
			invalid++
		case 1:
			b.WriteString("\n")
		}
	}
	if torn {
		b.WriteString(`{"id":"01JTORN`)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return ids, invalid
}

func TestScanForwardAndBackwardAgree(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		path := filepath.Join(t.TempDir(), "log.jsonl")
		want, wantInvalid := writeLog(t, path, 400, seed, seed%2 == 0)
		var fwd, back []string
		inv1, err := Scan(path, func(e logformat.Entry) bool { fwd = append(fwd, e.ID); return true })
		if err != nil {
			t.Fatal(err)
		}
		inv2, err := ScanBackward(path, func(e logformat.Entry) bool { back = append(back, e.ID); return true })
		if err != nil {
			t.Fatal(err)
		}
		slices.Reverse(back)
		if !slices.Equal(fwd, want) || !slices.Equal(back, want) {
			t.Fatalf("seed %d: forward %d entries, backward %d, want %d", seed, len(fwd), len(back), len(want))
		}
		if inv1 != wantInvalid || inv2 != wantInvalid {
			t.Fatalf("seed %d: invalid forward %d backward %d, want %d", seed, inv1, inv2, wantInvalid)
		}
	}
}

func TestScanBackwardStopsEarly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	want, _ := writeLog(t, path, 300, 9, true)
	var got []string
	ScanBackward(path, func(e logformat.Entry) bool { got = append(got, e.ID); return len(got) < 3 })
	if !slices.Equal(got, []string{want[299], want[298], want[297]}) {
		t.Fatalf("got %v", got)
	}
}

func TestMissingLogIsEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.jsonl")
	n := 0
	if _, err := Scan(path, func(logformat.Entry) bool { n++; return true }); err != nil || n != 0 {
		t.Fatal(n, err)
	}
	if _, err := ScanBackward(path, func(logformat.Entry) bool { n++; return true }); err != nil || n != 0 {
		t.Fatal(n, err)
	}
}

func TestAppendNeedsTheLucidFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".lucid", "log.jsonl")
	if err := Append(path, logformat.NewEntry(time.Now(), "a", logformat.KindNote, "x")); err != gitstore.ErrNotInitialised {
		t.Fatalf("Append without .lucid: %v", err)
	}
}

// The race: 16 processes append 500 entries each at once. Afterwards the log
// holds 8000 valid, distinct entries and nothing else.
const appenderEnv = "LUCID_TEST_APPENDER"

func TestMain(m *testing.M) {
	gittest.QuickRaceExit()
	if spec := os.Getenv(appenderEnv); spec != "" {
		path, count, _ := strings.Cut(spec, ";")
		n, _ := strconv.Atoi(count)
		for i := 0; i < n; i++ {
			e := logformat.NewEntry(time.Now(), "proc-"+strconv.Itoa(os.Getpid()), logformat.KindNote, fmt.Sprintf("entry %d of %d", i, os.Getpid()))
			if err := Append(path, e); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestConcurrentAppendsLoseAndMixNothing(t *testing.T) {
	const procs, each = 16, 500
	dir := filepath.Join(t.TempDir(), ".lucid")
	os.Mkdir(dir, 0o755)
	path := filepath.Join(dir, "log.jsonl")
	os.WriteFile(path, nil, 0o644)
	var cmds []*exec.Cmd
	for i := 0; i < procs; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), appenderEnv+"="+path+";"+strconv.Itoa(each))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("appender: %v", err)
		}
	}
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(content), "\n"), "\n")
	if len(lines) != procs*each {
		t.Fatalf("%d lines, want %d", len(lines), procs*each)
	}
	ids := map[string]bool{}
	perProc := map[string]int{}
	for _, l := range lines {
		e, err := logformat.DecodeEntry([]byte(l))
		if err != nil {
			t.Fatalf("invalid line %q: %v", l, err)
		}
		if ids[e.ID] {
			t.Fatalf("id %s twice", e.ID)
		}
		ids[e.ID] = true
		perProc[e.Agent]++
	}
	if len(perProc) != procs {
		t.Fatalf("entries from %d processes, want %d", len(perProc), procs)
	}
	for p, n := range perProc {
		if n != each {
			t.Fatalf("%s wrote %d entries, want %d", p, n, each)
		}
	}
}

// A line longer than the readers' buffers is read whole, forward, backward,
// from a cursor and by the count.
func TestVeryLongLine(t *testing.T) {
	r := repotest.Lucid(t)
	ids := appendNotes(t, r.LogPath(), "short", strings.Repeat("long ", 55<<10), "short again")
	var fwd, back, from []string
	if _, err := Scan(r.LogPath(), func(e logformat.Entry) bool { fwd = append(fwd, e.ID); return true }); err != nil {
		t.Fatal(err)
	}
	if _, err := ScanBackward(r.LogPath(), func(e logformat.Entry) bool { back = append(back, e.ID); return true }); err != nil {
		t.Fatal(err)
	}
	slices.Reverse(back)
	if _, _, err := ScanFrom(r.LogPath(), 0, func(e logformat.Entry) { from = append(from, e.ID) }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fwd, ids) || !slices.Equal(back, ids) || !slices.Equal(from, ids) {
		t.Fatalf("read %v forward, %v backward, %v from 0; want %v", fwd, back, from, ids)
	}
	// The count in parts, whose bounds fall inside the long line.
	defer func(n int64) { countSplitSize = n }(countSplitSize)
	for _, split := range []int64{countSplitSize, 0} {
		countSplitSize = split
		if valid, invalid, err := Count(r.LogPath()); valid != 3 || invalid != 0 || err != nil {
			t.Fatalf("Count (split at %d): %d valid, %d invalid, %v", split, valid, invalid, err)
		}
	}
}
