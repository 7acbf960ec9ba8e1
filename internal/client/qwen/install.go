package qwen

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/setup"
)

// writeTools are the tools whose calls the handlers look at: the edits
// (the claim check, the count of edits) and the shells (shell writes).
// Qwen tests a matcher that starts with ^ as a regular expression alone,
// hence the anchors: "edit" alone would match notebook_edit and any tool
// with it in its name.
const writeTools = WriteFile + "|" + Edit + "|" + Replace + "|" + NotebookEdit + "|" + ShellTool + "|" + Monitor

// events are the events lucid registers in Qwen Code. PostToolUse also
// takes the agent tool, so that a lead hears what a subagent recorded as
// soon as it hands back. PostToolBatch is not among them: it fires after
// each tool call too, where PostToolUse and the next UserPromptSubmit
// carry the news already. A timed-out PreToolUse lets the tool run, so its
// timeout is far above the hooks' lock wait.
var events = []client.Event{
	{Name: client.SessionStart, Lucid: client.SessionStart, Timeout: 15 * time.Second},
	{Name: client.SubagentStart, Lucid: client.SubagentStart, Timeout: 15 * time.Second},
	{Name: client.UserPromptSubmit, Lucid: client.UserPromptSubmit, Timeout: 10 * time.Second},
	{Name: client.PreToolUse, Lucid: client.PreToolUse, Matcher: "^(" + writeTools + ")$", Timeout: 10 * time.Second},
	{Name: client.PostToolUse, Lucid: client.PostToolUse, Matcher: "^(" + writeTools + "|" + AgentTool + ")$", Timeout: 10 * time.Second},
	{Name: client.Stop, Lucid: client.Stop, Timeout: 10 * time.Second},
	{Name: client.SubagentStop, Lucid: client.SubagentStop, Timeout: 10 * time.Second},
	{Name: client.PreCompact, Lucid: client.PreCompact, Timeout: 10 * time.Second},
	{Name: client.SessionEnd, Lucid: client.SessionEnd, Timeout: 2 * time.Second},
}

// Hooks is Qwen Code (0.24.4): hooks in .qwen/settings.json, timeouts in
// seconds (Qwen reads a value under 1000 as seconds), each entry named, so
// that lucid's entry in the user's settings and the project's is one hook
// to Qwen, which runs it once.
var Hooks = &installers.Client{
	ID:          "qwen",
	Name:        "Qwen Code",
	Settings:    SettingsName,
	Events:      events,
	TimeoutUnit: time.Second,
	Command:     installers.ClientCommand("qwen"),
	HookName:    installers.EntryName,
}

// SettingsName is Qwen's project settings file.
const SettingsName = ".qwen/settings.json"

// installer is lucid's set-up of Qwen: its hooks, with Qwen's "$version"
// in a file lucid creates, and doctor's checks of what Qwen needs before
// it runs them: the folder it starts in, trust where folder trust is on,
// hooks not turned off, and lucid on the PATH its hooks run with. In
// Qwen's user settings go its project entries as they are, which Qwen runs
// once where both are registered (seen with 0.24.4: a hook of one name and
// command in both ran once).
var installer = &installers.Setup{
	Hooks:  Hooks,
	Write:  write,
	Remove: remove,
	Check: func(repo *gitstore.Repo) []setup.Finding {
		return []setup.Finding{Hooks.CheckRegistered(repo), checkStartFolder(repo), checkQwenTrust(repo), checkQwenEnabled(repo), installers.CheckLucidOnPath(Hooks.ID, "Qwen Code")}
	},
	Advice:       advice,
	UserSettings: userSettings,
}

// Setup is lucid's set-up of Qwen.
func (Client) Setup() *installers.Setup { return installer }

// Qwen Code 0.24.4 rewrites a settings file that has no "$version" at
// its first run, to add "$version": 4 (seen with the real client): a
// .qwen/settings.json that lucid creates has it already, so that the
// committed file does not change under the user.
const (
	versionKey      = "$version"
	settingsVersion = "4"
)

// write registers lucid's hooks in .qwen/settings.json, keeping every
// byte of the user's; a file lucid creates carries Qwen's "$version".
func write(repo *gitstore.Repo, _ installers.Options) ([]setup.Change, error) {
	s, err := Hooks.Read(repo, SettingsName)
	if err != nil {
		return nil, err
	}
	what := s.RegisterWhat()
	if what == "" {
		return nil, nil
	}
	if _, ok := s.Member(versionKey); !ok && strings.HasPrefix(what, "created") {
		s.SetMember(versionKey, []byte(settingsVersion))
	}
	if err := s.Write(); err != nil {
		return nil, err
	}
	return []setup.Change{{Path: SettingsName, What: what}}, nil
}

// remove removes lucid's hooks; a file left with nothing but Qwen's
// "$version" goes too, as it came with them.
func remove(repo *gitstore.Repo) ([]setup.Change, error) {
	s, err := Hooks.Read(repo, SettingsName)
	if err != nil {
		return nil, err
	}
	what := ""
	if s.Unregister() {
		what = "lucid's hooks removed"
		if keys := s.Keys(); len(keys) == 1 && keys[0] == versionKey {
			s.RemoveMember(versionKey)
		}
	}
	return s.Save(repo, what)
}

// advice is what lucid init says about where Qwen reads project hooks,
// and its trust when that is on.
func advice(repo *gitstore.Repo) string {
	s := "Qwen Code reads .qwen/settings.json only in the folder it starts in: start qwen in " + repo.Top +
		", or run `lucid init --user --client qwen` so that sessions started in a subfolder are guarded too."
	if f := checkQwenTrust(repo); !f.OK {
		s += " " + f.Detail + ": " + f.Fix + "."
	}
	return s
}

// userSettings is Qwen's user settings file.
func userSettings() string { return filepath.Join(qwenDir(), "settings.json") }
