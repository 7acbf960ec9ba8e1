package installers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/setup"
)

// Settings is one settings file of a client, as read: doc holds its
// bytes, which every change edits in place (splice.go).
type Settings struct {
	client     *Client
	repo       *gitstore.Repo // the work tree of a project's file; nil for the user's
	name, path string
	doc        []byte // "{}" for a file that is missing or empty
	existed    bool
	raw        []byte // the file as read, when it existed
	fresh      bool   // the file held no settings: lucid lays all of it out
}

// Read reads the client's settings file name, relative to the work tree's
// top.
func (c *Client) Read(repo *gitstore.Repo, name string) (*Settings, error) {
	s, err := c.readAt(repo.Abs(name), name)
	if s != nil {
		s.repo = repo
	}
	return s, err
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
	s.existed, s.raw = true, raw
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
		var hook map[string]json.RawMessage
		var cmd string
		if json.Unmarshal(s.doc[g.start:g.end], &hook) == nil && json.Unmarshal(hook[s.client.flatCommand()], &cmd) == nil && s.client.isLucidCommand(cmd) {
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
func (s *Settings) has(e client.Event) bool {
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
// with two spaces; a user's keeps its bytes, edited in place. A project's
// file that lucid makes is noted as lucid's, for uninstall.
func (s *Settings) Write() error {
	if err := s.write(); err != nil {
		return err
	}
	if s.repo != nil {
		made := !s.existed
		var bare []byte
		if !made && s.bare() {
			bare = s.raw
		}
		s.existed = true
		return recordMade(s.repo, s.name, made, bare)
	}
	return nil
}

// bare reports whether the file as read held no setting but empty ones
// ({}, {"hooks": {}}, nothing at all): uninstall gives such a file back
// as it was, since removing lucid's hooks leaves it {}.
func (s *Settings) bare() bool {
	if s.raw == nil || s.fresh {
		return s.raw != nil
	}
	for _, m := range children(s.raw, root(s.raw)) {
		if len(bytes.TrimSpace(s.raw[m.start:m.end])) > 2 || (!m.isObject && !m.isArr) {
			return false
		}
	}
	return true
}

func (s *Settings) write() error {
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
	// A project's file goes only when lucid made it: a file of the user's
	// that held nothing else ({"hooks": {}}) stays.
	if s.empty() && s.repo != nil && repo != nil {
		if bare, ok := bareOriginal(repo, s.name); ok {
			if err := gitstore.WriteFileAtomic(s.path, bare, 0o644); err != nil {
				return nil, err
			}
			return []setup.Change{{Path: s.name, What: what}}, forgetMade(repo, s.name)
		}
	}
	if s.empty() && (repo == nil || s.repo == nil || madeByLucid(repo, s.name)) {
		if err := os.Remove(s.path); err != nil {
			return nil, err
		}
		if repo != nil {
			RemoveEmptyDirs(repo, filepath.Dir(s.path))
			if err := forgetMade(repo, s.name); err != nil {
				return nil, err
			}
		}
		return []setup.Change{{Path: s.name, What: "removed (it held only lucid's hooks)"}}, nil
	}
	if err := s.Write(); err != nil {
		return nil, err
	}
	return []setup.Change{{Path: s.name, What: what}}, nil
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

// madeRecord is the settings files of a work tree that lucid made (rather
// than edited), by their names relative to its top: uninstall removes
// such a file when it holds nothing else, and keeps one of the user's. Bare
// keeps the bytes of the user's files that held no setting, which lucid's
// hooks then filled, to give them back as they were.
type madeRecord struct {
	Files []string          `json:"files"`
	Bare  map[string]string `json:"bare,omitempty"`
}

func madePath(repo *gitstore.Repo) string {
	return filepath.Join(repo.GitDir, "lucid", "settings-made.json")
}

// madeByLucid reports whether lucid made the settings file name of repo.
// A work tree set up before lucid kept the record has none: its files are
// taken as lucid's, as they were then.
func madeByLucid(repo *gitstore.Repo, name string) bool {
	if _, err := os.Stat(madePath(repo)); err != nil {
		return true
	}
	r, err := ReadRecord[madeRecord](madePath(repo))
	return err == nil && slices.Contains(r.Files, name)
}

// bareOriginal is the user's file name as it was before lucid's hooks
// filled it, when it held no setting.
func bareOriginal(repo *gitstore.Repo, name string) ([]byte, bool) {
	r, err := ReadRecord[madeRecord](madePath(repo))
	if err != nil {
		return nil, false
	}
	b, ok := r.Bare[name]
	return []byte(b), ok
}

// recordMade keeps the record of the files lucid made, with name in it
// when made, and the bytes of a bare file of the user's: a work tree whose
// files lucid has edited has a record, so that a file of the user's is
// never taken for one lucid made.
func recordMade(repo *gitstore.Repo, name string, made bool, bare []byte) error {
	return UpdateRecord(madePath(repo), func(r *madeRecord) {
		if made && !slices.Contains(r.Files, name) {
			r.Files = append(r.Files, name)
		}
		if bare != nil {
			if r.Bare == nil {
				r.Bare = map[string]string{}
			}
			r.Bare[name] = string(bare)
		}
		if r.Files == nil {
			r.Files = []string{} // the record stays: its absence means a set-up older than it
		}
	}, func(madeRecord) bool { return false })
}

// forgetMade drops name from the record of the files lucid made.
func forgetMade(repo *gitstore.Repo, name string) error {
	if _, err := os.Stat(madePath(repo)); err != nil {
		return nil
	}
	return UpdateRecord(madePath(repo), func(r *madeRecord) {
		r.Files = slices.DeleteFunc(r.Files, func(f string) bool { return f == name })
		delete(r.Bare, name)
		if r.Files == nil {
			r.Files = []string{}
		}
	}, func(madeRecord) bool { return false })
}
