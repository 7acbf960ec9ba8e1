package stamp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
	"mvdan.cc/sh/v3/syntax"
)

// Line is a command line as Lucid reads it: the line with its stamps, and
// what it does with lucid and LUCID_AGENT.
type Line struct {
	// Command is the command with a stamp inserted immediately before each
	// word that runs lucid, so that it is the last thing to set
	// LUCID_AGENT for lucid: "LUCID_AGENT=<id> " where the word is a
	// command's name (after its assignments) or an operand of env, which
	// reads it as an assignment; "env LUCID_AGENT=<id> " where another
	// wrapper runs it (exec, nohup, timeout, sudo, xargs, find -exec...).
	// Stamps go into nested scripts too (bash -c, env -S, a heredoc fed to
	// a shell) where the script's bytes are the line's. Every other byte
	// is as it was.
	Command string
	// Found is true when the line runs lucid at least once, stamped or not.
	Found bool
	// OnlyLucid is true when every command in the line is lucid (possibly
	// through env, command, exec, nohup, nice, timeout or bash -c), with no
	// redirection to a file, and none of Hook, Agents (but the caller's
	// own id) and Unsigned asks for a denial: granting it widens nothing.
	// sudo and doas change the user, so lucid through them does not count.
	OnlyLucid bool
	// Hook is true when the line runs lucid hook (lucid's first operand is
	// hook, or is not known before the line runs): a hook is the client's
	// to run, never an agent's, and the caller denies it.
	Hook bool
	// Agents are the values the line itself gives LUCID_AGENT, wherever it
	// runs lucid or not, in the order found: by assignment (LUCID_AGENT=X
	// cmd, LUCID_AGENT=X;, export, declare, local, readonly, typeset, for
	// LUCID_AGENT in), through env LUCID_AGENT=X or sudo LUCID_AGENT=X;
	// "" for a removal (unset, env -u, env -i, export -n); "?" for a value
	// not known before the line runs (a variable, a $( ), read). The stamps
	// Lucid inserts are not among them. The caller denies the line
	// unless every value is its own id: a line is not to sign for another.
	Agents []string
	// Unsigned, when not "", is why the line may run lucid where no stamp
	// can be placed, in a sentence for the model: a lucid word inside a
	// script whose bytes are not the line's (escapes, expansions), a
	// command name computed from text that mentions lucid ("$(command -v
	// lucid)"), eval or an alias of such text, a script piped into a
	// shell. The caller denies the line; Found may be false.
	Unsigned string
	// Env are the variables among Lucid's identity that the line
	// sets or removes, in the order found: those by which an agent's shell
	// names its agent, or tells that it is one. A client that signs lucid
	// commands from its shell's environment alone (no stamp reaches them)
	// would take such a line's lucid for another agent's, or a person's;
	// the caller denies it.
	Env []string
}

// The reasons Lucid gives for a lucid it cannot sign.
const (
	unsignedScript = "lucid runs inside a script whose text lucid cannot sign (escapes or expansions around it): run lucid by its plain name"
	unsignedName   = "the line runs a command whose name is computed from text that mentions lucid, which lucid cannot sign: run lucid by its plain name"
	unsignedEval   = "eval or an alias runs text that mentions lucid, which lucid cannot sign: run lucid by its plain name"
	unsignedPipe   = "a shell runs a script piped to it that mentions lucid, which lucid cannot sign: run lucid by its plain name"
	unsignedDeep   = "lucid runs in shells nested too deep for lucid to sign: run lucid by its plain name"
	unsignedBytes  = "the command is over 1 MiB, more than lucid reads: run lucid by its plain name, in a command of its own"
	unsignedParse  = "the line mentions lucid but does not parse as bash for lucid, so lucid cannot sign it: fix its quoting, or run lucid by its plain name in a command of its own"
	unsignedRunner = "lucid runs under %s, which lucid does not know how to sign through: run lucid by its plain name, as a command of its own"
	unsignedClear  = "exec -c runs a command with an empty environment, which hides whose shell runs it: run it without -c"
)

// LucidCommands are lucid's commands: what follows lucid's name in a
// command line, by which a word "lucid" handed to a program lucid does
// not know (flock FILE lucid release ...) is told from a word that only
// names it (grep lucid src). cmd/lucid's tests hold it to the registry.
var LucidCommands = []string{"agents", "ask", "claim", "claims", "dead-end", "decision", "doctor", "dream", "fact",
	"gc", "help", "hook", "inbox", "init", "log", "merge-driver", "note", "release", "remote", "reply", "search",
	"status", "statusline", "supersede", "tell", "uninstall", "version", "watch", "web"}

// Lucid finds each lucid command in a shell command line (in
// pipelines, lists, subshells, command substitutions, functions, behind
// wrappers, and in the scripts of bash -c, env -S and heredocs fed to a
// shell) and inserts the stamp LUCID_AGENT=<agent> before it, so that
// whatever lucid writes is signed by the agent that ran it. A line that
// does not parse is left alone; if it mentions lucid, it is Unsigned,
// since bash may read what the parser here does not. identity are the
// variables whose setting or removal the line reports in Env.
func Lucid(command, agent string, identity ...string) Line {
	if len(command) > cmdline.MaxBytes {
		if mentionsLucid(command) {
			return Line{Command: command, Unsigned: unsignedBytes}
		}
		return Line{Command: command} // nothing of lucid's to sign
	}
	f := cmdline.Parse(command)
	if f == nil {
		if mentionsLucid(command) {
			return Line{Command: command, Unsigned: unsignedParse}
		}
		return Line{Command: command}
	}
	s := &stamper{agent: agent, identity: identity, only: true}
	s.walk(f, &frame{text: command})
	for _, v := range s.nameVars {
		if slices.Contains(s.lucidVars, v) {
			s.unsign(unsignedName)
		}
	}
	st := Line{Command: command, Found: s.found, Hook: s.hook, Agents: s.agents, Unsigned: s.unsigned, Env: s.env}
	st.OnlyLucid = s.found && s.only && !s.hook && s.unsigned == "" && len(s.env) == 0 &&
		!slices.ContainsFunc(s.agents, func(a string) bool { return a != agent })
	if len(s.inserts) > 0 {
		st.Command = s.stamped(command)
	}
	return st
}

// stamper walks a command line for Lucid.
type stamper struct {
	agent    string
	identity []string // the variables reported in env
	env      []string
	inserts  []stampAt
	found    bool
	hook     bool
	only     bool // every command so far is lucid
	agents   []string
	// unsigned is the first reason a lucid cannot be signed.
	unsigned string
	depth    int // scripts nested
	parsed   int // bytes of nested scripts parsed, bounded like the line
	// piped maps the command on the right of a pipe to the one on its
	// left, whose output a shell there may read as its script.
	piped map[*syntax.Stmt]*syntax.Stmt
	// nameVars are the variables a command's name is made of; lucidVars
	// those given a value that mentions lucid. Both are gathered over the
	// whole line, since a function may use a variable set after it.
	nameVars, lucidVars []string
	// saw, when set, is told of each word that runs lucid: the tests check
	// that a stamped line has its stamp right before each.
	saw func(fr *frame, a cmdline.Arg, via string)
}

// stampAt is one insertion into the line.
type stampAt struct {
	at   int
	text string
}

// stamped is line with the insertions made.
func (s *stamper) stamped(line string) string {
	slices.SortStableFunc(s.inserts, func(a, b stampAt) int { return a.at - b.at })
	var b strings.Builder
	last := 0
	for i, in := range s.inserts {
		if i > 0 && in.at == s.inserts[i-1].at {
			continue // one word reached twice
		}
		b.WriteString(line[last:in.at])
		b.WriteString(in.text)
		last = in.at
	}
	b.WriteString(line[last:])
	return b.String()
}

func (s *stamper) unsign(reason string) {
	if s.unsigned == "" {
		s.unsigned = reason
	}
}

// walk reads the commands of f, whose text is fr's.
func (s *stamper) walk(f *syntax.File, fr *frame) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if call, ok := n.Cmd.(*syntax.CallExpr); ok {
				s.call(call, n, fr)
			}
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				if s.piped == nil {
					s.piped = map[*syntax.Stmt]*syntax.Stmt{}
				}
				s.piped[n.Y] = n.X
			}
		case *syntax.Redirect:
			if writesFile(n) {
				s.only = false
			}
		case *syntax.FuncDecl:
			s.only = false
		case *syntax.DeclClause:
			s.only = false // export PATH=... changes what lucid is
			s.declare(n, fr)
		case *syntax.ForClause:
			if it, ok := n.Loop.(*syntax.WordIter); ok {
				for _, w := range it.Items {
					s.setVar(it.Name.Value, cmdline.ArgOf(w), fr)
				}
			}
		case *syntax.ParamExp:
			if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				s.setVar(n.Param.Value, cmdline.ArgOf(n.Exp.Word), fr)
			}
		}
		return true
	})
}

// call reads one simple command.
func (s *stamper) call(call *syntax.CallExpr, stmt *syntax.Stmt, fr *frame) {
	for _, a := range call.Assigns {
		s.assign(a, false, fr)
	}
	if len(call.Args) == 0 {
		s.only = false
		return
	}
	if !s.run(cmdline.Args(call.Args), stmt.Redirs, fr, s.piped[stmt], "") {
		s.only = false
	}
}

// run reads a command whose words are args, run by the wrapper via ("" in
// a command's place), and reports whether it is lucid.
func (s *stamper) run(args []cmdline.Arg, redirs []*syntax.Redirect, fr *frame, piped *syntax.Stmt, via string) bool {
	if len(args) == 0 {
		return false
	}
	name, ok := args[0].Lit()
	if !ok {
		s.computedName(args[0], fr)
		return false
	}
	switch base := cmdline.CommandName(name); {
	case base == "lucid", base == "lucid-view":
		// lucid-view is what lucid web and watch run: signed like lucid,
		// it refuses to act as the person for an agent.
		s.lucid(args, fr, via)
		return true
	case cmdline.IsWrapper(base) && base != "npx": // npx runs a package, not a command
		u := cmdline.Unwrap(base, args[1:])
		if base == "exec" && u.Opts.Has("c") {
			s.unsign(unsignedClear)
		}
		s.wrapperEnv(u, fr)
		inner := u.Inner
		if base == "xargs" {
			inner = cmdline.XargsCommand(u.Opts, inner, nil) // what it reads is not known here
		}
		lucid := s.run(inner, redirs, fr, piped, base)
		// sudo and doas change the user; time -o writes a file.
		return lucid && base != "sudo" && base != "doas" && !(base == "time" && u.Opts.Has("o", "output"))
	case cmdline.IsShell(base):
		return s.shell(args[1:], redirs, fr, piped)
	case base == "find":
		s.find(args[1:], fr)
	case base == "eval" || base == "alias":
		for _, a := range args[1:] {
			if s.mentions(fr, a) {
				s.unsign(unsignedEval)
			}
		}
	default:
		s.setsAgent(base, args[1:], fr)
		if s.runsLucid(base, args[1:], redirs, fr) {
			s.unsign(fmt.Sprintf(unsignedRunner, base))
		}
	}
	return false
}

// runsLucid reports whether name, a program lucid does not know, is
// handed a lucid command to run: its words hold lucid's name followed by
// one of lucid's commands (flock FILE lucid release, taskset -c 0 lucid
// web, strace -f lucid hook), or a string that an option hands it as a
// command (script -qec 'lucid web', su -c, flock -c, watch 'lucid
// claims', git -c alias.x='!lucid ...', a Makefile on make -f -'s standard
// input) runs lucid. A message that merely names lucid (git commit -m
// "lucid web: ...", grep -rn lucid src) is none.
func (s *stamper) runsLucid(name string, args []cmdline.Arg, redirs []*syntax.Redirect, fr *frame) bool {
	for i, a := range args {
		if !s.mentions(fr, a) {
			continue
		}
		if isLucidName(a.Text) && i+1 < len(args) && slices.Contains(LucidCommands, args[i+1].Text) && !printsWords(name) {
			return true
		}
		var scripts []string
		if i > 0 && isCommandOption(args[i-1].Text) || name == "watch" && !strings.HasPrefix(a.Text, "-") {
			scripts = append(scripts, a.Text)
		}
		if _, alias, ok := strings.Cut(a.Text, "=!"); ok {
			scripts = append(scripts, alias) // git -c alias.NAME='!COMMAND'
		}
		if slices.ContainsFunc(scripts, scriptRunsLucid) {
			return true
		}
	}
	if name == "make" || name == "gmake" {
		if text, ok := cmdline.StdinScript(redirs); ok && mentionsLucid(text) {
			for _, line := range strings.Split(text, "\n") {
				if strings.HasPrefix(line, "\t") && scriptRunsLucid(strings.TrimLeft(line, "\t@-+")) {
					return true
				}
			}
		}
	}
	return false
}

// printsWords reports whether a program only prints, shows or looks for
// the words it is given, never running them.
func printsWords(name string) bool {
	switch name {
	case "echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "cat", "less", "more", "head", "tail",
		"ls", "man", "type", "which", "whereis", "git", "test", "[":
		return true
	}
	return false
}

// isLucidName reports whether a word runs lucid as a command name.
func isLucidName(word string) bool {
	base := cmdline.CommandName(word)
	return base == "lucid" || base == "lucid-view"
}

// isCommandOption reports whether an option takes the command a program
// runs as its argument: -c, --command, and a bundle of short options
// ending in c (script -qec).
func isCommandOption(opt string) bool {
	if opt == "--command" || opt == "-c" {
		return true
	}
	return len(opt) > 2 && opt[0] == '-' && opt[1] != '-' && opt[len(opt)-1] == 'c'
}

// scriptRunsLucid reports whether a shell script's commands run lucid,
// behind the wrappers lucid knows.
func scriptRunsLucid(script string) bool {
	f := cmdline.Parse(script)
	if f == nil {
		return false
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || found {
			return !found
		}
		words := cmdline.Args(c.Args)
		for len(words) > 0 {
			w, ok := words[0].Lit()
			if !ok {
				break
			}
			if isLucidName(w) {
				found = true
				break
			}
			if !cmdline.IsWrapper(cmdline.CommandName(w)) {
				break
			}
			words = cmdline.Unwrap(cmdline.CommandName(w), words[1:]).Inner
		}
		return !found
	})
	return found
}

// lucid stamps lucid's words args, run by the wrapper via.
func (s *stamper) lucid(args []cmdline.Arg, fr *frame, via string) {
	s.found = true
	if s.saw != nil {
		s.saw(fr, args[0], via)
	}
	if len(args) > 1 {
		if sub, ok := args[1].Lit(); !ok || sub == "hook" {
			s.hook = true
		}
	}
	text := "LUCID_AGENT=" + s.agent + " "
	if via != "" && via != "env" {
		text = "env " + text
	}
	if a := args[0]; a.Word != nil {
		var at int
		var ok bool
		if a.Part {
			at, text, ok = wordFrame(fr, a.Word, 0, -1).place(a.At, text)
		} else {
			at, text, ok = fr.place(int(a.Word.Pos().Offset()), text)
		}
		if ok {
			s.inserts = append(s.inserts, stampAt{at: at, text: text})
			return
		}
	}
	s.unsign(unsignedScript)
}

// computedName looks at a command name that is not known before the line
// runs: if it may be lucid, lucid cannot sign it.
func (s *stamper) computedName(a cmdline.Arg, fr *frame) {
	if s.mentions(fr, a) {
		s.unsign(unsignedName)
		return
	}
	vars := func(n syntax.Node) bool {
		if p, ok := n.(*syntax.ParamExp); ok && p.Param != nil {
			s.nameVars = append(s.nameVars, p.Param.Value)
		}
		return true
	}
	if a.Word != nil && !a.Part {
		syntax.Walk(a.Word, vars)
		for _, h := range holesIn(fr, a.Word) {
			syntax.Walk(h.Node, vars)
		}
	}
}

// shell reads a shell's script, and reports whether it is lucid alone
// (the commands in it then decide OnlyLucid).
func (s *stamper) shell(args []cmdline.Arg, redirs []*syntax.Redirect, fr *frame, piped *syntax.Stmt) bool {
	script, stdin := cmdline.ShellScript(args)
	switch {
	case script != nil:
		return s.nested(scriptFrame(fr, *script))
	case !stdin:
		return false
	}
	if r := cmdline.StdinRedir(redirs); r != nil {
		return s.nested(redirFrame(fr, r))
	}
	if piped != nil && mentionsNode(fr, piped) {
		s.unsign(unsignedPipe)
	}
	return false
}

// nested reads the script whose text is sub's.
func (s *stamper) nested(sub *frame) bool {
	if s.depth >= cmdline.MaxDepth || s.parsed+len(sub.text) > cmdline.MaxBytes {
		if mentionsLucid(sub.text) {
			s.unsign(unsignedDeep)
		}
		return false
	}
	s.parsed += len(sub.text)
	f := cmdline.Parse(sub.text)
	if f == nil {
		if mentionsLucid(sub.text) {
			s.unsign(unsignedScript)
		}
		return false
	}
	s.depth++
	s.walk(f, sub)
	s.depth--
	return true
}

// find reads the commands of find's -exec, -execdir, -ok and -okdir.
func (s *stamper) find(args []cmdline.Arg, fr *frame) {
	_, expr := cmdline.FindOperands(args)
	for i := expr; i < len(args); i++ {
		if !args[i].Is("-exec") && !args[i].Is("-execdir") && !args[i].Is("-ok") && !args[i].Is("-okdir") {
			continue
		}
		j := cmdline.ExecEnd(args, i)
		cmd := slices.Clone(args[i+1 : j])
		for k := range cmd {
			cmd[k].Text = strings.ReplaceAll(cmd[k].Text, "{}", cmdline.Unknown) // what find found
		}
		s.run(cmd, nil, fr, nil, "find")
		i = j
	}
}

// wrapperEnv records what env or sudo set LUCID_AGENT to.
func (s *stamper) wrapperEnv(u cmdline.Wrapped, fr *frame) {
	if u.Clear {
		s.agents = append(s.agents, "")
	}
	for _, a := range u.Unset {
		t, ok := a.Lit()
		if !ok {
			t = "LUCID_AGENT" // which is not known before the line runs
		}
		s.removed(t)
	}
	for _, a := range u.Env {
		name, _, _ := strings.Cut(a.Text, "=")
		s.setVar(name, a.From(len(name)+1), fr)
	}
}

// setsAgent records what the builtins that set or remove a variable by
// name do to LUCID_AGENT: unset, export and its kin named by command or
// builtin, read, printf -v, mapfile, getopts.
func (s *stamper) setsAgent(name string, args []cmdline.Arg, fr *frame) {
	switch name {
	case "unset":
		o := cmdline.ParseOpts(args, cmdline.Spec{})
		if o.Has("f") {
			return // functions
		}
		for _, a := range o.Ops {
			if t, ok := a.Lit(); ok {
				s.removed(t)
			}
		}
	case "export", "declare", "typeset", "local", "readonly":
		removes := false
		for _, a := range args {
			t, _ := a.Lit()
			switch {
			case strings.HasPrefix(t, "-") && strings.Contains(t, "n") || strings.HasPrefix(t, "+") && strings.Contains(t, "x"):
				removes = true
			case removes && !strings.Contains(t, "="):
				s.removed(t)
			case strings.Contains(a.Text, "="):
				name, _, _ := strings.Cut(a.Text, "=")
				if s.watched(name) {
					s.setVar(name, a.From(len(name)+1), fr)
				}
			}
		}
	case "read", "printf", "mapfile", "readarray", "getopts":
		for _, a := range args {
			t, _ := a.Lit()
			for _, name := range append([]string{"LUCID_AGENT"}, s.identity...) {
				if strings.HasSuffix(t, name) && (t == name || t[0] == '-') {
					s.set(name, "?")
				}
			}
		}
	}
}

// declare reads export, declare, local, readonly and typeset.
func (s *stamper) declare(d *syntax.DeclClause, fr *frame) {
	removes := false // export -n, declare +x
	for _, a := range d.Args {
		if a.Name == nil && a.Value != nil {
			flag := a.Value.Lit()
			if strings.HasPrefix(flag, "-") && strings.Contains(flag, "n") || strings.HasPrefix(flag, "+") && strings.Contains(flag, "x") {
				removes = true
			}
			continue
		}
		s.assign(a, removes, fr)
	}
}

// assign records an assignment of a variable, removes when it takes it
// out of the environment (export -n NAME).
func (s *stamper) assign(a *syntax.Assign, removes bool, fr *frame) {
	if a.Name == nil {
		return
	}
	switch {
	case a.Naked:
		if removes {
			s.removed(a.Name.Value)
		}
	case a.Append || a.Index != nil || a.Array != nil:
		if a.Array != nil && mentionsNode(fr, a.Array) {
			s.lucidVars = append(s.lucidVars, a.Name.Value) // a=(lucid x); "${a[@]}"
		}
		s.setVar(a.Name.Value, cmdline.Arg{Text: cmdline.Unknown}, fr)
	case a.Value == nil:
		s.setVar(a.Name.Value, cmdline.Arg{}, fr)
	default:
		s.setVar(a.Name.Value, cmdline.ArgOf(a.Value), fr)
	}
}

// setVar records that the variable name is given the value v.
func (s *stamper) setVar(name string, v cmdline.Arg, fr *frame) {
	if s.mentions(fr, v) {
		s.lucidVars = append(s.lucidVars, name)
	}
	val, ok := v.Lit()
	if !ok {
		val = "?"
	}
	s.set(name, val)
}

// watched reports whether the line's setting or removal of the variable
// name is reported: LUCID_AGENT, or one of the identity.
func (s *stamper) watched(name string) bool {
	return name == "LUCID_AGENT" || slices.Contains(s.identity, name)
}

// set records that the variable name is given the value val ("?": not
// known before the line runs).
func (s *stamper) set(name, val string) {
	switch {
	case name == "LUCID_AGENT":
		s.agents = append(s.agents, val)
	case name != "" && slices.Contains(s.identity, name):
		s.env = append(s.env, name)
	}
}

// removed records that the variable name is taken out of the environment.
func (s *stamper) removed(name string) { s.set(name, "") }

// mentions reports whether an argument may spell lucid: its text after
// quote removal, its source in fr, or the source of an expansion in it
// that fr's parent made, does, in any case.
func (s *stamper) mentions(fr *frame, a cmdline.Arg) bool {
	if mentionsLucid(a.Text) {
		return true
	}
	return a.Word != nil && !a.Part && mentionsNode(fr, a.Word)
}

// mentionsNode reports whether the source of node, a node of fr, spells
// lucid, or an expansion in it that fr's parent made does.
func mentionsNode(fr *frame, node syntax.Node) bool {
	if mentionsLucid(source(fr, node)) {
		return true
	}
	return slices.ContainsFunc(holesIn(fr, node), func(h cmdline.Hole) bool { return mentionsLucid(source(fr.up, h.Node)) })
}

// holesIn is the expansions of fr's parent inside node, a node of fr.
func holesIn(fr *frame, node syntax.Node) []cmdline.Hole {
	start, end := int(node.Pos().Offset()), int(node.End().Offset())
	var in []cmdline.Hole
	for _, h := range fr.holes {
		if start <= h.At && h.At < end {
			in = append(in, h)
		}
	}
	return in
}

// source is the text of node in fr.
func source(fr *frame, node syntax.Node) string {
	start, end := int(node.Pos().Offset()), int(node.End().Offset())
	if start > end || end > len(fr.text) {
		return ""
	}
	return fr.text[start:end]
}

// mentionsLucid reports whether s holds "lucid" in any case.
func mentionsLucid(s string) bool {
	for i := 0; i+5 <= len(s); i++ {
		if s[i]|0x20 == 'l' && strings.EqualFold(s[i:i+5], "lucid") {
			return true
		}
	}
	return false
}

// writesFile reports whether a redirection writes a file other than
// /dev/null (duplicating a descriptor, like 2>&1, writes none).
func writesFile(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.RdrAllClob,
		syntax.AppAll, syntax.AppAllClob, syntax.RdrInOut:
		return r.Word == nil || r.Word.Lit() != "/dev/null"
	case syntax.DplOut:
		t := r.Word.Lit()
		return t != "-" && strings.Trim(t, "0123456789") != "" && !strings.HasSuffix(t, "-")
	}
	return false
}
