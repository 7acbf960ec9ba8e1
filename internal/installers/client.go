package installers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/client"

	"github.com/lucid-dev/lucid/gitstore"
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
	Events        []Event
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
	// Folders are the folders whose presence at the work tree's top has
	// plain lucid init set the client up, any one of them (Kilo Code's
	// .kilo/ and its older .kilocode/); by default, the settings' folder.
	Folders []string
	// Own, where set, says the client's Settings is no JSON settings file
	// but a file lucid owns whole (opencode's plugin), and tells lucid's
	// own, of any version, by its bytes.
	Own func(b []byte) bool
}

// Event is one event a client registers: the hook path reads the same
// table.
type Event = client.Event

// group is lucid's matcher group for e, as compact JSON.
func (c *Client) group(e Event) []byte {
	type hook struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Name    string `json:"name,omitempty"`
		Timeout int64  `json:"timeout"`
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

// Settings is one settings file of a client, as read: doc holds its
// bytes, which every change edits in place (splice.go).
type Settings struct {
	client     *Client
	name, path string
	doc        []byte // "{}" for a file that is missing or empty
	existed    bool
	fresh      bool // the file held no settings: lucid lays all of it out
}

// Read reads the client's settings file name, relative to the work tree's
// top.
func (c *Client) Read(repo *gitstore.Repo, name string) (*Settings, error) {
	return c.readAt(repo.Abs(name), name)
}

// readAt reads the settings file at path, named name in messages.
func (c *Client) readAt(path, name string) (*Settings, error) {
	s := &Settings{client: c, name: name, path: path, doc: []byte("{}"), fresh: true}
	raw, err := gitstore.ReadFile(s.path, gitstore.MaxSettings)
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	s.existed = true
	if len(bytes.TrimSpace(raw)) == 0 {
		return s, nil // an empty file holds no settings yet
	}
	if err := checkObject(raw); err != nil {
		return nil, s.invalid(raw, err)
	}
	if len(children(raw, root(raw))) == 0 {
		return s, nil // "{}": nothing of the user's to keep, so lucid lays it out
	}
	s.doc, s.fresh = raw, false
	// Check the shapes lucid edits before changing anything.
	if h, ok := member(raw, root(raw), "hooks"); ok {
		if !h.isObject {
			return nil, fmt.Errorf("%s: \"hooks\" is not a JSON object: fix it, then run lucid again", name)
		}
		for _, ev := range children(raw, h) {
			if !ev.isArr {
				return nil, fmt.Errorf("%s: \"hooks\".%q is not a list of matcher groups: fix it, then run lucid again", name, ev.key)
			}
		}
	}
	return s, nil
}

func (s *Settings) invalid(raw []byte, err error) error {
	if line := syntaxLine(raw, err); line > 0 {
		return fmt.Errorf("%s:%d: not valid JSON (%w): fix it, then run lucid again", s.name, line, err)
	}
	return fmt.Errorf("%s: not valid JSON (%w): fix it, then run lucid again", s.name, err)
}

func (s *Settings) root() node { return root(s.doc) }

// groups returns the matcher groups of event.
func (s *Settings) groups(event string) []node {
	h, ok := member(s.doc, s.root(), "hooks")
	if !ok {
		return nil
	}
	ev, ok := member(s.doc, h, event)
	if !ok || !ev.isArr {
		return nil
	}
	return children(s.doc, ev)
}

// lucidHooks returns a group's list of hooks and which of them are
// lucid's. A flat file's group is one hook, its own list.
func (s *Settings) lucidHooks(g node) (list node, hooks []node, lucid []int) {
	if s.client.Flat {
		var cmd struct {
			Bash string `json:"bash"`
		}
		if json.Unmarshal(s.doc[g.start:g.end], &cmd) == nil && s.client.isLucidCommand(cmd.Bash) {
			lucid = []int{0}
		}
		return g, []node{g}, lucid
	}
	list, ok := member(s.doc, g, "hooks")
	if !ok || !list.isArr {
		return list, nil, nil
	}
	hooks = children(s.doc, list)
	for i, h := range hooks {
		var cmd struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(s.doc[h.start:h.end], &cmd) == nil && s.client.isLucidCommand(cmd.Command) {
			lucid = append(lucid, i)
		}
	}
	return list, hooks, lucid
}

// has reports whether event has exactly lucid's group for e and no other
// lucid hook.
func (s *Settings) has(e Event) bool {
	exact, others := 0, 0
	want := s.client.group(e)
	for _, g := range s.groups(e.Name) {
		_, _, lucid := s.lucidHooks(g)
		if len(lucid) > 0 && SameJSON(s.doc[g.start:g.end], want) {
			exact++
		} else {
			others += len(lucid)
		}
	}
	return exact == 1 && others == 0
}

// HasLucid reports whether the file holds any hook of lucid's, of any
// version.
func (s *Settings) HasLucid() bool {
	h, ok := member(s.doc, s.root(), "hooks")
	if !ok {
		return false
	}
	for _, ev := range children(s.doc, h) {
		for _, g := range s.groups(ev.key) {
			if _, _, lucid := s.lucidHooks(g); len(lucid) > 0 {
				return true
			}
		}
	}
	return false
}

// registered returns the events that have exactly lucid's group.
func (s *Settings) registered() []string {
	var events []string
	for _, e := range s.client.Events {
		if s.has(e) {
			events = append(events, e.Name)
		}
	}
	return events
}

// register puts lucid's group in place for every event, replacing lucid
// hooks that differ (another version's), and returns how many events it
// changed.
func (s *Settings) register() int {
	changed := 0
	for _, e := range s.client.Events {
		if s.has(e) {
			continue
		}
		s.removeLucid(e.Name)
		s.appendGroup(e.Name, s.client.group(e))
		changed++
	}
	return changed
}

// appendGroup adds a matcher group at the end of event's list, creating
// the list, and "hooks", where they are missing.
func (s *Settings) appendGroup(event string, group []byte) {
	r := s.root()
	h, ok := member(s.doc, r, "hooks")
	if !ok {
		s.doc = insertChild(s.doc, r, "hooks", []byte(`{`+JSONKey(event)+`:[`+string(group)+`]}`))
		return
	}
	ev, ok := member(s.doc, h, event)
	if !ok {
		s.doc = insertChild(s.doc, h, event, []byte(`[`+string(group)+`]`))
		return
	}
	s.doc = insertChild(s.doc, ev, "", group)
}

func JSONKey(k string) string {
	b, _ := MarshalNoEscape(k)
	return string(b)
}

// removeLucid removes every lucid hook of event, one at a time: a group
// that held nothing else goes with it, and so do an event, and "hooks",
// that lucid left empty. It reports whether it removed any.
func (s *Settings) removeLucid(event string) bool {
	removed := false
	for s.removeOneLucid(event) {
		removed = true
	}
	return removed
}

func (s *Settings) removeOneLucid(event string) bool {
	r := s.root()
	h, ok := member(s.doc, r, "hooks")
	if !ok {
		return false
	}
	ev, ok := member(s.doc, h, event)
	if !ok || !ev.isArr {
		return false
	}
	groups := children(s.doc, ev)
	for gi, g := range groups {
		list, hooks, lucid := s.lucidHooks(g)
		switch {
		case len(lucid) == 0:
			continue
		case len(lucid) < len(hooks):
			s.doc = removeChild(s.doc, list, lucid[0])
		case len(groups) > 1:
			s.doc = removeChild(s.doc, ev, gi) // nothing of the user's in it
		case len(children(s.doc, h)) > 1:
			s.doc = removeMember(s.doc, h, event)
		default:
			s.doc = removeMember(s.doc, r, "hooks")
		}
		return true
	}
	return false
}

// Unregister removes every lucid hook, of any event; it reports whether
// anything changed.
func (s *Settings) Unregister() bool {
	h, ok := member(s.doc, s.root(), "hooks")
	if !ok {
		return false
	}
	var events []string
	for _, ev := range children(s.doc, h) {
		events = append(events, ev.key)
	}
	changed := false
	for _, e := range events {
		if s.removeLucid(e) {
			changed = true
		}
	}
	return changed
}

// empty reports whether the settings hold nothing at all.
func (s *Settings) empty() bool { return len(children(s.doc, s.root())) == 0 }

// Write replaces the file atomically. A file lucid starts is laid out
// with two spaces; a user's keeps its bytes, edited in place.
func (s *Settings) Write() error {
	out := s.doc
	if s.fresh {
		var b bytes.Buffer
		if err := json.Indent(&b, s.doc, "", "  "); err != nil {
			return err
		}
		b.WriteByte('\n')
		out = b.Bytes()
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return err
	}
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(s.path); err == nil {
		perm = fi.Mode().Perm()
	}
	return gitstore.WriteFileAtomic(s.path, out, perm)
}

// SameJSON reports whether a and b hold the same JSON value, however
// spaced or escaped.
func SameJSON(a, b []byte) bool {
	var va, vb any
	return json.Unmarshal(a, &va) == nil && json.Unmarshal(b, &vb) == nil && reflect.DeepEqual(va, vb)
}

// RegisterWhat registers lucid's hooks and says what changed ("" when
// nothing did).
func (s *Settings) RegisterWhat() string {
	n := s.register()
	if n == 0 {
		return ""
	}
	events := fmt.Sprintf("%d events", n)
	if n == 1 {
		events = "1 event"
	}
	if !s.existed {
		return "created, with lucid's hooks for " + events
	}
	return "lucid's hooks registered for " + events
}

// Save writes the settings after lucid removed what of its own they held
// (what says what, "" for nothing): a file left empty goes, with the
// folders of repo it leaves empty (with no repo, the user's, only the
// file).
func (s *Settings) Save(repo *gitstore.Repo, what string) ([]setup.Change, error) {
	if what == "" {
		return nil, nil
	}
	if s.empty() {
		if err := os.Remove(s.path); err != nil {
			return nil, err
		}
		if repo != nil {
			RemoveEmptyDirs(repo, filepath.Dir(s.path))
		}
		return []setup.Change{{Path: s.name, What: "removed (it held only lucid's hooks)"}}, nil
	}
	if err := s.Write(); err != nil {
		return nil, err
	}
	return []setup.Change{{Path: s.name, What: what}}, nil
}

// InstallHooks registers lucid's hook for every event in the client's
// shared settings, keeping every byte of the user's and changing none
// when everything is in place. Claude Code's Install does more (the
// personal file, the status line, /lucid:dream).
func (c *Client) InstallHooks(repo *gitstore.Repo) ([]setup.Change, error) {
	return c.installAt(repo.Abs(c.Settings), c.Settings)
}

// installAt registers lucid's hook for every event in the settings file
// at path, named name in what it reports.
func (c *Client) installAt(path, name string) ([]setup.Change, error) {
	s, err := c.readAt(path, name)
	if err != nil {
		return nil, err
	}
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

// Name is the file's name, as messages give it.
func (s *Settings) Name() string { return s.name }

// Member returns the top-level member key of the settings, as the file
// has it.
func (s *Settings) Member(key string) ([]byte, bool) {
	m, ok := member(s.doc, s.root(), key)
	if !ok {
		return nil, false
	}
	return s.doc[m.start:m.end], true
}

// SetMember sets the top-level member key to value, in the file's layout.
func (s *Settings) SetMember(key string, value []byte) {
	s.doc = setMember(s.doc, s.root(), key, value)
}

// Keys are the settings' top-level members, in the file's order.
func (s *Settings) Keys() []string {
	var keys []string
	for _, c := range children(s.doc, s.root()) {
		keys = append(keys, c.key)
	}
	return keys
}

// RemoveMember removes the top-level member key.
func (s *Settings) RemoveMember(key string) { s.doc = removeMember(s.doc, s.root(), key) }

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

// RemoveEmptyDirs removes dir and its parents up to the work tree's top
// while they are empty (.claude/commands/lucid, then .claude/commands,
// then .claude).
func RemoveEmptyDirs(repo *gitstore.Repo, dir string) {
	for {
		if rel, ok := gitstore.Inside(repo.Top, dir); !ok || rel == "." || os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// CompactJSON is raw without its spaces, or as it is where it is no JSON.
func CompactJSON(raw []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// JoinWhat joins two descriptions of a change, either of which may be "".
func JoinWhat(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// ReadHomeFile reads a file of the user's own (in their home, not in a
// repository): a symbolic link there is the user's doing (a dotfiles
// folder), so it is followed wherever it points, and *path becomes its
// target, so that a write replaces the file and keeps the link.
func ReadHomeFile(path *string) ([]byte, error) {
	if target, err := filepath.EvalSymlinks(*path); err == nil {
		*path = target
	}
	return gitstore.ReadFile(*path, gitstore.MaxSettings)
}
