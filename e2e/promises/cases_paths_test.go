package promises

import (
	"os"
	"path/filepath"
	"strings"
)

// Path forms: a claimed file is the same file however the path to it is
// written, and wherever the session runs.
func init() {
	write := func(p string) map[string]any { return map[string]any{"file_path": p, "content": "x\n"} }
	edit := func(p string) map[string]any {
		return map[string]any{"file_path": p, "old_string": "package", "new_string": "package"}
	}
	add("path forms",
		promise{name: "Write by absolute path from the work tree", try: func(w *world) string {
			return denied(w.pre(w.repo, "Write", write(w.path("src/a.go"))), "a Write of src/a.go")
		}},
		promise{name: "Write from the parent folder", try: func(w *world) string {
			return denied(w.pre(w.parent, "Write", write(w.path("src/a.go"))), "a Write of src/a.go from the parent folder")
		}},
		promise{name: "Edit from the parent folder", try: func(w *world) string {
			return denied(w.pre(w.parent, "Edit", edit(w.path("src/a.go"))), "an Edit of src/a.go from the parent folder")
		}},
		promise{name: "NotebookEdit from the parent folder", try: func(w *world) string {
			return denied(w.pre(w.parent, "NotebookEdit", map[string]any{"notebook_path": w.path("src/n.ipynb"), "new_source": "x"}), "a NotebookEdit in src/ from the parent folder")
		}},
		promise{name: "Write from an unrelated folder", try: func(w *world) string {
			return denied(w.pre(os.TempDir(), "Write", write(w.path("src/a.go"))), "a Write of src/a.go from /tmp")
		}},
		promise{name: "shell from the parent folder, relative path", try: func(w *world) string {
			return denied(w.bash(w.parent, "echo x >> repo/src/a.go"), "echo x >> repo/src/a.go from the parent folder")
		}},
		promise{name: "shell from another folder, absolute path", try: func(w *world) string {
			return denied(w.bash(os.TempDir(), "echo x >> "+w.path("src/a.go")), "an append by absolute path from /tmp")
		}},
		promise{name: "shell from a nested repository", try: func(w *world) string {
			w.mkdir(w.path("vendor/lib"))
			w.sh(w.path("vendor/lib"), "git init -q")
			return denied(w.bash(w.path("vendor/lib"), "echo x >> ../../src/a.go"), "echo x >> ../../src/a.go from a nested repository")
		}},
		promise{name: "Write from a nested repository", try: func(w *world) string {
			w.mkdir(w.path("vendor/lib"))
			w.sh(w.path("vendor/lib"), "git init -q")
			return denied(w.pre(w.path("vendor/lib"), "Write", write(w.path("src/a.go"))), "a Write of src/a.go from a nested repository")
		}},
		promise{name: "a branch without .lucid/ checked out", try: func(w *world) string {
			w.git("checkout", "-q", "-b", "old")
			w.git("rm", "-q", "-r", ".lucid")
			w.git("commit", "-qm", "before lucid")
			return denied(w.pre(w.repo, "Write", write(w.path("src/a.go"))), "a Write of src/a.go on a branch without .lucid/")
		}},
		promise{name: "a linked work tree from before lucid: the edit passes with a warning", try: func(w *world) string {
			w.git("checkout", "-q", "-b", "old")
			w.git("rm", "-q", "-r", ".lucid")
			w.git("commit", "-qm", "before lucid")
			w.git("checkout", "-q", "main")
			wt := filepath.Join(w.parent, "wt")
			w.git("worktree", "add", "-q", wt, "old")
			a := w.pre(wt, "Write", write(filepath.Join(wt, "src/a.go")))
			if a.deny || !strings.Contains(a.context, "claimed in the work tree") {
				return "a Write in a linked work tree from before lucid got no warning of the claim: " + a.raw
			}
			return ""
		}},
		promise{name: "a link to a folder, then ..", try: func(w *world) string {
			os.Symlink("src/deep", w.path("deep"))
			return denied(w.bash(w.repo, "echo x >> deep/../a.go"), "echo x >> deep/../a.go (deep a link to src/deep)")
		}},
		promise{name: "a dangling link to a claimed path", try: func(w *world) string {
			os.Symlink("src/new.go", w.path("l"))
			return denied(w.bash(w.repo, "echo x > l"), "echo x > l (a dangling link to src/new.go)")
		}},
		promise{name: "Write through a linked folder", try: func(w *world) string {
			os.Symlink("src", w.path("lnk"))
			return denied(w.pre(w.repo, "Write", write(w.path("lnk/a.go"))), "a Write of lnk/a.go (lnk a link to src)")
		}},
		promise{name: "a path with . and //", try: func(w *world) string {
			return denied(w.bash(w.repo, "echo x >> ./src//./a.go"), "echo x >> ./src//./a.go")
		}},
		promise{name: "Codex apply_patch from the parent folder", try: func(w *world) string {
			out, _ := w.hook("codex", "PreToolUse", map[string]any{"session_id": codexSession, "turn_id": "t", "cwd": w.parent,
				"hook_event_name": "PreToolUse", "tool_name": "apply_patch", "tool_use_id": "c1",
				"tool_input": map[string]any{"command": "*** Begin Patch\n*** Update File: repo/src/a.go\n@@\n-package src\n+package src // x\n*** End Patch\n"}})
			return denied(parseAnswer(out), "Codex's apply_patch of repo/src/a.go from the parent folder")
		}},
		promise{name: "Codex shell from the parent folder", try: func(w *world) string {
			out, _ := w.hook("codex", "PreToolUse", map[string]any{"session_id": codexSession, "turn_id": "t", "cwd": w.parent,
				"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "c1",
				"tool_input": map[string]any{"command": "echo x >> repo/src/a.go"}})
			return denied(parseAnswer(out), "Codex's echo x >> repo/src/a.go from the parent folder")
		}},
		promise{name: "Gemini write_file from the parent folder", try: func(w *world) string {
			out, _ := w.hook("gemini", "BeforeTool", map[string]any{"session_id": "55582cb0-7a99-4b29-938f-6edbd0df9030", "cwd": w.parent,
				"hook_event_name": "BeforeTool", "tool_name": "write_file", "tool_input": map[string]any{"file_path": w.path("src/a.go"), "content": "x"}})
			return denied(parseAnswer(out), "Gemini's write_file of src/a.go from the parent folder")
		}},
		promise{name: "the top of the work tree from a subfolder", try: func(w *world) string {
			return denied(w.bash(w.path("docs"), `cd "$(git rev-parse --show-toplevel)" && echo x >> src/a.go`), `cd "$(git rev-parse --show-toplevel)" && echo x >> src/a.go`)
		}},
		promise{name: "a glob", try: func(w *world) string {
			return denied(w.bash(w.repo, "rm src/*.go"), "rm src/*.go")
		}},
		promise{name: "a glob copied into a claimed folder", try: func(w *world) string {
			w.write("other/a.go", "package other\n")
			return denied(w.bash(w.repo, "cp -R other/* src/"), "cp -R other/* src/")
		}},
		promise{name: "braces", try: func(w *world) string {
			return denied(w.bash(w.repo, "echo x | tee src/{a,b}.go"), "tee src/{a,b}.go")
		}},
		promise{name: "a for loop", try: func(w *world) string {
			return denied(w.bash(w.repo, `for f in src/a.go; do echo x >> "$f"; done`), "a for loop over src/a.go")
		}},
		promise{name: "a variable", try: func(w *world) string {
			return denied(w.bash(w.repo, `f=src/a.go; echo x >> $f`), "f=src/a.go; echo x >> $f")
		}},
		promise{name: "ls piped to xargs", try: func(w *world) string {
			return denied(w.bash(w.repo, "ls src/a.go | xargs rm"), "ls src/a.go | xargs rm")
		}},
		promise{name: "echo piped to xargs -I", try: func(w *world) string {
			return denied(w.bash(w.repo, "echo src/a.go | xargs -I{} cp /dev/null {}"), "echo src/a.go | xargs -I{} cp /dev/null {}")
		}},
		promise{name: "xargs -a a list", try: func(w *world) string {
			w.write("list", "src/a.go\n")
			return denied(w.bash(w.repo, "xargs -a list rm"), "xargs -a list rm")
		}},
		promise{name: "branches that end in different folders", try: func(w *world) string {
			return denied(w.bash(w.repo, "if test -e nothing; then cd docs; else cd src; fi; echo x > a.go"), "an if whose branches cd into docs and src, then echo x > a.go")
		}},
		promise{name: "bash -c", try: func(w *world) string {
			return denied(w.bash(w.repo, `bash -c 'echo x > src/a.go'`), "bash -c 'echo x > src/a.go'")
		}},
		promise{name: "a command too deep to read while others hold claims", try: func(w *world) string {
			a := w.bash(w.repo, "f(){ f; f; echo x >> src/$RANDOM.go; }; f")
			return first(denied(a, "a recursion past the analysis' budget"), mentions(a, "lucid cannot tell"))
		}},
		promise{name: "a command too long to read while others hold claims", try: func(w *world) string {
			a := w.bash(w.repo, strings.Repeat("true; ", 300000)+"echo done")
			return first(denied(a, "a 1.8 MB command"), mentions(a, "lucid cannot tell"))
		}},
		promise{name: "a command too long passes where nobody holds a claim", try: func(w *world) string {
			w.lucidOK([]string{"LUCID_AGENT=" + owner}, "release")
			w.lucidOK(nil, "release")
			return allowed(w.bash(w.repo, strings.Repeat("true; ", 300000)+"echo done"), "a 1.8 MB command with no claims held")
		}},
		promise{name: "a free path passes", try: func(w *world) string {
			return allowed(w.bash(w.repo, "echo x > docs/y.md"), "echo x > docs/y.md")
		}},
		promise{name: "the owner's own write passes", try: func(w *world) string {
			out, _ := w.hook("claude", "PreToolUse", claude("PreToolUse", owner, w.repo, map[string]any{"tool_name": "Write", "tool_input": write(w.path("src/a.go"))}))
			return allowed(parseAnswer(out), "the owner's Write of src/a.go")
		}},
	)
}
