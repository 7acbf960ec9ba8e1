//go:build unix

package gitstore_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

// fullDisk makes every write put half its bytes down and then fail as a
// full disk does, for the rest of the test.
func fullDisk(t *testing.T) {
	t.Helper()
	old := gitstore.WriteFile
	gitstore.WriteFile = func(f *os.File, b []byte) (int, error) {
		n, _ := f.Write(b[:len(b)/2])
		return n, syscall.ENOSPC
	}
	t.Cleanup(func() { gitstore.WriteFile = old })
}

// logValid reads the log and fails the test when any line of it is not a
// whole, valid entry; it returns the texts.
func logValid(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Fatalf("the log ends in a partial line: %q", b[max(len(b)-80, 0):])
	}
	var texts []string
	for _, line := range bytes.Split(bytes.TrimSuffix(b, []byte{'\n'}), []byte{'\n'}) {
		if len(line) == 0 {
			continue
		}
		e, err := logformat.DecodeEntry(line)
		if err != nil {
			t.Fatalf("invalid line in the log: %q", line)
		}
		texts = append(texts, e.Text)
	}
	return texts
}

func TestAppendShortWriteLeavesNothing(t *testing.T) {
	r := repotest.Lucid(t)
	if err := logstore.Append(r.LogPath(), logformat.NewEntry(time.Now(), "a", logformat.KindFact, "kept")); err != nil {
		t.Fatal(err)
	}
	// A torn last line (a crash) makes the append add a newline first: a
	// short write must take that back too.
	f, _ := os.OpenFile(r.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"id":"01JTORN`)
	f.Close()
	before, _ := os.ReadFile(r.LogPath())

	fullDisk(t)
	err := logstore.Append(r.LogPath(), logformat.NewEntry(time.Now(), "a", logformat.KindFact, strings.Repeat("long ", 400)))
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("a failed write was not reported as a full disk: %v", err)
	}
	after, _ := os.ReadFile(r.LogPath())
	if !bytes.Equal(before, after) {
		t.Fatalf("a failed append changed the log:\nbefore %q\nafter  %q", before, after)
	}
	gitstore.WriteFile = func(f *os.File, b []byte) (int, error) { return f.Write(b) }
	if err := logstore.Append(r.LogPath(), logformat.NewEntry(time.Now(), "a", logformat.KindFact, "after")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(r.LogPath())
	texts := []string{}
	for _, line := range strings.Split(strings.TrimSuffix(string(got), "\n"), "\n") {
		if e, err := logformat.DecodeEntry([]byte(line)); err == nil {
			texts = append(texts, e.Text)
		} else if line != `{"id":"01JTORN` {
			t.Fatalf("a line that is neither an entry nor the torn one: %q", line)
		}
	}
	if strings.Join(texts, ",") != "kept,after" {
		t.Fatalf("entries %v, want kept,after", texts)
	}
}

func TestWriteFileAtomicShortWriteKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "agent.json")
	if err := gitstore.WriteFileAtomic(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fullDisk(t)
	err := gitstore.WriteFileAtomic(path, bytes.Repeat([]byte("new "), 1000), 0o644)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("a failed write was not reported as a full disk: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Fatalf("the file reads %q after a failed replace, want the old content", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("a failed write left files behind: %v", ents)
	}
}

// Every store that replaces a file whole goes through WriteFileAtomic: on a
// full disk each fails and leaves what was there.
func TestStoresOnFullDisk(t *testing.T) {
	r := repotest.Lucid(t)
	claims := []claimstore.Claim{{ID: "c1", Owner: "a", Created: time.Now(), Worktree: r.Top, Task: "t", Globs: []string{"src/**"}}}
	if err := claimstore.Save(r, claims); err != nil {
		t.Fatal(err)
	}
	if err := agentstore.Save(r, agentstore.Record{ID: "s1", Worktree: r.Top}); err != nil {
		t.Fatal(err)
	}
	if err := logstore.MarkPlanSeen(r, []byte("plan\n")); err != nil {
		t.Fatal(err)
	}
	snapshot := func() map[string]string {
		m := map[string]string{}
		for _, root := range []string{r.Top, r.CommonDir} {
			filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() && strings.Contains(p, "lucid") {
					b, _ := os.ReadFile(p)
					m[p] = string(b)
				}
				return nil
			})
		}
		return m
	}
	before := snapshot()
	fullDisk(t)
	big := strings.Repeat("x", 5000)
	for name, err := range map[string]error{
		"claims":      claimstore.Save(r, append(claims, claimstore.Claim{ID: "c2", Owner: "b", Task: big, Globs: []string{"b/**"}})),
		"claims edit": claimstore.Edit(r, map[string]bool{"c1": true}, []claimstore.Claim{{ID: "c3", Owner: "b", Task: big, Globs: []string{"c/**"}}}),
		"agent":       agentstore.Save(r, agentstore.Record{ID: "s1", Worktree: r.Top, Type: big}),
		"plan.seen":   logstore.MarkPlanSeen(r, []byte(big)),
		"log":         logstore.Append(r.LogPath(), logformat.NewEntry(time.Now(), "a", logformat.KindFact, big)),
	} {
		if err == nil {
			t.Errorf("%s: a write on a full disk reported success", name)
		}
	}
	after := snapshot()
	if len(after) != len(before) {
		t.Errorf("files before %d, after %d (a temp file left?)", len(before), len(after))
	}
	for p, b := range before {
		if after[p] != b {
			t.Errorf("%s changed on a failed write", p)
		}
	}
}

// On a real full file system (a 2 MiB tmpfs, where the test may mount
// one): appends fail whole or succeed whole, and every one acknowledged is
// there.
func TestAppendOnFullTmpfs(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	log := filepath.Join(dir, "log.jsonl")
	if err := os.WriteFile(log, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state")
	os.WriteFile(state, []byte("old"), 0o644)
	var acked []string
	failures := 0
	for i := 0; failures < 20 && i < 10000; i++ {
		text := strings.Repeat("t", 100+i*37%3000) + "#" + time.Now().String()
		if err := logstore.Append(log, logformat.NewEntry(time.Now(), "a", logformat.KindFact, text)); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("append %d: %v", i, err)
			}
			failures++
			continue
		}
		acked = append(acked, text)
	}
	if failures == 0 {
		t.Fatal("the tmpfs never filled up")
	}
	got := logValid(t, log)
	if strings.Join(got, "\n") != strings.Join(acked, "\n") {
		t.Fatalf("the log holds %d entries, %d were acknowledged", len(got), len(acked))
	}
	// A replaced file on the full tmpfs: the old one stays, no temp file.
	if err := gitstore.WriteFileAtomic(state, bytes.Repeat([]byte("y"), 3<<20), 0o644); err == nil {
		t.Fatal("a 3 MiB file was written to a full 2 MiB tmpfs")
	}
	if b, _ := os.ReadFile(state); string(b) != "old" {
		t.Fatalf("the replaced file reads %.20q", b)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".lucid-tmp-") {
			t.Fatalf("temp file %s left on the full disk", e.Name())
		}
	}
}

// bad makes each kind of file lucid must refuse at path, in turn, and
// calls check; the FIFO must not block it.
func eachBadFile(t *testing.T, path string, check func(kind string)) {
	t.Helper()
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("root:x:0:0:secret\n"), 0o644)
	for _, kind := range []string{"fifo", "devzero", "outside", "dangling", "folder"} {
		os.RemoveAll(path)
		var err error
		switch kind {
		case "fifo":
			err = mkfifo(path)
		case "devzero":
			err = os.Symlink("/dev/zero", path)
		case "outside":
			err = os.Symlink(secret, path)
		case "dangling":
			err = os.Symlink(filepath.Join(filepath.Dir(path), "nowhere"), path)
		case "folder":
			err = os.Mkdir(path, 0o755)
		}
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			check(kind)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			os.Remove(path) // unblock a reader stuck on the FIFO
			t.Fatalf("%s: still running after 5 s", kind)
		}
	}
	os.RemoveAll(path)
}

func TestReadFileRefusesSpecialFiles(t *testing.T) {
	r := repotest.Lucid(t)
	eachBadFile(t, r.PlanPath(), func(kind string) {
		b, err := gitstore.ReadFile(r.PlanPath(), gitstore.MaxPlan)
		var bad *gitstore.BadFileError
		if !errors.As(err, &bad) || len(b) > 0 {
			t.Errorf("%s: read %d bytes, err %v; want a gitstore.BadFileError", kind, len(b), err)
		}
		if err != nil && !strings.Contains(err.Error(), r.PlanPath()) {
			t.Errorf("%s: the error does not name the file: %v", kind, err)
		}
		if _, _, _, err := logstore.PlanVersions(r); err == nil {
			t.Errorf("%s: PlanVersions read it", kind)
		}
	})
}

func TestReadFileFollowsLinksInside(t *testing.T) {
	r := repotest.Lucid(t)
	os.WriteFile(r.Abs("PLAN.md"), []byte("# the plan\n"), 0o644)
	os.Remove(r.PlanPath())
	if err := os.Symlink("../PLAN.md", r.PlanPath()); err != nil {
		t.Fatal(err)
	}
	if b, err := gitstore.ReadFile(r.PlanPath(), gitstore.MaxPlan); err != nil || string(b) != "# the plan\n" {
		t.Fatalf("a link inside the work tree: %q, %v", b, err)
	}
	// A link inside the git dir, to a file in the git dir.
	os.WriteFile(filepath.Join(r.GitDir, "real"), []byte("x"), 0o644)
	link := filepath.Join(r.GitDir, "link")
	os.Symlink(filepath.Join(r.GitDir, "real"), link)
	if b, err := gitstore.ReadFile(link, gitstore.MaxRecord); err != nil || string(b) != "x" {
		t.Fatalf("a link inside the git dir: %q, %v", b, err)
	}
	// A link in the git dir that leaves the repository.
	os.Symlink("/etc/passwd", filepath.Join(r.GitDir, "out"))
	if _, err := gitstore.ReadFile(filepath.Join(r.GitDir, "out"), gitstore.MaxRecord); err == nil {
		t.Fatal("a link from the git dir to /etc/passwd was read")
	}
}

func TestReadFileSizeLimit(t *testing.T) {
	r := repotest.Lucid(t)
	os.WriteFile(r.PlanPath(), bytes.Repeat([]byte("p"), gitstore.MaxPlan+1), 0o644)
	_, err := gitstore.ReadFile(r.PlanPath(), gitstore.MaxPlan)
	var big *gitstore.TooLargeError
	if !errors.As(err, &big) || !strings.Contains(err.Error(), "over the 1.0 MiB") {
		t.Fatalf("a plan over 1 MiB: %v", err)
	}
	os.WriteFile(r.PlanPath(), bytes.Repeat([]byte("p"), gitstore.MaxPlan), 0o644)
	if b, err := gitstore.ReadFile(r.PlanPath(), gitstore.MaxPlan); err != nil || len(b) != gitstore.MaxPlan {
		t.Fatalf("a plan of exactly 1 MiB: %d bytes, %v", len(b), err)
	}
}

func TestAppendRefusesSpecialLog(t *testing.T) {
	r := repotest.Lucid(t)
	eachBadFile(t, r.LogPath(), func(kind string) {
		err := logstore.Append(r.LogPath(), logformat.NewEntry(time.Now(), "a", logformat.KindFact, "lost?"))
		if err == nil {
			t.Errorf("%s: the append was acknowledged", kind)
		}
		if _, err := logstore.Scan(r.LogPath(), func(logformat.Entry) bool { return true }); err == nil {
			t.Errorf("%s: Scan read it", kind)
		}
		if _, err := logstore.ScanBackward(r.LogPath(), func(logformat.Entry) bool { return true }); err == nil {
			t.Errorf("%s: ScanBackward read it", kind)
		}
	})
	// A log that is a link to a file inside the work tree is written there.
	os.WriteFile(r.Abs("real.jsonl"), nil, 0o644)
	os.Symlink("../real.jsonl", r.LogPath())
	if err := logstore.Append(r.LogPath(), logformat.NewEntry(time.Now(), "a", logformat.KindFact, "through the link")); err != nil {
		t.Fatal(err)
	}
	if got := logValid(t, r.Abs("real.jsonl")); len(got) != 1 || got[0] != "through the link" {
		t.Fatalf("the linked log holds %v", got)
	}
	if fi, _ := os.Lstat(r.LogPath()); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
}

func TestCheckerRefusesSpecialEvidence(t *testing.T) {
	r := repotest.Lucid(t)
	path := r.Abs("cited.go")
	os.WriteFile(path, []byte("package x\n"), 0o644)
	ev, err := logstore.Cite(r, r.Top, "cited.go:1")
	if err != nil {
		t.Fatal(err)
	}
	eachBadFile(t, path, func(kind string) {
		if _, err := logstore.Cite(r, r.Top, "cited.go"); err == nil {
			t.Errorf("%s: cited", kind)
		}
		stale := logstore.NewChecker(r).Check([]logformat.Evidence{ev})
		if len(stale) != 1 || (stale[0].Refused == "" && !stale[0].Gone) {
			t.Errorf("%s: stale %+v, want it refused", kind, stale)
		}
	})
	// Evidence written into the log by hand (or pulled) naming a file
	// outside the work tree is never read.
	secret := filepath.Join(filepath.Dir(r.Top), "secret")
	os.WriteFile(secret, []byte("s"), 0o644)
	rel, _ := filepath.Rel(r.Top, secret)
	os.Symlink(filepath.Dir(r.Top), r.Abs("up"))
	for _, p := range []string{filepath.ToSlash(rel), secret, "up/secret"} {
		stale := logstore.NewChecker(r).Check([]logformat.Evidence{{Path: p, Blake3: logstore.HashHex([]byte("s"))}})
		if len(stale) != 1 || stale[0].Refused == "" {
			t.Errorf("evidence %s outside the work tree: %+v, want refused", p, stale)
		}
	}
}

func TestFindClaimsRefusesSpecialStore(t *testing.T) {
	r := repotest.Lucid(t)
	os.MkdirAll(filepath.Dir(r.ClaimsPath()), 0o755)
	eachBadFile(t, r.ClaimsPath(), func(kind string) {
		if _, err := claimstore.Find(r, func([]byte) bool { return true }); err == nil {
			t.Errorf("%s: FindClaims read it", kind)
		}
		if _, _, err := claimstore.Load(r); err == nil {
			t.Errorf("%s: claims.Load read it", kind)
		}
	})
}

// A .lucid folder that is a link out of the repository is neither read
// nor written, and lucid init does not fill it.
func TestLucidFolderLinkedOutside(t *testing.T) {
	r := repotest.Lucid(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "plan.md"), []byte("secret plan"), 0o644)
	os.WriteFile(filepath.Join(outside, "log.jsonl"), nil, 0o644)
	os.RemoveAll(r.Abs(gitstore.LucidDirName))
	if err := os.Symlink(outside, r.Abs(gitstore.LucidDirName)); err != nil {
		t.Fatal(err)
	}
	if b, err := gitstore.ReadFile(r.PlanPath(), gitstore.MaxPlan); err == nil {
		t.Fatalf("read %q through a linked .lucid", b)
	}
	if err := logstore.Append(r.LogPath(), logformat.NewEntry(time.Now(), "a", logformat.KindFact, "out")); err == nil {
		t.Fatal("appended through a linked .lucid")
	}
	if err := gitstore.WriteFileAtomic(r.Abs(".lucid/x"), []byte("x"), 0o644); err == nil {
		t.Fatal("wrote through a linked .lucid")
	}
	if _, err := r.Init(); err == nil {
		t.Fatal("init accepted a linked .lucid")
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "log.jsonl")); len(b) != 0 {
		t.Fatalf("the outside log got %q", b)
	}
	// A link to a folder inside the work tree is fine.
	os.Remove(r.Abs(gitstore.LucidDirName))
	os.Mkdir(r.Abs("state"), 0o755)
	os.Symlink("state", r.Abs(gitstore.LucidDirName))
	if _, err := r.Init(); err != nil {
		t.Fatal(err)
	}
	if err := logstore.Append(r.LogPath(), logformat.NewEntry(time.Now(), "a", logformat.KindFact, "in")); err != nil {
		t.Fatal(err)
	}
	if got := logValid(t, r.Abs("state/log.jsonl")); len(got) != 1 {
		t.Fatalf("state/log.jsonl holds %v", got)
	}
}

// A cited file over gitstore.MaxEvidence cannot be cited, and one that grew past it
// reads as not checked, without being read.
func TestEvidenceSizeLimit(t *testing.T) {
	r := repotest.Lucid(t)
	path := r.Abs("big.bin")
	os.WriteFile(path, []byte("small\n"), 0o644)
	ev, err := logstore.Cite(r, r.Top, "big.bin")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, gitstore.MaxEvidence+1); err != nil { // sparse: nothing to write
		t.Fatal(err)
	}
	if _, err := logstore.Cite(r, r.Top, "big.bin"); err == nil || !strings.Contains(err.Error(), "over the 64.0 MiB") {
		t.Fatalf("citing a file over 64 MiB: %v", err)
	}
	stale := logstore.NewChecker(r).Check([]logformat.Evidence{ev})
	if len(stale) != 1 || !strings.Contains(stale[0].String(), "big.bin not checked: it is over 64.0 MiB") {
		t.Fatalf("stale %v", stale)
	}
}

// A log replaced while an entry is written (git renames a checked-out or
// merged file into place) gets the entry again: it is in the file that has
// the name.
func TestAppendToReplacedLog(t *testing.T) {
	r := repotest.Lucid(t)
	if err := logstore.Append(r.LogPath(), logformat.NewEntry(time.Now(), "a", logformat.KindFact, "first")); err != nil {
		t.Fatal(err)
	}
	copyOf, _ := os.ReadFile(r.LogPath())
	old := gitstore.WriteFile
	t.Cleanup(func() { gitstore.WriteFile = old })
	replaced := false
	gitstore.WriteFile = func(f *os.File, b []byte) (int, error) {
		n, err := f.Write(b)
		if !replaced { // as git does: a new file renamed over the name
			replaced = true
			tmp := r.LogPath() + ".new"
			os.WriteFile(tmp, copyOf, 0o644)
			os.Rename(tmp, r.LogPath())
		}
		return n, err
	}
	if err := logstore.Append(r.LogPath(), logformat.NewEntry(time.Now(), "a", logformat.KindFact, "second")); err != nil {
		t.Fatal(err)
	}
	if got := logValid(t, r.LogPath()); strings.Join(got, ",") != "first,second" {
		t.Fatalf("the log holds %v, want first,second", got)
	}
}
