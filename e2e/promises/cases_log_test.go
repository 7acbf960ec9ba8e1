package promises

import (
	"encoding/json"
	"strings"
)

// The log and git: every entry reaches every agent once, whatever git does
// to the log, and lucid log lists it newest first.
func init() {
	look := func(w *world) string {
		out, _ := w.hook("claude", "PreToolUse", claude("PreToolUse", other, w.repo, map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": w.path("README.md")}}))
		return out
	}
	start := func(w *world) {
		w.hook("claude", "SessionStart", claude("SessionStart", other, w.repo, map[string]any{"source": "startup"}))
		look(w)
	}
	once := func(w *world, text string) string {
		got := look(w)
		if !strings.Contains(got, text) {
			return text + " never reached the agent: " + got
		}
		if again := look(w); strings.Contains(again, text) {
			return text + " reached the agent twice"
		}
		return ""
	}
	// branch commits an entry on a new branch made from main~1 (or main),
	// before the agent starts.
	branch := func(w *world, name, text string) {
		w.git("checkout", "-q", "-b", name)
		w.lucidOK(nil, "note", text)
		w.git("commit", "-qam", name)
		w.git("checkout", "-q", "main")
	}
	commitLog := func(w *world) {
		w.git("add", ".lucid")
		w.git("commit", "-qm", "log", "--allow-empty")
	}
	add("log and git",
		promise{name: "a rebase brings an older entry", try: func(w *world) string {
			commitLog(w)
			branch(w, "side", "OLDER on side")
			start(w)
			w.sh(w.repo, "git rebase -q side")
			return once(w, "OLDER on side")
		}},
		promise{name: "a checkout brings an older entry", try: func(w *world) string {
			commitLog(w)
			branch(w, "side", "OLDER on side")
			start(w)
			w.git("checkout", "-q", "side")
			return once(w, "OLDER on side")
		}},
		promise{name: "a pull --rebase brings an older entry", try: func(w *world) string {
			commitLog(w)
			w.sh(w.parent, "git clone -q repo up")
			w.sh(w.parent+"/up", `lucid note "OLDER upstream" && git commit -qam up`)
			start(w)
			w.sh(w.repo, "git pull -q --rebase ../up main")
			return once(w, "OLDER upstream")
		}},
		promise{name: "a merge brings an older entry", try: func(w *world) string {
			commitLog(w)
			branch(w, "side", "OLDER on side")
			start(w)
			w.sh(w.repo, "git merge -q --no-edit side")
			return once(w, "OLDER on side")
		}},
		promise{name: "what the agent started with does not come again", try: func(w *world) string {
			commitLog(w)
			branch(w, "side", "SIDE")
			w.lucidOK(nil, "note", "UNCOMMITTED at the start")
			start(w)
			w.git("commit", "-qam", "now committed")
			w.sh(w.repo, "git rebase -q side")
			got := look(w)
			if strings.Contains(got, "UNCOMMITTED at the start") {
				return "an entry of the agent's starting log came again after a rebase"
			}
			return ""
		}},
		promise{name: "lucid log is newest first after a merge", try: func(w *world) string {
			commitLog(w)
			branch(w, "side", "OLDER on side")
			w.lucidOK(nil, "note", "NEWER on main")
			commitLog(w)
			w.sh(w.repo, "git merge -q --no-edit side")
			var list []struct{ Text string }
			json.Unmarshal([]byte(w.lucidOK(nil, "log", "--json")), &list)
			if len(list) < 2 || list[0].Text != "NEWER on main" {
				return "lucid log does not list the newest first after a merge"
			}
			return ""
		}},
	)
}
