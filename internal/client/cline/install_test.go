package cline

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/testkit/installertest"
)

// snapshot is every file under dir, by its path, with its bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		b, _ := os.ReadFile(p)
		if d.IsDir() {
			b = []byte("dir")
		}
		files[p] = string(b)
		return nil
	})
	return files
}

// lucid's hook files: one per event, written whole, kept on a second
// run, refused over a file of that name that is not lucid's; uninstall
// leaves the tree byte for byte as it found it, the folders it created
// gone and the user's own hook files and .clinerules/ kept.
func TestInstallUninstall(t *testing.T) {
	repo := installertest.NewRepo(t)
	before := snapshot(t, repo.Top)
	ch, err := (Client{}).Setup().Install(repo, installers.Options{})
	if err != nil || len(ch) != len(events) {
		t.Fatalf("install: %v %v", ch, err)
	}
	for _, e := range events {
		if got := installertest.ReadFile(t, repo, HooksDir+"/"+e.Name); got != string(HookFile(e.Name, false)) {
			t.Errorf("%s is not lucid's hook file", e.Name)
		}
	}
	if !Hooks.SetUp(repo) {
		t.Error("not set up after install")
	}
	if f := checkFiles(repo.Abs(HooksDir), false, "fix"); !f.OK {
		t.Errorf("doctor: %+v", f)
	}
	if ch, err := (Client{}).Setup().Install(repo, installers.Options{}); err != nil || len(ch) != 0 {
		t.Errorf("second install: %v %v", ch, err)
	}
	if _, err := (Client{}).Setup().Uninstall(repo); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, repo.Top); !equal(before, after) {
		t.Errorf("uninstall left %v, want %v", after, before)
	}

	// The user's .clinerules/ and own hooks stay; one of lucid's names
	// taken by the user's is refused, and nothing is written.
	installertest.WriteSettings(t, repo, ".clinerules/hooks/PostToolUse.sh", "#!/bin/sh\necho mine\n")
	if dir, found := Hooks.Detected(repo); !found || dir != ".clinerules" {
		t.Errorf(".clinerules/ not detected: %q", dir)
	}
	before = snapshot(t, repo.Top)
	if _, err := (Client{}).Setup().Install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := (Client{}).Setup().Uninstall(repo); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, repo.Top); !equal(before, after) {
		t.Errorf("uninstall left %v, want %v", after, before)
	}
	installertest.WriteSettings(t, repo, ".clinerules/hooks/TaskStart", "#!/bin/sh\necho mine\n")
	if _, err := (Client{}).Setup().Install(repo, installers.Options{}); err == nil || !strings.Contains(err.Error(), "TaskStart is not lucid's") {
		t.Errorf("install over the user's TaskStart: %v", err)
	}
	if _, err := os.Stat(repo.Abs(HooksDir + "/PreToolUse")); !os.IsNotExist(err) {
		t.Errorf("a refused install wrote PreToolUse (%v)", err)
	}
}

// Doctor names what makes Cline skip a hook file: one missing, a link in
// a file's place, another version.
func TestCheckFiles(t *testing.T) {
	repo := installertest.NewRepo(t)
	dir := repo.Abs(HooksDir)
	if f := checkFiles(dir, false, "fix"); f.OK || !strings.Contains(f.Detail, "not in") {
		t.Errorf("none: %+v", f)
	}
	if _, err := (Client{}).Setup().Install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, TaskStart))
	if f := checkFiles(dir, false, "fix"); f.OK || !strings.Contains(f.Detail, "lacks lucid's hook files for TaskStart") {
		t.Errorf("missing: %+v", f)
	}
	if runtime.GOOS != "windows" {
		os.Symlink(filepath.Join(dir, PreToolUse), filepath.Join(dir, TaskStart))
		if f := checkFiles(dir, false, "fix"); f.OK || !strings.Contains(f.Detail, "not a regular file") {
			t.Errorf("link: %+v", f)
		}
		os.Remove(filepath.Join(dir, TaskStart))
	}
	os.WriteFile(filepath.Join(dir, TaskStart), []byte(fileHead+": old\n"), 0o755)
	if f := checkFiles(dir, false, "fix"); f.OK || !strings.Contains(f.Detail, "not this lucid's") {
		t.Errorf("stale: %+v", f)
	}
}

// --user writes the hook files into $CLINE_DIR/hooks and takes them away
// again, the folder (Cline's own) kept.
func TestUser(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CLINE_DIR", dir)
	ch, err := installUser()
	if err != nil || len(ch) != len(events) {
		t.Fatalf("install: %v %v", ch, err)
	}
	if f := checkFiles(filepath.Join(dir, "hooks"), true, "fix"); !f.OK {
		t.Errorf("doctor: %+v", f)
	}
	if ch, err := uninstallUser(); err != nil || len(ch) != len(events) {
		t.Fatalf("uninstall: %v %v", ch, err)
	}
	if ents, err := os.ReadDir(filepath.Join(dir, "hooks")); err != nil || len(ents) != 0 {
		t.Errorf("left %v %v", ents, err)
	}
}

// A hook file says nothing and exits 0 where lucid is missing or fails:
// Cline reads its stdout and nothing else.
func TestHookFileWithoutLucid(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	failing := filepath.Join(dir, "failing")
	os.Mkdir(failing, 0o755)
	os.WriteFile(filepath.Join(failing, "lucid"), []byte("#!/bin/sh\necho garbage >&2\nexit 3\n"), 0o755)
	for name, path := range map[string]string{"missing": filepath.Join(dir, "empty"), "failing": failing} {
		for _, user := range []bool{false, true} {
			f := filepath.Join(dir, "hook")
			os.WriteFile(f, HookFile(PreToolUse, user), 0o755)
			cmd := exec.Command(bash, f)
			cmd.Env = []string{"PATH=" + path + ":/usr/bin:/bin"}
			cmd.Stdin = strings.NewReader(`{"hookName":"tool_call"}`)
			out, err := cmd.Output()
			if err != nil || len(out) != 0 {
				t.Errorf("%s lucid (user %v): %q %v", name, user, out, err)
			}
		}
	}
}

func equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A hook file of the user's hooks folder stands aside where the work tree
// has lucid's own file for the event, there since Cline started; not for
// a file of someone else's, nor for one written since.
func TestUserHookStandsAside(t *testing.T) {
	repo := installertest.NewRepo(t)
	t.Chdir(repo.Top)
	aside := func() bool { return Client{}.UserHookStandsAside(PreToolUse) }
	if aside() {
		t.Error("stands aside in a work tree without lucid's hook files")
	}
	if _, err := install(repo, installers.Options{}); err != nil {
		t.Fatal(err)
	}
	if aside() {
		t.Error("stands aside for a hook file written since Cline started")
	}
	was := readLoadedHooks
	readLoadedHooks = func(path string) ([]byte, error) { return os.ReadFile(path) }
	defer func() { readLoadedHooks = was }()
	if !aside() {
		t.Error("runs beside the work tree's own hook file")
	}
	os.WriteFile(repo.Abs(HooksDir+"/"+PreToolUse), []byte("#!/bin/sh\n# lucid hook --client cline PreToolUse\ntrue\n"), 0o755)
	if aside() {
		t.Error("stands aside for a hook file not lucid's")
	}
}
