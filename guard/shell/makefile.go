package shell

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"github.com/lucid-dev/lucid/guard/realpath"
)

// A Makefile is read as GNU make reads it, as far as lucid can without
// running anything: its variables (=, :=, ::=, ?=, +=, define, and the
// command line's, which win but over override), its explicit rules and
// their recipes, the files it includes, and the conditionals it can
// decide. What it cannot tell ($(shell ...), $(wildcard ...), a variable
// from the environment, a branch of a condition it cannot decide) is
// cmdline.Unknown in the text of a recipe, whose words it is part of are then
// not known either: they write nothing that lucid reports.

// Bounds on what is read of Makefiles.
const (
	maxMakeIncludes = 16  // files read in all, the Makefile and what it includes
	maxMakeRules    = 256 // rules whose recipes are read for one make
	maxMakeDepth    = 32  // nested variable references, and prerequisites
	// maxMakeRefs is how many references (variables and functions) the
	// Makefiles of one make may expand: A = $(B)$(B), B = $(C)$(C)...
	// doubles with each.
	maxMakeRefs = 1 << 16
)

const unsureMake = "the Makefile expands more variables than lucid reads (over 65536 references): run the recipe's commands yourself"

// makefile is what lucid read of a Makefile and what it includes.
type makefile struct {
	dir   string // where make runs: $(CURDIR), and the base of relative paths
	vars  map[string]*makeVar
	rules map[string][]*makeRule // the explicit rules of each target
	// goal is the default goal: the first target of the first rule that
	// is not a pattern and does not start with a dot (but for one with a
	// slash), or .DEFAULT_GOAL.
	goal     string
	oneShell bool
	// makeCmd is $(MAKE): make, with -n, -t or -q when the make that
	// reads the Makefile has them (a make run by a recipe inherits them).
	makeCmd string
	phony   map[string]bool
	files   []string // MAKEFILE_LIST
	// cond is the stack of conditionals open while reading.
	cond []makeCond
	// refs counts the references expanded, for maxMakeRefs; past it,
	// each is not known and exhausted is set.
	refs      int
	exhausted bool
}

// makeVar is a variable's value: recursive ones are expanded where they
// are used, simple ones were when they were set.
type makeVar struct {
	val       string
	recursive bool
	known     bool // false: set in a way lucid cannot tell (!=, in a branch it cannot decide)
	cmdline   bool // set on make's command line: the Makefile's own assignments do not change it
}

// makeRule is one explicit rule: its prerequisites, its recipe's lines as
// written (a line continued with a backslash is one line, the backslash
// and newline kept for the shell), and its target-specific variables.
type makeRule struct {
	prereqs []string
	recipe  []string
	vars    map[string]*makeVar
}

// makeCond is one open conditional: whether the branch being read is
// taken (condTrue, condFalse, or condUnknown when lucid cannot tell), and
// whether one of its branches so far was.
type makeCond struct {
	state, taken condValue
}

type condValue uint8

const (
	condFalse condValue = iota
	condTrue
	condUnknown
)

// newMakefile starts reading Makefiles for a make that runs in dir with
// the command line's variable assignments (NAME=VALUE, NAME:=VALUE).
func newMakefile(dir string, cmdline []string) *makefile {
	m := &makefile{dir: dir, vars: map[string]*makeVar{}, rules: map[string][]*makeRule{}, phony: map[string]bool{}}
	for _, a := range cmdline {
		name, op, val, ok := assignment(a)
		if !ok {
			continue
		}
		v := &makeVar{val: val, recursive: op == "=" || op == "?=" || op == "+=", known: op != "!=", cmdline: true}
		if !v.recursive {
			v.val = m.expand(val, nil, 0)
		}
		m.vars[name] = v
	}
	return m
}

// read reads the Makefile text, named name, as make does; include loads
// the file a name names, when it can be read. It reports false when the
// text is beyond what lucid reads (.RECIPEPREFIX changed).
func (m *makefile) read(text, name string, include func(name string) (string, bool)) bool {
	if len(m.files) >= maxMakeIncludes {
		return true
	}
	m.files = append(m.files, name)
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var cur *makeRule // the rule whose recipe lines follow, if any
	for i := 0; i < len(lines); {
		line := lines[i]
		i++
		if strings.HasPrefix(line, "\t") && cur != nil {
			recipe := line[1:]
			for continued(recipe) && i < len(lines) {
				recipe += "\n" + strings.TrimPrefix(lines[i], "\t")
				i++
			}
			if m.live() {
				cur.recipe = append(cur.recipe, recipe)
			}
			continue
		}
		for continued(line) && i < len(lines) {
			line = strings.TrimRight(line[:len(line)-1], " \t") + " " + strings.TrimLeft(lines[i], " \t")
			i++
		}
		line = strings.TrimSpace(stripComment(line))
		if line == "" {
			continue
		}
		word, rest := firstWord(line)
		if m.conditional(word, rest) {
			continue
		}
		if !m.live() {
			if word == "define" {
				i = skipDefine(lines, i)
			}
			continue
		}
		switch word {
		case "define", "override", "export", "private":
			// [override] [export] [private] [define] NAME OP VALUE
			rest, override, define := line, false, false
		words:
			for {
				w, r := firstWord(rest)
				switch w {
				case "override":
					override = true
				case "export", "private":
				case "define":
					define = true
				default:
					break words
				}
				rest = r
			}
			if define {
				body, next := defineBody(lines, i)
				i = next
				name, op, _, ok := assignment(rest + " ")
				if !ok {
					name, op = strings.TrimSpace(rest), "="
				}
				m.assign(name, op, body, override)
			} else if name, op, val, ok := assignment(rest); ok {
				m.assign(name, op, val, override)
			}
			cur = nil
			continue
		case "unexport":
			continue
		case "undefine":
			name := m.expand(rest, nil, 0)
			if v := m.vars[name]; v == nil || !v.cmdline {
				delete(m.vars, name)
			}
			continue
		case "include", "-include", "sinclude":
			for _, f := range strings.Fields(m.expand(rest, nil, 0)) {
				if strings.Contains(f, cmdline.Unknown) {
					continue
				}
				if text, ok := include(f); ok && !m.read(text, f, include) {
					return false
				}
			}
			cur = nil
			continue
		case "vpath", "load", "-load":
			continue
		}
		if name, op, val, ok := assignment(line); ok {
			m.assign(name, op, val, false)
			cur = nil
			continue
		}
		cur = m.rule(line)
		if cur == nil && strings.HasPrefix(line, ".RECIPEPREFIX") {
			return false
		}
	}
	return true
}

// continued reports whether a line ends in an odd number of backslashes:
// it goes on on the next line.
func continued(line string) bool {
	n := len(line) - len(strings.TrimRight(line, `\`))
	return n%2 == 1
}

// stripComment cuts a line at its first # that no backslash escapes.
func stripComment(line string) string {
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '#':
			return line[:i]
		}
	}
	return line
}

// firstWord splits a line at its first blank.
func firstWord(line string) (word, rest string) {
	i := strings.IndexAny(line, " \t")
	if i < 0 {
		return line, ""
	}
	return line[:i], strings.TrimSpace(line[i+1:])
}

// defineBody reads the lines of a define from lines[i] to its endef: the
// text, and the index after the endef. Nested defines nest.
func defineBody(lines []string, i int) (string, int) {
	var body []string
	depth := 0
	for ; i < len(lines); i++ {
		w, _ := firstWord(strings.TrimSpace(lines[i]))
		switch {
		case w == "endef" && depth == 0:
			return strings.Join(body, "\n"), i + 1
		case w == "endef":
			depth--
		case w == "define":
			depth++
		}
		body = append(body, lines[i])
	}
	return strings.Join(body, "\n"), i
}

// skipDefine is the index after the endef of a define in a branch not
// taken.
func skipDefine(lines []string, i int) int {
	_, next := defineBody(lines, i)
	return next
}

// assignment reads a variable assignment: NAME OP VALUE with OP one of =
// := ::= :::= ?= += !=, the name before any : of a rule. ok is false for
// any other line.
func assignment(line string) (name, op, val string, ok bool) {
	depth := 0
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case '=':
			if depth > 0 {
				continue
			}
			j := i
			for j > 0 && strings.IndexByte(":?+!", line[j-1]) >= 0 && i-j < 3 {
				j--
			}
			op = line[j : i+1]
			if strings.Trim(op, ":") != "=" && len(op) > 2 { // only :=, ::= and :::= stack
				return "", "", "", false
			}
			name = strings.TrimSpace(line[:j])
			if name == "" || strings.ContainsAny(name, " \t:") && !strings.Contains(name, "$") {
				return "", "", "", false
			}
			return name, op, strings.TrimLeft(line[i+1:], " \t"), true
		case ':':
			if depth > 0 {
				continue
			}
			rest := line[i:]
			if !strings.HasPrefix(rest, ":=") && !strings.HasPrefix(rest, "::=") && !strings.HasPrefix(rest, ":::=") {
				return "", "", "", false // a rule
			}
		}
	}
	return "", "", "", false
}

// assign sets a variable as the Makefile does; the command line's value
// stays unless override is given. Set in a branch lucid cannot decide,
// its value is not known.
func (m *makefile) assign(name, op, val string, override bool) {
	name = m.expand(name, nil, 0)
	if old := m.vars[name]; old != nil && old.cmdline && !override {
		return
	}
	old := m.vars[name]
	v := &makeVar{val: val, recursive: true, known: true}
	switch op {
	case "=":
	case ":=", "::=", ":::=":
		v.recursive, v.val = false, m.expand(val, nil, 0)
	case "?=":
		if old != nil {
			return
		}
	case "+=":
		if old != nil {
			v.recursive, v.known = old.recursive, old.known
			if old.recursive {
				v.val = old.val + " " + val
			} else {
				v.val = old.val + " " + m.expand(val, nil, 0)
			}
		}
	case "!=":
		v.known = false
	}
	if m.uncertain() {
		v.known = false
	}
	m.vars[name] = v
	if name == ".DEFAULT_GOAL" {
		m.goal = strings.TrimSpace(m.expand(v.val, nil, 0))
	}
}

// rule reads a rule line, targets: prerequisites [; recipe], and returns
// it for the recipe lines that follow (nil for a line that is no rule,
// and for a target-specific variable, which gets none).
func (m *makefile) rule(line string) *makeRule {
	colon := topIndex(line, ':')
	if colon < 0 {
		return nil
	}
	targets := strings.Fields(m.expand(strings.TrimSuffix(strings.TrimSpace(line[:colon]), "&"), nil, 0))
	rest := strings.TrimLeft(line[colon+1:], ":") // a double-colon rule
	var recipe []string
	if semi := topIndex(rest, ';'); semi >= 0 {
		recipe, rest = []string{strings.TrimLeft(rest[semi+1:], " \t")}, rest[:semi]
	}
	if name, op, val, ok := assignment(strings.TrimSpace(rest)); ok && recipe == nil {
		// target: VAR = value
		for _, t := range targets {
			for _, r := range m.rulesOf(t) {
				r.vars[name] = &makeVar{val: val, recursive: op != ":=" && op != "::=", known: op != "!=" && !m.uncertain()}
			}
		}
		return nil
	}
	if second := topIndex(rest, ':'); second >= 0 {
		rest = "" // a static pattern rule: its prerequisites come from patterns, not read
	}
	prereqs := strings.Fields(m.expand(strings.ReplaceAll(rest, "|", " "), nil, 0))
	r := &makeRule{prereqs: prereqs, recipe: recipe, vars: map[string]*makeVar{}}
	for _, t := range targets {
		switch {
		case t == ".PHONY":
			for _, p := range prereqs {
				m.phony[p] = true
			}
			continue
		case t == ".ONESHELL":
			m.oneShell = true
			continue
		case strings.Contains(t, "%"):
			continue // a pattern rule: which targets it makes is not read
		}
		if m.goal == "" && (!strings.HasPrefix(t, ".") || strings.Contains(t, "/")) && !strings.Contains(t, cmdline.Unknown) {
			m.goal = t
		}
		m.rules[t] = append(m.rules[t], r)
	}
	return r
}

// rulesOf is the rules of target t, one made for its variables if it has
// none yet.
func (m *makefile) rulesOf(t string) []*makeRule {
	if len(m.rules[t]) == 0 {
		m.rules[t] = []*makeRule{{vars: map[string]*makeVar{}}}
	}
	return m.rules[t]
}

// topIndex is the index of the first c in s outside $( ) and ${ }, or -1.
func topIndex(s string, c byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case c:
			if depth <= 0 {
				return i
			}
		}
	}
	return -1
}

// conditional reads ifeq, ifneq, ifdef, ifndef, else and endif, and
// reports whether the line was one.
func (m *makefile) conditional(word, rest string) bool {
	switch word {
	case "ifeq", "ifneq", "ifdef", "ifndef":
		c := makeCond{state: condFalse}
		if m.live() {
			c.state = m.test(word, rest)
		} else {
			c.taken = condTrue // a branch of a conditional in a branch not taken: none is
		}
		if c.state != condFalse {
			c.taken = max(c.taken, c.state)
		}
		m.cond = append(m.cond, c)
		return true
	case "else":
		if len(m.cond) == 0 {
			return true
		}
		c := &m.cond[len(m.cond)-1]
		next := condTrue
		if w, r := firstWord(rest); w != "" {
			next = condFalse
			if m.parentLive() {
				next = m.test(w, r)
			}
		}
		switch c.taken {
		case condTrue:
			c.state = condFalse
		case condUnknown:
			c.state = condUnknown
			if next == condFalse {
				c.state = condFalse
			}
		default:
			c.state = next
			c.taken = next
		}
		return true
	case "endif":
		if len(m.cond) > 0 {
			m.cond = m.cond[:len(m.cond)-1]
		}
		return true
	}
	return false
}

// live reports whether the lines being read are in effect, or may be.
func (m *makefile) live() bool {
	return !slices.ContainsFunc(m.cond, func(c makeCond) bool { return c.state == condFalse })
}

// parentLive is live for the conditionals around the innermost one.
func (m *makefile) parentLive() bool {
	return !slices.ContainsFunc(m.cond[:len(m.cond)-1], func(c makeCond) bool { return c.state == condFalse })
}

// uncertain reports whether the lines being read are in a branch lucid
// cannot decide.
func (m *makefile) uncertain() bool {
	return slices.ContainsFunc(m.cond, func(c makeCond) bool { return c.state == condUnknown })
}

// test decides a conditional's test, when its words are known.
func (m *makefile) test(word, rest string) condValue {
	var ok bool
	switch word {
	case "ifdef", "ifndef":
		name := strings.TrimSpace(m.expand(rest, nil, 0))
		v := m.vars[name]
		if strings.Contains(name, cmdline.Unknown) || v == nil || !v.known {
			return condUnknown // the environment may set it
		}
		ok = strings.TrimSpace(v.val) != "" // the value as set, not expanded
		if word == "ifndef" {
			ok = !ok
		}
	default:
		a, b, parsed := condArgs(rest)
		if !parsed {
			return condUnknown
		}
		a, b = m.expand(a, nil, 0), m.expand(b, nil, 0)
		if strings.Contains(a+b, cmdline.Unknown) {
			return condUnknown
		}
		ok = a == b
		if word == "ifneq" {
			ok = !ok
		}
	}
	if ok {
		return condTrue
	}
	return condFalse
}

// condArgs reads the two arguments of ifeq: (a,b), "a" "b" or 'a' 'b'.
func condArgs(s string) (a, b string, ok bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		inner := s[1 : len(s)-1]
		i := topIndex(inner, ',')
		if i < 0 {
			return "", "", false
		}
		return strings.TrimSpace(inner[:i]), strings.TrimSpace(inner[i+1:]), true
	}
	var args []string
	for len(s) > 0 && len(args) < 2 {
		q := s[0]
		if q != '"' && q != '\'' {
			return "", "", false
		}
		end := strings.IndexByte(s[1:], q)
		if end < 0 {
			return "", "", false
		}
		args = append(args, s[1:end+1])
		s = strings.TrimSpace(s[end+2:])
	}
	if len(args) != 2 {
		return "", "", false
	}
	return args[0], args[1], true
}

// makeEnv is what a recipe's expansion sees besides the Makefile's
// variables: its automatic variables and the target's own.
type makeEnv struct {
	target  string
	prereqs []string
	vars    map[string]*makeVar
}

// expand expands the references in s as make does, cmdline.Unknown where what
// they name is not known.
func (m *makefile) expand(s string, env *makeEnv, depth int) string {
	if !strings.Contains(s, "$") {
		return s
	}
	if depth > maxMakeDepth {
		return cmdline.Unknown
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 == len(s) {
			break
		}
		switch c := s[i+1]; c {
		case '$':
			b.WriteByte('$')
			i++
		case '(', '{':
			end := closing(s, i+1)
			if end < 0 {
				b.WriteString(cmdline.Unknown)
				return b.String()
			}
			b.WriteString(m.ref(s[i+2:end], env, depth))
			i = end
		default:
			b.WriteString(m.ref(string(c), env, depth))
			i++
		}
		if b.Len() > maxConfigBytes {
			m.exhausted = true
			return cmdline.Unknown
		}
	}
	return b.String()
}

// closing is the index of the ) or } that closes the one at s[i].
func closing(s string, i int) int {
	open, close := s[i], byte(')')
	if open == '{' {
		close = '}'
	}
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// ref is the value of the reference whose text between the parentheses
// is inner: a function call, a substitution reference ($(VAR:.c=.o)), or
// a variable.
func (m *makefile) ref(inner string, env *makeEnv, depth int) string {
	if m.refs++; m.refs > maxMakeRefs {
		m.exhausted = true
		return cmdline.Unknown
	}
	if fn, args, ok := strings.Cut(inner, " "); ok && makeFunction(fn) {
		return m.call(fn, args, env, depth)
	}
	if fn, args, ok := strings.Cut(inner, "\t"); ok && makeFunction(fn) {
		return m.call(fn, args, env, depth)
	}
	name := inner
	var from, to string
	subst := false
	if colon := topIndex(inner, ':'); colon >= 0 {
		if eq := strings.IndexByte(inner[colon:], '='); eq >= 0 {
			name, from, to, subst = inner[:colon], inner[colon+1:colon+eq], inner[colon+eq+1:], true
		}
	}
	name = m.expand(name, env, depth+1)
	val := m.value(name, env, depth)
	if subst && !strings.Contains(val, cmdline.Unknown) {
		from, to = m.expand(from, env, depth+1), m.expand(to, env, depth+1)
		if !strings.Contains(from, "%") {
			from, to = "%"+from, "%"+to
		}
		val = patsubst(from, to, val)
	}
	return val
}

// value is the value of the variable name: an automatic variable, the
// target's own, the command line's or the Makefile's, make's own; any
// other is not known (the environment may set it).
func (m *makefile) value(name string, env *makeEnv, depth int) string {
	if env != nil {
		switch name {
		case "@":
			return env.target
		case "<":
			if len(env.prereqs) > 0 {
				return env.prereqs[0]
			}
			return ""
		case "^", "+", "?":
			return strings.Join(env.prereqs, " ")
		case "@D", "@F", "<D", "<F":
			v := m.value(name[:1], env, depth)
			if name[1] == 'D' {
				return filepath.Dir(v)
			}
			return filepath.Base(v)
		}
		if v := env.vars[name]; v != nil {
			return m.varValue(v, env, depth)
		}
	}
	if v := m.vars[name]; v != nil {
		return m.varValue(v, env, depth)
	}
	switch name {
	case "MAKE":
		if m.makeCmd != "" {
			return m.makeCmd
		}
		return "make"
	case "CURDIR":
		return m.dir
	case "MAKEFILE_LIST":
		return strings.Join(m.files, " ")
	case "SHELL":
		return "/bin/sh"
	case "RM":
		return "rm -f"
	case "CC":
		return "cc"
	case "CXX":
		return "g++"
	}
	return cmdline.Unknown
}

func (m *makefile) varValue(v *makeVar, env *makeEnv, depth int) string {
	switch {
	case !v.known:
		return cmdline.Unknown
	case v.recursive:
		return m.expand(v.val, env, depth+1)
	}
	return v.val
}

// defined reports whether a variable has a value in the Makefile or on
// the command line.
func (m *makefile) defined(name string) bool { return m.vars[name] != nil }

// makeFunction reports whether name is one of make's functions.
func makeFunction(name string) bool {
	switch name {
	case "subst", "patsubst", "strip", "findstring", "filter", "filter-out", "sort", "word", "wordlist",
		"words", "firstword", "lastword", "dir", "notdir", "suffix", "basename", "addsuffix", "addprefix",
		"join", "wildcard", "realpath", "abspath", "error", "warning", "info", "shell", "origin", "flavor",
		"foreach", "if", "or", "and", "intcmp", "call", "eval", "file", "value", "let", "guile":
		return true
	}
	return false
}

// call is the value of a function call, for the functions whose value
// lucid can tell from known arguments; any other is not known.
func (m *makefile) call(fn, rawArgs string, env *makeEnv, depth int) string {
	args := splitArgs(rawArgs)
	for i := range args {
		args[i] = m.expand(args[i], env, depth+1)
		if strings.Contains(args[i], cmdline.Unknown) {
			return cmdline.Unknown
		}
	}
	words := func(i int) []string {
		if i >= len(args) {
			return nil
		}
		return strings.Fields(args[i])
	}
	each := func(f func(string) string) string {
		out := words(len(args) - 1)
		for i, w := range out {
			out[i] = f(w)
		}
		return strings.Join(out, " ")
	}
	switch {
	case fn == "subst" && len(args) == 3:
		return strings.ReplaceAll(args[2], args[0], args[1])
	case fn == "patsubst" && len(args) == 3:
		return patsubst(strings.TrimSpace(args[0]), strings.TrimSpace(args[1]), args[2])
	case fn == "strip" && len(args) == 1:
		return strings.Join(words(0), " ")
	case fn == "sort" && len(args) == 1:
		w := words(0)
		slices.Sort(w)
		return strings.Join(slices.Compact(w), " ")
	case fn == "firstword" && len(args) == 1:
		if w := words(0); len(w) > 0 {
			return w[0]
		}
		return ""
	case fn == "lastword" && len(args) == 1:
		if w := words(0); len(w) > 0 {
			return w[len(w)-1]
		}
		return ""
	case fn == "dir" && len(args) == 1:
		return each(func(w string) string {
			if i := strings.LastIndexByte(w, '/'); i >= 0 {
				return w[:i+1]
			}
			return "./"
		})
	case fn == "notdir" && len(args) == 1:
		return each(func(w string) string { return w[strings.LastIndexByte(w, '/')+1:] })
	case fn == "abspath" && len(args) == 1:
		return each(func(w string) string { return realpath.InDir(m.dir, w) })
	case fn == "addprefix" && len(args) == 2:
		return each(func(w string) string { return strings.TrimSpace(args[0]) + w })
	case fn == "addsuffix" && len(args) == 2:
		return each(func(w string) string { return w + strings.TrimSpace(args[0]) })
	case fn == "basename" && len(args) == 1:
		return each(func(w string) string {
			if i := strings.LastIndexByte(w, '.'); i > strings.LastIndexByte(w, '/') {
				return w[:i]
			}
			return w
		})
	case fn == "suffix" && len(args) == 1:
		var out []string
		for _, w := range words(0) {
			if i := strings.LastIndexByte(w, '.'); i > strings.LastIndexByte(w, '/') {
				out = append(out, w[i:])
			}
		}
		return strings.Join(out, " ")
	}
	return cmdline.Unknown
}

// splitArgs splits a function's arguments at the commas outside nested
// references.
func splitArgs(s string) []string {
	var args []string
	for {
		i := topIndex(s, ',')
		if i < 0 {
			return append(args, s)
		}
		args, s = append(args, s[:i]), s[i+1:]
	}
}

// patsubst replaces the words of text that match pattern (one % for any
// part) with replacement, the % in it the part matched.
func patsubst(pattern, replacement, text string) string {
	pre, post, wild := strings.Cut(pattern, "%")
	out := strings.Fields(text)
	for i, w := range out {
		switch {
		case !wild:
			if w == pattern {
				out[i] = replacement
			}
		case len(w) >= len(pre)+len(post) && strings.HasPrefix(w, pre) && strings.HasSuffix(w, post):
			stem := w[len(pre) : len(w)-len(post)]
			out[i] = strings.Replace(replacement, "%", stem, 1)
		}
	}
	return strings.Join(out, " ")
}

// makeStep is what make does for one target: the lines of its recipe,
// each as sh gets it.
type makeStep struct {
	target string
	lines  []makeLine
}

// makeLine is one line of a recipe as sh gets it; always is set for a
// line that runs even under -n or -t (a + prefix, or $(MAKE) in it).
type makeLine struct {
	text   string
	always bool
}

// steps is what make does to make target, in order: the steps of its
// prerequisites that are targets of the Makefile, then its own recipe;
// each target once (done holds those made), and none that is no explicit
// rule. deep reports that prerequisites nest past maxMakeDepth, where
// the steps stop.
func (m *makefile) steps(target string, done map[string]bool, depth int) (steps []makeStep, deep bool) {
	rules := m.rules[target]
	if len(rules) == 0 || done[target] || len(done) >= maxMakeRules {
		return nil, false
	}
	if depth >= maxMakeDepth {
		return nil, true
	}
	done[target] = true
	env := &makeEnv{target: target, vars: map[string]*makeVar{}}
	for _, rule := range rules {
		env.prereqs = append(env.prereqs, rule.prereqs...)
		for k, v := range rule.vars {
			env.vars[k] = v
		}
	}
	for _, p := range env.prereqs {
		sub, d := m.steps(p, done, depth+1)
		steps, deep = append(steps, sub...), deep || d
	}
	step := makeStep{target: target}
	for _, rule := range rules {
		for _, raw := range rule.recipe {
			text, plus := m.recipeLine(raw, env)
			always := plus || strings.Contains(raw, "$(MAKE)") || strings.Contains(raw, "${MAKE}")
			step.lines = append(step.lines, makeLine{text: text, always: always})
		}
	}
	return append(steps, step), deep
}

// recipeLine is a recipe line as make hands it to the shell, from the
// line as written: a leading reference to a variable the Makefile does
// not set, glued to the command's name (the quiet switch of $(Q)cmd,
// empty unless set; not $(DIR)/cmd), dropped, the rest expanded, and the
// prefixes @ (silent), - (errors ignored) and + (run even with -n) taken
// off; plus reports a +.
func (m *makefile) recipeLine(line string, env *makeEnv) (text string, plus bool) {
	for strings.HasPrefix(line, "$(") || strings.HasPrefix(line, "${") {
		end := closing(line, 1)
		if end < 0 || end+1 >= len(line) || strings.IndexByte(" \t/.$", line[end+1]) >= 0 {
			break
		}
		name := line[2:end]
		if m.defined(name) || env != nil && env.vars[name] != nil || makeFunction(strings.Fields(name + " x")[0]) || strings.ContainsAny(name, "$:") {
			break
		}
		line = line[end+1:]
	}
	text = m.expand(line, env, 0)
	for len(text) > 0 && strings.IndexByte("@-+ \t", text[0]) >= 0 {
		plus = plus || text[0] == '+'
		text = text[1:]
	}
	return text, plus
}
