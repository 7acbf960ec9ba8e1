package claude

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/setup"
)

// The files of Claude Code's that the installer changes, relative to the
// work tree's top.
const (
	SettingsName      = ".claude/settings.json"       // shared with the team
	LocalSettingsName = ".claude/settings.local.json" // personal (--local)
	DreamCommandName  = ".claude/commands/lucid/dream.md"
)

// writeTools are the tools whose calls the handlers look at: edits (the
// claim check, the plan, the count of edits) and Bash (the LUCID_AGENT
// stamp, shell writes). The delta rides on these too: an agent hears the
// news before it changes anything, and a Read or a Grep costs no hook.
// PostToolUse also takes Agent (Task in older clients), so that a lead
// hears what a subagent recorded as soon as the subagent hands back.
const writeTools = "Edit|Write|NotebookEdit|MultiEdit|Bash"

// events are the events lucid registers in Claude Code, one a line.
var events = []client.Event{
	{Name: client.SessionStart, Lucid: client.SessionStart, Timeout: 15 * time.Second},
	{Name: client.SubagentStart, Lucid: client.SubagentStart, Timeout: 15 * time.Second},
	{Name: client.UserPromptSubmit, Lucid: client.UserPromptSubmit, Timeout: 10 * time.Second},
	{Name: client.PreToolUse, Lucid: client.PreToolUse, Matcher: writeTools, Timeout: 10 * time.Second},
	{Name: client.PostToolUse, Lucid: client.PostToolUse, Matcher: writeTools + "|Agent|Task", Timeout: 10 * time.Second},
	{Name: client.Stop, Lucid: client.Stop, Timeout: 10 * time.Second},
	{Name: client.SubagentStop, Lucid: client.SubagentStop, Timeout: 10 * time.Second},
	{Name: client.TaskCompleted, Lucid: client.TaskCompleted, Timeout: 10 * time.Second},
	{Name: client.PreCompact, Lucid: client.PreCompact, Timeout: 10 * time.Second},
	{Name: client.SessionEnd, Lucid: client.SessionEnd, Timeout: 2 * time.Second}, // all SessionEnd hooks share about 1.5 s
}

// Hooks is Claude Code's settings, which take hooks in seconds.
var Hooks = &installers.Client{
	ID:            "claude",
	Name:          "Claude Code",
	Settings:      SettingsName,
	LocalSettings: LocalSettingsName,
	Events:        events,
	TimeoutUnit:   time.Second,
	Command:       HookCommand,
	Default:       true,
}

// HookCommand is the command registered for event. Where lucid is not on
// PATH (a teammate's clone, a machine without it) it does nothing and
// exits 0, so that the session goes on without a hook error on every call.
func HookCommand(event string) string {
	return "command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook " + event
}

// install registers lucid's hook for every event in Claude Code's settings
// and writes the /lucid:dream command. It keeps every key and hook of the
// user's as they are, and changes no byte when everything is in place. A
// settings file that is not valid JSON is refused, with its line.
func install(repo *gitstore.Repo, opt installers.Options) ([]setup.Change, error) {
	c := Hooks
	name, other := c.Settings, c.LocalSettings
	if opt.Local {
		name, other = other, name
	}
	var changes []setup.Change
	if s, err := c.Read(repo, other); err != nil {
		return nil, err
	} else if s.HasLucid() {
		// Registered in both files, every hook would run twice.
		changes = append(changes, setup.Change{Path: other, What: "already has lucid's hooks; " + name + " left alone (`lucid uninstall` first, to move them)"})
	} else {
		s, err := c.Read(repo, name)
		if err != nil {
			return nil, err
		}
		what := s.RegisterWhat()
		if opt.StatusLine {
			sl, err := registerStatusLine(s, opt.Force)
			if err != nil {
				return nil, err
			}
			what = installers.JoinWhat(what, sl)
		}
		if what != "" {
			if err := s.Write(); err != nil {
				return nil, err
			}
			changes = append(changes, setup.Change{Path: name, What: what})
		}
	}
	created, err := writeDreamCommand(repo)
	if err != nil {
		return nil, err
	}
	if created {
		changes = append(changes, setup.Change{Path: DreamCommandName, What: "created (the /lucid:dream command)"})
	}
	return changes, nil
}

// uninstall removes what install added: lucid's hooks from both settings
// files (a file left empty goes too), and the /lucid:dream command unless
// the user changed it. .lucid/ stays.
func uninstall(repo *gitstore.Repo) ([]setup.Change, error) {
	var changes []setup.Change
	for _, name := range Hooks.Files() {
		s, err := Hooks.Read(repo, name)
		if err != nil {
			return nil, err
		}
		hooksGone, statusGone := s.Unregister(), unregisterStatusLine(s)
		what := ""
		if hooksGone {
			what = "lucid's hooks removed"
		}
		if statusGone {
			what = installers.JoinWhat(what, "lucid's status line removed")
		}
		ch, err := s.Save(repo, what)
		if err != nil {
			return nil, err
		}
		changes = append(changes, ch...)
	}
	path := repo.Abs(DreamCommandName)
	switch b, err := gitstore.ReadFile(path, gitstore.MaxSettings); {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, err
	case string(b) != DreamCommand:
		changes = append(changes, setup.Change{Path: DreamCommandName, What: "kept: you changed it"})
	default:
		if err := os.Remove(path); err != nil {
			return nil, err
		}
		installers.RemoveEmptyDirs(repo, filepath.Dir(path))
		changes = append(changes, setup.Change{Path: DreamCommandName, What: "removed"})
	}
	return changes, nil
}

// DreamCommand is .claude/commands/lucid/dream.md, the /lucid:dream
// command.
const DreamCommand = `---
description: Consolidate lucid's shared log into .lucid/digest.md
---
Consolidate what the agents in this repository have recorded in lucid's log, so that every agent starts from a short, true digest.

1. Run ` + "`lucid dream`" + ` through Bash. It prints every live entry grouped by kind, with its evidence and ⚠stale marks.
2. Re-check each ⚠stale entry against the code: open the cited file and read what is there now.
   - Still true: ` + "`lucid supersede ID \"TEXT\" -e FILE:LINE`" + ` with fresh evidence.
   - No longer true: ` + "`lucid supersede ID --retire --why \"REASON\"`" + `.
   Do the same for entries that repeat, contradict a newer one, or no longer matter.
3. Write .lucid/digest.md: the decisions in force and why, the facts an agent needs (with FILE:LINE), the dead ends not to try again, and open questions. Plain Markdown, under 2,000 words; leave out what the plan already says.
4. Run ` + "`lucid dream --done`" + `. From then on an agent's digest gives digest.md plus only the entries newer than this point.

$ARGUMENTS
`

// writeDreamCommand writes the /lucid:dream command where it is missing.
// A file the user changed is theirs and stays as it is.
func writeDreamCommand(repo *gitstore.Repo) (bool, error) {
	path := repo.Abs(DreamCommandName)
	if _, err := os.Lstat(path); err == nil {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, err
	}
	return true, gitstore.WriteFileAtomic(path, []byte(DreamCommand), 0o644)
}

// installer is lucid's set-up of Claude Code: its hooks in one of two
// settings files, its status line and the /lucid:dream command; doctor's
// checks of them and of Claude Code itself; and lucid's hooks in the
// user's settings, which stand aside themselves (lucid hook --user) where
// the project registers its own.
var installer = &installers.Setup{
	Hooks:        Hooks,
	Write:        install,
	Remove:       uninstall,
	Check:        check,
	ClientChecks: checkClient,
	DoctorFiles:  []string{SettingsName, LocalSettingsName, DreamCommandName},
	UserSettings: UserSettings,
	UserHooks:    userHooks,
}

// Setup is lucid's set-up of Claude Code.
func (Client) Setup() *installers.Setup { return installer }

// check checks that every event is registered, in one settings file, and
// that the /lucid:dream command is there.
func check(repo *gitstore.Repo) []setup.Finding {
	hooks := Hooks.CheckHooks(repo, "hooks", "lucid's hooks are not in .claude/settings.json or settings.local.json: agents get nothing", "run `lucid init` (or `lucid init --local`)")
	dream := setup.Finding{Check: "/lucid:dream"}
	if _, err := os.Stat(repo.Abs(DreamCommandName)); err != nil {
		dream.Detail, dream.Fix = DreamCommandName+" is missing", "run `lucid init`"
	} else {
		dream.OK, dream.Detail = true, DreamCommandName
	}
	return []setup.Finding{hooks, dream}
}
