package remoteclaims

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// printMachineEnv makes the test binary, started again, print the machine
// of the repository of its working folder: another run of lucid.
const printMachineEnv = "LUCID_TEST_PRINT_MACHINE"

func TestMain(m *testing.M) {
	gittest.QuickRaceExit()
	if os.Getenv(printMachineEnv) != "" {
		r, err := gitstore.Find(".")
		if err == nil {
			var m string
			if m, err = Machine(r); err == nil {
				os.Stdout.WriteString(m + "\n")
				os.Exit(0)
			}
		}
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// machineOf runs another process that asks the machine of the repository
// at dir.
func machineOf(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), printMachineEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("another run: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// A clone's machine is made by its first run and is the same in every run
// after, from every linked work tree of the clone; another clone is
// another machine.
func TestMachineAcrossRuns(t *testing.T) {
	gittest.Setenv(t)
	top := gittest.Committed(t)
	linked := filepath.Join(filepath.Dir(top), "linked")
	gittest.Run(t, top, "worktree", "add", "-q", linked)
	r, _ := gitstore.Find(linked)
	if KnownMachine(r) != "" {
		t.Fatal("a machine before the first run")
	}
	first := machineOf(t, linked)
	if first == "" || KnownMachine(r) != first {
		t.Fatalf("the first run made %q, the clone knows %q", first, KnownMachine(r))
	}
	for _, dir := range []string{linked, top, filepath.Join(top, ".")} {
		if again := machineOf(t, dir); again != first {
			t.Errorf("a run in %s: %q, want %q", dir, again, first)
		}
	}
	if m, err := Machine(r); err != nil || m != first {
		t.Errorf("Machine here: %q, %v", m, err)
	}
	if other := machineOf(t, gittest.Committed(t)); other == first {
		t.Error("another clone is the same machine")
	}
}

// A machine file lucid cannot read is an error that says what to do.
func TestMachineUnreadable(t *testing.T) {
	r := &gitstore.Repo{Top: t.TempDir(), CommonDir: t.TempDir()}
	os.MkdirAll(r.MachinePath(), 0o755) // a folder in its place
	if m, err := Machine(r); err == nil || err.Error() != "cannot read "+r.MachinePath()+": remove it, and lucid makes a new one" {
		t.Errorf("Machine: %q, %v", m, err)
	}
	if got := MachineLabel("no-at-sign"); got != "no-at-sign" {
		t.Errorf("label of an identity without a host: %q", got)
	}
	if got := MachineLabel("4f2a@host"); got != "host (4f2a)" {
		t.Errorf("label of a short identity: %q", got)
	}
}

// A claim whose id cannot name a file is refused before anything goes to
// the remote; a repository of a hash lucid does not know is refused too.
func TestPushRefusesWhatCannotBeWritten(t *testing.T) {
	bare, clones := network(t, 1)
	a := clones[0]
	base, _ := Fetch(a, "origin", false)
	for _, id := range []string{"", "../x", ".hidden", "a/b"} {
		c := claimOf(t, a, "01KA1", "a")
		c.ID = id
		if _, err := Push(a, base, []claimstore.Claim{c}, "x", time.Now()); err == nil || err.Error() != `the claim id "`+id+`" cannot name a file` {
			t.Errorf("claim id %q: %v", id, err)
		}
	}
	if got := ref(t, bare, Ref); got != "" {
		t.Errorf("the remote got %s", got)
	}
	gittest.Run(t, a.Top, "config", "extensions.objectFormat", "sha512")
	want := `the repository's object format "sha512" is unknown to lucid`
	if _, err := Push(a, base, nil, "x", time.Now()); err == nil || err.Error() != want {
		t.Errorf("Push: %v", err)
	}
	if _, err := Fetch(a, "origin", false); err == nil || err.Error() != want {
		t.Errorf("Fetch: %v", err)
	}
}
