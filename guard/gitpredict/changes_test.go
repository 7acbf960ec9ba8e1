package gitpredict_test

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/guard/gitpredict"
	"github.com/lucid-dev/lucid/guard/shell"
	"github.com/lucid-dev/lucid/internal/shellword"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// gitRepo is a repository a case runs in: root/repo, its bare remote
// root/origin.git, and the linked work trees the case adds under root.
type gitRepo struct {
	t    testing.TB
	root string
	top  string
}

// newBaseRepo makes the repository every case starts from:
//
//	main:    a.txt b.txt sub/c.txt sub/d.txt docs/x.md docs/y.md .gitignore
//	         .lucid/log.jsonl .lucid/plan.md, then sub/c.txt changed
//	feature: from the first commit, a.txt and docs/x.md changed, b.txt
//	         deleted, e.txt added
//
// with origin/main and origin/topic (feature's commit) on the remote.
// With lucidCommitted false, .lucid/ is in the work tree but in no commit,
// as right after lucid init.
func newBaseRepo(t testing.TB, lucidCommitted bool) *gitRepo {
	root := t.TempDir()
	r := &gitRepo{t: t, root: root, top: filepath.Join(root, "repo")}
	gittest.Run(t, root, "init", "-q", "-b", "main", "repo")
	gittest.Run(t, root, "init", "-q", "--bare", "origin.git")
	for rel, content := range map[string]string{
		"a.txt": "a\n", "b.txt": "b\n", "sub/c.txt": "c\n", "sub/d.txt": "d\n",
		"docs/x.md": "x\n", "docs/y.md": "y\n", ".gitignore": "*.o\n/build/\n",
		".lucid/log.jsonl": `{"n":1}` + "\n", ".lucid/plan.md": "# Plan\n",
	} {
		r.write(rel, content)
	}
	if lucidCommitted {
		r.git("add", "-A")
	} else {
		r.git("add", "-A", "--", ".", ":!.lucid")
	}
	r.git("commit", "-q", "-m", "init")
	r.git("checkout", "-q", "-b", "feature")
	r.write("a.txt", "a feature\n")
	r.write("docs/x.md", "x feature\n")
	r.write("e.txt", "e\n")
	r.git("rm", "-q", "b.txt")
	r.git("add", "-A", "--", ".", ":!.lucid")
	r.git("commit", "-q", "-m", "feature")
	r.git("checkout", "-q", "main")
	r.write("sub/c.txt", "c main\n")
	r.git("commit", "-q", "-am", "main work")
	r.git("remote", "add", "origin", "../origin.git")
	r.git("push", "-q", "origin", "main", "feature:topic")
	r.git("fetch", "-q", "origin")
	r.git("branch", "-q", "-u", "origin/main")
	return r
}

// clone copies the repository into a new folder, so that each case starts
// from the same state without making it again.
func (r *gitRepo) clone(t testing.TB) *gitRepo {
	root := t.TempDir()
	err := filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(r.root, p)
		dst := filepath.Join(root, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	c := &gitRepo{t: t, root: root, top: filepath.Join(root, "repo")}
	// The copies' times differ from those in the index: without a refresh
	// git reset --keep takes them for local changes.
	c.git("update-index", "-q", "--refresh")
	return c
}

func (r *gitRepo) git(args ...string) string { return gittest.Run(r.t, r.top, args...) }

func (r *gitRepo) write(rel, content string) {
	p := filepath.Join(r.top, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// sh runs a shell command in the folder rel (to root) and reports whether
// it succeeded; a command that fails is often the point.
func (r *gitRepo) sh(rel, command string) (string, bool) {
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = filepath.Join(r.root, rel)
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

// mustSh runs a setup command, which must succeed.
func (r *gitRepo) mustSh(rel, command string) {
	r.t.Helper()
	if out, ok := r.sh(rel, command); !ok {
		r.t.Fatalf("%s: %s", command, out)
	}
}

// appendLog appends a line to the log of the work tree rel (to root), as
// an agent does, without committing it.
func (r *gitRepo) appendLog(rel, line string) {
	p := filepath.Join(r.root, rel, ".lucid", "log.jsonl")
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		r.t.Fatal(err)
	}
}

// logKept reports whether line is still in the log of work tree rel, or
// in a commit of a branch or of HEAD's history: a line only in a stash is
// lost, since applying the stash fails once another line is appended.
func (r *gitRepo) logKept(rel, line string) bool {
	if r.logHas(rel, line) {
		return true
	}
	commits := strings.Fields(r.git("rev-list", "--branches"))
	reflog := exec.Command("git", "log", "-g", "--format=%H", "HEAD") // none on an unborn branch
	reflog.Dir = r.top
	out, _ := reflog.Output()
	grep := exec.Command("git", append(append([]string{"grep", "-F", "-q", "-e", line}, append(commits, strings.Fields(string(out))...)...), "--", ".lucid/log.jsonl")...)
	grep.Dir = r.top
	return grep.Run() == nil
}

// logHas reports whether the log of work tree rel holds line.
func (r *gitRepo) logHas(rel, line string) bool {
	data, err := os.ReadFile(filepath.Join(r.root, rel, ".lucid", "log.jsonl"))
	return err == nil && strings.Contains(string(data), line)
}

// snapshot is the content of every file under root, but git's own.
func (r *gitRepo) snapshot() map[string][sha256.Size]byte {
	files := map[string][sha256.Size]byte{}
	err := filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.Name() == ".git" || d.Name() == "origin.git":
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir():
			return nil
		}
		data, err := os.ReadFile(p)
		files[p] = sha256.Sum256(data)
		return err
	})
	if err != nil {
		r.t.Fatal(err)
	}
	return files
}

// changedFiles is the files changed, created or deleted between two
// snapshots.
func changedFiles(before, after map[string][sha256.Size]byte) []string {
	var changed []string
	for p, h := range before {
		if a, ok := after[p]; !ok || a != h {
			changed = append(changed, p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			changed = append(changed, p)
		}
	}
	slices.Sort(changed)
	return changed
}

// covers reports whether path p is one of paths or lies under one.
func covers(paths []string, p string) bool {
	return slices.ContainsFunc(paths, func(q string) bool { return q == p || strings.HasPrefix(p, q+"/") })
}

// isolateGit keeps the machine's and the user's git configuration out of
// the commands the tests run and of Changes, which reads the environment.
func isolateGit(t testing.TB) {
	home := t.TempDir()
	for _, kv := range append(slices.Clone(gittest.Identity),
		"HOME="+home, "XDG_CONFIG_HOME="+home,
		"GIT_EDITOR=true", "GIT_SEQUENCE_EDITOR=true", "GIT_MERGE_AUTOEDIT=no",
		// A test's repository need not survive a power cut: without the
		// fsyncs git runs three times as fast.
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.fsync", "GIT_CONFIG_VALUE_0=none") {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// gitCase is one command run against a real repository: what Changes
// says of it beforehand must hold of what the command does.
type gitCase struct {
	name   string
	bare   bool                                     // .lucid/ in no commit yet
	setup  func(r *gitRepo)                         // branches, stashes, local changes; "marker" below is the log's uncommitted line
	dir    string                                   // where the command runs, relative to root; "repo" when empty
	cmd    string                                   // the command the agent runs, which shell.Analyze reads
	run    string                                   // what really runs, when an agent must append to the log while it does
	extra  []string                                 // files Changes names that the command leaves alone, as the rule of its subcommand says (relative to root)
	unsure bool                                     // Changes says Unknown
	loss   bool                                     // Changes says LogLoss
	logIn  string                                   // the work tree whose log holds the marker, relative to root; "repo" when empty
	after  func(t *testing.T, c gitpredict.Changes) // more checks of what Changes said
}

const marker = `{"agent":"marker"}`

// dirty gives the work tree uncommitted changes: a.txt changed, sub/d.txt
// changed and staged, u.txt untracked, x.o and build/out ignored, and the
// marker appended to the log.
func dirty(r *gitRepo) {
	r.write("a.txt", "a local\n")
	r.write("sub/d.txt", "d staged\n")
	r.git("add", "sub/d.txt")
	r.write("u.txt", "u\n")
	r.write("x.o", "obj\n")
	r.write("build/out", "out\n")
	r.appendLog("repo", marker)
}

// clash makes branch clash from main that changes a.txt, so that feature
// conflicts with it.
func clash(r *gitRepo) {
	r.mustSh("repo", `git checkout -q -b clash main && echo "a clash" > a.txt && git commit -q -am clash && git checkout -q main`)
}

// moved makes branch moved from main that renames docs/y.md to docs/z.md.
func moved(r *gitRepo) {
	r.mustSh("repo", "git checkout -q -b moved main && git mv docs/y.md docs/z.md && git commit -q -m moved && git checkout -q main")
}

func gitCases() []gitCase {
	appendAgent := `echo '{"agent":"meanwhile"}' >> .lucid/log.jsonl`
	return []gitCase{
		// git stash
		{name: "stash", setup: dirty, cmd: "git stash", loss: true},
		{name: "stash -u", setup: dirty, cmd: "git stash -u", loss: true},
		{name: "stash --all", setup: dirty, cmd: "git stash --all", loss: true},
		{name: "stash save", setup: dirty, cmd: `git stash save "before the rebase"`, loss: true},
		{name: "stash --keep-index", setup: dirty, cmd: "git stash push --keep-index -u", loss: true},
		{name: "stash --keep-index, the log staged", cmd: "git stash -k", setup: func(r *gitRepo) {
			dirty(r)
			r.git("add", ".lucid/log.jsonl") // the index keeps the line, and so does the file
		}},
		{name: "stash --staged", setup: dirty, cmd: "git stash push --staged"},
		{name: "stash of a folder", setup: dirty, cmd: "git stash push -u -- sub"},
		{name: "stash from a folder", setup: dirty, dir: "repo/sub", cmd: "git stash -u", loss: true},
		{name: "stash, .lucid left out", setup: dirty, dir: "repo/sub", cmd: "git stash push -u -- ':(top,exclude).lucid'"},
		{name: "stash -u, .lucid not committed", bare: true, setup: dirty, cmd: "git stash -u", loss: true},
		{name: "stash pop", cmd: "git stash pop", setup: func(r *gitRepo) {
			dirty(r)
			r.git("stash", "push", "-u", "--", ".", ":!.lucid")
			r.write("sub/c.txt", "c again\n")
			r.git("commit", "-q", "-am", "again")
		}},
		{name: "stash apply after the log moved on", cmd: "git stash apply", setup: func(r *gitRepo) {
			dirty(r)
			r.git("stash")
			r.appendLog("repo", `{"agent":"after the stash"}`)
		}, extra: []string{"repo/a.txt", "repo/sub/d.txt", "repo/.lucid/log.jsonl"}}, // git refuses: the log has local changes
		{name: "stash branch", cmd: "git stash branch fromstash", setup: func(r *gitRepo) {
			r.write("a.txt", "a local\n")
			r.git("stash")
			r.write("sub/c.txt", "c again\n")
			r.git("commit", "-q", "-am", "again")
		}},

		// branch switches
		{name: "checkout branch", cmd: "git checkout feature", setup: func(r *gitRepo) {
			r.write("sub/d.txt", "d local\n")
			r.appendLog("repo", marker)
		}},
		{name: "checkout of a rename", cmd: "git checkout moved", setup: moved},
		{name: "checkout -f", setup: dirty, cmd: "git checkout -f feature", loss: true},
		{name: "checkout -f of a branch named as a folder", setup: func(r *gitRepo) {
			r.git("branch", "sub", "feature") // git prefers the branch to the folder sub/
			dirty(r)
		}, cmd: "git checkout -f sub", loss: true},
		{name: "checkout -f HEAD", setup: dirty, cmd: "git checkout -f", loss: true},
		{name: "checkout -b from a commit", cmd: "git checkout -b new feature"},
		{name: "checkout --detach", cmd: "git checkout --detach HEAD~1"},
		{name: "checkout -", cmd: "git checkout -", setup: func(r *gitRepo) { r.git("checkout", "-q", "feature"); r.git("checkout", "-q", "main") }},
		{name: "checkout of a remote branch", cmd: "git checkout topic"},
		{name: "checkout of a branch that is not", cmd: "git checkout nosuch", unsure: true},
		{name: "checkout of a variable set in the line", cmd: `B=feature; git checkout "$B"`}, // the walk knows B
		{name: "checkout of a variable", cmd: `git checkout "$BRANCH"`, unsure: true},
		{name: "switch", cmd: "git switch feature", setup: func(r *gitRepo) { r.appendLog("repo", marker) }},
		{name: "switch -c", cmd: "git switch -c new origin/topic"},
		{name: "switch --discard-changes", setup: dirty, cmd: "git switch --discard-changes feature", loss: true},
		{name: "switch -f", setup: dirty, cmd: "git switch -f feature", loss: true},
		{name: "switch --orphan", cmd: "git switch --orphan fresh"},
		{name: "checkout -f, .lucid not committed", bare: true, setup: dirty, cmd: "git checkout -f feature"},

		// path forms that leave the files to git
		{name: "checkout .", setup: dirty, cmd: "git checkout .", loss: true},
		{name: "checkout a folder from a branch", setup: dirty, cmd: "git checkout feature -- docs"},
		{name: "restore --source of the top", setup: dirty, cmd: "git restore --source=feature .", loss: true},
		{name: "restore --source of a folder", setup: dirty, dir: "repo/sub", cmd: "git restore -s HEAD~1 ."},
		{name: "restore of a glob", setup: dirty, cmd: "git restore '*.txt'"},

		// merge
		{name: "merge", cmd: "git merge --no-edit feature", setup: func(r *gitRepo) {
			r.write("u.txt", "u\n")
			r.appendLog("repo", marker)
		}},
		{name: "merge with a conflict", cmd: "git merge --no-edit feature", setup: clash, dir: "repo"},
		{name: "merge --abort", cmd: "git merge --abort", setup: func(r *gitRepo) {
			clash(r)
			r.git("checkout", "-q", "clash")
			r.sh("repo", "git merge --no-edit feature")
			r.appendLog("repo", marker)
		}},
		{name: "merge --autostash", cmd: "git merge --autostash --no-edit clash", setup: func(r *gitRepo) {
			clash(r)
			r.git("checkout", "-q", "feature")
			r.appendLog("repo", marker)
		}, run: "git merge --autostash --no-edit clash; " + appendAgent + "; git checkout --theirs -- a.txt && git add a.txt && git commit -q --no-edit",
			loss: true},
		{name: "merge with merge.autoStash", cmd: "git merge --no-edit clash", setup: func(r *gitRepo) {
			clash(r)
			r.git("config", "merge.autoStash", "true")
			r.git("checkout", "-q", "feature")
			r.appendLog("repo", marker)
		}, run: "git merge --no-edit clash; " + appendAgent + "; git checkout --theirs -- a.txt && git add a.txt && git commit -q --no-edit",
			loss: true},

		// cherry-pick and revert
		{name: "cherry-pick", cmd: "git cherry-pick feature"},
		{name: "cherry-pick of a range", cmd: "git cherry-pick main..two", setup: func(r *gitRepo) {
			r.mustSh("repo", `git checkout -q -b two main && echo t > t.txt && git add t.txt && git commit -q -m t && echo c2 > sub/c.txt && git commit -q -am c2 && git checkout -q feature`)
		}},
		{name: "revert", cmd: "git revert --no-edit HEAD"},
		{name: "cherry-pick --abort", cmd: "git cherry-pick --abort", setup: func(r *gitRepo) {
			clash(r)
			r.git("checkout", "-q", "clash")
			r.sh("repo", "git cherry-pick feature")
			r.appendLog("repo", marker)
		}},
		{name: "cherry-pick --continue", cmd: "git cherry-pick --continue", setup: func(r *gitRepo) {
			clash(r)
			r.mustSh("repo", `git checkout -q -b two main && echo t > t.txt && git add t.txt && git commit -q -m t && git checkout -q clash`)
			r.sh("repo", "git cherry-pick feature two")
			r.mustSh("repo", "git checkout --theirs -- . && git add -A")
		}},
		{name: "cherry-pick --skip", cmd: "git cherry-pick --skip", setup: func(r *gitRepo) {
			clash(r)
			r.mustSh("repo", `git checkout -q -b two main && echo t > t.txt && git add t.txt && git commit -q -m t && git checkout -q clash`)
			r.sh("repo", "git cherry-pick feature two")
			r.appendLog("repo", marker)
		}},

		// rebase
		{name: "rebase", cmd: "git rebase main", setup: func(r *gitRepo) { r.git("checkout", "-q", "feature") }},
		{name: "rebase --onto", cmd: "git rebase --onto main feature topic2", setup: func(r *gitRepo) {
			r.mustSh("repo", `git checkout -q -b topic2 feature && echo t > t.txt && git add t.txt && git commit -q -m t`)
		}, extra: []string{"repo/t.txt"}}, // replayed: the same again
		{name: "rebase -i", cmd: "git rebase -i main", setup: func(r *gitRepo) { r.git("checkout", "-q", "feature") },
			extra: []string{"repo/a.txt", "repo/b.txt", "repo/docs/x.md", "repo/e.txt"}}, // replayed
		{name: "rebase on the upstream", cmd: "git rebase", setup: func(r *gitRepo) {
			r.git("checkout", "-q", "-b", "mine", "origin/main")
			r.write("m.txt", "m\n")
			r.git("add", "m.txt")
			r.git("commit", "-q", "-m", "m")
			r.mustSh("repo", `git checkout -q -b up main && echo up > up.txt && git add up.txt && git commit -q -m up && git push -q origin up:main && git checkout -q mine && git branch -q -D up`)
		}, extra: []string{"repo/m.txt"}},
		{name: "rebase of a dirty tree", cmd: "git rebase main", setup: func(r *gitRepo) {
			r.git("checkout", "-q", "feature")
			r.appendLog("repo", marker)
		}, extra: []string{"repo/sub/c.txt"}}, // git refuses
		{name: "rebase --autostash", cmd: "git rebase --autostash main", setup: func(r *gitRepo) {
			r.git("checkout", "-q", "feature")
			r.appendLog("repo", marker)
		}, run: `git rebase --autostash --exec "` + strings.ReplaceAll(appendAgent, `"`, `\"`) + `" main`,
			loss: true},
		{name: "rebase with rebase.autoStash", cmd: "git rebase main", setup: func(r *gitRepo) {
			r.git("config", "rebase.autoStash", "true")
			r.git("checkout", "-q", "feature")
			r.appendLog("repo", marker)
		}, run: `git rebase --exec "` + strings.ReplaceAll(appendAgent, `"`, `\"`) + `" main`,
			loss: true},
		{name: "rebase --abort", cmd: "git rebase --abort", setup: func(r *gitRepo) {
			clash(r)
			r.git("checkout", "-q", "feature")
			r.sh("repo", "git rebase clash")
			r.appendLog("repo", marker)
		}, loss: true},
		{name: "rebase --skip", cmd: "git rebase --skip", setup: func(r *gitRepo) {
			clash(r)
			r.git("checkout", "-q", "feature")
			r.sh("repo", "git rebase clash")
			r.appendLog("repo", marker)
		}, loss: true},
		{name: "rebase --continue", cmd: "git rebase --continue", setup: func(r *gitRepo) {
			clash(r)
			r.mustSh("repo", `git checkout -q -b two feature && echo t > t.txt && git add t.txt && git commit -q -m t`)
			r.sh("repo", "git rebase clash")
			r.mustSh("repo", "git checkout --theirs -- a.txt && git add a.txt")
		}},

		// pull
		{name: "pull", cmd: "git pull", unsure: true, setup: func(r *gitRepo) { r.appendLog("repo", marker) }},
		{name: "pull --rebase --autostash", cmd: "git pull --rebase --autostash", unsure: true, setup: func(r *gitRepo) {
			r.mustSh("repo", `git checkout -q -b up main && echo "a up" > a.txt && git commit -q -am up && git push -q origin up:main && git checkout -q main && git branch -q -D up`)
			r.write("a.txt", "a mine\n")
			r.git("commit", "-q", "-am", "mine")
			r.appendLog("repo", marker)
		}, run: "git pull --rebase --autostash; " + appendAgent + "; git checkout --theirs -- a.txt && git add a.txt && git rebase --continue",
			loss: true},

		// reset
		{name: "reset --hard", setup: dirty, cmd: "git reset --hard", loss: true},
		{name: "reset --hard to a commit", setup: dirty, cmd: "git reset --hard HEAD~1", loss: true},
		{name: "reset --hard, the log committed", cmd: "git reset --hard HEAD~1", setup: func(r *gitRepo) { r.write("a.txt", "a local\n") }},
		{name: "reset --hard, .lucid not committed", bare: true, setup: dirty, cmd: "git reset --hard"},
		{name: "reset --merge, the log staged", cmd: "git reset --merge", setup: func(r *gitRepo) {
			dirty(r)
			r.git("add", ".lucid/log.jsonl")
		}, loss: true},
		{name: "reset --keep", setup: func(r *gitRepo) { r.appendLog("repo", marker) }, cmd: "git reset --keep HEAD~1"},

		// clean
		{name: "clean -fdx", setup: dirty, cmd: "git clean -fdx"},
		{name: "clean -fdx, .lucid not committed", bare: true, setup: dirty, cmd: "git clean -fdx", loss: true},
		{name: "clean -fd, .lucid not committed", bare: true, setup: dirty, cmd: "git clean -fd", loss: true},
		{name: "clean -f, .lucid not committed", bare: true, setup: dirty, cmd: "git clean -f"},
		{name: "clean -fdX, .lucid ignored", bare: true, setup: func(r *gitRepo) {
			dirty(r)
			r.write(".gitignore", "*.o\n/build/\n.lucid/\n")
		}, cmd: "git clean -fdX", loss: true},
		{name: "clean of a folder", setup: func(r *gitRepo) { dirty(r); r.write("sub/new.txt", "n\n") }, cmd: "git clean -f sub"},
		{name: "clean from a folder", bare: true, setup: func(r *gitRepo) { dirty(r); r.write("sub/new.txt", "n\n") }, dir: "repo/sub", cmd: "git clean -fdx"},

		// apply and am
		{name: "apply", cmd: "git apply ../p.patch", setup: func(r *gitRepo) { r.mustSh("repo", "git diff main feature > ../p.patch") }},
		{name: "apply of a rename", cmd: "git apply ../p.patch", setup: func(r *gitRepo) {
			moved(r)
			r.mustSh("repo", "git diff -M main moved > ../p.patch && grep -q '^rename from' ../p.patch")
		}},
		{name: "apply -R", cmd: "git apply -R ../p.patch", setup: func(r *gitRepo) { r.mustSh("repo", "git diff feature main > ../p.patch") }},
		{name: "apply in a folder", dir: "repo/docs", cmd: "git apply ../../p.patch", setup: func(r *gitRepo) { r.mustSh("repo", "git diff main feature > ../p.patch") }},
		{name: "apply from standard input", cmd: "git apply < ../p.patch", unsure: true, setup: func(r *gitRepo) { r.mustSh("repo", "git diff main feature > ../p.patch") }},
		{name: "am", cmd: "git am ../0001-feature.patch", setup: func(r *gitRepo) { r.mustSh("repo", "git format-patch -q -o .. main..feature") }},
		{name: "am from a folder", dir: "repo/sub", cmd: "git am ../../0001-feature.patch", setup: func(r *gitRepo) { r.mustSh("repo", "git format-patch -q -o .. main..feature") }},

		// plumbing
		{name: "read-tree --reset -u", setup: dirty, cmd: "git read-tree --reset -u feature", loss: true},
		{name: "read-tree -m -u", setup: func(r *gitRepo) { r.appendLog("repo", marker) }, cmd: "git read-tree -m -u HEAD feature"},
		{name: "checkout-index -f -a", setup: dirty, cmd: "git checkout-index -f -a", loss: true},
		{name: "checkout-index -a", cmd: "git checkout-index -a", setup: func(r *gitRepo) {
			dirty(r)
			os.Remove(filepath.Join(r.top, "b.txt"))
		}},

		// linked work trees
		{name: "worktree remove --force", dir: "repo", cmd: "git worktree remove --force ../wt", logIn: "wt", setup: func(r *gitRepo) {
			r.git("worktree", "add", "-q", "../wt", "feature")
			r.appendLog("wt", marker)
		}, loss: true, after: func(t *testing.T, c gitpredict.Changes) {
			if !strings.Contains(c.LogLoss, "/wt") {
				t.Errorf("the advice commits in the removed work tree: %s", c.LogLoss)
			}
		}},
		{name: "stash in a linked work tree", dir: "wt", cmd: "git stash", logIn: "wt", setup: func(r *gitRepo) {
			r.git("worktree", "add", "-q", "../wt", "feature")
			os.WriteFile(filepath.Join(r.root, "wt", "a.txt"), []byte("a wt\n"), 0o644)
			r.appendLog("wt", marker)
		}, loss: true, after: func(t *testing.T, c gitpredict.Changes) {
			if !strings.HasSuffix(c.Top, "/wt") {
				t.Errorf("Top is %s, want the linked work tree", c.Top)
			}
		}},
		{name: "checkout in a linked work tree", dir: "wt/sub", cmd: "git checkout -f --detach main", logIn: "wt", setup: func(r *gitRepo) {
			r.git("worktree", "add", "-q", "../wt", "feature")
			r.appendLog("wt", marker)
		}, loss: true},
	}
}

// TestGitChanges runs each command in a repository of its own, after
// asking Changes about it: every file the command changes must be in
// Paths, and Paths holds no other file but those the case names (each as
// the doc comment of its subcommand's rule says). A command said to lose
// the log's line loses it, one not said to keeps it, and the safe form the
// LogLoss message gives keeps it and does the rest of the work alike.
func TestGitChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("runs some 1,500 git processes")
	}
	isolateGit(t)
	bases := map[bool]*gitRepo{true: newBaseRepo(t, true), false: newBaseRepo(t, false)}
	for _, c := range gitCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := bases[!c.bare].clone(t)
			if c.setup != nil {
				c.setup(r)
			}
			dir := or(c.dir, "repo")
			got := changesOf(t, c.cmd, filepath.Join(r.root, dir))
			if (got.Unknown != "") != c.unsure {
				t.Errorf("Unknown = %q, want it set: %v", got.Unknown, c.unsure)
			}
			if (got.LogLoss != "") != c.loss {
				t.Errorf("LogLoss = %q, want it set: %v", got.LogLoss, c.loss)
			}
			if c.after != nil {
				c.after(t, got)
			}
			logDir := or(c.logIn, "repo")
			logged := r.logHas(logDir, marker)
			before := r.snapshot()
			out, _ := r.sh(dir, or(c.run, c.cmd))
			changed := changedFiles(before, r.snapshot())
			if !c.unsure { // Paths is what could be found
				checkPaths(t, r, got, changed, c.extra, out)
			}
			if kept := r.logKept(logDir, marker); logged && kept == c.loss {
				t.Errorf("the log's uncommitted line kept: %v, but LogLoss = %q\n%s", kept, got.LogLoss, out)
			}
			if c.loss {
				checkSafeForm(t, bases[!c.bare], c, got.LogLoss, changed, r.root)
			}
		})
	}
}

// or is s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// changesOf reads command as the PreToolUse hook does and asks Changes
// about each git command in it, as one.
func changesOf(t *testing.T, command, dir string) gitpredict.Changes {
	t.Helper()
	a := shell.Analyze(command, dir)
	if len(a.Git) == 0 {
		t.Fatalf("%s: no git op", command)
	}
	var all gitpredict.Changes
	for _, op := range a.Git {
		c, err := op.Changes()
		if err != nil {
			t.Fatalf("%s: %v", command, err)
		}
		all.Top = c.Top
		all.Paths = append(all.Paths, c.Paths...)
		all.Unknown = or(all.Unknown, c.Unknown)
		all.LogLoss = or(all.LogLoss, c.LogLoss)
	}
	return all
}

// checkPaths: no file the command changed is missing from Paths, and
// Paths has no other file than extra.
func checkPaths(t *testing.T, r *gitRepo, got gitpredict.Changes, changed, extra []string, out string) {
	t.Helper()
	for _, p := range changed {
		if !covers(got.Paths, p) {
			t.Errorf("missed %s (Paths %q)\n%s", p, got.Paths, out)
		}
	}
	for _, p := range got.Paths {
		rel, _ := filepath.Rel(r.root, p)
		used := slices.ContainsFunc(changed, func(c string) bool { return c == p || strings.HasPrefix(c, p+"/") })
		if !used && !slices.Contains(extra, rel) {
			t.Errorf("%s is in Paths, but the command left it alone\n%s", rel, out)
		}
		if used && slices.Contains(extra, rel) {
			t.Errorf("%s is listed as extra, but the command changed it", rel)
		}
	}
}

// checkSafeForm runs, in a repository set up alike, the command the
// LogLoss message says to run instead: it must succeed, keep the log's
// line, and change the other files as the command did.
func checkSafeForm(t *testing.T, base *gitRepo, c gitCase, msg string, changed []string, oldRoot string) {
	t.Helper()
	_, safe, ok := strings.Cut(msg, "Run instead: `")
	safe, _, ok2 := strings.Cut(safe, "`")
	if !ok || !ok2 {
		t.Fatalf("no command to run instead in %q", msg)
	}
	r := base.clone(t)
	if c.setup != nil {
		c.setup(r)
	}
	dir := or(c.dir, "repo")
	// The message names the first repository's folders.
	safe = strings.ReplaceAll(safe, oldRoot, r.root)
	if c.run != "" {
		// An agent appends to the log while the command runs.
		op := shell.Analyze(c.cmd, filepath.Join(r.root, dir)).Git[0]
		orig := shellword.Join(append([]string{"git", "-C", op.Dir}, op.Args...))
		if !strings.Contains(safe, orig) {
			t.Fatalf("%q does not run %q", safe, orig)
		}
		safe = strings.Replace(safe, orig, "{ "+c.run+"; }", 1)
	}
	before := r.snapshot()
	if out, ok := r.sh(dir, safe); !ok && c.run == "" {
		t.Fatalf("%s failed:\n%s", safe, out)
	}
	if !r.logKept(or(c.logIn, "repo"), marker) {
		t.Errorf("%s lost the log's line", safe)
	}
	if c.run != "" {
		return // an agent appended meanwhile: the rest differs by that
	}
	outside := func(root string, paths []string) []string {
		var rest []string
		for _, p := range paths {
			rel, _ := filepath.Rel(root, p)
			if !strings.Contains(rel, ".lucid") {
				rest = append(rest, rel)
			}
		}
		return rest
	}
	if want, got := outside(oldRoot, changed), outside(r.root, changedFiles(before, r.snapshot())); !slices.Equal(want, got) {
		t.Errorf("%s changed %q, the command %q", safe, got, want)
	}
}

// BenchmarkGitChanges times Changes on commands agents run, in a small
// repository with local changes: mostly the git processes it starts.
func BenchmarkGitChanges(b *testing.B) {
	isolateGit(b)
	r := newBaseRepo(b, true)
	dirty(r)
	for _, command := range []string{
		"git stash", "git stash -u", "git checkout feature", "git checkout -f feature", "git merge feature",
		"git rebase feature", "git reset --hard", "git reset --hard HEAD~1", "git clean -fdx", "git checkout .",
		"git cherry-pick feature", "git pull --rebase",
	} {
		op := shell.Analyze(command, r.top).Git[0]
		b.Run(command, func(b *testing.B) {
			for b.Loop() {
				if _, err := op.Changes(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
