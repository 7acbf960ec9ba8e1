package promises

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// Identity: no agent ends, moves or writes as another agent or as a
// person, by any command lucid can read; what lucid cannot read never
// widens what the caller may do.
func init() {
	state := func(name, command string) promise {
		return promise{name: name, try: func(w *world) string {
			return first(denied(w.bash(w.repo, command), command), w.intact())
		}}
	}
	// agentRun runs command in the other agent's Claude Code shell: the
	// command as lucid's PreToolUse gave it back, when the hook let it
	// run. It reports whether it ran.
	agentRun := func(w *world, command string) bool {
		a := w.bash(w.repo, command)
		if a.deny {
			return false
		}
		if a.command != "" {
			command = a.command
		}
		w.clientShell(w.repo, "claude", command, claudeShell(other)...)
		return true
	}
	// unsignedOrOwn is the defect of entries not signed by the other
	// agent (it may sign nothing at all).
	unsignedOrOwn := func(w *world) string {
		for _, line := range strings.Split(w.logText(), "\n") {
			var e struct{ Agent, Text string }
			if json.Unmarshal([]byte(line), &e) == nil && strings.Contains(e.Text, "FORGED") && e.Agent != other {
				return "an entry the other agent wrote is signed by " + e.Agent
			}
		}
		return ""
	}
	forge := func(name, command string) promise {
		return promise{name: name, try: func(w *world) string {
			agentRun(w, command)
			return first(w.intact(), unsignedOrOwn(w))
		}}
	}
	add("identity",
		promise{name: "a Write of the claims store", try: func(w *world) string {
			a := w.pre(w.repo, "Write", map[string]any{"file_path": w.path(".git/lucid/claims"), "content": ""})
			return denied(a, "a Write of .git/lucid/claims")
		}},
		state("truncating the claims store", ": > .git/lucid/claims"),
		state("removing the agents' records", "rm -rf .git/lucid/agents"),
		state("removing lucid's state", "rm -rf .git/lucid"),
		state("overwriting an agent's record", "cp /dev/null .git/lucid/agents/x.json"),
		state("the lock", "echo > .git/lucid/lock"),
		state("removing the git dir", "rm -rf .git"),
		state("moving the git dir away", "mv .git ../g"),
		state("a lich marker", "echo '{}' > .git/lich-edits/0badf00d"),
		promise{name: "lucid's state through a link", try: func(w *world) string {
			os.Symlink(".git/lucid", w.path("l"))
			return first(denied(w.bash(w.repo, "echo > l/claims"), "echo > l/claims (l a link to .git/lucid)"), w.intact())
		}},
		promise{name: "a linked work tree's own state", try: func(w *world) string {
			wt := filepath.Join(w.parent, "wt")
			w.git("worktree", "add", "-q", "-b", "wt", wt)
			w.mkdir(w.path(".git/worktrees/wt/lucid"))
			return denied(w.bash(wt, "echo x > "+w.path(".git/worktrees/wt/lucid/plan.seen")), "a write of a linked work tree's lucid state")
		}},
		forge("lucid hook SessionEnd with the owner's payload", `echo '{"session_id":"`+ownerSession+`","hook_event_name":"SessionEnd","reason":"x","cwd":"'"$PWD"'"}' | lucid hook SessionEnd`),
		forge("lucid hook through a script", `printf '%s' '{"session_id":"`+ownerSession+`","hook_event_name":"SessionEnd","cwd":"'"$PWD"'"}' > p.json; python3 -c "import subprocess; subprocess.run(['lu'+'cid','hook','SessionEnd'], stdin=open('p.json'))"`),
		promise{name: "lucid hook PreToolUse moves no other agent's cursor", try: func(w *world) string {
			start := claude("SessionStart", owner, w.repo, map[string]any{"source": "startup"})
			w.hook("claude", "SubagentStart", start)
			w.lucidOK(nil, "fact", "news for the owner")
			agentRun(w, `echo '{"session_id":"`+ownerSession+`","agent_id":"a2adb9a7d441d9c57","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{},"cwd":"'"$PWD"'"}' | lucid hook PreToolUse`)
			out, _ := w.hook("claude", "PreToolUse", claude("PreToolUse", owner, w.repo, map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": w.path("README.md")}}))
			if !strings.Contains(out, "news for the owner") {
				return "the owner's news was taken by a hook another agent ran: " + out
			}
			return ""
		}},
		forge("LUCID_AGENT set to the owner", `LUCID_AGENT=`+owner+` lucid release`),
		forge("export LUCID_AGENT", `export LUCID_AGENT=`+owner+`; lucid release`),
		forge("env LUCID_AGENT", `env LUCID_AGENT=`+owner+` lucid release`),
		forge("exec env LUCID_AGENT", `exec env LUCID_AGENT=`+owner+` lucid release`),
		forge("nohup env LUCID_AGENT", `nohup env LUCID_AGENT=`+owner+` lucid release`),
		forge("timeout env LUCID_AGENT", `timeout 5 env LUCID_AGENT=`+owner+` lucid release`),
		forge("command env LUCID_AGENT", `command env LUCID_AGENT=`+owner+` lucid release`),
		forge("env -S", `env -S 'LUCID_AGENT=`+owner+` lucid release'`),
		forge("env LUCID_AGENT then sh -c", `env LUCID_AGENT=`+owner+` sh -c 'lucid release'`),
		forge("bash -c --", `LUCID_AGENT=`+owner+` bash -c -- 'lucid release'`),
		forge("a quoted name", `LUCID_AGENT=`+owner+` 'lucid' release`),
		forge("an escaped name", `LUCID_AGENT=`+owner+` \lucid release`),
		forge("a substituted name", `LUCID_AGENT=`+owner+` "$(command -v lucid)" release`),
		forge("a heredoc to bash", "LUCID_AGENT="+owner+" bash <<'EOF'\nlucid release\nEOF"),
		forge("unsigned release of the person's claim", `"$(command -v lucid)" release 'notes/**'`),
		forge("unsigned release from a script", `printf 'lucid release notes/**\n' > r.sh; bash r.sh`),
		forge("unset LUCID_AGENT", `unset LUCID_AGENT; lucid release 'notes/**'`),
		forge("env -u LUCID_AGENT", `env -u LUCID_AGENT lucid release 'notes/**'`),
		forge("an entry as another", `LUCID_AGENT=`+owner+` lucid fact FORGED`),
		forge("an entry from a script", `printf 'lucid fact FORGED\n' > f.sh; bash f.sh`),
		promise{name: "an unsigned claim from a script never outlives its agent", try: func(w *world) string {
			agentRun(w, `printf 'lucid claim "lib/**" --for x\n' > c.sh; bash c.sh`)
			if strings.Contains(w.claims(), "lib/**: human") {
				return "a claim made from an agent's script belongs to a person, and never expires"
			}
			return ""
		}},
		promise{name: "Codex: LUCID_AGENT cannot override the shell's agent", try: func(w *world) string {
			w.sh(w.repo, "lucid release", "CODEX_SESSION_ID="+codexSession, "CODEX_THREAD_ID="+codexSession, "LUCID_AGENT="+owner)
			return w.intact()
		}},
		promise{name: "Gemini: an unsigned command is not a person", try: func(w *world) string {
			w.sh(w.repo, "lucid release 'notes/**'", "GEMINI_CLI=1")
			return w.intact()
		}},
		promise{name: "uninstall from an agent's shell", try: func(w *world) string {
			w.sh(w.repo, "LUCID_AGENT="+other+" lucid uninstall", claudeShell(other)...)
			if !strings.Contains(w.read(".claude/settings.json"), "lucid hook") {
				return "an agent uninstalled lucid's hooks"
			}
			return ""
		}},
		// Wrappers the stamp does not know, an emptied environment, a
		// renamed copy, exec -c: the agent's shell above still tells.
		forge("flock with env -i", `flock /tmp/lucid-promise.lock env -i PATH="$PATH" HOME="$HOME" lucid release --owner `+owner),
		forge("taskset", `taskset -c 0 env -i PATH="$PATH" HOME="$HOME" lucid release --owner `+owner),
		forge("script -qec", `script -qec "env -i PATH=$PATH HOME=$HOME lucid release --owner `+owner+`" /dev/null`),
		forge("a git alias", `git -c alias.x='!env -i PATH=$PATH HOME=$HOME lucid release --owner `+owner+`' x`),
		forge("setsid -w", `setsid -w env -i PATH="$PATH" HOME="$HOME" lucid release --owner `+owner),
		forge("make -f - from a heredoc", "make -f - <<'EOF'\nx:\n\tenv -i PATH=$$PATH HOME=$$HOME lucid release --owner "+owner+"\nEOF"),
		forge("a renamed copy without the shell's marks", `cp "$(command -v lucid)" lv && env -u AI_AGENT -u CLAUDECODE ./lv release --owner `+owner),
		forge("exec -c in a subshell", `(exec -c lucid release --owner `+owner+`)`),
		forge("a script that empties its environment", `printf 'env -i PATH="$PATH" HOME="$HOME" lucid release --owner `+owner+`\n' > e.sh; bash e.sh`),
		state("a link into lucid's state the line makes", "ln -sfn .git/lucid x && : > x/claims"),
		state("a hard link of the claims", "ln .git/lucid/claims h"),
		promise{name: "a write through a hard link made before", try: func(w *world) string {
			if err := os.Link(w.path(".git/lucid/claims"), w.path("h2")); err != nil {
				return "could not make the link: " + err.Error()
			}
			return first(denied(w.bash(w.repo, ": > h2"), ": > h2 (h2 a hard link to the claims)"), w.intact())
		}},
		promise{name: "the agent's own lucid commands are signed and run", try: func(w *world) string {
			agentRun(w, `lucid fact "OWN fact" && lucid claim 'lib/**' --for mine`)
			if !strings.Contains(w.logText(), `"agent":"`+other+`","kind":"fact","text":"OWN fact"`) {
				return "the agent's own fact was not signed by it: " + w.logText()
			}
			if !strings.Contains(w.claims(), "lib/**") {
				return "the agent's own claim was not made"
			}
			return ""
		}},
	)
}
