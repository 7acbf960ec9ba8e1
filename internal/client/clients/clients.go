// Package clients is the registry of the coding clients lucid serves: the
// one list that names them all, which the command line iterates, and what
// each adds to the commands' help. Adding
// a client is its folder under client/, its line here, and its identity
// in client/identity (what lucid-view knows of it without its adapter),
// in the same place of that package's list.
package clients

import (
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/client/claude"
	"github.com/lucid-dev/lucid/internal/client/cline"
	"github.com/lucid-dev/lucid/internal/client/codex"
	"github.com/lucid-dev/lucid/internal/client/copilot"
	"github.com/lucid-dev/lucid/internal/client/crush"
	"github.com/lucid-dev/lucid/internal/client/gemini"
	"github.com/lucid-dev/lucid/internal/client/opencode"
	"github.com/lucid-dev/lucid/internal/client/pi"
	"github.com/lucid-dev/lucid/internal/client/qwen"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/setup"
)

// Client is one coding client: its adapter of hooks (events, payloads,
// answers, shells) and its part of lucid init, uninstall and doctor.
type Client interface {
	client.Client
	// Setup is the client's part of lucid init, uninstall and doctor.
	Setup() *installers.Setup
	// Title is the client as its users know it.
	Title() string
}

// all are the clients, the default first: Claude Code, so that the hooks
// `lucid init` registered before there were others keep working.
var all = []Client{claude.Client{}, codex.Client{}, gemini.Client{},
	copilot.Client{},
	qwen.Client{},
	opencode.Client{},
	opencode.Kilo{},
	pi.Client{},
	pi.Omp{},
	cline.Client{},
	crush.Client{},
}

// All returns the clients, the default first.
func All() []Client { return all }

// Default is the client of a plain `lucid hook EVENT` and `lucid init`.
func Default() Client { return all[0] }

// ByName returns the client named name on the command line.
func ByName(name string) (Client, bool) {
	for _, c := range all {
		if c.Name() == name {
			return c, true
		}
	}
	return nil, false
}

// Names are the clients' names on the command line.
func Names() []string {
	names := make([]string, len(all))
	for i, c := range all {
		names[i] = c.Name()
	}
	return names
}

// Known is the clients' names as a sentence says them: "a, b and c".
func Known(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Adapters are the clients' adapters.
func Adapters() []client.Client {
	out := make([]client.Client, len(all))
	for i, c := range all {
		out[i] = c
	}
	return out
}

// outsideHooks is a client whose hooks can be registered outside the
// project (in the user's settings, or by a plugin of its marketplace) and
// then stand aside where the project registers lucid's own, so that no
// event runs lucid twice.
type outsideHooks interface {
	UserHookStandsAside(event string) bool
}

// UserHookStandsAside reports whether a hook of c registered outside the
// project (lucid hook --user) leaves event to the project's own hooks;
// ok is false for a client whose hooks are never registered so.
func UserHookStandsAside(c client.Client, event string) (aside, ok bool) {
	o, ok := c.(outsideHooks)
	return ok && o.UserHookStandsAside(event), ok
}

// UserHookClients are the names of the clients whose hooks may be
// registered outside the project (lucid hook --client NAME --user).
func UserHookClients() []string {
	var out []string
	for _, c := range all {
		if _, ok := c.(outsideHooks); ok {
			out = append(out, c.Name())
		}
	}
	return out
}

// Hosted is how a hook call of client's entry runs in the environment
// getenv: as client's own, or, where another client runs that entry
// (GitHub Copilot CLI runs Claude Code's), with its payload read and its
// answer encoded as that host gives and takes them, or not at all (aside)
// where lucid's own entry of the host serves the call, so that no call is
// handled twice.
func Hosted(client client.Client, getenv func(string) string) (hc client.Client, aside bool) {
	for _, c := range all {
		if h, ok := c.(host); ok {
			if hosts, aside := h.Hosts(client.Name(), getenv); hosts {
				return hostedClient{client, h}, aside
			}
		}
	}
	return client, false
}

// host is a client that runs other clients' entries.
type host interface {
	Hosts(client string, getenv func(string) string) (hosts, aside bool)
	DecodeHosted(other client.Client, event string, payload []byte) (client.Input, error)
	EncodeHosted(other client.Client, in client.Input, out *client.Output) ([]byte, string, int)
}

// hostedClient is a client whose entry another runs.
type hostedClient struct {
	client.Client
	host host
}

func (h hostedClient) Decode(event string, payload []byte) (client.Input, error) {
	return h.host.DecodeHosted(h.Client, event, payload)
}

func (h hostedClient) Encode(in client.Input, out *client.Output) ([]byte, string, int) {
	return h.host.EncodeHosted(h.Client, in, out)
}

// Doctor is lucid doctor's checks of the clients set up in repo: those of
// their set-up, which come before the repository's own, and those of the
// clients themselves, which come last. The default client is checked
// unless another is set up without it.
func Doctor(repo *gitstore.Repo) (setUp, after []setup.Finding) {
	var others []Client
	for _, c := range all[1:] {
		if c.Setup().Hooks.SetUp(repo) {
			others = append(others, c)
		}
	}
	def := Default()
	if len(others) > 0 && !def.Setup().Hooks.SetUp(repo) {
		setUp = append(setUp, setup.Finding{Check: "hooks", OK: true, Detail: "not set up for " + def.Title() + " (`lucid init --client " + def.Name() + "` adds it)"})
	} else {
		setUp = def.Setup().Check(repo)
	}
	for _, c := range others {
		setUp = append(setUp, c.Setup().Check(repo)...)
	}
	for _, c := range all {
		if s := c.Setup(); s.Hooks.SetUp(repo) && s.ClientChecks != nil {
			after = append(after, s.ClientChecks()...)
		}
	}
	return setUp, after
}

// Files are the clients' files in the work tree that lucid reads,
// relative to its top.
func Files() []string {
	var files []string
	for _, c := range all {
		files = append(files, c.Setup().DoctorFiles...)
	}
	return files
}

// The help of the commands that set the clients up, which names them.
const (
	InitHelp = `lucid init [--client NAME]... [--local] [--statusline] [--force] [--trust-codex] [--trust-copilot] [--leases on|off]
       lucid init --user

Sets lucid up in this repository: .lucid/plan.md (the shared plan) and
.lucid/log.jsonl (the log) at the work tree's top; lucid's hooks in
.claude/settings.json, beside your own settings and hooks; the
/lucid:dream command in .claude/commands/lucid/dream.md; and the log's merge
driver: the line ` + "`" + `.lucid/log.jsonl merge=lucid` + "`" + ` in .gitattributes (commit it)
and merge.lucid.driver in the repository's git config. Run it again at any
time: it changes nothing that is in place, and refuses a settings file
that is not JSON, naming its line. lucid uninstall takes all of it away
again but .lucid/.

--statusline also makes lucid statusline Claude Code's status line: the
other agent (or lich session) that just edited your file, or lucid's
active claims.

--leases on (the default) makes every agent's write take a lease on the
file it writes: another session's agents may not write it until the
writer's turn ends (its own session's agents are told, not stopped).
--leases off leaves a file unclaimed free to all, each agent told who
else just edited it, and ends every lease. The choice goes into
.lucid/settings.json (commit it, so every clone agrees); a person's to
make, not an agent's.

--client NAME sets lucid up in the clients named (claude, codex, gemini,
copilot, qwen, opencode, kilo, pi, omp, cline, crush; repeat it, or give a comma list): Codex CLI's hooks go into
.codex/hooks.json, Gemini CLI's into .gemini/settings.json, each beside
your own. Without --client, init sets up Claude Code, and each other
client too where its folder (.codex/, .gemini/, .github/hooks/, .qwen/,
.opencode/, .kilo/, .pi/, .omp/, .clinerules/, .crush/) is already there.

Codex runs a hook only when it is trusted, and skips an untrusted one
without a word: --trust-codex trusts lucid's own Codex hooks, and nothing
else, in $CODEX_HOME/config.toml (~/.codex/config.toml by default).

--client copilot writes GitHub Copilot CLI's hooks into
.github/hooks/lucid.json, a file of lucid's own (plain init does too where
.github/hooks/ is there). Copilot runs a repository's hooks only in a
folder it trusts: --trust-copilot adds the work tree to trustedFolders in
$COPILOT_HOME/config.json (~/.copilot/config.json by default).

Claude Code and Gemini CLI run a project's hooks only in sessions started
at the folder that holds their settings: a session started in a subfolder
of the work tree, in a repository nested in it, or above it, runs none of
them. --user registers lucid's hooks in your user settings (Claude Code's
~/.claude/settings.json, or $CLAUDE_CONFIG_DIR/settings.json; with
--client gemini, ~/.gemini/settings.json), so every session on this machine
is guarded wherever it starts; where a session's folder registers lucid's
own, only one of the two runs. It needs no repository, and is a person's
command: an agent's shell is refused.

Qwen Code (--client qwen; plain init too where .qwen/ is there) takes
lucid's hooks in .qwen/settings.json, and reads them only in sessions
started at the work tree's top; --user --client qwen registers them in
~/.qwen/settings.json (or $QWEN_HOME/settings.json), and Qwen runs the
two as one.

opencode (--client opencode; plain init too where .opencode/ is there) has
no hooks: lucid writes its own plugin, .opencode/plugins/lucid.js, which
hands each call to lucid hook --client opencode; Kilo Code (--client kilo,
or .kilo/) loads the same plugin from .kilo/plugins/lucid.js.

Pi (--client pi; plain init too where .pi/ is there) runs extensions, not
hooks: lucid writes its own, .pi/extensions/lucid.js, which hands each call
to lucid hook --client pi; oh-my-pi (--client omp, or .omp/) loads the same
extension from .omp/extensions/lucid.js. Pi from 0.79 on loads a project's
extensions only in a folder it trusts: --user --client pi writes lucid's
into ~/.pi/agent/extensions/ (or $PI_CODING_AGENT_DIR/extensions/), which
Pi loads in every folder, trusted or not; --user --client omp into
~/.omp/agent/extensions/.
Cline's CLI (--client cline; plain init too where .clinerules/ is there)
runs hook files: lucid writes its own, one per event, into
.clinerules/hooks/; --user --client cline writes them into
$CLINE_DIR/hooks (~/.cline/hooks), where they stand aside in a work tree
that has lucid's own.
Crush (--client crush; plain init too where .crush/ is there) takes
lucid's PreToolUse hook in crush.json; --user --client crush registers it
in ~/.config/crush/crush.json (or $CRUSH_GLOBAL_CONFIG/crush.json), and
Crush runs the two as one.`
	UninstallHelp = `lucid uninstall
       lucid uninstall --user

Removes exactly what lucid init added: lucid's hooks (and status line) in
.claude/settings.json and .claude/settings.local.json, lucid's hooks in
.codex/hooks.json and .gemini/settings.json and the Codex trust that
lucid init --trust-codex wrote for them, lucid's .github/hooks/lucid.json
and the folder trust lucid init --trust-copilot wrote, the /lucid:dream
command (unless you changed it), the merge driver's line in .gitattributes
and its keys in the git config. Your own settings, hooks and attributes
stay as they are, and so does .lucid/ with the plan and the log.
Qwen Code's hooks in .qwen/settings.json and Crush's in crush.json go
too, and so do lucid's opencode and Kilo Code plugins, its Pi and oh-my-pi
extensions and its Cline hook files in .clinerules/hooks/, with the folders
init created for them.
--user removes what lucid init --user added to your user settings (Claude
Code's, Gemini CLI's, Qwen Code's and Crush's, Pi's and oh-my-pi's extension,
and Cline's hook files), and nothing else. It is a person's command: an agent's shell is
refused.`
	DoctorHelp = `lucid doctor [--json]

Checks that lucid works in this repository as the hooks and git will meet
it: that the lucid on PATH is this binary, that the hooks and /lucid:dream
are installed, that git gives the log lucid's merge driver and that the
driver runs, that every file lucid reads is a regular file inside the
repository within its size limit, that the log reads (and how many lines
are not valid entries), and that the claims and the lock are healthy. For
Codex CLI, where lucid is set up for it: that Codex trusts the project and
each of lucid's hooks as they are now (it skips the others without a word)
and that its shells find lucid; for Gemini CLI: that the workspace is
trusted and lucid's hooks are not turned off in hooksConfig; for GitHub
Copilot CLI: that it trusts the folder and finds lucid; for Claude
Code, whether its record of a shell command's changes is on in every
permission mode, and how to turn it on; for Qwen Code: the folder it
must start in, its folder trust where that is on, disableAllHooks, and
lucid on the PATH its hooks get; for opencode: that its plugin is this
lucid's, that it loads as opencode loads it (with node, where it is on
PATH), and lucid on PATH; for Pi and oh-my-pi: that the extension is this lucid's,
that it loads as Pi loads it without throwing (a throw stops Pi), whether
Pi 0.79 and later trust the folder enough to load it, and lucid on
PATH; for Cline: that each of lucid's hook files is in .clinerules/hooks/,
a regular file and this lucid's, bash to run them, and lucid on PATH;
for Crush: its hook in crush.json and lucid on PATH. One line per check,
with a fix
under each failure; exit 1 when any fails.`
)

// Trust is a flag of lucid init that has one client trust lucid's own
// hooks (installers.Options.Trust), its usage, and its error without that
// client.
type Trust struct {
	Flag, Usage, Misuse string
	Client              Client
}

// Trusts are lucid init's trust flags, one per client that has one.
func Trusts() []Trust {
	return []Trust{
		{"trust-codex", "trust lucid's own Codex hooks (and nothing else) in $CODEX_HOME/config.toml",
			"--trust-codex trusts lucid's Codex hooks: run lucid init --client codex --trust-codex", codex.Client{}},
		{"trust-copilot", "have GitHub Copilot CLI trust this work tree's folder, which it needs to run any of its hooks, in $COPILOT_HOME/config.json",
			"--trust-copilot trusts the work tree in GitHub Copilot CLI: run lucid init --client copilot --trust-copilot", copilot.Client{}},
	}
}

// InitUsage is the usage of lucid init's flag that names a client.
func InitUsage(flag string) string {
	switch flag {
	case "local":
		return "register the hooks in .claude/settings.local.json (yours alone) instead of settings.json (shared)"
	case "statusline":
		return "register lucid statusline as Claude Code's status line"
	case "user":
		return "register lucid's hooks in your user settings (Claude Code's, or with --client those named: claude, gemini, qwen, pi, omp, cline, crush), for sessions started in any folder"
	}
	return ""
}

// UninstallUserUsage is the usage of lucid uninstall --user.
const UninstallUserUsage = "remove lucid's hooks from your user settings (Claude Code's, Gemini CLI's, Qwen Code's and Crush's), lucid's Pi and oh-my-pi extensions and Cline's user hooks"
