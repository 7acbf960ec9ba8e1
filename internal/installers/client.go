package installers

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/setup"
)

// Client is one agent client as lucid registers itself in it: where its
// hook settings live, the events lucid handles there, and the form of an
// entry. Claude Code, Codex CLI and Gemini CLI keep hooks in the same
// shape, {"hooks": {"EVENT": [{"matcher": M, "hooks": [{"type":
// "command", "command": C, "timeout": T}]}]}}, and differ in the file,
// the events and the unit of the timeout; each client's folder fills
// one.
type Client struct {
	ID            string // as lucid init --client names it
	Name          string // as its users know it
	Settings      string // the shared settings file, relative to the work tree's top
	LocalSettings string // the personal one, "" when the client has none
	Events        []client.Event
	TimeoutUnit   time.Duration // what the file's "timeout" counts
	// Command is the shell command registered for an event.
	Command func(event string) string
	// HookName names lucid's entry for an event, where the client keys
	// hooks by name (Gemini CLI's hooksConfig.disabled); nil: no name.
	HookName func(event string) string
	// Default is the client plain lucid init sets up, whose fixes need
	// no --client.
	Default bool
	// Flat: an event's list holds the hooks themselves, not matcher
	// groups, each {"type": "command", "bash": C, "timeoutSec": T,
	// "matcher": M} (GitHub Copilot CLI's hook files); TimeoutUnit is then
	// the second.
	Flat bool
	// FlatHook, where set, is a flat file's hook for an event in another
	// shape than Copilot's, and FlatCommand the member that holds its
	// command (Crush's {"name": N, "matcher": M, "command": C, "timeout":
	// T}).
	FlatHook    func(e client.Event, command string) []byte
	FlatCommand string
	// Folders are the folders whose presence at the work tree's top has
	// plain lucid init set the client up, any one of them (Kilo Code's
	// .kilo/ and its older .kilocode/); by default, the settings' folder.
	Folders []string
	// Own, where set, says the client's Settings is no JSON settings file
	// but a file lucid owns whole (opencode's plugin), and tells lucid's
	// own, of any version, by its bytes.
	Own func(b []byte) bool
}

// group is lucid's matcher group for e, as compact JSON.
func (c *Client) group(e client.Event) []byte {
	type hook struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Name    string `json:"name,omitempty"`
		Timeout int64  `json:"timeout"`
	}
	if c.Flat && c.FlatHook != nil {
		return c.FlatHook(e, c.Command(e.Name))
	}
	if c.Flat {
		b, _ := MarshalNoEscape(struct {
			Type    string `json:"type"`
			Bash    string `json:"bash"`
			Timeout int64  `json:"timeoutSec"`
			Matcher string `json:"matcher,omitempty"`
		}{"command", c.Command(e.Name), int64(e.Timeout / c.TimeoutUnit), e.Matcher})
		return b
	}
	name := ""
	if c.HookName != nil {
		name = c.HookName(e.Name)
	}
	g := struct {
		Matcher string `json:"matcher,omitempty"`
		Hooks   []hook `json:"hooks"`
	}{e.Matcher, []hook{{"command", c.Command(e.Name), name, int64(e.Timeout / c.TimeoutUnit)}}}
	b, _ := MarshalNoEscape(g)
	return b
}

// flatCommand is the member of a flat file's hook that holds its command.
func (c *Client) flatCommand() string {
	if c.FlatCommand != "" {
		return c.FlatCommand
	}
	return "bash"
}

// isLucidCommand reports whether a hook command is one lucid registered:
// c.Command(E), or a plain `lucid hook E` (PATH/lucid hook E included;
// `lucid hook --client ID E` for a client other than Claude Code).
func (c *Client) isLucidCommand(cmd string) bool {
	cmd = strings.TrimSpace(cmd)
	f := strings.Fields(cmd)
	if len(f) == 5 && f[2] == "--client" && f[3] == c.ID {
		f = []string{f[0], f[1], f[4]}
	}
	for _, e := range c.Events {
		if cmd == c.Command(e.Name) || len(f) == 3 && filepath.Base(f[0]) == "lucid" && f[1] == "hook" && f[2] == e.Name {
			return true
		}
	}
	return false
}

// Files are the client's settings files, the shared one first.
func (c *Client) Files() []string {
	if c.LocalSettings == "" {
		return []string{c.Settings}
	}
	return []string{c.Settings, c.LocalSettings}
}

// Registered returns the settings file that holds lucid's hooks and the
// events registered there ("" when none does).
func (c *Client) Registered(repo *gitstore.Repo) (string, []string, error) {
	for _, name := range c.Files() {
		s, err := c.Read(repo, name)
		if err != nil {
			return "", nil, err
		}
		if events := s.registered(); len(events) > 0 {
			return name, events, nil
		}
	}
	return "", nil, nil
}

// InstallHooks registers lucid's hook for every event in the client's
// shared settings, keeping every byte of the user's and changing none
// when everything is in place. Claude Code's Install does more (the
// personal file, the status line, /lucid:dream).
func (c *Client) InstallHooks(repo *gitstore.Repo) ([]setup.Change, error) {
	s, err := c.Read(repo, c.Settings)
	if err != nil {
		return nil, err
	}
	return c.register(s)
}

// installAt registers lucid's hook for every event in the settings file
// at path, named name in what it reports.
func (c *Client) installAt(path, name string) ([]setup.Change, error) {
	s, err := c.readAt(path, name)
	if err != nil {
		return nil, err
	}
	return c.register(s)
}

// register registers lucid's hook for every event in s, and writes it.
func (c *Client) register(s *Settings) ([]setup.Change, error) {
	name := s.name
	what := s.RegisterWhat()
	if what == "" {
		return nil, nil
	}
	if err := s.Write(); err != nil {
		return nil, err
	}
	return []setup.Change{{Path: name, What: what}}, nil
}

// UninstallHooks removes every lucid hook from the client's settings
// files; a file left empty goes.
func (c *Client) UninstallHooks(repo *gitstore.Repo) ([]setup.Change, error) {
	var changes []setup.Change
	for _, name := range c.Files() {
		s, err := c.Read(repo, name)
		if err != nil {
			return nil, err
		}
		what := ""
		if s.Unregister() {
			what = "lucid's hooks removed"
		}
		ch, err := s.Save(repo, what)
		if err != nil {
			return nil, err
		}
		changes = append(changes, ch...)
	}
	return changes, nil
}

// Entry is one of lucid's hooks in a client's settings file, as the file
// has it now.
type Entry struct {
	Event       string
	Group, Hook int    // its place: the event's group, the hook in it
	Matcher     string // its group's
	Raw         []byte // the hook's JSON
	// Exact: its group is lucid's alone, as this lucid writes it.
	Exact bool
}

// Entries returns lucid's hooks in the client's settings file name, of
// the events lucid registers, and the file's path.
func (c *Client) Entries(repo *gitstore.Repo, name string) ([]Entry, string, error) {
	s, err := c.Read(repo, name)
	if err != nil {
		return nil, "", err
	}
	var out []Entry
	for _, e := range c.Events {
		want := c.group(e)
		for gi, g := range s.groups(e.Name) {
			_, hooks, lucid := s.lucidHooks(g)
			var grp struct {
				Matcher string `json:"matcher"`
			}
			json.Unmarshal(s.doc[g.start:g.end], &grp)
			for _, hi := range lucid {
				out = append(out, Entry{
					Event: e.Name, Group: gi, Hook: hi, Matcher: grp.Matcher,
					Raw:   s.doc[hooks[hi].start:hooks[hi].end],
					Exact: len(hooks) == 1 && SameJSON(s.doc[g.start:g.end], want),
				})
			}
		}
	}
	return out, s.path, nil
}
