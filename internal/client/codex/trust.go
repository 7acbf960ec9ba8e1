package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/setup"
)

// Codex runs a hook only when $CODEX_HOME/config.toml trusts it, per
// entry, with the hash of the entry as it is now (hash.go): an entry
// that is untrusted, or changed since it was trusted, is skipped without a
// word. lucid writes trust for its own entries alone, and only on
// request; the file is edited as lines, every byte of the user's kept.

// Home is Codex's home folder: $CODEX_HOME, or ~/.codex.
func Home() string {
	if h := os.Getenv("CODEX_HOME"); h != "" {
		return h
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".codex")
}

// ConfigPath is the config.toml that holds Codex's trust.
func ConfigPath() string { return filepath.Join(Home(), "config.toml") }

// codexEntry is one lucid handler in .codex/hooks.json, as Codex keys and
// hashes it.
type codexEntry struct {
	event string
	key   string
	hash  string // of the entry as the file has it now
	exact bool   // the entry is lucid's group as this lucid writes it
}

// codexEntries returns lucid's handlers in .codex/hooks.json.
func codexEntries(repo *gitstore.Repo) ([]codexEntry, error) {
	entries, file, err := Hooks.Entries(repo, HooksName)
	if err != nil {
		return nil, err
	}
	var out []codexEntry
	for _, e := range entries {
		var h struct {
			Command       string `json:"command"`
			Timeout       *int   `json:"timeout"`
			Async         bool   `json:"async"`
			StatusMessage string `json:"statusMessage"`
		}
		json.Unmarshal(e.Raw, &h)
		out = append(out, codexEntry{
			event: e.Event,
			key:   HookKey(file, e.Event, e.Group, e.Hook),
			hash: HookHash(Handler{Event: e.Event, Matcher: e.Matcher, Command: h.Command,
				Timeout: h.Timeout, Async: h.Async, StatusMessage: h.StatusMessage}),
			exact: e.Exact,
		})
	}
	return out, nil
}

// codexLucidHashes are the hashes of lucid's entries as this lucid
// writes them, whatever their place in the file.
func codexLucidHashes() []string {
	var out []string
	for _, e := range Hooks.Events {
		t := int(e.Timeout / Hooks.TimeoutUnit)
		out = append(out, HookHash(Handler{Event: e.Name, Matcher: e.Matcher, Command: Hooks.Command(e.Name), Timeout: &t}))
	}
	return out
}

// Trust trusts lucid's own entries in .codex/hooks.json, and nothing
// else, in $CODEX_HOME/config.toml; trust lucid wrote for entries that
// are no longer there (another place in the file) goes.
func Trust(repo *gitstore.Repo) ([]setup.Change, error) {
	entries, err := codexEntries(repo)
	if err != nil {
		return nil, err
	}
	path := ConfigPath()
	cfg, err := readCodexConfig(path)
	if err != nil {
		return nil, err
	}
	before := string(cfg.doc)
	keep := map[string]bool{}
	for _, e := range entries {
		if !e.exact {
			continue // changed by hand: not lucid's to vouch for
		}
		keep[e.key] = true
		if err := cfg.setTrust(e.key, e.hash); err != nil {
			return nil, err
		}
	}
	cfg.removeTrust(func(key, hash string) bool {
		return !keep[key] && strings.HasPrefix(key, repo.Abs(HooksName)+":") && slices.Contains(codexLucidHashes(), hash)
	})
	if string(cfg.doc) == before {
		return nil, nil
	}
	if err := cfg.write(); err != nil {
		return nil, err
	}
	return []setup.Change{{Path: path, What: fmt.Sprintf("Codex trusts lucid's %d hooks (and nothing else)", len(keep))}}, nil
}

// Untrust removes the trust lucid wrote for its entries in this
// repository's .codex/hooks.json.
func Untrust(repo *gitstore.Repo) ([]setup.Change, error) {
	path := ConfigPath()
	cfg, err := readCodexConfig(path)
	if err != nil || !cfg.existed {
		return nil, err
	}
	hashes := codexLucidHashes()
	if !cfg.removeTrust(func(key, hash string) bool {
		return strings.HasPrefix(key, repo.Abs(HooksName)+":") && slices.Contains(hashes, hash)
	}) {
		return nil, nil
	}
	if err := cfg.write(); err != nil {
		return nil, err
	}
	return []setup.Change{{Path: path, What: "Codex's trust in lucid's hooks removed"}}, nil
}

// trust returns the trusted_hash config.toml holds for key.
func (c *codexConfig) trust(key string) (string, bool) {
	t, ok := c.table("hooks", "state", key)
	if !ok {
		return "", false
	}
	v, _, _, ok := c.value(t, "trusted_hash")
	return v, ok
}

// setTrust sets key's trusted_hash: in place where the table is, else in
// a table appended at the end. It refuses a file that spells hook state
// some other way, where a second definition would break Codex's config.
func (c *codexConfig) setTrust(key, hash string) error {
	line := "trusted_hash = " + tomlString(hash) + "\n"
	if t, ok := c.table("hooks", "state", key); ok {
		if old, start, end, ok := c.value(t, "trusted_hash"); ok {
			if old != hash {
				c.doc = slices.Concat(c.doc[:start], []byte(line), c.doc[end:])
			}
			return nil
		}
		at := t.start + bytes.IndexByte(c.doc[t.start:t.end], '\n') + 1
		c.doc = slices.Concat(c.doc[:at], []byte(line), c.doc[at:])
		return nil
	}
	for _, t := range c.tables() {
		// Codex's own trust write (its /hooks view, app-server's
		// config/batchWrite) leaves an empty [hooks.state] header before
		// its [hooks.state."KEY"] tables: one that holds no key is no
		// other spelling of state.
		if (slices.Equal(t.keys, []string{"hooks"}) || slices.Equal(t.keys, []string{"hooks", "state"})) && c.holdsKeys(t) {
			return fmt.Errorf("%s has a [%s] table: lucid writes trust only as [hooks.state.\"KEY\"] tables; trust lucid's hooks in Codex instead (its /hooks view), or move that table's state entries into such tables", c.path, strings.Join(t.keys, "."))
		}
	}
	for _, l := range strings.Split(string(c.doc), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "hooks.") || strings.HasPrefix(l, "hooks ") || strings.HasPrefix(l, "hooks=") {
			return fmt.Errorf("%s sets hooks with a dotted key (%s): lucid writes trust only as [hooks.state.\"KEY\"] tables; trust lucid's hooks in Codex instead (its /hooks view)", c.path, l)
		}
	}
	var add bytes.Buffer
	open := len(c.doc) > 0 && !bytes.HasSuffix(c.doc, []byte("\n"))
	if open {
		add.WriteByte('\n') // and the file keeps ending without one
	}
	if len(c.doc) > 0 {
		add.WriteByte('\n')
	}
	add.WriteString("[hooks.state." + tomlString(key) + "]\n" + line)
	if open {
		add.Truncate(add.Len() - 1)
	}
	c.doc = append(c.doc, add.Bytes()...)
	return nil
}

// removeTrust removes the trusted_hash of every [hooks.state."KEY"] table
// for which drop says so: the table goes with it where it held nothing
// else, and so does the blank line setTrust put before it. It reports
// whether anything changed.
func (c *codexConfig) removeTrust(drop func(key, hash string) bool) bool {
	changed := false
	for again := true; again; {
		again = false
		for _, t := range c.tables() {
			if len(t.keys) != 3 || t.keys[0] != "hooks" || t.keys[1] != "state" {
				continue
			}
			hash, start, end, ok := c.value(t, "trusted_hash")
			if !ok || !drop(t.keys[2], hash) {
				continue
			}
			headerEnd := t.start + bytes.IndexByte(c.doc[t.start:t.end], '\n') + 1
			rest := append(append([]byte{}, c.doc[headerEnd:start]...), c.doc[end:t.end]...)
			switch {
			case len(bytes.TrimSpace(rest)) > 0:
				c.doc = slices.Concat(c.doc[:start], c.doc[end:]) // the table holds more: only the hash goes
			case t.start >= 2 && c.doc[t.start-1] == '\n' && c.doc[t.start-2] == '\n':
				from := t.start - 1 // with the blank line before it
				if end == len(c.doc) && c.doc[end-1] != '\n' && from >= 1 {
					from-- // the last line, as setTrust left a file without a final newline
				}
				c.doc = slices.Concat(c.doc[:from], c.doc[end:])
			default:
				c.doc = slices.Concat(c.doc[:t.start], c.doc[end:])
				if t.start == 0 {
					c.doc = bytes.TrimLeft(c.doc, "\n")
				}
			}
			changed, again = true, true
			break
		}
	}
	return changed
}

// holdsKeys reports whether table t has a line other than its header, a
// blank or a comment.
func (c *codexConfig) holdsKeys(t tomlTable) bool {
	lines := strings.Split(string(c.doc[t.start:t.end]), "\n")
	for _, l := range lines[1:] {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return true
		}
	}
	return false
}
