package promises

import (
	"strings"
	"time"
)

// Shell spellings: a command line lucid reads is never a crash, and a
// lucid command in it is signed however it is spelled; a hook that fails
// delivers nothing and loses nothing.
func init() {
	stamped := func(name, command string) promise {
		return promise{name: name, try: func(w *world) string { return stampedRun(w, command) }}
	}
	add("shell spellings",
		promise{name: "curl piped to sh keeps the news", try: func(w *world) string { return keepsNews(w, "curl -s http://127.0.0.1:9/x | sh") }},
		promise{name: "a heredoc to bash keeps the news", try: func(w *world) string { return keepsNews(w, "bash <<'EOF'\necho hi\nEOF") }},
		promise{name: "a bare sh keeps the news", try: func(w *world) string { return keepsNews(w, "sh") }},
		promise{name: "a bare bash -c keeps the news", try: func(w *world) string { return keepsNews(w, "bash -c") }},
		promise{name: "sh -s keeps the news", try: func(w *world) string { return keepsNews(w, "echo 'echo hi' | sh -s") }},
		stamped("plain", `lucid note SIGNED`),
		stamped("exec", `exec lucid note SIGNED`),
		stamped("nohup", `nohup lucid note SIGNED`),
		stamped("timeout", `timeout 5 lucid note SIGNED`),
		stamped("command", `command lucid note SIGNED`),
		stamped("env", `env FOO=1 lucid note SIGNED`),
		stamped("a quoted name", `'lucid' note SIGNED`),
		stamped("an escaped name", `\lucid note SIGNED`),
		promise{name: "a path", try: func(w *world) string {
			return stampedRun(w, lucidBin+` note SIGNED`)
		}},
		promise{name: "a substituted name is refused with advice", try: func(w *world) string {
			a := w.bash(w.repo, `"$(command -v lucid)" note SIGNED`)
			if !a.deny || !strings.Contains(a.reason, "lucid") {
				return "a lucid command lucid cannot sign was let through without a word: " + a.raw
			}
			return ""
		}},
		stamped("bash -c --", `bash -c -- 'lucid note SIGNED'`),
		stamped("sh -c after env", `env X=1 sh -c 'lucid note SIGNED'`),
		stamped("a heredoc to bash", "bash <<'EOF'\nlucid note SIGNED\nEOF"),
		stamped("a pipeline", `lucid note SIGNED | cat`),
		promise{name: "a 20 MiB command is answered", try: func(w *world) string {
			start := time.Now()
			a := w.bash(w.repo, "echo "+strings.Repeat("x", 20<<20)+" > src/a.go")
			if !a.deny {
				return "a 20 MiB command writing a claimed file was allowed"
			}
			_ = start
			return ""
		}},
	)
}

// stampedRun is the defect when the other agent's lucid command, as
// command spells it, is not signed with its id once lucid's hook has seen
// it and the shell has run it.
func stampedRun(w *world, command string) string {
	a := w.bash(w.repo, command)
	if a.deny {
		return "the agent's own lucid command was denied: " + a.reason
	}
	if a.command == "" || !strings.Contains(a.command, "LUCID_AGENT="+other) {
		return "the lucid command was not signed: " + a.raw
	}
	out, err := w.sh(w.repo, a.command, claudeShell(other)...)
	if err != nil {
		return "the signed command failed: " + out
	}
	if !strings.Contains(w.logText(), `"agent":"`+other+`","kind":"note","text":"SIGNED"`) {
		return "the entry is not signed by the agent that wrote it: " + w.logText()
	}
	return ""
}

// keepsNews is the defect when a Bash call of command crashes the hook or
// loses the news it should carry: the other agent gets it at that call or
// at its next one.
func keepsNews(w *world, command string) string {
	w.hook("claude", "SessionStart", claude("SessionStart", other, w.repo, map[string]any{"source": "startup"}))
	w.lucidOK([]string{"LUCID_AGENT=" + owner}, "fact", "NEWS for the other agent")
	out, errOut := w.hook("claude", "PreToolUse", claude("PreToolUse", other, w.repo, map[string]any{
		"tool_name": "Bash", "tool_input": map[string]any{"command": command}}))
	if strings.Contains(errOut, "internal error") {
		return "the hook crashed: " + errOut
	}
	next := w.bash(w.repo, "true")
	if !strings.Contains(out, "NEWS for the other agent") && !strings.Contains(next.context, "NEWS for the other agent") {
		return "the news was lost"
	}
	return ""
}
