package promises

import (
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
)

// Permission modes: Claude Code tells what a shell command changed only in
// bypassPermissions and auto; in every other mode lucid finds out itself,
// and still charges nobody for a change it cannot pin on them.
func init() {
	// script runs, as the other agent in mode, a Python one-liner whose
	// path the guard cannot read, around the hooks Claude Code would run,
	// and reports the violation line the agent was told.
	script := func(w *world, mode string, diff bool, between func()) string {
		cmd := `python3 -c "p='src'+'/a.go'; open(p,'a').write('x')"`
		fields := map[string]any{"permission_mode": mode}
		if a := w.bash(w.repo, cmd, fields); a.deny {
			return "DENIED " + a.reason
		}
		if between != nil {
			between()
		}
		w.sh(w.repo, cmd)
		resp := map[string]any{"stdout": "", "stderr": "", "interrupted": false}
		if diff {
			resp["bashEditDiff"] = map[string]any{"changedFiles": []string{w.path("src/a.go")}, "files": []any{}}
		}
		out, _ := w.hook("claude", "PostToolUse", claude("PostToolUse", other, w.repo, map[string]any{
			"permission_mode": mode, "tool_name": "Bash", "tool_input": map[string]any{"command": cmd}, "tool_response": resp}))
		return out
	}
	caught := func(mode string, diff bool) promise {
		name := mode
		if diff {
			name += ", with Claude Code's record turned on"
		}
		return promise{name: name, try: func(w *world) string {
			out := script(w, mode, diff, nil)
			if !strings.Contains(out, "your command changed src/a.go") {
				return "a script's write of the owner's src/a.go in " + mode + " mode went unseen: " + out
			}
			if !strings.Contains(w.logText(), `"agent":"`+other+`","kind":"violation"`) {
				return "the violation was not recorded in the log"
			}
			return ""
		}}
	}
	add("permission modes",
		caught("default", false),
		caught("acceptEdits", false),
		caught("plan", false),
		caught("dontAsk", false),
		caught("bypassPermissions", true),
		caught("default", true),
		promise{name: "default, while the owner works: nobody is blamed", try: func(w *world) string {
			out := script(w, "default", false, func() {
				time.Sleep(20 * time.Millisecond)
				w.hook("claude", "PreToolUse", claude("PreToolUse", owner, w.repo, map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": w.path("src/a.go")}}))
			})
			if strings.Contains(out, "your command changed") || strings.Contains(w.logText(), `"kind":"violation"`) {
				return "a change lucid cannot pin on the caller was charged to it: " + out
			}
			return ""
		}},
		promise{name: "default, a free file: no violation", try: func(w *world) string {
			cmd := `python3 -c "open('docs/'+'y.md','w').write('y')"`
			w.bash(w.repo, cmd, map[string]any{"permission_mode": "default"})
			w.sh(w.repo, cmd)
			out, _ := w.hook("claude", "PostToolUse", claude("PostToolUse", other, w.repo, map[string]any{
				"permission_mode": "default", "tool_name": "Bash", "tool_input": map[string]any{"command": cmd}, "tool_response": map[string]any{}}))
			if strings.Contains(out, "changed") {
				return "a write of a free file was called a violation: " + out
			}
			return ""
		}},
	)

	// Waits: a hook waits for a held lock no longer than docs/hooks.md says.
	waits := func(event, budget string) promise {
		return promise{name: event + " waits at most " + budget, try: func(w *world) string {
			repo, err := gitstore.Find(w.repo)
			if err != nil {
				return err.Error()
			}
			l, err := repo.LockWithin(time.Second)
			if err != nil {
				return err.Error()
			}
			defer l.Unlock()
			_, errOut := w.hook("claude", event, claude(event, owner, w.repo, nil))
			if !strings.Contains(errOut, "stayed locked through this hook's wait for the lock ("+budget+" in all") {
				return event + " with the lock held: " + strings.TrimSpace(errOut) + "; want a wait of " + budget
			}
			return ""
		}}
	}
	add("waits",
		waits("SessionEnd", "500ms"),
		waits("Stop", "1s"),
		waits("SubagentStop", "1s"),
	)
}
