package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/installers"
)

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
