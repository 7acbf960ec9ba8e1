package gitstore

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// leftovers lists the temp files a write left in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	tmps, err := filepath.Glob(filepath.Join(dir, ".lucid-tmp-*"))
	if err != nil {
		t.Fatal(err)
	}
	return tmps
}

// Init makes .lucid with the plan's template and an empty log, says what
// it made, and never touches what is there; a file in .lucid's place is
// refused with what to do.
func TestInit(t *testing.T) {
	r, err := Find(gittest.Committed(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Initialised() {
		t.Fatal("Initialised before Init")
	}
	res, err := r.Init()
	if err != nil || !slices.Equal(res.Created, []string{PlanName, LogName}) {
		t.Fatalf("Init: %v, %v", res, err)
	}
	if b, _ := os.ReadFile(r.PlanPath()); string(b) != PlanTemplate {
		t.Errorf("plan.md: %q", b)
	}
	if b, err := os.ReadFile(r.LogPath()); err != nil || len(b) != 0 {
		t.Errorf("log.jsonl: %q, %v", b, err)
	}
	if !r.Initialised() || r.DigestPath() != filepath.Join(r.Top, ".lucid", "digest.md") {
		t.Errorf("Initialised %v, digest %s", r.Initialised(), r.DigestPath())
	}
	os.WriteFile(r.PlanPath(), []byte("# mine\n"), 0o644)
	os.Remove(r.LogPath())
	if res, err := r.Init(); err != nil || !slices.Equal(res.Created, []string{LogName}) {
		t.Errorf("Init again: %v, %v", res, err)
	}
	if b, _ := os.ReadFile(r.PlanPath()); string(b) != "# mine\n" {
		t.Errorf("Init changed the plan: %q", b)
	}
	if tmps := leftovers(t, r.Abs(LucidDirName)); len(tmps) != 0 {
		t.Errorf("Init left %v", tmps)
	}

	other, _ := Find(gittest.Committed(t))
	os.WriteFile(other.Abs(LucidDirName), nil, 0o644)
	if _, err := other.Init(); err == nil || !strings.HasSuffix(err.Error(), ".lucid exists and is not a folder: move it away, then run `lucid init` again") {
		t.Errorf("Init over a file: %v", err)
	}
	if other.Initialised() {
		t.Error("a file .lucid counts as set up")
	}
	// .lucid linked out of the repository is refused before anything is written.
	third, _ := Find(gittest.Committed(t))
	outside := t.TempDir()
	os.Symlink(outside, third.Abs(LucidDirName))
	var bad *BadFileError
	if _, err := third.Init(); !errors.As(err, &bad) {
		t.Errorf("Init through a link out of the repository: %v", err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("Init wrote outside the repository: %v", ents)
	}
}

// A replace that fails leaves the file as it was and no temp file.
func TestWriteFileAtomicFails(t *testing.T) {
	dir := t.TempDir()
	// A folder where the file should be: the rename fails.
	path := filepath.Join(dir, "record.json")
	os.MkdirAll(filepath.Join(path, "inside"), 0o755)
	if err := WriteFileAtomic(path, []byte("x"), 0o644); err == nil {
		t.Fatal("a file replaced a folder")
	}
	if fi, err := os.Stat(filepath.Join(path, "inside")); err != nil || !fi.IsDir() {
		t.Errorf("the folder is gone: %v", err)
	}
	if tmps := leftovers(t, dir); len(tmps) != 0 {
		t.Errorf("a failed rename left %v", tmps)
	}
	// A missing folder: nothing can be made, and the error says so.
	missing := filepath.Join(dir, "missing", "f")
	if err := WriteFileAtomic(missing, []byte("x"), 0o644); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "writing "+missing) {
		t.Errorf("a missing folder: %v", err)
	}
	// A folder linked out of the repository is refused.
	top, _ := Find(gittest.Committed(t))
	os.Symlink(t.TempDir(), top.Abs("out"))
	var bad *BadFileError
	if err := WriteFileAtomic(top.Abs("out/f"), []byte("x"), 0o644); !errors.As(err, &bad) || !strings.Contains(err.Error(), "outside the repository") {
		t.Errorf("a folder linked outside: %v", err)
	}
	// And one that works gives the mode asked.
	good := filepath.Join(dir, "good")
	if err := WriteFileAtomic(good, []byte("y"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(good); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}

// The places of lucid's files: shared ones in the common git dir, a work
// tree's own in its git dir, so that a linked work tree shares claims and
// agents but keeps its own view of the plan.
func TestLayoutInLinkedWorkTree(t *testing.T) {
	top := gittest.Committed(t)
	linked := filepath.Join(filepath.Dir(top), "linked")
	gittest.Run(t, top, "worktree", "add", "-q", linked)
	main, _ := Find(top)
	wt, err := Find(linked)
	if err != nil {
		t.Fatal(err)
	}
	common := filepath.Join(top, ".git", "lucid")
	for _, c := range []struct{ got, want string }{
		{wt.ClaimsPath(), filepath.Join(common, "claims")},
		{wt.AgentsDir(), filepath.Join(common, "agents")},
		{wt.LichNewsDir(), filepath.Join(common, "lich-news")},
		{wt.RemoteClaimsPath(), filepath.Join(common, "remote-claims")},
		{wt.MachinePath(), filepath.Join(common, "machine")},
		{wt.LockPath(), filepath.Join(common, "lock")},
		{wt.PlanSeenPath(), filepath.Join(top, ".git", "worktrees", "linked", "lucid", "plan.seen")},
		{wt.PlanPendingPath(), filepath.Join(top, ".git", "worktrees", "linked", "lucid", "plan.pending")},
		{main.PlanPendingPath(), filepath.Join(common, "plan.pending")},
		{wt.LogPath(), filepath.Join(linked, ".lucid", "log.jsonl")},
	} {
		if c.got != c.want {
			t.Errorf("%s, want %s", c.got, c.want)
		}
	}
	if wt.HasState() || main.HasState() {
		t.Error("state before lucid kept any")
	}
	os.MkdirAll(wt.LichNewsDir(), 0o755)
	if wt.HasState() || main.HasState() {
		t.Error("lich mode's news alone counts as lucid's state")
	}
	os.MkdirAll(wt.AgentsDir(), 0o755)
	if !wt.HasState() || !main.HasState() {
		t.Error("the state of the common git dir is not the linked work tree's")
	}
	for _, c := range []struct {
		dir  string
		want bool
	}{
		{linked, true}, {filepath.Dir(linked), true}, {wt.GitDir, true}, {filepath.Join(top, ".git"), true},
		{filepath.Join(linked, "src"), false}, {filepath.Join(top, "src"), false}, {filepath.Join(top, ".git", "objects"), false},
	} {
		if got := wt.HoldsState(c.dir); got != c.want {
			t.Errorf("HoldsState(%s) = %v, want %v", c.dir, got, c.want)
		}
	}
}

// An agent's record is named after its id where the id is a plain name,
// and after the id's hex where it could name another file.
func TestAgentPath(t *testing.T) {
	r := &Repo{CommonDir: "/r/.git"}
	for id, want := range map[string]string{
		"0b7f-uuid":         "0b7f-uuid.json",
		"0b7f-uuid/agent_1": "0b7f-uuid.agent_1.json",
		"../../etc/x":       "x2e2e2f2e2e2f6574632f78.json",
		"a/b/c":             "x612f622f63.json",
	} {
		if got := r.AgentPath(id); got != filepath.Join("/r/.git/lucid/agents", want) {
			t.Errorf("AgentPath(%q) = %s, want %s", id, got, want)
		}
	}
}

// StateFiles lists what exists of lucid's files, with each one's limit,
// the records one by one; CheckFile says which of them lucid would refuse.
func TestStateFilesAndCheckFile(t *testing.T) {
	r, _ := Find(gittest.Committed(t))
	if _, err := r.Init(); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(r.AgentsDir(), 0o755)
	os.WriteFile(r.AgentPath("a"), []byte("{}"), 0o644)
	os.WriteFile(r.ClaimsPath(), []byte(""), 0o644)
	os.MkdirAll(filepath.Join(r.GitDir, LichEditsDir), 0o755)
	marker := filepath.Join(r.GitDir, LichEditsDir, "0badf00d")
	os.WriteFile(marker, []byte("x"), 0o644)
	got := r.StateFiles()
	want := []StateFile{{r.LogPath(), 0}, {r.PlanPath(), MaxPlan}, {r.ClaimsPath(), MaxClaims}, {r.AgentPath("a"), MaxRecord}, {marker, MaxRecord}}
	if !slices.Equal(got, want) {
		t.Errorf("StateFiles:\n got %v\nwant %v", got, want)
	}
	for _, f := range got {
		if err := CheckFile(f.Path, f.Limit); err != nil {
			t.Errorf("CheckFile(%s): %v", f.Path, err)
		}
	}
	if err := CheckFile(r.DigestPath(), MaxDigest); err != nil {
		t.Errorf("a missing file: %v", err)
	}
	var big *TooLargeError
	if err := CheckFile(marker, 0); err != nil {
		t.Errorf("no limit: %v", err)
	}
	if err := CheckFile(r.PlanPath(), 10); !errors.As(err, &big) || big.Size != int64(len(PlanTemplate)) || big.Limit != 10 {
		t.Errorf("a plan over its limit: %v", err)
	}
	var bad *BadFileError
	os.Remove(r.DigestPath())
	os.Mkdir(r.DigestPath(), 0o755)
	if err := CheckFile(r.DigestPath(), MaxDigest); !errors.As(err, &bad) || bad.Problem != "is a folder" {
		t.Errorf("a folder: %v", err)
	}
	os.Symlink(r.PlanPath(), r.Abs("inside.md"))
	if err := CheckFile(r.Abs("inside.md"), MaxPlan); err != nil {
		t.Errorf("a link inside the work tree: %v", err)
	}
	os.Symlink(r.Abs(".lucid"), r.Abs("dirlink"))
	if err := CheckFile(r.Abs("dirlink"), MaxPlan); !errors.As(err, &bad) || !strings.HasSuffix(bad.Problem, "which is a folder") {
		t.Errorf("a link to a folder: %v", err)
	}
	os.Symlink("/dev/null", r.Abs("null"))
	if err := CheckFile(r.Abs("null"), MaxPlan); !errors.As(err, &bad) || !strings.Contains(bad.Problem, "outside the repository") {
		t.Errorf("a link to /dev/null: %v", err)
	}
	os.Symlink("loop", r.Abs("loop"))
	if err := CheckFile(r.Abs("loop"), MaxPlan); !errors.As(err, &bad) || !strings.Contains(bad.Problem, "cannot be resolved") {
		t.Errorf("a link to itself: %v", err)
	}
}

// What each kind of file is called in an error.
func TestKindText(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip(err)
	}
	defer l.Close()
	os.Symlink("x", filepath.Join(dir, "link"))
	for path, want := range map[string]string{
		dir: "is a folder", sock: "is a socket", "/dev/null": "is a character device", filepath.Join(dir, "link"): "is a symbolic link",
	} {
		fi, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := KindText(fi.Mode()); got != want {
			t.Errorf("%s %s, want %s", path, got, want)
		}
	}
	if got := KindText(fs.ModeDevice); got != "is a device" {
		t.Errorf("a block device: %s", got)
	}
	if got := KindText(fs.ModeIrregular); got != "is not a regular file" {
		t.Errorf("an irregular file: %s", got)
	}
	for n, want := range map[int64]string{0: "0 bytes", 1023: "1023 bytes", 1536: "1.5 KiB", 3 << 20: "3.0 MiB"} {
		if got := SizeText(n); got != want {
			t.Errorf("SizeText(%d) = %s, want %s", n, got, want)
		}
	}
}

// A file that grows past its limit while it is read is refused, not cut;
// a missing file reads as empty where that is asked for.
func TestReadLimits(t *testing.T) {
	var big *TooLargeError
	if _, err := ReadLimited(strings.NewReader("0123456789"), "f", 4, 5); !errors.As(err, &big) || big.Size != 6 || big.Limit != 5 {
		t.Errorf("a file that grew: %v", err)
	}
	if b, err := ReadLimited(strings.NewReader("01234"), "f", 4, 5); err != nil || string(b) != "01234" {
		t.Errorf("a file at its limit: %q, %v", b, err)
	}
	dir := t.TempDir()
	if b, err := ReadFileIfExists(filepath.Join(dir, "none"), 10); b != nil || err != nil {
		t.Errorf("a missing file: %q, %v", b, err)
	}
	if _, err := ReadFileIfExists(dir, 10); err == nil {
		t.Error("a folder was read")
	}
	path := filepath.Join(dir, "f")
	os.WriteFile(path, []byte("abc"), 0o644)
	f, fi, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if runtime.GOOS == "windows" {
		return // no inode numbers
	}
	other, _ := os.Stat(path)
	if Inode(fi) == 0 || Inode(fi) != Inode(other) {
		t.Errorf("inode %d, then %d", Inode(fi), Inode(other))
	}
	os.Rename(path, path+".old")
	os.WriteFile(path, []byte("abc"), 0o644)
	if now, _ := os.Stat(path); Inode(now) == Inode(fi) {
		t.Error("a replaced file has the same inode")
	}
}
