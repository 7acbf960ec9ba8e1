package remoteclaims

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
)

// gitRepo makes a git repository with git init and the extra arguments.
func gitRepo(t *testing.T, args ...string) *gitstore.Repo {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("git", append([]string{"init", "-q"}, append(args, dir)...)...).CombinedOutput()
	if err != nil {
		t.Skipf("git init %v: %v: %s", args, err, out)
	}
	repo, err := gitstore.Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

func gitOut(t *testing.T, repo *gitstore.Repo, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = repo.Top
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// The objects written here are the objects git writes: the same ids as git
// hash-object, readable by git cat-file, and sound to git fsck, in SHA-1
// and in SHA-256 repositories; a blob larger than one stored deflate block
// too.
func TestObjectsAsGitWritesThem(t *testing.T) {
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			repo := gitRepo(t, "--object-format="+format)
			at := time.UnixMilli(1764662400123)
			if _, err := Machine(repo); err != nil {
				t.Fatal(err)
			}
			claims := []claimstore.Claim{
				{ID: "01KBZZZZZZZZZZZZZZZZZZZZZ2", Owner: agentstore.AgentHuman, Machine: KnownMachine(repo), Worktree: repo.Top, Globs: []string{"src/**"},
					Task: "b", Created: at, Expires: at.Add(time.Hour)},
				{ID: "01KBZZZZZZZZZZZZZZZZZZZZZ1", Owner: "s/a", Machine: "0123456789ab@elsewhere", Worktree: "/w", Globs: []string{"docs/*.md", "x"},
					Task: strings.Repeat("long task ", 20000), Created: at, Expires: at.Add(2 * time.Hour)},
			}
			commit, err := writeClaimsCommit(repo, claims, "", "claim things", at)
			if err != nil {
				t.Fatal(err)
			}
			if got := gitOut(t, repo, "", "cat-file", "-t", commit); got != "commit" {
				t.Fatalf("cat-file -t %s: %s", commit, got)
			}
			gitOut(t, repo, "", "update-ref", "refs/test", commit)
			gitOut(t, repo, "", "fsck", "--strict", "--no-dangling")
			names := gitOut(t, repo, "", "ls-tree", "--name-only", commit)
			if names != "01KBZZZZZZZZZZZZZZZZZZZZZ1.json\n01KBZZZZZZZZZZZZZZZZZZZZZ2.json" {
				t.Errorf("tree: %q", names)
			}
			data, _ := encodeRemoteClaim(claims[1])
			if want := gitOut(t, repo, string(data), "hash-object", "--stdin"); gitOut(t, repo, "", "rev-parse", commit+":01KBZZZZZZZZZZZZZZZZZZZZZ1.json") != want {
				t.Errorf("the blob's id is not git's %s", want)
			}
			if got := gitOut(t, repo, "", "log", "-1", "--format=%an <%ae>%n%s", commit); got != "lucid <"+KnownMachine(repo)+">\nclaim things" {
				t.Errorf("commit: %q", got)
			}

			o, err := openObjects(repo)
			if err != nil {
				t.Fatal(err)
			}
			defer o.close()
			hashLen, _ := hashLen(repo)
			got, err := readClaimsCommit(o, "origin", commit, hashLen)
			if err != nil {
				t.Fatal(err)
			}
			want := []claimstore.Claim{claims[1], claims[0]}
			for i := range got {
				if !got[i].Created.Equal(want[i].Created) || !got[i].Expires.Equal(want[i].Expires) {
					t.Errorf("claim %d times %v %v", i, got[i].Created, got[i].Expires)
				}
				got[i].Created, got[i].Expires = want[i].Created, want[i].Expires
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("read back:\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

// Whatever the ref holds that is not a claims commit is a BadRefError that
// says what is wrong.
func TestReadClaimsCommitRefuses(t *testing.T) {
	repo := gitRepo(t)
	t.Setenv("GIT_AUTHOR_NAME", "t")
	t.Setenv("GIT_AUTHOR_EMAIL", "t@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "t")
	t.Setenv("GIT_COMMITTER_EMAIL", "t@example.com")
	blob := func(s string) string { return gitOut(t, repo, s, "hash-object", "-w", "--stdin") }
	commitOf := func(tree string) string { return gitOut(t, repo, "x", "commit-tree", tree) }
	tree := func(lines ...string) string { return gitOut(t, repo, strings.Join(lines, "\n")+"\n", "mktree") }
	good := `{"id":"A","owner":"o","machine":"m","worktree":"/w","globs":["a"],"task":"t","created":"2026-01-01T00:00:00.000Z","expires":"2026-01-01T01:00:00.000Z"}`
	sub := tree("100644 blob " + blob(good) + "\tA.json")
	cases := map[string]string{
		"it points to a blob, not a commit":                   blob("hello"),
		"it points to a tree, not a commit":                   sub,
		"its tree holds README.md, which is not a claim file": commitOf(tree("100644 blob " + blob("hi") + "\tREADME.md")),
		"its tree holds dir, which is not a claim file":       commitOf(tree("040000 tree " + sub + "\tdir")),
		"B.json does not parse as JSON":                       commitOf(tree("100644 blob " + blob("{nope") + "\tB.json")),
		`B.json holds the claim id "A"`:                       commitOf(tree("100644 blob " + blob(good) + "\tB.json")),
		"A.json lacks an owner, a machine or globs":           commitOf(tree("100644 blob " + blob(strings.Replace(good, `["a"]`, `[]`, 1)) + "\tA.json")),
		"A.json has a created or expires time":                commitOf(tree("100644 blob " + blob(strings.Replace(good, `2026-01-01T01`, `soon`, 1)) + "\tA.json")),
	}
	o, err := openObjects(repo)
	if err != nil {
		t.Fatal(err)
	}
	defer o.close()
	for want, oid := range cases {
		_, err := readClaimsCommit(o, "origin", oid, 20)
		be, ok := err.(*BadRefError)
		if !ok || !strings.Contains(be.Error(), want) || !strings.Contains(be.Error(), "git push origin :refs/lucid/claims") {
			t.Errorf("%s: %v", want, err)
		}
	}
	if claims, err := readClaimsCommit(o, "origin", commitOf(sub), 20); err != nil || len(claims) != 1 || claims[0].ID != "A" {
		t.Errorf("the good commit: %v, %v", claims, err)
	}
}

// One machine identity per clone, made once, even by processes racing.
func TestMachine(t *testing.T) {
	repo := &gitstore.Repo{Top: t.TempDir(), CommonDir: t.TempDir()}
	if KnownMachine(repo) != "" {
		t.Fatal("a machine before any was made")
	}
	ids := make(chan string, 8)
	for range 8 {
		go func() {
			m, err := Machine(repo)
			if err != nil {
				t.Error(err)
			}
			ids <- m
		}()
	}
	first := <-ids
	for range 7 {
		if m := <-ids; m != first {
			t.Errorf("two identities: %s and %s", first, m)
		}
	}
	id, host, ok := strings.Cut(first, "@")
	if !ok || len(id) != 12 || host == "" {
		t.Errorf("identity %q", first)
	}
	if got := MachineLabel(first); got != host+" ("+id[:6]+")" {
		t.Errorf("label %q", got)
	}
	matches, _ := filepath.Glob(filepath.Join(repo.CommonDir, "lucid", "*"))
	if len(matches) != 1 {
		t.Errorf("files left: %v", matches)
	}
}

// In a repository shared with a group, the object folders the remote's
// writer makes are the group's to write, as git's own are: another user of
// the group must be able to add objects beside them.
func TestObjectsKeepSharedRepository(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no group permissions on Windows")
	}
	repo := gitRepo(t, "--shared=group")
	if _, err := Machine(repo); err != nil {
		t.Fatal(err)
	}
	objects := filepath.Join(repo.CommonDir, "objects")
	before := map[string]bool{}
	entries, _ := os.ReadDir(objects)
	for _, e := range entries {
		before[e.Name()] = true
	}
	at := time.UnixMilli(1764662400123)
	claims := []claimstore.Claim{{ID: "01KBZZZZZZZZZZZZZZZZZZZZZ1", Owner: agentstore.AgentHuman, Machine: KnownMachine(repo), Worktree: repo.Top,
		Globs: []string{"src/**"}, Task: "t", Created: at, Expires: at.Add(time.Hour)}}
	commit, err := writeClaimsCommit(repo, claims, "", "claim", at)
	if err != nil {
		t.Fatal(err)
	}
	gitOut(t, repo, "", "cat-file", "-e", commit)
	entries, err = os.ReadDir(objects)
	if err != nil {
		t.Fatal(err)
	}
	made := 0
	for _, e := range entries {
		if before[e.Name()] || !e.IsDir() {
			continue
		}
		made++
		fi, err := os.Stat(filepath.Join(objects, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o070 != 0o070 {
			t.Errorf("objects/%s is %v: the group cannot write it", e.Name(), fi.Mode().Perm())
		}
	}
	if made == 0 {
		t.Fatal("no object folder was made")
	}
}

// BenchmarkWriteClaimsCommit is the object writing of a lucid claim through
// the remote: three objects (a blob, the tree, the commit) stored.
func BenchmarkWriteClaimsCommit(b *testing.B) {
	dir := b.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		b.Skipf("git init: %v: %s", err, out)
	}
	repo, err := gitstore.Find(dir)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := Machine(repo); err != nil {
		b.Fatal(err)
	}
	at := time.UnixMilli(1764662400123)
	for i := 0; b.Loop(); i++ {
		claims := []claimstore.Claim{{ID: "01KBZZZZZZZZZZZZZZZZZZZZZ1", Owner: "s/a", Machine: KnownMachine(repo), Worktree: repo.Top,
			Globs: []string{"src/**"}, Task: fmt.Sprint("task ", i), Created: at, Expires: at.Add(time.Hour)}}
		if _, err := writeClaimsCommit(repo, claims, "", "claim", at); err != nil {
			b.Fatal(err)
		}
	}
}
