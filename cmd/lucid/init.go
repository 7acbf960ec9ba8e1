package main

import (
	"fmt"
	"path"
	"slices"

	"github.com/lucid-dev/lucid/installers"
	"github.com/lucid-dev/lucid/merge"
)

func init() {
	register(&command{name: "init", summary: "set lucid up in this repository (safe to run again)", run: runInit})
}

func runInit(c *cli, args []string) error {
	f := newFlags("init", `lucid init [--client NAME]... [--local] [--statusline] [--force] [--trust-codex]
       lucid init --user

Sets lucid up in this repository: .lucid/plan.md (the shared plan) and
.lucid/log.jsonl (the log) at the work tree's top; lucid's hooks in
.claude/settings.json, beside your own settings and hooks; the
/lucid:dream command in .claude/commands/lucid/dream.md; and the log's merge
driver: the line `+"`"+`.lucid/log.jsonl merge=lucid`+"`"+` in .gitattributes (commit it)
and merge.lucid.driver in the repository's git config. Run it again at any
time: it changes nothing that is in place. lucid uninstall takes all of it
away again but .lucid/.

--statusline also makes lucid statusline Claude Code's status line: the
other lich session that just edited your file, or lucid's active claims.

--client NAME sets lucid up in the clients named (claude, codex, gemini;
repeat it, or give a comma list): Codex CLI's hooks go into
.codex/hooks.json, Gemini CLI's into .gemini/settings.json, each beside
your own. Without --client, init sets up Claude Code, and Codex CLI or
Gemini CLI too where .codex/ or .gemini/ is already there.

Codex runs a hook only when it is trusted, and skips an untrusted one
without a word: --trust-codex trusts lucid's own Codex hooks, and nothing
else, in $CODEX_HOME/config.toml (~/.codex/config.toml by default).

Claude Code and Gemini CLI run a project's hooks only in sessions started
at the folder that holds their settings: a session started in a subfolder
of the work tree, in a repository nested in it, or above it, runs none of
them. --user registers lucid's hooks in your user settings (Claude Code's
~/.claude/settings.json, or $CLAUDE_CONFIG_DIR/settings.json; with
--client gemini, ~/.gemini/settings.json), so every session on this machine
is guarded wherever it starts; where a session's folder registers lucid's
own, only one of the two runs. It needs no repository.`)
	clients := f.StringSlice("client", nil, "set lucid up in these clients: claude, codex, gemini (repeatable, or a comma list)")
	local := f.Bool("local", false, "register the hooks in .claude/settings.local.json (yours alone) instead of settings.json (shared)")
	statusLine := f.Bool("statusline", false, "register lucid statusline as Claude Code's status line")
	force := f.Bool("force", false, "replace a merge.lucid.driver, or with --statusline a status line, that lucid did not write")
	trustCodex := f.Bool("trust-codex", false, "trust lucid's own Codex hooks (and nothing else) in $CODEX_HOME/config.toml")
	user := f.Bool("user", false, "register lucid's hooks in your user settings (Claude Code's, or with --client those named: claude, gemini), for sessions started in any folder")
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usageErr("init takes no arguments")
	}
	if *user {
		if *local || *statusLine || *trustCodex {
			return usageErr("--user sets up the clients' user settings alone: run lucid init --user [--client NAME], then lucid init in a repository")
		}
		if err := personOnly("init --user"); err != nil {
			return err
		}
		return initUser(c, *clients)
	}
	var chosen []*installers.Client
	for _, name := range *clients {
		cl := installers.ClientByID(name)
		if cl == nil {
			return usageErr("init --client %q: lucid knows claude, codex and gemini", name)
		}
		if !slices.Contains(chosen, cl) {
			chosen = append(chosen, cl)
		}
	}
	repo, _, err := findRepo()
	if err != nil {
		return err
	}
	if len(chosen) == 0 {
		chosen = []*installers.Client{installers.ClaudeCode}
		for _, cl := range installers.Detected(repo) {
			fmt.Fprintf(c.stdout, "found %s: setting lucid up for %s too\n", path.Dir(cl.Settings)+"/", cl.Name)
			chosen = append(chosen, cl)
		}
	}
	claude := slices.Contains(chosen, installers.ClaudeCode)
	codex := slices.Contains(chosen, installers.Codex)
	if !claude && (*local || *statusLine) {
		return usageErr("--local and --statusline are Claude Code's: add --client claude")
	}
	if *trustCodex && !codex {
		return usageErr("--trust-codex trusts lucid's Codex hooks: run lucid init --client codex --trust-codex")
	}
	res, err := repo.Init()
	if err != nil {
		return err
	}
	for _, p := range res.Created {
		fmt.Fprintf(c.stdout, "created %s\n", p)
	}
	var changes []installers.Change
	for _, cl := range chosen {
		var ch []installers.Change
		if cl == installers.ClaudeCode {
			ch, err = installers.Install(repo, installers.InstallOptions{Local: *local, StatusLine: *statusLine, Force: *force})
		} else {
			ch, err = cl.InstallHooks(repo)
		}
		if err != nil {
			return err
		}
		if cl == installers.Codex && *trustCodex {
			trusted, err := installers.TrustCodex(repo)
			if err != nil {
				return err
			}
			ch = append(ch, trusted...)
		}
		printChanges(c, ch)
		changes = append(changes, ch...)
	}
	merged, err := merge.Install(repo, *force)
	if err != nil {
		return err
	}
	printChanges(c, merged)
	changes = append(changes, merged...)
	if len(res.Created) == 0 && len(changes) == 0 {
		fmt.Fprintln(c.stdout, "lucid is already set up here; nothing changed")
	}
	if codex {
		if advice := installers.CodexTrustAdvice(repo); advice != "" {
			fmt.Fprintf(c.stdout, "\n%s\n", advice)
		}
	}
	if slices.Contains(chosen, installers.Gemini) {
		fmt.Fprintf(c.stdout, "\n%s\n", installers.GeminiTrustAdvice(repo))
	}
	return nil
}

// initUser registers lucid's hooks in the user settings of the clients
// named (Claude Code by default), for sessions started in any folder.
func initUser(c *cli, names []string) error {
	if len(names) == 0 {
		names = []string{"claude"}
	}
	for _, name := range names {
		cl, path := installers.UserHooks(name)
		if cl == nil {
			if name == "codex" {
				return usageErr("init --user --client codex: Codex CLI runs a hook registered both for the user and the project twice, and one for the user only once trusted; lucid sets Codex up per repository (lucid init --client codex)")
			}
			return usageErr("init --user --client %q: lucid knows claude and gemini here", name)
		}
		ch, err := installers.InstallUser(cl, path)
		if err != nil {
			return err
		}
		printChanges(c, ch)
		if len(ch) == 0 {
			fmt.Fprintf(c.stdout, "lucid's %s hooks are already in %s; nothing changed\n", cl.Name, path)
		}
	}
	return nil
}

func printChanges(c *cli, changes []installers.Change) {
	for _, ch := range changes {
		fmt.Fprintf(c.stdout, "%s: %s\n", ch.Path, ch.What)
	}
}
