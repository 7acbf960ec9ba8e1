package shell

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/guard/cmdline"
)

// testMakefile exercises what lucid reads of a Makefile: each kind of
// assignment, the command line's variables, conditionals, define,
// functions, automatic and target-specific variables, continued lines,
// comments, double-colon and static pattern rules, and .DEFAULT_GOAL.
const testMakefile = `# a comment
include inc.mk
-include missing.mk
A = one
B := $(A) two
A = uno
C ?= three
C ?= not this
D = base
D += more
E := simple
E += $(A)
override F = file
G = cmdline-or-file
SRCS = a.c b.c sub/c.c
OBJS = $(SRCS:.c=.o)
ifeq ($(A),uno)
COND = yes
else
COND = no
endif
ifneq "$(E)" "nope"
  NE = ne
endif
ifdef UNSET
X = x
else
X = y
endif
ifndef A
NOTA = bad
endif
define CANNED
echo canned-1
echo canned-2
endef
.DEFAULT_GOAL := all
first:
	echo first
all: deps build # a trailing comment
	echo $(A) $(B) $(C) $(D) $(E)
	@echo $(F) $(G) $(COND) $(NE) $(X) $(NOTA)
	-echo $(OBJS) $(patsubst %.c,%.h,$(SRCS)) $(notdir $(SRCS)) $(dir sub/c.c)
	+true $(addprefix pre/,x y) $(addsuffix .bak,x y) $(subst o,0,foo) $(firstword a b) $(lastword a b)
	echo $(basename a.tar.gz b) $(suffix a.c b) $(strip   a   b  ) $(sort b a b)
	echo continued \
	  line
	echo 'dollar $$HOME' "$@" "$<" "$^" $(@D) $(@F)
	echo $(INC)
deps: dep1 dep2
dep1:
	echo dep1
dep2: dep1
	echo dep2
build: T = target-specific
build:
	$(CANNED)
	echo $(T)
twice::
	echo twice-1
twice::
	echo twice-2
objs: %.o: %.c
	echo static $@
`

const testInclude = "INC = from-include\n"

// TestMakefileRead checks the recipe lines lucid reads against those GNU
// make prints with -n, where make is at hand, and against what they must
// be otherwise.
func TestMakefileRead(t *testing.T) {
	want := map[string][]string{
		"all": {
			"echo dep1", "echo dep2", "echo canned-1\necho canned-2", "echo target-specific",
			"echo uno one two three base more simple uno",
			"echo file from-cmdline yes ne ? ?",
			"echo a.o b.o sub/c.o a.h b.h sub/c.h a.c b.c c.c sub/",
			"true pre/x pre/y x.bak y.bak f00 a b",
			"echo a.tar b .c a b a b",
			"echo continued \\\n  line",
			"echo 'dollar $HOME' \"all\" \"deps\" \"deps build\" . all",
			"echo from-include",
		},
		"twice": {"echo twice-1", "echo twice-2"},
		"first": {"echo first"},
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte(testMakefile), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "inc.mk"), []byte(testInclude), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newMakefile(dir, []string{"G=from-cmdline"})
	include := func(name string) (string, bool) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		return string(b), err == nil
	}
	if !m.read(testMakefile, "Makefile", include) {
		t.Fatal("not read")
	}
	if m.goal != "all" {
		t.Errorf("default goal %q, want all", m.goal)
	}
	_, haveMake := exec.LookPath("make")
	for _, goal := range []string{"all", "twice", "first"} {
		var got []string
		steps, deep := m.steps(goal, map[string]bool{}, 0)
		for _, s := range steps {
			for _, l := range s.lines {
				got = append(got, strings.ReplaceAll(l.text, cmdline.Unknown, "?"))
			}
		}
		if deep || !slices.Equal(got, want[goal]) {
			t.Errorf("make %s: got\n%q\nwant\n%q", goal, got, want[goal])
		}
		if haveMake != nil {
			continue
		}
		cmd := exec.Command("make", "-n", "-s", "G=from-cmdline", goal)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "UNSET=")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("make -n %s: %v", goal, err)
		}
		// make -n prints a line continued with a backslash as it is, the
		// next line's leading tab taken off; define's lines one by one. A
		// ? (what lucid cannot tell) stands for any text.
		printed := strings.TrimSuffix(string(out), "\n")
		if joined := strings.Join(got, "\n"); !unknownMatch(joined, printed) {
			t.Errorf("make -n %s printed\n%s\nlucid read\n%s", goal, printed, joined)
		}
	}
}

// TestMakefileUnknown checks that what lucid cannot tell stays unknown:
// a variable from the environment, $(shell), a branch it cannot decide,
// !=, and a leading variable the Makefile does not set (the quiet switch
// of $(Q)cmd), which is dropped.
func TestMakefileUnknown(t *testing.T) {
	text := "ifeq ($(OS),Windows_NT)\nRM_CMD = del\nelse\nRM_CMD = rm -f\nendif\nNOW != date\nx:\n\t$(RM_CMD) out\n\t$(shell pwd)/run\n\t$(NOW)\n\t$(HOME_DIR)/bin/tool\n\t$(Q)touch quiet\n\t$(Q) touch spaced\n"
	m := newMakefile("/w", nil)
	m.read(text, "Makefile", func(string) (string, bool) { return "", false })
	steps, _ := m.steps("x", map[string]bool{}, 0)
	var got []string
	for _, l := range steps[0].lines {
		got = append(got, strings.ReplaceAll(l.text, cmdline.Unknown, "?"))
	}
	want := []string{"? out", "?/run", "?", "?/bin/tool", "touch quiet", "? touch spaced"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestMakefileBounds checks that prerequisites nested past the bound are
// reported, and a cycle ends.
func TestMakefileBounds(t *testing.T) {
	var b strings.Builder
	for i := range maxMakeDepth + 2 {
		b.WriteString("t" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + ": t" + string(rune('a'+(i+1)%26)) + strings.Repeat("x", (i+1)/26) + "\n\techo\n")
	}
	m := newMakefile("/w", nil)
	m.read(b.String(), "Makefile", nil)
	if _, deep := m.steps("ta", map[string]bool{}, 0); !deep {
		t.Error("prerequisites nested past the bound: not reported")
	}
	// Each recursive variable doubles the text: the references expanded
	// are bounded.
	b.Reset()
	for i := range 40 {
		fmt.Fprintf(&b, "V%d = $(V%d)$(V%d)\n", i, i+1, i+1)
	}
	b.WriteString("all:\n\techo $(V0)\n")
	m = newMakefile("/w", nil)
	m.read(b.String(), "Makefile", nil)
	if m.steps("all", map[string]bool{}, 0); !m.exhausted {
		t.Error("references doubling 40 times: not bounded")
	}
	m = newMakefile("/w", nil)
	m.read("a: b\n\techo a\nb: a\n\techo b\n", "Makefile", nil)
	if steps, deep := m.steps("a", map[string]bool{}, 0); deep || len(steps) != 2 {
		t.Errorf("a cycle: %d steps, deep %v", len(steps), deep)
	}
}

// unknownMatch reports whether text is pattern, each ? in it standing
// for any text on one line.
func unknownMatch(pattern, text string) bool {
	parts := strings.Split(pattern, "?")
	if !strings.HasPrefix(text, parts[0]) {
		return false
	}
	text = text[len(parts[0]):]
	for i, p := range parts[1:] {
		j := strings.Index(text, p)
		if i == len(parts)-2 {
			j = strings.LastIndex(text, p)
			if j < 0 || j+len(p) != len(text) {
				return false
			}
		}
		if j < 0 || strings.Contains(text[:j], "\n") {
			return false
		}
		text = text[j+len(p):]
	}
	return true
}

// FuzzMakefile reads arbitrary Makefiles: the reader ends, makes every
// goal's steps within the bounds, and never panics.
func FuzzMakefile(f *testing.F) {
	f.Add(testMakefile, "all")
	f.Add("x: y\n\t$(A:%=$(B)) ${C $$ $(\ny:\n\techo $(subst ,,) $(patsubst %,%%,x)\n", "x")
	f.Add("ifeq (a,b\nelse ifdef\nendif\nendif\ndefine\n", "")
	f.Fuzz(func(t *testing.T, text, goal string) {
		m := newMakefile("/w", []string{"A=1", goal})
		m.read(text, "Makefile", func(name string) (string, bool) { return text, true })
		if goal == "" {
			goal = m.goal
		}
		steps, _ := m.steps(goal, map[string]bool{}, 0)
		if len(steps) > maxMakeRules {
			t.Fatalf("%d steps", len(steps))
		}
	})
}
