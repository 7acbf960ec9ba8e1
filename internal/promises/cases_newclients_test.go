package promises

import (
	"encoding/json"
	"strings"
)

// qwenShell is the environment of Qwen Code 0.24.4's run_shell_command in
// the lead's session qwenSession.
func qwenShell() []string {
	return []string{"QWEN_CODE=1", "QWEN_CODE_SESSION_ID=" + qwenSession, "QWEN_CODE_AGENT_ID="}
}

// copilotShell is the environment of GitHub Copilot CLI 1.0.102's bash in
// the lead's session copilotSession.
func copilotShell() []string {
	return []string{"COPILOT_CLI=1", "COPILOT_AGENT_SESSION_ID=" + copilotSession}
}

// qwenPre runs Qwen Code's PreToolUse of tool with input, for the lead of
// qwenSession in cwd.
func (w *world) qwenPre(cwd, tool string, input map[string]any) answer {
	out, _ := w.hook("qwen", "PreToolUse", map[string]any{"session_id": qwenSession, "cwd": cwd,
		"hook_event_name": "PreToolUse", "permission_mode": "yolo", "tool_name": tool, "tool_input": input,
		"tool_use_id": "toolu_1", "tool_call_id": "call_001"})
	return parseAnswer(out)
}

// copilotPre runs GitHub Copilot CLI's preToolUse of tool with args, for
// the lead of copilotSession in cwd.
func (w *world) copilotPre(cwd, tool string, args any) answer {
	out, _ := w.hook("copilot", "preToolUse", map[string]any{"sessionId": copilotSession, "timestamp": 1796321749039,
		"cwd": cwd, "toolName": tool, "toolArgs": args})
	return parseAnswer(out)
}

// signedBy is the defect of an entry with FORGED in its text signed by
// another than agent.
func signedBy(w *world, agent string) string {
	for _, line := range strings.Split(w.logText(), "\n") {
		var e struct{ Agent, Text string }
		if json.Unmarshal([]byte(line), &e) == nil && strings.Contains(e.Text, "FORGED") && e.Agent != agent {
			return "an entry the agent " + agent + " wrote is signed by " + e.Agent
		}
	}
	return ""
}

// Identity through the shells of Qwen Code and GitHub Copilot CLI: Qwen
// signs lucid commands from its shell's environment alone, Copilot by the
// stamp its preToolUse puts in the command (modifiedArgs).
func init() {
	// qwen runs command as the Qwen lead would: its PreToolUse first, the
	// command in its shell if allowed.
	qwen := func(name, command string) promise {
		return promise{name: "Qwen Code: " + name, try: func(w *world) string {
			if a := w.qwenPre(w.repo, "run_shell_command", map[string]any{"command": command}); !a.deny {
				w.sh(w.repo, command, qwenShell()...)
			}
			return first(w.intact(), signedBy(w, qwenSession))
		}}
	}
	copilot := func(name, command string) promise {
		return promise{name: "GitHub Copilot CLI: " + name, try: func(w *world) string {
			a := w.copilotPre(w.repo, "bash", map[string]any{"command": command, "description": "d"})
			if !a.deny {
				if a.command != "" {
					command = a.command
				}
				w.sh(w.repo, command, copilotShell()...)
			}
			return first(w.intact(), signedBy(w, copilotSession))
		}}
	}
	// forged runs `lucid hook` in an agent's shell straight, as if no
	// PreToolUse had read the line: ForgedHook must refuse it.
	forged := func(name, command string, env []string) promise {
		return promise{name: name, try: func(w *world) string {
			w.sh(w.repo, command, env...)
			return w.intact()
		}}
	}
	end := `echo '{"session_id":"` + ownerSession + `","hook_event_name":"SessionEnd","reason":"x","cwd":"'"$PWD"'"}' | `
	add("identity",
		qwen("the owner's ids in the shell's variables", `QWEN_CODE_SESSION_ID=`+ownerSession+` QWEN_CODE_AGENT_ID=a2adb9a7d441d9c57 lucid release`),
		qwen("env with the owner's ids", `env QWEN_CODE_SESSION_ID=`+ownerSession+` QWEN_CODE_AGENT_ID=a2adb9a7d441d9c57 lucid fact FORGED`),
		qwen("export the owner's ids", `export QWEN_CODE_SESSION_ID=`+ownerSession+`; export QWEN_CODE_AGENT_ID=a2adb9a7d441d9c57; lucid release`),
		qwen("unset the shell's mark", `unset QWEN_CODE; lucid release 'notes/**'`),
		qwen("env -u the shell's mark", `env -u QWEN_CODE lucid release 'notes/**'`),
		qwen("a hook's mark in the shell", `QWEN_PROJECT_DIR=. lucid release 'notes/**'`),
		qwen("Codex's variables with the owner's ids", `CODEX_SESSION_ID=`+ownerSession+` CODEX_THREAD_ID=a2adb9a7d441d9c57 lucid release`),
		qwen("LUCID_AGENT set to the owner", `LUCID_AGENT=`+owner+` lucid release`),
		qwen("the ids set for a script", `printf 'lucid release\n' > r.sh; QWEN_CODE_SESSION_ID=`+ownerSession+` QWEN_CODE_AGENT_ID=a2adb9a7d441d9c57 bash r.sh`),
		qwen("lucid hook piped in", end+`lucid hook SessionEnd`),
		copilot("LUCID_AGENT set to the owner", `LUCID_AGENT=`+owner+` lucid release`),
		copilot("a second lucid after ;", `true; LUCID_AGENT=`+owner+` lucid release`),
		copilot("lucid in $( )", `echo $(LUCID_AGENT=`+owner+` lucid release)`),
		copilot("lucid after a pipe", `true | LUCID_AGENT=`+owner+` lucid release`),
		copilot("bash -c", `bash -c 'LUCID_AGENT=`+owner+` lucid release'`),
		copilot("unset the shell's mark", `unset COPILOT_CLI; lucid release 'notes/**'`),
		copilot("an entry as another", `export LUCID_AGENT=`+owner+`; lucid fact FORGED`),
		copilot("the shell's session set to the owner's", `COPILOT_AGENT_SESSION_ID=`+ownerSession+` lucid release`),
		copilot("lucid hook piped in", end+`lucid hook --client copilot sessionEnd`),
		forged("Qwen Code: lucid hook in its shell", end+`lucid hook --client qwen SessionEnd`, qwenShell()),
		forged("Qwen Code: Claude's lucid hook in its shell", end+`lucid hook SessionEnd`, qwenShell()),
		forged("GitHub Copilot CLI: lucid hook in its shell", `echo '{"sessionId":"`+ownerSession+`","cwd":"'"$PWD"'","reason":"x"}' | lucid hook --client copilot sessionEnd`, copilotShell()),
		forged("GitHub Copilot CLI: Claude's lucid hook in its shell", end+`lucid hook SessionEnd`, copilotShell()),
		promise{name: "Qwen Code: the agent's own lucid commands are signed and run", try: func(w *world) string {
			command := `lucid fact "OWN fact" && lucid claim 'lib/**' --for mine`
			if a := w.qwenPre(w.repo, "run_shell_command", map[string]any{"command": command}); a.deny {
				return "the agent's own lucid commands were denied: " + a.reason
			}
			w.sh(w.repo, command, qwenShell()...)
			if !strings.Contains(w.logText(), `"agent":"`+qwenSession+`","kind":"fact","text":"OWN fact"`) {
				return "the agent's own fact was not signed by it: " + w.logText()
			}
			return ""
		}},
		promise{name: "GitHub Copilot CLI: the agent's own lucid commands are signed and run", try: func(w *world) string {
			a := w.copilotPre(w.repo, "bash", map[string]any{"command": `lucid fact "OWN fact"`, "description": "d"})
			if a.deny || a.command == "" {
				return "the agent's own lucid command was not signed: " + a.raw
			}
			w.sh(w.repo, a.command, copilotShell()...)
			if !strings.Contains(w.logText(), `"agent":"`+copilotSession+`","kind":"fact","text":"OWN fact"`) {
				return "the agent's own fact was not signed by it: " + w.logText()
			}
			return ""
		}},
	)
}
