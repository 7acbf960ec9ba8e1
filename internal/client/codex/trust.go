package codex

import (
	"bytes"
	"encoding/json"
	"errors"
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

// TrustCodex trusts lucid's own entries in .codex/hooks.json, and nothing
// else, in $CODEX_HOME/config.toml; trust lucid wrote for entries that
// are no longer there (another place in the file) goes.
func TrustCodex(repo *gitstore.Repo) ([]setup.Change, error) {
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

// UntrustCodex removes the trust lucid wrote for its entries in this
// repository's .codex/hooks.json.
func UntrustCodex(repo *gitstore.Repo) ([]setup.Change, error) {
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

// codexConfig is $CODEX_HOME/config.toml as lines.
type codexConfig struct {
	path    string
	doc     []byte
	existed bool
}

func readCodexConfig(path string) (*codexConfig, error) {
	c := &codexConfig{path: path}
	b, err := installers.ReadHomeFile(&c.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return c, nil
	case err != nil:
		return nil, err
	}
	c.doc, c.existed = b, true
	return c, nil
}

func (c *codexConfig) write() error {
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return err
	}
	perm := os.FileMode(0o600)
	if fi, err := os.Stat(c.path); err == nil {
		perm = fi.Mode().Perm()
	}
	return gitstore.WriteFileAtomic(c.path, c.doc, perm)
}

// tomlTable is one [table] of the file: its header's key parts and the
// byte range from the header's line to the next header's.
type tomlTable struct {
	keys       []string
	start, end int
}

// tables returns the file's tables, skipping lines inside multi-line
// strings.
func (c *codexConfig) tables() []tomlTable {
	var out []tomlTable
	inML := ""
	for off := 0; off < len(c.doc); {
		end := bytes.IndexByte(c.doc[off:], '\n')
		if end < 0 {
			end = len(c.doc)
		} else {
			end += off + 1
		}
		line := strings.TrimSpace(string(c.doc[off:end]))
		if inML == "" && strings.HasPrefix(line, "[") && !strings.HasPrefix(line, "[[") {
			if keys, ok := tomlHeader(line); ok {
				if n := len(out); n > 0 {
					out[n-1].end = off
				}
				out = append(out, tomlTable{keys: keys, start: off, end: len(c.doc)})
			}
		} else if inML == "" && strings.HasPrefix(line, "[[") && len(out) > 0 {
			out[len(out)-1].end = off
			out = append(out, tomlTable{start: off, end: len(c.doc)}) // an array table: nobody's key
		}
		for _, q := range []string{`"""`, `'''`} {
			if (inML == "" || inML == q) && strings.Count(line, q)%2 == 1 {
				if inML == "" {
					inML = q
				} else {
					inML = ""
				}
			}
		}
		off = end
	}
	return out
}

// tomlHeader reads "[a.b."c d"]" (a trailing comment allowed) into its
// key parts.
func tomlHeader(line string) ([]string, bool) {
	s := strings.TrimSpace(line[1:])
	var keys []string
	for {
		s = strings.TrimLeft(s, " \t")
		var k string
		switch {
		case strings.HasPrefix(s, `"`):
			i := 1
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			if i >= len(s) || json.Unmarshal([]byte(s[:i+1]), &k) != nil {
				return nil, false
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "'"):
			i := strings.IndexByte(s[1:], '\'')
			if i < 0 {
				return nil, false
			}
			k, s = s[1:i+1], s[i+2:]
		default:
			i := strings.IndexFunc(s, func(r rune) bool {
				return !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
			})
			if i <= 0 {
				return nil, false
			}
			k, s = s[:i], s[i:]
		}
		keys = append(keys, k)
		s = strings.TrimLeft(s, " \t")
		switch {
		case strings.HasPrefix(s, "."):
			s = s[1:]
		case strings.HasPrefix(s, "]"):
			rest := strings.TrimSpace(s[1:])
			return keys, rest == "" || strings.HasPrefix(rest, "#")
		default:
			return nil, false
		}
	}
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// table returns the table named by keys.
func (c *codexConfig) table(keys ...string) (tomlTable, bool) {
	for _, t := range c.tables() {
		if slices.Equal(t.keys, keys) {
			return t, true
		}
	}
	return tomlTable{}, false
}

// value returns the bare value of key in table t (a string unquoted),
// and the byte range of its line.
func (c *codexConfig) value(t tomlTable, key string) (string, int, int, bool) {
	body := c.doc[t.start:t.end]
	off := bytes.IndexByte(body, '\n') + 1
	for off > 0 && off < len(body) {
		end := bytes.IndexByte(body[off:], '\n')
		if end < 0 {
			end = len(body)
		} else {
			end += off + 1
		}
		line := strings.TrimSpace(string(body[off:end]))
		if k, v, ok := strings.Cut(line, "="); ok && strings.Trim(strings.TrimSpace(k), `"'`) == key {
			v = strings.TrimSpace(v)
			if i := strings.Index(v, " #"); i >= 0 {
				v = strings.TrimSpace(v[:i])
			}
			var str string
			if json.Unmarshal([]byte(v), &str) == nil {
				v = str
			} else {
				v = strings.Trim(v, "'")
			}
			return v, t.start + off, t.start + end, true
		}
		off = end
	}
	return "", 0, 0, false
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
		if slices.Equal(t.keys, []string{"hooks"}) || slices.Equal(t.keys, []string{"hooks", "state"}) {
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
