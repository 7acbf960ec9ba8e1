package codex

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/setup"
)

// checkShellPath checks that lucid is found where the client looks for
// it: by the registered hook command (sh -c), where a hook does nothing
// without it, and by the login shell Codex runs the agent's commands in,
// whose profile sets PATH anew (e2e/codex_lucid_test.go saw "lucid:
// command not found" with lucid first on Codex's own PATH), where the
// agent's lucid commands would fail.
func checkShellPath(c *installers.Client) setup.Finding {
	f := setup.Finding{Check: c.ID + " finds lucid"}
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
func checkCodexProject(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "codex project trust"}
	path := ConfigPath()
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
func checkCodexTrust(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "codex hook trust"}
	path := ConfigPath()
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
	for _, ev := range Hooks.Events {
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
		why = append(why, "not in "+HooksName+" as lucid writes them, so not lucid's to trust: "+strings.Join(missing, ", "))
	}
	f.Detail = "Codex skips these of lucid's hooks without a word (" + strings.Join(why, "; ") + ")"
	f.Fix = "run `lucid init --client codex --trust-codex` (it registers lucid's hooks again where they changed, and trusts them alone), or trust them in codex's /hooks view"
	return f
}
