package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/merge"
)

// The files of Claude Code's that the installer changes, relative to the
// work tree's top.
const (
	SettingsName      = ".claude/settings.json"       // shared with the team
	LocalSettingsName = ".claude/settings.local.json" // personal (--local)
	DreamCommandName  = ".claude/commands/lucid/dream.md"
)

// registration is how lucid registers one event: the narrowest matcher its
// handler needs (empty: the event takes none, or every source) and a
// timeout in seconds, after which Claude Code goes on without the hook.
type registration struct {
	event   string
	matcher string
	timeout int
}

// writeTools are the tools whose calls the handlers look at: edits (the
// claim check, the plan, the count of edits) and Bash (the LUCID_AGENT
// stamp, shell writes). The delta rides on these too: an agent hears the
// news before it changes anything, and a Read or a Grep costs no hook.
// PostToolUse also takes Agent (Task in older clients), so that a lead
// hears what a subagent recorded as soon as the subagent hands back.
const writeTools = "Edit|Write|NotebookEdit|MultiEdit|Bash"

var registrations = []registration{
	{"SessionStart", "", 15},
	{"SubagentStart", "", 15},
	{"UserPromptSubmit", "", 10},
	{"PreToolUse", writeTools, 10},
	{"PostToolUse", writeTools + "|Agent|Task", 10},
	{"Stop", "", 10},
	{"SubagentStop", "", 10},
	{"TaskCompleted", "", 10},
	{"TeammateIdle", "", 10},
	{"PreCompact", "", 10},
	{"SessionEnd", "", 2}, // all SessionEnd hooks share about 1.5 s
}

// HookCommand is the command registered for event. Where lucid is not on
// PATH (a teammate's clone, a machine without it) it does nothing and
// exits 0, so that the session goes on without a hook error on every call.
func HookCommand(event string) string {
	return "command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook " + event
}

// isLucidCommand reports whether a hook command is one lucid registered:
// HookCommand(E), or a plain `lucid hook E` (PATH/lucid hook E included).
func isLucidCommand(cmd string) bool {
	cmd = strings.TrimSpace(cmd)
	for _, r := range registrations {
		if cmd == HookCommand(r.event) {
			return true
		}
	}
	f := strings.Fields(cmd)
	return len(f) == 3 && filepath.Base(f[0]) == "lucid" && f[1] == "hook" && knownEvent(f[2])
}

// Change is one file the installer created, changed or removed; the same
// as the merge driver's installer reports, so that lucid init prints both
// alike.
type Change = merge.Change

// InstallOptions says where Install registers the hooks.
type InstallOptions struct {
	// Local registers them in settings.local.json (personal) instead of
	// settings.json (shared with the team).
	Local bool
	// StatusLine registers `lucid statusline` as Claude Code's status
	// line; Force lets it replace one the user has.
	StatusLine, Force bool
}

// StatusLineCommand is the status line lucid registers; like HookCommand,
// it does nothing where lucid is not on PATH.
const StatusLineCommand = "command -v lucid >/dev/null 2>&1 || exit 0; exec lucid statusline"

// Install registers lucid's hook for every event in Claude Code's settings
// and writes the /lucid:dream command. It keeps every key and hook of the
// user's as they are, and changes no byte when everything is in place. A
// settings file that is not valid JSON is refused, with its line.
func Install(repo *gitstore.Repo, opt InstallOptions) ([]Change, error) {
	name, other := SettingsName, LocalSettingsName
	if opt.Local {
		name, other = other, name
	}
	var changes []Change
	if s, err := readSettings(repo, other); err != nil {
		return nil, err
	} else if s.hasLucid() {
		// Registered in both files, every hook would run twice.
		changes = append(changes, Change{Path: other, What: "already has lucid's hooks; " + name + " left alone (`lucid uninstall` first, to move them)"})
	} else {
		s, err := readSettings(repo, name)
		if err != nil {
			return nil, err
		}
		what := s.register()
		if opt.StatusLine {
			sl, err := s.registerStatusLine(opt.Force)
			if err != nil {
				return nil, err
			}
			what = joinWhat(what, sl)
		}
		if what != "" {
			if err := s.write(); err != nil {
				return nil, err
			}
			changes = append(changes, Change{Path: name, What: what})
		}
	}
	created, err := writeDreamCommand(repo)
	if err != nil {
		return nil, err
	}
	if created {
		changes = append(changes, Change{Path: DreamCommandName, What: "created (the /lucid:dream command)"})
	}
	return changes, nil
}

// Uninstall removes what Install added: lucid's hooks from both settings
// files (a file left empty goes too), and the /lucid:dream command unless
// the user changed it. .lucid/ stays.
func Uninstall(repo *gitstore.Repo) ([]Change, error) {
	var changes []Change
	for _, name := range []string{SettingsName, LocalSettingsName} {
		s, err := readSettings(repo, name)
		if err != nil {
			return nil, err
		}
		hooksGone, statusGone := s.unregister(), s.unregisterStatusLine()
		if !hooksGone && !statusGone {
			continue
		}
		if s.root.len() == 0 {
			if err := os.Remove(s.path); err != nil {
				return nil, err
			}
			changes = append(changes, Change{Path: name, What: "removed (it held only lucid's hooks)"})
			removeEmptyDirs(repo, filepath.Dir(s.path))
			continue
		}
		if err := s.write(); err != nil {
			return nil, err
		}
		what := ""
		if hooksGone {
			what = "lucid's hooks removed"
		}
		if statusGone {
			what = joinWhat(what, "lucid's status line removed")
		}
		changes = append(changes, Change{Path: name, What: what})
	}
	path := repo.Abs(DreamCommandName)
	switch b, err := os.ReadFile(path); {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, err
	case string(b) != DreamCommand:
		changes = append(changes, Change{Path: DreamCommandName, What: "kept: you changed it"})
	default:
		if err := os.Remove(path); err != nil {
			return nil, err
		}
		removeEmptyDirs(repo, filepath.Dir(path))
		changes = append(changes, Change{Path: DreamCommandName, What: "removed"})
	}
	return changes, nil
}

// Registered returns the settings file that holds lucid's hooks and the
// events registered there ("" when none does).
func Registered(repo *gitstore.Repo) (string, []string, error) {
	for _, name := range []string{SettingsName, LocalSettingsName} {
		s, err := readSettings(repo, name)
		if err != nil {
			return "", nil, err
		}
		var events []string
		for _, r := range registrations {
			if s.hasGroup(r) {
				events = append(events, r.event)
			}
		}
		if len(events) > 0 {
			return name, events, nil
		}
	}
	return "", nil, nil
}

// removeEmptyDirs removes dir and its parents up to the top while they
// are empty (.claude/commands/lucid, then .claude/commands, then .claude).
func removeEmptyDirs(repo *gitstore.Repo, dir string) {
	for dir != repo.Top && strings.HasPrefix(dir, repo.Top) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// settings is one of Claude Code's settings files, as read.
type settings struct {
	name, path string
	root       *object
	indent     string // the file's own indentation, kept when it is rewritten
	existed    bool
}

func readSettings(repo *gitstore.Repo, name string) (*settings, error) {
	s := &settings{name: name, path: repo.Abs(name), root: newObject(), indent: "  "}
	raw, err := os.ReadFile(s.path)
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
	root, err := parseObject(raw)
	if err != nil {
		return nil, s.invalid(raw, err)
	}
	s.root = root
	s.indent = detectIndent(raw)
	// Check the shapes lucid edits before changing anything.
	if hooks, ok := root.get("hooks"); ok {
		h, err := parseObject(hooks)
		if err != nil {
			return nil, fmt.Errorf("%s: \"hooks\" is not a JSON object: fix it, then run lucid again", name)
		}
		for _, r := range registrations {
			if raw, ok := h.get(r.event); ok {
				var groups []json.RawMessage
				if json.Unmarshal(raw, &groups) != nil {
					return nil, fmt.Errorf("%s: \"hooks\".%q is not a list of matcher groups: fix it, then run lucid again", name, r.event)
				}
			}
		}
	}
	return s, nil
}

func (s *settings) invalid(raw []byte, err error) error {
	if line := syntaxLine(raw, err); line > 0 {
		return fmt.Errorf("%s:%d: not valid JSON (%v): fix it, then run lucid again", s.name, line, err)
	}
	return fmt.Errorf("%s: not valid JSON (%v): fix it, then run lucid again", s.name, err)
}

// detectIndent returns the indentation of the first indented line.
func detectIndent(raw []byte) string {
	for _, line := range bytes.Split(raw, []byte{'\n'})[1:] {
		ws := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		if len(ws) > 0 && len(ws) < len(line) {
			return string(ws)
		}
	}
	return "  "
}

// hooksObject returns settings' "hooks" (checked in readSettings).
func (s *settings) hooksObject() *object {
	raw, ok := s.root.get("hooks")
	if !ok {
		return newObject()
	}
	h, _ := parseObject(raw)
	return h
}

// groups returns the matcher groups of event.
func groupsOf(h *object, event string) []json.RawMessage {
	var groups []json.RawMessage
	if raw, ok := h.get(event); ok {
		json.Unmarshal(raw, &groups)
	}
	return groups
}

// group is lucid's matcher group for r.
func (r registration) group() json.RawMessage {
	type hook struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
	}
	g := struct {
		Matcher string `json:"matcher,omitempty"`
		Hooks   []hook `json:"hooks"`
	}{r.matcher, []hook{{"command", HookCommand(r.event), r.timeout}}}
	b, _ := marshalNoEscape(g)
	return b
}

// lucidHooks counts lucid's hooks in a matcher group and returns the
// group without them.
func lucidHooks(group json.RawMessage) (n int, without *object) {
	g, err := parseObject(group)
	if err != nil {
		return 0, nil
	}
	var hooks []json.RawMessage
	raw, _ := g.get("hooks")
	if json.Unmarshal(raw, &hooks) != nil {
		return 0, g
	}
	var keep []json.RawMessage
	for _, h := range hooks {
		var cmd struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(h, &cmd) == nil && isLucidCommand(cmd.Command) {
			n++
			continue
		}
		keep = append(keep, h)
	}
	if n > 0 {
		if len(keep) == 0 {
			return n, nil // nothing of the user's in it: drop the group
		}
		b, _ := marshalNoEscape(keep)
		g.set("hooks", b)
	}
	return n, g
}

// hasGroup reports whether event has exactly lucid's group for r and no
// other lucid hook.
func (s *settings) hasGroup(r registration) bool {
	exact, others := 0, 0
	for _, g := range groupsOf(s.hooksObject(), r.event) {
		n, _ := lucidHooks(g)
		if n > 0 && sameJSON(g, r.group()) {
			exact++
		} else {
			others += n
		}
	}
	return exact == 1 && others == 0
}

func (s *settings) hasLucid() bool {
	h := s.hooksObject()
	for _, r := range registrations {
		for _, g := range groupsOf(h, r.event) {
			if n, _ := lucidHooks(g); n > 0 {
				return true
			}
		}
	}
	return false
}

// register puts lucid's group in place for every event, replacing lucid
// hooks that differ (another version's), and says what it did, or "" when
// everything was in place.
func (s *settings) register() string {
	h := s.hooksObject()
	changed := 0
	for _, r := range registrations {
		if s.hasGroup(r) {
			continue
		}
		groups := removeLucid(groupsOf(h, r.event))
		groups = append(groups, r.group())
		b, _ := marshalNoEscape(groups)
		h.set(r.event, b)
		changed++
	}
	if changed == 0 {
		return ""
	}
	b, _ := h.MarshalJSON()
	s.root.set("hooks", b)
	switch {
	case !s.existed:
		return fmt.Sprintf("created, with lucid's hooks for %d events", changed)
	default:
		return fmt.Sprintf("lucid's hooks registered for %d %s", changed, Plural(changed, "event", "events"))
	}
}

// unregister removes every lucid hook; an event, and "hooks", that lucid
// left empty go too. It reports whether anything changed.
func (s *settings) unregister() bool {
	h := s.hooksObject()
	changed := false
	for _, r := range registrations {
		groups := groupsOf(h, r.event)
		kept := removeLucid(groups)
		if len(kept) == len(groups) && !containsLucid(groups) {
			continue
		}
		changed = true
		if len(kept) == 0 {
			h.del(r.event)
		} else {
			b, _ := marshalNoEscape(kept)
			h.set(r.event, b)
		}
	}
	if !changed {
		return false
	}
	if h.len() == 0 {
		s.root.del("hooks")
	} else {
		b, _ := h.MarshalJSON()
		s.root.set("hooks", b)
	}
	return true
}

func containsLucid(groups []json.RawMessage) bool {
	for _, g := range groups {
		if n, _ := lucidHooks(g); n > 0 {
			return true
		}
	}
	return false
}

// removeLucid returns the groups without lucid's hooks, dropping groups
// that held nothing else.
func removeLucid(groups []json.RawMessage) []json.RawMessage {
	var out []json.RawMessage
	for _, g := range groups {
		n, without := lucidHooks(g)
		switch {
		case n == 0:
			out = append(out, g)
		case without != nil:
			b, _ := without.MarshalJSON()
			out = append(out, b)
		}
	}
	return out
}

// statusLine is lucid's statusLine setting.
func statusLine() json.RawMessage {
	b, _ := marshalNoEscape(struct {
		Type    string `json:"type"`
		Command string `json:"command"`
	}{"command", StatusLineCommand})
	return b
}

// isLucidStatusLine reports whether a statusLine setting runs lucid's.
func isLucidStatusLine(raw json.RawMessage) bool {
	var sl struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(raw, &sl) != nil {
		return false
	}
	cmd := strings.TrimSpace(sl.Command)
	f := strings.Fields(cmd)
	return cmd == StatusLineCommand || len(f) == 2 && filepath.Base(f[0]) == "lucid" && f[1] == "statusline"
}

// registerStatusLine sets lucid's status line. One the user has is
// theirs: it is replaced only with force.
func (s *settings) registerStatusLine(force bool) (string, error) {
	old, ok := s.root.get("statusLine")
	switch {
	case ok && sameJSON(old, statusLine()):
		return "", nil
	case ok && !isLucidStatusLine(old) && !force:
		return "", fmt.Errorf("%s already has a statusLine of yours (%s): keep it, or run lucid init --statusline --force to replace it", s.name, compactJSON(old))
	}
	s.root.set("statusLine", statusLine())
	if ok && !isLucidStatusLine(old) {
		return "status line replaced (it was " + compactJSON(old) + ")", nil
	}
	return "lucid's status line registered", nil
}

// unregisterStatusLine removes lucid's status line; it reports whether it
// did.
func (s *settings) unregisterStatusLine() bool {
	if old, ok := s.root.get("statusLine"); ok && isLucidStatusLine(old) {
		s.root.del("statusLine")
		return true
	}
	return false
}

func compactJSON(raw []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func joinWhat(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// sameJSON reports whether a and b hold the same JSON value, however
// spaced or escaped.
func sameJSON(a, b []byte) bool {
	var va, vb any
	return json.Unmarshal(a, &va) == nil && json.Unmarshal(b, &vb) == nil && reflect.DeepEqual(va, vb)
}

// write renders the settings with the file's own indentation and replaces
// the file atomically.
func (s *settings) write() error {
	compact, err := s.root.MarshalJSON()
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", s.indent); err != nil {
		return err
	}
	out.WriteByte('\n')
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return err
	}
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(s.path); err == nil {
		perm = fi.Mode().Perm()
	}
	return gitstore.WriteFileAtomic(s.path, out.Bytes(), perm)
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
