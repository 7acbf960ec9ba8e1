package promises

import (
	"strings"
)

// git's whole-tree commands: what git would change before it runs is a
// write like any other, and no command drops the log's unsaved lines.
//
// gitWorld adds to a world: the owner's uncommitted work on src/a.go, a
// branch "feature" and a commit on it that change src/a.go, a branch
// "docs" that changes only docs/x.md, and an unsaved line in the log.
func gitWorld(w *world) {
	w.git("checkout", "-q", "-b", "feature")
	w.write("src/a.go", "package src // feature\n")
	w.git("commit", "-qam", "feature changes a.go")
	w.git("checkout", "-q", "main")
	w.git("checkout", "-q", "-b", "docs")
	w.write("docs/x.md", "x, documented\n")
	w.git("commit", "-qam", "docs")
	w.git("checkout", "-q", "main")
	w.write("src/a.go", "package src // the owner's work in progress\n")
	w.lucidOK([]string{"LUCID_AGENT=" + owner}, "fact", "an entry not yet committed")
}

// logSafe is the world with the log committed, so that only the claims
// are at stake.
func logSafe(w *world) {
	gitWorld(w)
	w.git("add", ".lucid")
	w.git("commit", "-qm", "lucid log")
}

func init() {
	claimed := func(cmd string, setup func(*world)) promise {
		return promise{name: cmd, try: func(w *world) string {
			setup(w)
			return denied(w.bash(w.repo, cmd), cmd+" beside the owner's uncommitted src/a.go")
		}}
	}
	add("git commands",
		claimed("git stash", logSafe),
		claimed("git stash -u", logSafe),
		claimed("git stash push -- src", logSafe),
		claimed("git checkout feature", logSafe),
		claimed("git switch feature", logSafe),
		claimed("git checkout -f docs", logSafe),
		claimed("git switch --discard-changes docs", logSafe),
		claimed("git reset --hard", logSafe),
		claimed("git reset --hard HEAD~0", logSafe),
		claimed("git checkout -- src", logSafe),
		claimed("git restore src/a.go", logSafe),
		promise{name: "git merge of a branch that changes a claimed file", try: func(w *world) string {
			logSafe(w)
			w.git("stash", "-q") // a clean tree, so the merge would run
			return denied(w.bash(w.repo, "git merge feature"), "git merge feature (it changes src/a.go)")
		}},
		promise{name: "git cherry-pick of a commit that changes a claimed file", try: func(w *world) string {
			logSafe(w)
			w.git("stash", "-q")
			return denied(w.bash(w.repo, "git cherry-pick feature"), "git cherry-pick feature (it changes src/a.go)")
		}},
		promise{name: "git revert of a commit that changed a claimed file", try: func(w *world) string {
			logSafe(w)
			w.git("stash", "-q")
			w.git("merge", "-q", "feature")
			return denied(w.bash(w.repo, "git revert --no-edit HEAD"), "git revert HEAD (it changes src/a.go)")
		}},
		promise{name: "git rebase onto a branch that changes a claimed file", try: func(w *world) string {
			logSafe(w)
			w.git("stash", "-q")
			return denied(w.bash(w.repo, "git rebase feature"), "git rebase feature (it changes src/a.go)")
		}},
		promise{name: "git pull while others hold claims here", try: func(w *world) string {
			logSafe(w)
			return denied(w.bash(w.repo, "git pull"), "git pull (what it fetches is not known before)")
		}},
		promise{name: "git stash pop of a stash that holds a claimed file", try: func(w *world) string {
			logSafe(w)
			w.git("stash", "-q")
			return denied(w.bash(w.repo, "git stash pop"), "git stash pop (the stash holds src/a.go)")
		}},
		promise{name: "git -C from the parent folder", try: func(w *world) string {
			logSafe(w)
			return denied(w.bash(w.parent, "git -C repo stash"), "git -C repo stash from the parent folder")
		}},
		promise{name: "a branch switch that touches no claimed file passes", try: func(w *world) string {
			logSafe(w)
			return allowed(w.bash(w.repo, "git checkout docs"), "git checkout docs (only docs/x.md differs)")
		}},
		promise{name: "a stash of free files with the log saved passes", try: func(w *world) string {
			logSafe(w)
			w.write("docs/x.md", "changed\n")
			return allowed(w.bash(w.repo, "git stash push -- docs"), "git stash push -- docs")
		}},
		promise{name: "git stash with unsaved log lines", try: func(w *world) string {
			gitWorld(w)
			w.git("checkout", "-q", "--", "src/a.go") // only the log is at stake
			a := w.bash(w.repo, "git stash")
			return first(denied(a, "git stash with unsaved lines in the log"), mentions(a, ".lucid"))
		}},
		promise{name: "git reset --hard with unsaved log lines", try: func(w *world) string {
			gitWorld(w)
			w.git("checkout", "-q", "--", "src/a.go")
			a := w.bash(w.repo, "git reset --hard")
			return first(denied(a, "git reset --hard with unsaved lines in the log"), mentions(a, ".lucid"))
		}},
		promise{name: "git checkout -f with unsaved log lines", try: func(w *world) string {
			gitWorld(w)
			w.git("checkout", "-q", "--", "src/a.go")
			return denied(w.bash(w.repo, "git checkout -f docs"), "git checkout -f docs with unsaved lines in the log")
		}},
		promise{name: "git clean -fdx before .lucid/ is committed", try: func(w *world) string {
			w.git("rm", "-q", "-r", "--cached", ".lucid")
			w.git("commit", "-qm", "lucid not yet committed")
			w.git("checkout", "-q", "--", ".")
			return denied(w.bash(w.repo, "git clean -fdx"), "git clean -fdx with .lucid/ untracked")
		}},
		promise{name: "the safe form of a stash passes", try: func(w *world) string {
			gitWorld(w)
			w.git("checkout", "-q", "--", "src/a.go")
			w.write("docs/x.md", "changed\n")
			return allowed(w.bash(w.repo, "git stash push -- ':!.lucid'"), "git stash push -- ':!.lucid'")
		}},
	)
}

// mentions is the defect of a denial that does not say what is at stake.
func mentions(a answer, what string) string {
	if a.deny && !strings.Contains(a.reason, what) {
		return "the denial does not name " + what + ": " + a.reason
	}
	return ""
}
