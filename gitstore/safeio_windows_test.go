//go:build windows

package gitstore_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
	"github.com/lucid-dev/lucid/internal/testkit/repotest"
)

// A Windows FileInfo has no inode, link count or owner: Inode is 0, Links
// 1 and Foreign false even for a file with two names, and what tells one
// file from another is os.SameFile (the volume and file index), which the
// log's append uses to see that the log it wrote was replaced.
func TestWindowsFileIdentity(t *testing.T) {
	dir := t.TempDir()
	a, b, other := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "other")
	os.WriteFile(a, []byte("same\n"), 0o644)
	os.WriteFile(other, []byte("same\n"), 0o644)
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	fa, _ := os.Stat(a)
	fb, _ := os.Stat(b)
	fo, _ := os.Stat(other)
	if fa == nil || fb == nil || fo == nil {
		t.Fatal("stat failed")
	}
	if gitstore.Inode(fa) != 0 || gitstore.Links(fa) != 1 || gitstore.Foreign(fa) {
		t.Errorf("a file with two names: Inode %d, Links %d, Foreign %v; want 0, 1, false",
			gitstore.Inode(fa), gitstore.Links(fa), gitstore.Foreign(fa))
	}
	if !os.SameFile(fa, fb) {
		t.Error("two names of one file (a hard link) are not the same file")
	}
	if os.SameFile(fa, fo) {
		t.Error("two files of the same content are the same file")
	}

	// The open file's own FileInfo against the name's, as the append
	// compares them: the same until a new file is renamed over the name
	// (with the handle closed first: Windows renames over no open file).
	f, err := os.Open(a)
	if err != nil {
		t.Fatal(err)
	}
	open, err := f.Stat()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if now, _ := os.Stat(a); now == nil || !os.SameFile(open, now) {
		t.Error("the open file and its name are not the same file")
	}
	if err := os.Rename(other, a); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.Stat(a); now == nil || os.SameFile(open, now) {
		t.Error("a file renamed over the name is still the same file")
	}
}

// ReadFile on Windows, where the open cannot refuse a link and the Lstat
// before it does (noFollowOpen is false): a folder, a link out of the
// repository and a dangling link are refused, a link inside it is
// followed. There are no FIFOs in a Windows file system to refuse.
func TestWindowsReadFileRefusesWhatUnixRefuses(t *testing.T) {
	r := repotest.Lucid(t)
	plan := r.PlanPath()
	os.Remove(plan)
	if err := os.Mkdir(plan, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := gitstore.ReadFile(plan, gitstore.MaxPlan)
	var bad *gitstore.BadFileError
	if !errors.As(err, &bad) || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("a folder for the plan: %v", err)
	}
	os.Remove(plan)

	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("secret\n"), 0o644)
	if err := os.Symlink(secret, plan); err != nil {
		// Creating a symbolic link takes Developer Mode or an
		// administrator; git checks links out as plain files without.
		t.Skipf("no symbolic links here: %v", err)
	}
	if b, err := gitstore.ReadFile(plan, gitstore.MaxPlan); !errors.As(err, &bad) || len(b) > 0 {
		t.Errorf("a link out of the repository: read %q, %v; want a BadFileError", b, err)
	}
	if err := logstore.Append(plan, logformat.NewEntry(time.Now(), "a", logformat.KindFact, "lost?")); err == nil {
		t.Error("an append through a link out of the repository was acknowledged")
	}
	if b, _ := os.ReadFile(secret); string(b) != "secret\n" {
		t.Errorf("the file outside was written: %q", b)
	}
	os.Remove(plan)

	os.Symlink(filepath.Join(filepath.Dir(plan), "nowhere"), plan)
	if _, err := gitstore.ReadFile(plan, gitstore.MaxPlan); !errors.As(err, &bad) {
		t.Errorf("a dangling link: %v; want a BadFileError", err)
	}
	os.Remove(plan)

	os.WriteFile(r.Abs("PLAN.md"), []byte("# the plan\n"), 0o644)
	if err := os.Symlink(filepath.Join("..", "PLAN.md"), plan); err != nil {
		t.Fatal(err)
	}
	if b, err := gitstore.ReadFile(plan, gitstore.MaxPlan); err != nil || string(b) != "# the plan\n" {
		t.Errorf("a link inside the work tree: %q, %v", b, err)
	}
}
