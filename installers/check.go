package installers

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/merge"
)

// Finding is the result of one check (the merge driver's checks report
// the same way).
type Finding = merge.Finding

// Check checks that every event is registered, in one settings file,
// and that the /lucid:dream command is there; then the same, and what
// else each needs to run lucid's hooks, for every other client set up
// here.
func Check(repo *gitstore.Repo) []Finding {
	var others []*Client
	for _, c := range []*Client{Codex, Gemini} {
		if c.SetUp(repo) {
			others = append(others, c)
		}
	}
	var fs []Finding
	if len(others) > 0 && !ClaudeCode.SetUp(repo) {
		// Set up for other clients alone: Claude Code is not missing.
		fs = append(fs, Finding{Check: "hooks", OK: true, Detail: "not set up for Claude Code (`lucid init --client claude` adds it)"})
	} else {
		hooks := ClaudeCode.checkHooks(repo, "hooks", "lucid's hooks are not in .claude/settings.json or settings.local.json: agents get nothing", "run `lucid init` (or `lucid init --local`)")
		dream := Finding{Check: "/lucid:dream"}
		if _, err := os.Stat(repo.Abs(DreamCommandName)); err != nil {
			dream.Detail, dream.Fix = DreamCommandName+" is missing", "run `lucid init`"
		} else {
			dream.OK, dream.Detail = true, DreamCommandName
		}
		fs = append(fs, hooks, dream)
	}
	for _, c := range others {
		fs = append(fs, c.Check(repo)...)
	}
	return fs
}

// SetUp reports whether lucid has hooks in the client's settings (of any
// version).
func (c *Client) SetUp(repo *gitstore.Repo) bool {
	for _, name := range c.files() {
		if s, err := c.read(repo, name); err != nil || s.hasLucid() {
			return true // a file lucid cannot read is for doctor to name
		}
	}
	return false
}

// Check checks a client other than Claude Code: its hooks, and what the
// client needs before it runs them.
func (c *Client) Check(repo *gitstore.Repo) []Finding {
	fs := []Finding{c.checkHooks(repo, c.ID+" hooks", "lucid's hooks are not in "+c.Settings, "run `lucid init --client "+c.ID+"`")}
	switch c {
	case Codex:
		fs = append(fs, checkCodexProject(repo), checkCodexTrust(repo), checkShellPath(c))
	case Gemini:
		fs = append(fs, checkGeminiTrust(repo), checkGeminiEnabled(repo))
	}
	return fs
}

// checkHooks checks that every event of c is registered, in one file.
func (c *Client) checkHooks(repo *gitstore.Repo, check, none, noneFix string) Finding {
	f := Finding{Check: check}
	name, events, err := c.Registered(repo)
	switch {
	case err != nil:
		f.Detail, f.Fix = err.Error(), "fix the file, then run `lucid init`"
	case len(events) == 0:
		f.Detail, f.Fix = none, noneFix
	case len(events) < len(c.Events):
		var missing []string
		for _, r := range c.Events {
			if !slices.Contains(events, r.Name) {
				missing = append(missing, r.Name)
			}
		}
		f.Detail = fmt.Sprintf("%s lacks lucid's hooks for %s (or has another version of them)", name, strings.Join(missing, ", "))
		f.Fix = "run `lucid init" + c.initFlag() + "` to register them again"
	default:
		f.OK, f.Detail = true, fmt.Sprintf("registered in %s for all %d events", name, len(events))
	}
	return f
}

func (c *Client) initFlag() string {
	if c == ClaudeCode {
		return ""
	}
	return " --client " + c.ID
}

// checkShellPath checks that lucid is found where the client looks for
// it: by the registered hook command (sh -c), where a hook does nothing
// without it, and by the login shell Codex runs the agent's commands in,
// whose profile sets PATH anew (e2e/codex_lucid_test.go saw "lucid:
// command not found" with lucid first on Codex's own PATH), where the
// agent's lucid commands would fail.
func checkShellPath(c *Client) Finding {
	f := Finding{Check: c.ID + " finds lucid"}
	shell := os.Getenv("SHELL")
	if shell == "" {
		shell = "/bin/sh"
	}
	hook, _ := exec.Command("sh", "-c", "command -v lucid").Output()
	login, _ := exec.Command(shell, "-lc", "command -v lucid").Output()
	hp, lp := strings.TrimSpace(string(hook)), strings.TrimSpace(string(login))
	switch {
	case hp == "":
		f.Detail = c.Name + "'s hooks run `command -v lucid || exit 0`: with no lucid on the PATH " + c.ID + " starts with, every hook does nothing"
		f.Fix = "install lucid into a folder on PATH (make install), then start " + c.ID + " again from that shell"
	case lp == "":
		f.Detail = "a login shell (" + shell + " -l, as " + c.ID + " runs the agent's commands) finds no lucid: the agent's lucid commands fail"
		f.Fix = "put lucid's folder on PATH in your shell profile (~/.profile), then start " + c.ID + " again"
	default:
		f.OK, f.Detail = true, hp+" for the hooks, "+lp+" in a login shell"
	}
	return f
}

// checkCodexProject checks that Codex trusts the project: it ignores
// .codex/hooks.json in one it does not.
func checkCodexProject(repo *gitstore.Repo) Finding {
	f := Finding{Check: "codex project trust"}
	path := CodexConfigPath()
	cfg, err := readCodexConfig(path)
	if err != nil {
		f.Detail, f.Fix = err.Error(), "fix "+path
		return f
	}
	// Codex keys trust by the folder it starts in or its git root; for a
	// linked work tree, the root of the main one (resolve_root_git_project
	// _for_trust in its source).
	dirs := []string{repo.Top}
	if real, err := filepath.EvalSymlinks(repo.Top); err == nil && real != repo.Top {
		dirs = append(dirs, real)
	}
	if filepath.Base(repo.CommonDir) == ".git" {
		if main := filepath.Dir(repo.CommonDir); main != repo.Top {
			dirs = append(dirs, main)
		}
	}
	for _, d := range dirs {
		if t, ok := cfg.table("projects", d); ok {
			if v, _, _, ok := cfg.value(t, "trust_level"); ok && v == "trusted" {
				f.OK, f.Detail = true, path+" trusts "+d
				return f
			}
		}
	}
	f.Detail = "Codex does not trust " + repo.Top + " (" + path + "): it ignores .codex/hooks.json there"
	f.Fix = "start codex in " + repo.Top + " and trust the folder when it asks, or add [projects." + tomlString(repo.Top) + "] trust_level = \"trusted\" to " + path
	return f
}

// checkCodexTrust checks that Codex trusts each of lucid's entries as the
// file has it now: an untrusted or changed entry is skipped silently.
func checkCodexTrust(repo *gitstore.Repo) Finding {
	f := Finding{Check: "codex hook trust"}
	path := CodexConfigPath()
	entries, err := codexEntries(repo)
	if err != nil {
		f.Detail, f.Fix = err.Error(), "fix the file, then run `lucid init --client codex`"
		return f
	}
	cfg, err := readCodexConfig(path)
	if err != nil {
		f.Detail, f.Fix = err.Error(), "fix "+path
		return f
	}
	var untrusted, modified, missing []string
	for _, ev := range Codex.Events {
		if !slices.ContainsFunc(entries, func(e codexEntry) bool { return e.event == ev.Name }) {
			missing = append(missing, ev.Name)
		}
	}
	for _, e := range entries {
		switch h, ok := cfg.trust(e.key); {
		case !ok:
			untrusted = append(untrusted, e.event)
		case h != e.hash:
			modified = append(modified, e.event)
		}
	}
	if len(missing) == 0 && len(untrusted) == 0 && len(modified) == 0 {
		f.OK, f.Detail = true, fmt.Sprintf("%s trusts all %d of lucid's hooks", path, len(entries))
		return f
	}
	var why []string
	if len(untrusted) > 0 {
		why = append(why, "not trusted: "+strings.Join(untrusted, ", "))
	}
	if len(modified) > 0 {
		why = append(why, "changed since they were trusted: "+strings.Join(modified, ", "))
	}
	if len(missing) > 0 {
		why = append(why, "not in "+CodexHooksName+" as lucid writes them, so not lucid's to trust: "+strings.Join(missing, ", "))
	}
	f.Detail = "Codex skips these of lucid's hooks without a word (" + strings.Join(why, "; ") + ")"
	f.Fix = "run `lucid init --client codex --trust-codex` (it registers lucid's hooks again where they changed, and trusts them alone), or trust them in codex's /hooks view"
	return f
}
