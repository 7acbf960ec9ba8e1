package codex

import (
	"strings"
	"testing"
)

// config.toml's headers and values as Codex writes them and as people do:
// quoted, literal and bare keys, comments after a header or a value, and
// what is no header at all.
func TestTOMLHeadersAndValues(t *testing.T) {
	for line, want := range map[string]string{
		`[projects."/a/b"]`:                   "projects|/a/b",
		`[ hooks . state . 'x:y' ] # trusted`: "hooks|state|x:y",
		`[a.b-c_d]`:                           "a|b-c_d",
		`[a."b\"c"]`:                          `a|b"c`,
		`[a.`:                                 "",
		`[a."b]`:                              "",
		`[a.'b]`:                              "",
		`[a] x`:                               "",
		`[a b]`:                               "",
		`[]`:                                  "",
	} {
		keys, ok := tomlHeader(line)
		if got := strings.Join(keys, "|"); ok != (want != "") || ok && got != want {
			t.Errorf("%s: %q %v, want %q", line, got, ok, want)
		}
	}
	c := &codexConfig{doc: []byte("[t]\nplain = 'lit' # note\n\"q\" = \"s\\u0041\"\nbare = 3\n")}
	tb, _ := c.table("t")
	for key, want := range map[string]string{"plain": "lit", "q": "sA", "bare": "3", "none": ""} {
		if v, _, _, ok := c.value(tb, key); v != want || ok != (want != "") {
			t.Errorf("%s = %q %v, want %q", key, v, ok, want)
		}
	}
}
