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
		qwen("a Claude shell's variables with the owner's session", `AI_AGENT=claude-code_2.1.332_agent CLAUDE_CODE_SESSION_ID=`+ownerSession+` lucid release`),
		qwen("a Copilot shell's variables", `COPILOT_CLI=1 lucid release 'notes/**'`),
		qwen("the ids set for a script", `printf 'lucid release\n' > r.sh; QWEN_CODE_SESSION_ID=`+ownerSession+` QWEN_CODE_AGENT_ID=a2adb9a7d441d9c57 bash r.sh`),
		qwen("lucid hook piped in", end+`lucid hook SessionEnd`),
		copilot("LUCID_AGENT set to the owner", `LUCID_AGENT=`+owner+` lucid release`),
		copilot("a second lucid after ;", `true; LUCID_AGENT=`+owner+` lucid release`),
		copilot("lucid in $( )", `echo $(LUCID_AGENT=`+owner+` lucid release)`),
		copilot("lucid after a pipe", `true | LUCID_AGENT=`+owner+` lucid release`),
		copilot("bash -c", `bash -c 'LUCID_AGENT=`+owner+` lucid release'`),
		copilot("unset the shell's mark", `unset COPILOT_CLI; lucid release 'notes/**'`),
		copilot("a Qwen shell's variables naming the owner", `unset COPILOT_CLI; QWEN_CODE=1 QWEN_CODE_SESSION_ID=`+ownerSession+` QWEN_CODE_AGENT_ID=a2adb9a7d441d9c57 lucid release`),
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

// Paths, shells and git through Qwen Code's and GitHub Copilot CLI's
// tools: every spelling of a claimed file, in every tool that writes, from
// the session's folder, a subfolder or above the work tree, is denied.
func init() {
	q := func(name, tool string, input func(w *world) map[string]any, cwd func(w *world) string) promise {
		return promise{name: "Qwen Code: " + name, try: func(w *world) string {
			dir := w.repo
			if cwd != nil {
				dir = cwd(w)
			}
			return denied(w.qwenPre(dir, tool, input(w)), tool+" "+name)
		}}
	}
	c := func(name, tool string, args func(w *world) any, cwd func(w *world) string) promise {
		return promise{name: "GitHub Copilot CLI: " + name, try: func(w *world) string {
			dir := w.repo
			if cwd != nil {
				dir = cwd(w)
			}
			return denied(w.copilotPre(dir, tool, args(w)), tool+" "+name)
		}}
	}
	file := func(key, path string) func(w *world) map[string]any {
		return func(w *world) map[string]any { return map[string]any{key: path, "content": "x"} }
	}
	abs := func(key, rel string) func(w *world) map[string]any {
		return func(w *world) map[string]any { return map[string]any{key: w.path(rel), "content": "x"} }
	}
	cmd := func(command string) func(w *world) map[string]any {
		return func(*world) map[string]any { return map[string]any{"command": command} }
	}
	at := func(path string) func(w *world) any {
		return func(*world) any { return map[string]any{"path": path, "file_text": "x"} }
	}
	sh := func(command string) func(w *world) any {
		return func(*world) any { return map[string]any{"command": command, "description": "d"} }
	}
	patch := func(body string) func(w *world) any {
		return func(*world) any { return "*** Begin Patch\n" + body + "*** End Patch\n" }
	}
	sub := func(w *world) string { return w.path("src/deep") }
	above := func(w *world) string { return w.parent }
	link := func(w *world) { w.sh(w.repo, "ln -s src lnk") }
	withLink := func(p promise) promise {
		try := p.try
		p.try = func(w *world) string { link(w); return try(w) }
		return p
	}
	add("paths",
		q("a relative path", "write_file", file("file_path", "src/a.go"), nil),
		q("./ and ../ out and back", "write_file", file("file_path", "./docs/../src/a.go"), nil),
		q("doubled slashes", "write_file", func(w *world) map[string]any {
			return map[string]any{"file_path": w.repo + "//src//a.go", "content": "x"}
		}, nil),
		withLink(q("a link into the claimed folder", "write_file", abs("file_path", "lnk/new.go"), nil)),
		q("a path with spaces", "write_file", abs("file_path", "src/with space/a b.go"), nil),
		q("edit", "edit", func(w *world) map[string]any {
			return map[string]any{"file_path": w.path("src/a.go"), "old_string": "a", "new_string": "b"}
		}, nil),
		q("notebook_edit", "notebook_edit", func(w *world) map[string]any {
			return map[string]any{"notebook_path": w.path("src/n.ipynb"), "new_source": "x"}
		}, nil),
		q("a relative path from a subfolder", "write_file", file("file_path", "../a.go"), sub),
		q("a relative path from above the work tree", "write_file", file("file_path", "repo/src/a.go"), above),
		q("run_shell_command in directory", "run_shell_command", func(*world) map[string]any {
			return map[string]any{"command": "echo x > a.go", "directory": "src"}
		}, nil),
		q("run_shell_command in directory ../", "run_shell_command", func(*world) map[string]any {
			return map[string]any{"command": "echo x > a.go", "directory": "docs/../src"}
		}, nil),
		q("monitor", "monitor", cmd("tail -f /dev/null >> src/a.go"), nil),
		c("a relative path", "create", at("src/new.go"), nil),
		c("./ and ../ out and back", "create", at("./docs/../src/new.go"), nil),
		c("a relative edit from a subfolder", "edit", func(*world) any {
			return map[string]any{"path": "../a.go", "old_str": "a", "new_str": "b"}
		}, sub),
		c("a relative path from above the work tree", "create", at("repo/src/new.go"), above),
		withLink(c("a link into the claimed folder", "create", at("lnk/new.go"), nil)),
		c("a path with spaces", "create", at("src/with space/a b.go"), nil),
		c("apply_patch Add", "apply_patch", patch("*** Add File: src/n.go\n+x\n"), nil),
		c("apply_patch Update", "apply_patch", patch("*** Update File: src/a.go\n@@\n-package src\n+package s\n"), nil),
		c("apply_patch Delete", "apply_patch", patch("*** Delete File: src/b.go\n"), nil),
		c("apply_patch Move into", "apply_patch", patch("*** Update File: README.md\n*** Move to: src/r.md\n@@\n-# repo\n+# r\n"), nil),
		c("apply_patch ../ in a path", "apply_patch", patch("*** Add File: docs/../src/n.go\n+x\n"), nil),
	)
	add("shell",
		q("sed -i", "run_shell_command", cmd("sed -i s/a/b/ src/a.go"), nil),
		q("tee", "run_shell_command", cmd("echo x | tee -a src/a.go"), nil),
		q("cp", "run_shell_command", cmd("cp README.md src/a.go"), nil),
		q("mv", "run_shell_command", cmd("mv src/a.go docs/"), nil),
		q("a write from above the work tree", "run_shell_command", cmd("echo x > repo/src/a.go"), above),
		c("sed -i", "bash", sh("sed -i s/a/b/ src/a.go"), nil),
		c("redirection after cd", "bash", sh("cd src && echo x > a.go"), nil),
		c("tee", "bash", sh("echo x | tee src/a.go"), nil),
		c("cp", "bash", sh("cp README.md src/a.go"), nil),
		c("mv", "bash", sh("mv src/a.go docs/"), nil),
		c("a write from a subfolder", "bash", sh("echo x > ../a.go"), sub),
	)
	dirty := func(p promise) promise {
		try := p.try
		p.try = func(w *world) string { w.write("src/a.go", "package src // changed\n"); return try(w) }
		return p
	}
	add("git",
		q("git checkout of a claimed file", "run_shell_command", cmd("git checkout -- src/a.go"), nil),
		q("git restore", "run_shell_command", cmd("git restore src"), nil),
		dirty(q("git stash", "run_shell_command", cmd("git stash"), nil)),
		c("git checkout of a claimed file", "bash", sh("git checkout -- src/a.go"), nil),
		c("git restore", "bash", sh("git restore src"), nil),
		dirty(c("git stash", "bash", sh("git stash"), nil)),
	)
}
