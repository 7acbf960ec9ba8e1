// Package pwsh reads a PowerShell command line for the files it writes,
// before it runs: the shell tool of Codex CLI and GitHub Copilot CLI runs
// PowerShell on Windows, where the bash reader (package shell) would see
// none of Set-Content's, Remove-Item's or a redirection's writes. It
// splits the line into statements and words as PowerShell does (quotes,
// backtick escapes, variables, script blocks and sub-expressions, read
// where they stand), binds the arguments of the cmdlets that write files
// (by name, alias, parameter prefix or position) and names their paths;
// native programs (git, gofmt, sed...) it hands back with their words, for
// package shell to read as the programs it knows. What it cannot read (a
// path in a variable, Invoke-Expression, & $x, cmd.exe, a .ps1 script)
// makes the analysis unsure, with a sentence for the model.
package pwsh

import (
	"os"
	"path/filepath"
	"strings"
)

// Write is one path the command writes.
type Write struct {
	// Path is absolute and clean, as PowerShell resolves it (.. taken
	// from the text, as its providers do); a folder when Under is set.
	Path string
	// Under, when not "", is a doublestar glob relative to Path: the
	// paths under it that the command writes (Remove-Item src\*.tmp is
	// src and "*.tmp").
	Under string
	// By is the cmdlet or redirection that writes it, for a message.
	By string
	// Opens is set when the command opens the file and writes into it
	// (Set-Content, >, Copy-Item's destination): through a symbolic link
	// the link's target is written.
	Opens bool
}

// Word is one argument of a native command.
type Word struct {
	Text  string
	Known bool // false: a variable or an expression is in it
}

// Native is a native program the line runs, which package shell reads as
// the bash reader would read its words.
type Native struct {
	Dir  string // the folder it runs in; "" when not known
	Args []Word // its name first, lower case, without .exe
}

// Analysis is what the reader tells of a PowerShell command line.
type Analysis struct {
	// Writes and Native are in the order the line runs them.
	Writes []Write
	Native []Native
	// Unsure, when not "", says in a sentence for the model why the
	// line could not be read whole; Writes and Native hold what was
	// found, and may miss some.
	Unsure string
}

// The bounds on what is read, as the bash reader has: hostile input
// costs no more than a hook may spend.
const (
	maxBytes = 1 << 20
	maxDepth = 8
	maxSteps = 4096
)

// The reasons the reader gives, for the model to read.
const (
	unsureBytes  = "the PowerShell command is over 1 MiB, more than lucid reads: split it, or write the files with your edit tool"
	unsureDepth  = "the PowerShell command nests script blocks or sub-expressions more than 8 deep for lucid to check: split it"
	unsureSteps  = "the PowerShell command is too long for lucid to check (over 4096 statements and words): split it"
	unsurePath   = "the path %s writes is a variable or an expression, which lucid does not read. Write the path out literally in the command"
	unsurePipe   = "%s takes its paths from the pipeline, which lucid does not follow. Name the paths with -Path or -LiteralPath"
	unsureDir    = "the PowerShell command changes to a folder lucid cannot tell (a variable, or Set-Location -) before it writes a relative path. Use absolute paths, or a literal folder"
	unsureIEX    = "the command runs text with Invoke-Expression, which lucid does not read. Run the commands themselves"
	unsureCall   = "the command runs a command named by a variable or an expression (& $x), which lucid does not read. Name the command itself"
	unsureCmd    = "the command runs cmd.exe or a batch file, which lucid does not read. Run the commands in PowerShell itself"
	unsureScript = "the command runs the PowerShell script %s, which lucid does not read. Run its commands themselves, or edit files with your edit tool"
	unsureStart  = "the command starts a program with Start-Process, which lucid does not follow. Run the program directly"
	unsureDotNet = "the command writes files through .NET's classes ([IO.File]::WriteAllText, a StreamWriter), which lucid does not read. Write them with Set-Content, Out-File or your edit tool"
	unsureEnc    = "the command passes PowerShell an encoded command (-EncodedCommand), which lucid does not read. Pass the command as text with -Command"
)

// Analyze reads command, run by PowerShell in cwd (absolute), for what it
// writes. $HOME and ~ are this process's home folder; $env:USERPROFILE,
// $env:HOME, $env:TEMP and $env:TMP come from its environment; a variable
// the line sets to a literal string is known after it.
func Analyze(command, cwd string) Analysis {
	home, _ := os.UserHomeDir()
	return analyze(command, cwd, home, os.Getenv)
}

func analyze(command, cwd, home string, getenv func(string) string) Analysis {
	if len(command) > maxBytes {
		return Analysis{Unsure: unsureBytes}
	}
	r := &reader{src: command, home: home, getenv: getenv}
	if filepath.IsAbs(cwd) {
		r.dir = filepath.Clean(cwd)
	}
	r.script(0, len(command))
	if r.out.Unsure == "" && dotNetWrite(command) {
		r.out.Unsure = unsureDotNet
	}
	return r.out
}

// dotNetWrite reports whether command may write files through .NET's own
// classes ([IO.File]::WriteAllText(...), a StreamWriter), which models use
// in PowerShell as often as its cmdlets and whose arguments are
// expressions lucid does not evaluate.
func dotNetWrite(command string) bool {
	if !strings.Contains(command, "::") && !strings.Contains(command, "treamWriter") && !strings.Contains(command, "TREAMWRITER") {
		return false
	}
	low := strings.ToLower(command)
	for _, m := range []string{"file]::write", "file]::append", "file]::delete", "file]::copy", "file]::move",
		"file]::replace", "file]::create", "file]::open", "file]::settext", "directory]::delete", "directory]::move",
		"streamwriter", "fileinfo]"} {
		if strings.Contains(low, m) {
			return true
		}
	}
	return false
}

// reader walks one command line. Nested script blocks and sub-expressions
// are read in place, with the same folder: PowerShell's location is the
// session's, whatever scope changes it.
type reader struct {
	src    string
	home   string
	getenv func(string) string
	dir    string // "" when not known
	stack  []string
	vars   map[string]elem // variables the line set, by lower-case name
	out    Analysis
	depth  int
	steps  int
}

func (r *reader) stop(reason string) {
	if r.out.Unsure == "" {
		r.out.Unsure = reason
	}
}

func (r *reader) budget() bool {
	r.steps++
	if r.steps > maxSteps {
		r.stop(unsureSteps)
		return false
	}
	return true
}

// script reads the statements of src[lo:hi].
func (r *reader) script(lo, hi int) {
	if r.depth >= maxDepth {
		r.stop(unsureDepth)
		return
	}
	r.depth++
	defer func() { r.depth-- }()
	piped := false
	for i := lo; i < hi; {
		var s stmt
		i, s = r.statement(i, hi)
		s.piped = piped
		piped = s.pipes
		if !r.budget() {
			return
		}
		r.run(s)
	}
}

// stmt is one statement: a command, an assignment or an expression, with
// its redirections.
type stmt struct {
	pos    int
	call   bool // & or . before the command
	toks   []token
	redirs []token
	piped  bool // its input comes down a pipe
	pipes  bool // its output goes down a pipe
}

// statement reads one statement from src[i:hi], up to and past its
// separator (newline, ;, |, &&, ||, a trailing &).
func (r *reader) statement(i, hi int) (int, stmt) {
	src := r.src
	s := stmt{pos: i}
	for i < hi {
		c := src[i]
		switch {
		case isSpace(c):
			i++
			continue
		case c == '`' && i+1 < hi && (src[i+1] == '\n' || src[i+1] == '\r'):
			i += 2 // a line continued
			continue
		case c == '\n' || c == ';':
			return i + 1, s
		case c == '|':
			if i+1 < hi && src[i+1] == '|' {
				return i + 2, s
			}
			s.pipes = true
			return i + 1, s
		case c == '&':
			if i+1 < hi && src[i+1] == '&' {
				return i + 2, s
			}
			if len(s.toks) == 0 && !s.call {
				s.call = true
				i++
				continue
			}
			return i + 1, s // a job run in the background
		case c == '.' && len(s.toks) == 0 && !s.call && i+1 < hi && isSpace(src[i+1]):
			s.call = true // dot-sourcing
			i++
			continue
		case c == '<' && i+1 < hi && src[i+1] == '#':
			if j := strings.Index(src[i+2:hi], "#>"); j >= 0 {
				i += j + 4
			} else {
				i = hi
			}
			continue
		case c == '#':
			for i < hi && src[i] != '\n' {
				i++
			}
			continue
		case c == ')' || c == '}' || c == ']' || c == ',':
			i++ // a stray closer: the line would not parse
			continue
		}
		if op, n := redirOp(src[i:hi]); n > 0 {
			t := token{pos: i, redir: op}
			i += n
			if !strings.Contains(op, "&") {
				for i < hi && isSpace(src[i]) {
					i++
				}
				if i < hi && !ends(src[i]) {
					var e elem
					var tk token
					e, i, _ = r.elem(i, hi, &tk)
					t.target = &e
				}
			}
			s.redirs = append(s.redirs, t)
			continue
		}
		var t token
		t, i = r.word(i, hi)
		s.toks = append(s.toks, t)
		if !r.budget() {
			return hi, s
		}
	}
	return i, s
}

// redirOp is the redirection operator at the start of s and its length:
// >, >>, N>, N>>, *>, *>>, N>&M, *>&1; 0 where none starts.
func redirOp(s string) (string, int) {
	n := 0
	if len(s) > 1 && (s[0] >= '1' && s[0] <= '6' || s[0] == '*') && s[1] == '>' {
		n = 1
	}
	if n >= len(s) || s[n] != '>' {
		if len(s) > 0 && s[0] == '<' {
			return "<", 1
		}
		return "", 0
	}
	n++
	if n < len(s) && s[n] == '>' {
		n++
	}
	if n+1 < len(s) && s[n] == '&' && s[n+1] >= '1' && s[n+1] <= '6' {
		n += 2
	}
	return s[:n], n
}

// word reads one argument at src[i]: a parameter, or one or more values
// joined by commas.
func (r *reader) word(i, hi int) (token, int) {
	src := r.src
	t := token{pos: i, first: src[i], bare: true}
	if src[i] == '-' && i+1 < hi && isLetter(src[i+1]) {
		j := i + 1
		for j < hi && (isLetter(src[j]) || src[j] >= '0' && src[j] <= '9' || src[j] == '_' || src[j] == '-' || src[j] == '?') {
			j++
		}
		switch {
		case j == hi || ends(src[j]) || src[j] == '(':
			t.param = strings.ToLower(src[i+1 : j])
			t.elems = []elem{{text: src[i:j], known: true}}
			return t, j
		case src[j] == ':':
			t.param = strings.ToLower(src[i+1 : j])
			t.elems = []elem{{text: src[i:j], known: true}}
			if j+1 < hi && !ends(src[j+1]) {
				var e elem
				var tk token
				e, j, _ = r.elem(j+1, hi, &tk)
				t.colon = &e
			}
			return t, j
		}
	}
	if src[i] == '$' {
		// An assignment's variable: $x = ..., $x='...'.
		if name, j, ok := variable(src, i+1); ok && j < hi && src[j] != '(' {
			k := j
			for k < hi && isSpace(src[k]) {
				k++
			}
			if op := assignOp(src[k:hi]); op != "" {
				t.bare = false
				t.elems = []elem{r.lookup(name)}
				t.op = "$" + strings.ToLower(name)
				return t, j
			}
		}
	}
	if op := assignOp(src[i:hi]); op != "" && (i+len(op) == hi || isSpace(src[i+len(op)]) || !ends(src[i+len(op)])) {
		t.op = op
		t.elems = []elem{{text: op, known: true}}
		return t, i + len(op)
	}
	for {
		e, j, bare := r.elem(i, hi, &t)
		t.elems = append(t.elems, e)
		t.bare = t.bare && bare
		i = j
		k := i
		for k < hi && isSpace(src[k]) {
			k++
		}
		if k < hi && src[k] == ',' {
			k++
			for k < hi && (isSpace(src[k]) || src[k] == '\n') {
				k++
			}
			if k < hi && !ends(src[k]) {
				i = k
				t.bare = false
				continue
			}
			i = k
		}
		return t, i
	}
}

// assignOp is the assignment operator at the start of s, "" where none.
func assignOp(s string) string {
	for _, op := range []string{"??=", "+=", "-=", "*=", "/=", "%=", "="} {
		if strings.HasPrefix(s, op) && !strings.HasPrefix(s, "==") {
			return op
		}
	}
	return ""
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// elem reads one value at src[i]: a word of quotes, escapes, variables and
// plain characters, or a group ( ), @( ), $( ), { }, @{ }, whose
// statements are read where they stand. bare reports plain characters
// only.
func (r *reader) elem(i, hi int, t *token) (e elem, end int, bare bool) {
	src := r.src
	switch {
	case src[i] == '(' || src[i] == '{' || src[i] == '@' && i+1 < hi && (src[i+1] == '(' || src[i+1] == '{'):
		open := i
		if src[i] == '@' {
			open++
		}
		end = min(closing(src, open), hi)
		if src[i] == '{' {
			t.block = true
		}
		if src[i] != '@' || src[open] == '(' {
			r.script(open+1, max(open+1, end-1)) // a hashtable's body is not a script
		}
		return elem{}, end, false
	case src[i] == '@' && i+1 < hi && (src[i+1] == '\'' || src[i+1] == '"'):
		return r.hereString(i, hi)
	}
	var b strings.Builder
	known, bare := true, true
	start := i
	for i < hi {
		c := src[i]
		if ends(c) || c == '(' && i > start {
			break
		}
		switch c {
		case '\'':
			j := singleEnd(src, i+1)
			b.WriteString(strings.ReplaceAll(src[i+1:max(i+1, j-1)], "''", "'"))
			i, bare = j, false
		case '"':
			var k bool
			i, k = r.double(i+1, hi, &b)
			known = known && k
			bare = false
		case '`':
			if i+1 >= hi || src[i+1] == '\n' || src[i+1] == '\r' {
				return elem{text: b.String(), known: known}, i, bare
			}
			b.WriteString(escaped(src[i+1]))
			i += 2
			bare = false
		case '$':
			bare = false
			if i+1 < hi && src[i+1] == '(' {
				end := min(closing(src, i+1), hi)
				r.script(i+2, max(i+2, end-1))
				known, i = false, end
				continue
			}
			name, j, ok := variable(src, i+1)
			if !ok {
				b.WriteByte('$')
				i++
				continue
			}
			v := r.lookup(name)
			// $x.Name and $x[0] are a member and an element, of
			// values lucid does not know.
			if !v.known || j < hi && (src[j] == '.' || src[j] == '[') && !strings.Contains(name, ":") {
				known = false
			}
			b.WriteString(v.text)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return elem{text: b.String(), known: known}, i, bare
}

// double reads a double-quoted string's text from src[i] (past its
// quote) into b: backtick escapes, "" for a quote, variables; a $( ) is
// read for its statements and makes the text unknown.
func (r *reader) double(i, hi int, b *strings.Builder) (end int, known bool) {
	src := r.src
	known = true
	for i < hi {
		switch c := src[i]; c {
		case '"':
			if i+1 < hi && src[i+1] == '"' {
				b.WriteByte('"')
				i += 2
				continue
			}
			return i + 1, known
		case '`':
			if i+1 < hi {
				b.WriteString(escaped(src[i+1]))
			}
			i += 2
		case '$':
			if i+1 < hi && src[i+1] == '(' {
				end := min(closing(src, i+1), hi)
				r.script(i+2, max(i+2, end-1))
				known, i = false, end
				continue
			}
			name, j, ok := variable(src, i+1)
			if !ok {
				b.WriteByte('$')
				i++
				continue
			}
			v := r.lookup(name)
			known = known && v.known
			b.WriteString(v.text)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return hi, known
}

// hereString reads @'...'@ or @"..."@ at src[i]: its text runs from the
// line after the opening to the line that starts with the closing.
func (r *reader) hereString(i, hi int) (elem, int, bool) {
	src := r.src
	q := src[i+1]
	closeAt := strings.Index(src[i+2:hi], "\n"+string(q)+"@")
	if closeAt < 0 {
		return elem{}, hi, false
	}
	body := src[i+2 : i+2+closeAt]
	end := i + 2 + closeAt + 3
	if nl := strings.IndexByte(body, '\n'); nl >= 0 {
		body = body[nl+1:]
	} else {
		body = ""
	}
	body = strings.TrimSuffix(body, "\r")
	if q == '\'' {
		return elem{text: body, known: true}, end, false
	}
	var b strings.Builder
	known := true
	for j := 0; j < len(body); j++ {
		if body[j] == '$' || body[j] == '`' {
			known = false // its expansions are read as text, not run
			break
		}
	}
	b.WriteString(body)
	return elem{text: b.String(), known: known}, end, false
}

// lookup is the value of the variable name: one the line set to a
// literal, the home folder, the folder, a few environment variables.
func (r *reader) lookup(name string) elem {
	low := strings.ToLower(name)
	if v, ok := r.vars[low]; ok {
		return v
	}
	switch low {
	case "home":
		return elem{text: r.home, known: r.home != ""}
	case "pwd":
		return elem{text: r.dir, known: r.dir != ""}
	case "null":
		return elem{known: true}
	case "true":
		return elem{text: "True", known: true}
	case "false":
		return elem{text: "False", known: true}
	case "env:home", "env:userprofile", "env:temp", "env:tmp":
		v := r.getenv(strings.ToUpper(low[len("env:"):]))
		return elem{text: v, known: v != ""}
	}
	return elem{}
}

// set records what an assignment gives the variable name (lower case).
func (r *reader) set(name string, v elem) {
	if r.vars == nil {
		r.vars = map[string]elem{}
	}
	r.vars[name] = v
}
