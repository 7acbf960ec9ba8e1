package guard

import (
	"path"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Stamp is the result of StampLucid.
type Stamp struct {
	// Command is the command with "LUCID_AGENT=<id> " inserted before each
	// lucid command; every other byte is as it was.
	Command string
	// Found is true when the command runs lucid at least once.
	Found bool
	// OnlyLucid is true when every command in the line is lucid (possibly
	// through env, command, exec, nohup, nice, timeout or bash -c), with no
	// redirection to a file: granting it widens nothing.
	OnlyLucid bool
}

// wrapper reports whether a command runs the command named among its
// arguments with the environment it was given.
func wrapper(name string) bool {
	switch name {
	case "env", "command", "exec", "nohup", "nice", "timeout", "xargs", "stdbuf", "time":
		return true
	}
	return false
}

// StampLucid finds each lucid command in a shell command line (in
// pipelines, lists, subshells, command substitutions, and bash -c or sh -c
// strings) and inserts LUCID_AGENT=<agent> before it, so that whatever
// lucid writes is signed by the agent that ran it. A line that does not
// parse is left alone.
func StampLucid(command, agent string) Stamp {
	st := Stamp{Command: command}
	inserts, found, only, ok := stampOffsets(command, 0)
	if !ok || !found {
		return st
	}
	sort.Sort(sort.Reverse(sort.IntSlice(inserts)))
	prefix := "LUCID_AGENT=" + agent + " "
	out := command
	for _, off := range inserts {
		out = out[:off] + prefix + out[off:]
	}
	return Stamp{Command: out, Found: true, OnlyLucid: only}
}

// stampOffsets parses src, which starts at byte base of the whole command,
// and returns where to insert the stamp.
func stampOffsets(src string, base int) (inserts []int, found, only, ok bool) {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, false, false, false
	}
	only = true
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Redirect:
			if writesFile(n) {
				only = false
			}
		case *syntax.FuncDecl:
			only = false
		case *syntax.CallExpr:
			at, isLucid, inner := lucidCall(n, src, base)
			switch {
			case isLucid:
				inserts = append(inserts, at)
				found = true
			case inner != nil:
				inserts = append(inserts, inner.inserts...)
				found = found || inner.found
				only = only && inner.only
			default:
				only = false
			}
		}
		return true
	})
	return inserts, found, only, true
}

type innerStamp struct {
	inserts     []int
	found, only bool
}

// lucidCall looks at one simple command. It returns where to stamp when it
// runs lucid (directly or through a wrapper), or the stamps inside a
// bash -c string.
func lucidCall(call *syntax.CallExpr, src string, base int) (int, bool, *innerStamp) {
	if len(call.Args) == 0 {
		return 0, false, nil
	}
	name := call.Args[0].Lit()
	off := func(w *syntax.Word) int { return base + int(w.Pos().Offset()) }
	switch {
	case isLucid(name):
		return off(call.Args[0]), true, nil
	case wrapper(name):
		for _, w := range call.Args[1:] {
			if isLucid(w.Lit()) {
				if name == "env" {
					return off(w), true, nil // env NAME=VALUE lucid ...
				}
				return off(call.Args[0]), true, nil
			}
		}
	case name == "bash" || name == "sh":
		return 0, false, shellString(call, src, base)
	}
	return 0, false, nil
}

// shellString stamps the script of `bash -c SCRIPT` when the script is a
// plain or single-quoted word, or a double-quoted one without escapes or
// expansions, so its bytes map one to one onto the outer line.
func shellString(call *syntax.CallExpr, src string, base int) *innerStamp {
	if len(call.Args) < 3 {
		return nil // a bare sh reads its script from stdin; sh -c alone has none
	}
	for i, w := range call.Args[1 : len(call.Args)-1] {
		flag := w.Lit()
		if !strings.HasPrefix(flag, "-") || strings.HasPrefix(flag, "--") || !strings.Contains(flag, "c") {
			continue
		}
		script := call.Args[i+2]
		if len(script.Parts) != 1 {
			return nil
		}
		var body string
		var start int
		switch p := script.Parts[0].(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, `\`) {
				return nil
			}
			body, start = p.Value, int(p.Pos().Offset())
		case *syntax.SglQuoted:
			if p.Dollar {
				return nil
			}
			body, start = p.Value, int(p.Pos().Offset())+1
		case *syntax.DblQuoted:
			if p.Dollar || len(p.Parts) != 1 {
				return nil
			}
			lit, ok := p.Parts[0].(*syntax.Lit)
			if !ok || strings.ContainsAny(lit.Value, "\\$`") {
				return nil
			}
			body, start = lit.Value, int(lit.Pos().Offset())
		default:
			return nil
		}
		inserts, found, only, ok := stampOffsets(body, base+start)
		if !ok {
			return nil
		}
		return &innerStamp{inserts: inserts, found: found, only: only}
	}
	return nil
}

func isLucid(word string) bool { return word != "" && path.Base(word) == "lucid" }

// writesFile reports whether a redirection writes a file other than
// /dev/null (duplicating a descriptor, like 2>&1, writes none).
func writesFile(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll, syntax.RdrInOut:
		return r.Word == nil || r.Word.Lit() != "/dev/null"
	}
	return false
}
