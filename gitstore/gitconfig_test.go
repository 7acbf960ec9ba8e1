package gitstore

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitConfig is what git itself reads from the config file at path.
func gitConfig(t *testing.T, path string, args ...string) (string, bool) {
	t.Helper()
	out, err := exec.Command("git", append([]string{"config", "--file", path}, args...)...).Output()
	return strings.TrimSuffix(string(out), "\n"), err == nil
}

// The config reader against git itself, on the syntax git accepts.
func TestConfigValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config")
	content := "[core]\n\tbare = false\n" +
		"[merge \"lucid\"]\n\tname = first ; a comment\n\tDriver = \"quoted  # not a comment\" tail  \n" +
		"[Merge \"Lucid\"]\n\tdriver = other case: another subsection\n" +
		"[merge \"lucid\"] driver = on the header line\n" +
		"[merge.lucid]\n\tdriver = old form, continued \\\n  here\n" +
		"[merge \"lucid\"]\n\tdriver = esc\\ttab\\\\ \\\"q\\\"\n\tflag\n" +
		"[merge \"with]bracket\"]\n\tdriver = bracket\n" +
		"[Lucid]\n\tRemote = first\n[remote \"origin\"]\n\tremote = not-this\n[lucid] remote = \"up stream\" ; a comment\n" +
		"[extensions]\n\tobjectFormat = sha256\n"
	os.WriteFile(path, []byte(content), 0o644)
	for _, c := range []struct{ section, sub, key string }{
		{"merge", "lucid", "driver"}, {"merge", "lucid", "name"}, {"merge", "lucid", "flag"},
		{"merge", "Lucid", "driver"}, {"merge", "with]bracket", "driver"}, {"core", "", "bare"},
		{"lucid", "", "remote"}, {"extensions", "", "objectformat"},
	} {
		name := c.section + "." + c.sub + "." + c.key
		if c.sub == "" {
			name = c.section + "." + c.key
		}
		out, _ := gitConfig(t, path, "--get-all", name)
		want := strings.Split(out, "\n")
		got, has := ConfigValues(path, c.section, c.sub, c.key)
		if !slices.Equal(got, want) || !has {
			t.Errorf("%s: %q (section %v), git says %q", name, got, has, want)
		}
		if c.sub == "" {
			if v, ok := ConfigValue(path, c.section, c.key); !ok || v != want[len(want)-1] {
				t.Errorf("configValue %s = %q, %v; git says %q", name, v, ok, want[len(want)-1])
			}
		}
	}
	if got, has := ConfigValues(path, "merge", "nothing", "driver"); len(got) != 0 || has {
		t.Errorf("a missing section: %q, %v", got, has)
	}
	if _, ok := ConfigValue(path, "lucid", "nothing"); ok {
		t.Error("a missing key was found")
	}
}

// Booleans as git reads them (git config --type=bool).
func TestConfigBool(t *testing.T) {
	dir := t.TempDir()
	for i, v := range []string{"\tbare", "\tbare = true", "\tbare = Yes", "\tbare = on", "\tbare = 1", "\tbare = 12", "\tbare = false", "\tbare = off", "\tbare = 0", "\tbare = \"\"", "\tbare = true\n\tbare = false", "\tbare = 1 ; on"} {
		path := filepath.Join(dir, "config"+string(rune('a'+i)))
		os.WriteFile(path, []byte("[core]\n"+v+"\n"), 0o644)
		out, _ := gitConfig(t, path, "--type=bool", "core.bare")
		if got := configBool(path, "core", "bare"); got != (out == "true") {
			t.Errorf("%q: configBool = %v, git says %q", v, got, out)
		}
	}
	if configBool(filepath.Join(dir, "missing"), "core", "bare") {
		t.Error("a missing file reads as true")
	}
}

// What git reads that the other test leaves out: a line continued with
// CRLF, a comment that ends the file without a newline, a backspace
// escape, an empty value.
func TestConfigValuesEdges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config")
	os.WriteFile(path, []byte("[lucid]\r\n\tremote = a\\\r\n b\r\n\tremote = \"x\\by\"\n\tremote =\n[lucid] remote = last # no newline"), 0o644)
	out, ok := gitConfig(t, path, "--get-all", "lucid.remote")
	if !ok {
		t.Fatal("git cannot read the file")
	}
	if got, has := ConfigValues(path, "lucid", "", "remote"); !has || !slices.Equal(got, strings.Split(out, "\n")) {
		t.Errorf("%q, git says %q", got, out)
	}
}

// Include directives are not followed (the file is read alone), as git
// reads it with --no-includes; a header git cannot read ends the section.
func TestConfigValuesIncludes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config")
	os.WriteFile(filepath.Join(dir, "other"), []byte("[lucid]\n\tremote = included\n"), 0o644)
	os.WriteFile(path, []byte("[lucid]\n\tremote = own\n[include]\n\tpath = other\n[includeIf \"gitdir:"+dir+"/\"]\n\tpath = other\n"), 0o644)
	withIncludes, _ := gitConfig(t, path, "--includes", "--get-all", "lucid.remote")
	without, _ := gitConfig(t, path, "--no-includes", "--get-all", "lucid.remote")
	if withIncludes == without {
		t.Fatalf("git reads the include as nothing: %q", withIncludes)
	}
	if got, _ := ConfigValues(path, "lucid", "", "remote"); !slices.Equal(got, strings.Split(without, "\n")) {
		t.Errorf("%q, git without includes says %q", got, without)
	}
	os.WriteFile(path, []byte("[lucid]\n\tremote = a\n[broken\n\tremote = b\n[lucid \"unclosed]\n\tremote = c\n[lucid \"sub\"x]\n\tremote = d\n"), 0o644)
	if got, has := ConfigValues(path, "lucid", "", "remote"); !has || !slices.Equal(got, []string{"a"}) {
		t.Errorf("after broken headers: %q, %v", got, has)
	}
}
