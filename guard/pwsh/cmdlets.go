package pwsh

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// run acts out one statement: its redirections, an assignment, or the
// command it invokes.
func (r *reader) run(s stmt) {
	for _, t := range s.redirs {
		if t.target != nil && t.redir != "<" {
			r.writeElem(*t.target, "PowerShell "+t.redir, true)
		}
	}
	toks := s.toks
	if len(toks) == 0 {
		return
	}
	if strings.HasPrefix(toks[0].op, "$") && len(toks) > 1 && toks[1].op != "" {
		name, rest := toks[0].op[1:], toks[2:]
		switch {
		case len(rest) == 1 && toks[1].op == "=" && !rest[0].bare:
			v, ok := rest[0].text()
			r.set(name, elem{text: v, known: ok})
			return
		case len(rest) > 0 && rest[0].bare && !isNumber(rest[0]):
			r.set(name, elem{})
			r.invoke(rest, s.piped, false)
			return
		}
		r.set(name, elem{})
		return
	}
	if s.call {
		if toks[0].block {
			return // & { ... }: its body was read where it stands
		}
		if _, ok := toks[0].text(); !ok {
			r.stop(unsureCall)
			return
		}
		r.invoke(toks, s.piped, true)
		return
	}
	if !toks[0].bare || toks[0].param != "" || isNumber(toks[0]) || toks[0].first == '[' {
		return // an expression ([Type]::Method(...) too): its groups were read where they stand
	}
	if name, _ := toks[0].text(); keyword(strings.ToLower(name)) {
		return // if, foreach, function...: their blocks were read where they stand
	}
	r.invoke(toks, s.piped, false)
}

func isNumber(t token) bool { return t.first >= '0' && t.first <= '9' }

// keyword reports the PowerShell keywords that start a statement whose
// code is all in its blocks and conditions.
func keyword(s string) bool {
	switch s {
	case "if", "elseif", "else", "foreach", "for", "while", "do", "until", "switch", "try", "catch", "finally",
		"trap", "function", "filter", "workflow", "param", "begin", "process", "end", "return", "throw",
		"break", "continue", "exit", "data", "dynamicparam", "class", "enum", "using":
		return true
	}
	return false
}

// invoke runs the command toks[0] names, with the rest as its arguments;
// called is set where & named it (a quoted path may).
func (r *reader) invoke(toks []token, piped, called bool) {
	name, _ := toks[0].text()
	base := name
	if i := strings.LastIndexAny(base, `\/`); i >= 0 {
		base = base[i+1:]
	}
	low := strings.ToLower(base)
	if c, ok := cmdletOf(low); ok {
		r.cmdlet(c, toks[1:], piped)
		return
	}
	if readOnly(low) {
		return
	}
	ext := strings.ToLower(filepath.Ext(low))
	switch {
	case ext == ".ps1" || ext == ".psm1":
		r.stop(fmt.Sprintf(unsureScript, name))
		return
	case ext == ".bat" || ext == ".cmd" || low == "cmd" || low == "cmd.exe":
		r.stop(unsureCmd)
		return
	case ext == ".exe":
		low = strings.TrimSuffix(low, ext)
	case strings.Contains(low, "-") && ext == "" && !strings.ContainsAny(name, `\/`):
		return // another cmdlet (Get-Content, Select-String, Write-Host...): none writes files lucid knows of
	}
	n := Native{Dir: r.dir, Args: []Word{{Text: low, Known: true}}}
	for _, t := range toks[1:] {
		if t.param != "" && t.colon != nil {
			n.Args = append(n.Args, Word{Text: t.elems[0].text + ":" + t.colon.text, Known: t.colon.known})
			continue
		}
		if len(t.elems) == 0 {
			n.Args = append(n.Args, Word{})
		}
		for _, e := range t.elems {
			n.Args = append(n.Args, Word{Text: e.text, Known: e.known})
		}
	}
	r.out.Native = append(r.out.Native, n)
}

// readOnly reports the aliases of cmdlets that write no file, which
// would otherwise pass for native programs.
func readOnly(alias string) bool {
	switch alias {
	case "echo", "write", "dir", "ls", "gci", "cat", "gc", "type", "where", "?", "%", "foreach", "select",
		"sort", "measure", "ft", "fl", "fw", "gi", "gl", "pwd", "cls", "clear", "h", "history", "gps", "ps",
		"gsv", "sleep", "compare", "diff", "group", "gm", "man", "help", "gcm", "gal", "gv", "sv", "rvpa", "sls":
		return true
	}
	return false
}

// A role is what a cmdlet's parameter is to lucid.
type role uint8

const (
	rValue   role = iota // takes a value that writes nothing
	rSwitch              // takes none
	rPath                // a path that may hold wildcards
	rLiteral             // a path taken as it is
	rDest                // where Copy-Item and Move-Item put things
	rNewName             // Rename-Item's new name
	rName                // New-Item's name, under its -Path
	rType                // New-Item's -ItemType
	rRecurse             // -Recurse
	rWhatIf              // -WhatIf: nothing is done
	rOut                 // -OutFile, -DestinationPath: a file written
)

type param struct {
	name string // lower case
	role role
}

// cmdlet is a cmdlet that writes files, as lucid reads its arguments.
type cmdlet struct {
	name   string
	params []param
	pos    []role // the roles of its positional arguments, in order
}

// The parameters every cmdlet takes; none writes files.
var common = []param{
	{"erroraction", rValue}, {"ea", rValue}, {"warningaction", rValue}, {"wa", rValue},
	{"informationaction", rValue}, {"infa", rValue}, {"progressaction", rValue}, {"proga", rValue},
	{"errorvariable", rValue}, {"ev", rValue}, {"warningvariable", rValue}, {"wv", rValue},
	{"informationvariable", rValue}, {"iv", rValue}, {"outvariable", rValue}, {"ov", rValue},
	{"outbuffer", rValue}, {"ob", rValue}, {"pipelinevariable", rValue}, {"pv", rValue},
	{"verbose", rSwitch}, {"vb", rSwitch}, {"debug", rSwitch}, {"db", rSwitch},
	{"confirm", rSwitch}, {"cf", rSwitch}, {"whatif", rWhatIf}, {"wi", rWhatIf},
}

// The path parameters most cmdlets share.
var (
	pathParams = []param{{"path", rPath}, {"literalpath", rLiteral}, {"pspath", rLiteral}, {"lp", rLiteral}}
	itemParams = []param{{"filter", rValue}, {"include", rValue}, {"exclude", rValue}, {"force", rSwitch},
		{"credential", rValue}, {"passthru", rSwitch}, {"stream", rValue}}
	contentParams = []param{{"value", rValue}, {"encoding", rValue}, {"nonewline", rSwitch}, {"asbytestream", rSwitch}}
)

func join(lists ...[]param) []param {
	var out []param
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// cmdletOf is the cmdlet a lower-case command name or alias names. A
// switch rather than a map, which would be built at every hook's start.
func cmdletOf(name string) (cmdlet, bool) {
	switch name {
	case "set-content", "sc":
		return cmdlet{"Set-Content", join(pathParams, itemParams, contentParams), []role{rPath, rValue}}, true
	case "add-content", "ac":
		return cmdlet{"Add-Content", join(pathParams, itemParams, contentParams), []role{rPath, rValue}}, true
	case "clear-content", "clc":
		return cmdlet{"Clear-Content", join(pathParams, itemParams), []role{rPath}}, true
	case "out-file":
		return cmdlet{"Out-File", join([]param{{"filepath", rLiteral}, {"path", rLiteral}, {"literalpath", rLiteral}, {"pspath", rLiteral}, {"lp", rLiteral},
			{"encoding", rValue}, {"append", rSwitch}, {"force", rSwitch}, {"noclobber", rSwitch}, {"width", rValue},
			{"nonewline", rSwitch}, {"inputobject", rValue}}), []role{rLiteral, rValue}}, true
	case "tee-object", "tee":
		return cmdlet{"Tee-Object", []param{{"filepath", rLiteral}, {"path", rLiteral}, {"literalpath", rLiteral}, {"pspath", rLiteral}, {"lp", rLiteral},
			{"append", rSwitch}, {"variable", rValue}, {"inputobject", rValue}, {"encoding", rValue}}, []role{rLiteral}}, true
	case "mkdir", "md":
		return cmdlet{"mkdir", nil, nil}, true // New-Item -ItemType Directory: a folder made overwrites nothing
	case "new-item", "ni":
		return cmdlet{"New-Item", join(pathParams[:1], []param{{"name", rName}, {"itemtype", rType}, {"type", rType},
			{"value", rValue}, {"target", rValue}, {"force", rSwitch}, {"credential", rValue}}), []role{rLiteral}}, true
	case "remove-item", "rm", "del", "erase", "ri", "rd", "rmdir":
		return cmdlet{"Remove-Item", join(pathParams, itemParams, []param{{"recurse", rRecurse}}), []role{rPath}}, true
	case "copy-item", "cp", "copy", "cpi":
		return cmdlet{"Copy-Item", join(pathParams, itemParams, []param{{"destination", rDest}, {"recurse", rRecurse},
			{"container", rSwitch}, {"fromsession", rValue}, {"tosession", rValue}}), []role{rPath, rDest}}, true
	case "move-item", "mv", "move", "mi":
		return cmdlet{"Move-Item", join(pathParams, itemParams, []param{{"destination", rDest}}), []role{rPath, rDest}}, true
	case "rename-item", "ren", "rni":
		return cmdlet{"Rename-Item", join(pathParams, itemParams, []param{{"newname", rNewName}}), []role{rPath, rNewName}}, true
	case "export-csv", "epcsv":
		return cmdlet{"Export-Csv", join(pathParams, []param{{"inputobject", rValue}, {"delimiter", rValue}, {"encoding", rValue},
			{"append", rSwitch}, {"force", rSwitch}, {"noclobber", rSwitch}, {"notypeinformation", rSwitch}, {"nti", rSwitch},
			{"usequotes", rValue}, {"quotefields", rValue}, {"useculture", rSwitch}, {"includetypeinformation", rSwitch}}), []role{rPath}}, true
	case "export-clixml":
		return cmdlet{"Export-Clixml", join(pathParams, []param{{"inputobject", rValue}, {"depth", rValue}, {"encoding", rValue},
			{"force", rSwitch}, {"noclobber", rSwitch}}), []role{rPath}}, true
	case "invoke-webrequest", "iwr", "invoke-restmethod", "irm", "curl", "wget":
		return cmdlet{"Invoke-WebRequest", []param{{"outfile", rOut}, {"uri", rValue}, {"method", rValue}, {"body", rValue},
			{"headers", rValue}, {"contenttype", rValue}, {"infile", rValue}, {"usebasicparsing", rSwitch}}, []role{rValue}}, true
	case "expand-archive":
		return cmdlet{"Expand-Archive", join(pathParams, []param{{"destinationpath", rOut}, {"force", rSwitch}, {"passthru", rSwitch}}), []role{rValue, rOut}}, true
	case "compress-archive":
		return cmdlet{"Compress-Archive", join(pathParams, []param{{"destinationpath", rOut}, {"compressionlevel", rValue},
			{"update", rSwitch}, {"force", rSwitch}, {"passthru", rSwitch}}), []role{rValue, rOut}}, true
	case "set-location", "cd", "sl", "chdir", "push-location", "pushd":
		return cmdlet{"Set-Location", join(pathParams, []param{{"stackname", rValue}, {"passthru", rSwitch}}), []role{rPath}}, true
	case "pop-location", "popd":
		return cmdlet{"Pop-Location", []param{{"stackname", rValue}, {"passthru", rSwitch}}, nil}, true
	case "invoke-expression", "iex":
		return cmdlet{"Invoke-Expression", nil, nil}, true
	case "start-process", "saps", "start":
		return cmdlet{"Start-Process", nil, nil}, true
	case "invoke-command", "icm":
		return cmdlet{"Invoke-Command", []param{{"filepath", rLiteral}, {"scriptblock", rValue}, {"computername", rValue},
			{"session", rValue}, {"argumentlist", rValue}, {"args", rValue}}, nil}, true
	}
	return cmdlet{}, false
}

// lookupParam is the role of the parameter PowerShell binds name to: the
// one it spells, or the one it begins. Where the prefix could be more
// than one and one of them names a path, the path is taken: the line
// either fails or writes there.
func (c cmdlet) lookupParam(name string) role {
	all := [2][]param{c.params, common}
	for _, ps := range all {
		for _, p := range ps {
			if p.name == name {
				return p.role
			}
		}
	}
	found, r := false, rSwitch
	for _, ps := range all {
		for _, p := range ps {
			if !strings.HasPrefix(p.name, name) {
				continue
			}
			switch {
			case !found:
				found, r = true, p.role
			case p.role != r && pathish(p.role) && !pathish(r):
				r = p.role
			}
		}
	}
	return r // an unknown parameter is taken for a switch: its value then counts as a path
}

func pathish(r role) bool {
	return r == rPath || r == rLiteral || r == rDest || r == rNewName || r == rName || r == rOut
}

// bound is what a cmdlet's arguments say, by role.
type bound struct {
	vals            map[role][]elem
	recurse, whatIf bool
}

func (c cmdlet) bind(args []token) bound {
	b := bound{vals: map[role][]elem{}}
	pos := 0
	for i := 0; i < len(args); i++ {
		t := args[i]
		if t.param != "" && t.bare {
			ro := c.lookupParam(t.param)
			switch ro {
			case rSwitch:
				continue
			case rRecurse, rWhatIf:
				on := t.colon == nil || t.colon.known && !strings.EqualFold(t.colon.text, "false") && t.colon.text != "0"
				if ro == rRecurse {
					b.recurse = on
				} else {
					b.whatIf = on
				}
				continue
			}
			var vals []elem
			switch {
			case t.colon != nil:
				vals = []elem{*t.colon}
			case i+1 < len(args):
				i++
				vals = args[i].elems
				if len(vals) == 0 {
					vals = []elem{{}}
				}
			}
			b.vals[ro] = append(b.vals[ro], vals...)
			continue
		}
		ro := rValue
		if pos < len(c.pos) {
			ro = c.pos[pos]
		}
		pos++
		vals := t.elems
		if len(vals) == 0 {
			vals = []elem{{}}
		}
		b.vals[ro] = append(b.vals[ro], vals...)
	}
	return b
}

// cmdlet acts out a cmdlet that writes files, or changes the folder.
func (r *reader) cmdlet(c cmdlet, args []token, piped bool) {
	b := c.bind(args)
	if b.whatIf {
		return
	}
	paths := append(append([]elem(nil), b.vals[rPath]...), b.vals[rLiteral]...)
	switch c.name {
	case "Invoke-Expression":
		r.stop(unsureIEX)
	case "Start-Process":
		r.stop(unsureStart)
	case "Invoke-Command":
		if len(b.vals[rLiteral]) > 0 {
			name := b.vals[rLiteral][0].text
			r.stop(fmt.Sprintf(unsureScript, name))
		}
	case "Set-Location":
		r.stack = append(r.stack, r.dir)
		switch {
		case len(paths) == 0:
			r.dir = r.home
		case paths[0].known && paths[0].text == "-":
			r.dir = ""
		default:
			r.dir, _ = r.resolve(paths[0])
		}
	case "Pop-Location":
		if n := len(r.stack); n > 0 {
			r.dir, r.stack = r.stack[n-1], r.stack[:n-1]
		}
	case "Set-Content", "Add-Content", "Clear-Content", "Out-File", "Tee-Object", "Export-Csv", "Export-Clixml":
		if len(paths) == 0 {
			if piped && c.name != "Out-File" && c.name != "Tee-Object" && c.name != "Export-Csv" && c.name != "Export-Clixml" {
				r.stop(fmt.Sprintf(unsurePipe, c.name))
			}
			return
		}
		for i, p := range paths {
			r.writePathElem(p, c.name, true, b.recurse, i < len(b.vals[rPath]))
		}
	case "Remove-Item":
		if len(paths) == 0 {
			if piped {
				r.stop(fmt.Sprintf(unsurePipe, c.name))
			}
			return
		}
		for i, p := range paths {
			r.writePathElem(p, c.name, false, b.recurse, i < len(b.vals[rPath]))
		}
	case "New-Item":
		for _, t := range b.vals[rType] {
			if !t.known || len(t.text) > 0 && strings.HasPrefix("directory", strings.ToLower(t.text)) {
				return // a folder made overwrites nothing
			}
		}
		names := b.vals[rName]
		dirs := b.vals[rLiteral]
		if len(dirs) == 0 {
			dirs = b.vals[rPath]
		}
		if len(dirs) == 0 {
			dirs = []elem{{text: ".", known: true}}
			if len(names) == 0 {
				if piped {
					r.stop(fmt.Sprintf(unsurePipe, c.name))
				}
				return
			}
		}
		for _, d := range dirs {
			if len(names) == 0 {
				r.writeElem(d, c.name, true)
				continue
			}
			for _, n := range names {
				r.writeElem(elem{text: d.text + "/" + n.text, known: d.known && n.known}, c.name, true)
			}
		}
	case "Copy-Item", "Move-Item":
		if len(paths) == 0 && piped {
			r.stop(fmt.Sprintf(unsurePipe, c.name))
			return
		}
		if c.name == "Move-Item" {
			for i, p := range paths {
				r.writePathElem(p, c.name, false, true, i < len(b.vals[rPath]))
			}
		}
		dests := b.vals[rDest]
		if len(dests) == 0 {
			dests = []elem{{text: ".", known: true}}
		}
		r.into(dests[0], paths, c.name)
	case "Rename-Item":
		if len(paths) == 0 {
			if piped {
				r.stop(fmt.Sprintf(unsurePipe, c.name))
			}
			return
		}
		r.writeElem(paths[0], c.name, false)
		for _, n := range b.vals[rNewName] {
			if !n.known {
				r.stop(fmt.Sprintf(unsurePath, c.name))
				continue
			}
			if src, ok := r.resolve(paths[0]); ok && !strings.ContainsAny(n.text, `\/`) {
				r.add(Write{Path: filepath.Join(filepath.Dir(src), n.text), By: c.name})
			} else {
				r.writeElem(n, c.name, false)
			}
		}
	case "Invoke-WebRequest", "Compress-Archive":
		for _, o := range b.vals[rOut] {
			r.writeElem(o, c.name, true)
		}
	case "Expand-Archive":
		outs := b.vals[rOut]
		if len(outs) == 0 {
			// Into a folder named after the archive, here.
			for _, p := range paths {
				name := strings.TrimSuffix(filepath.Base(sep(p.text)), filepath.Ext(p.text))
				outs = append(outs, elem{text: name, known: p.known})
			}
		}
		for _, o := range outs {
			if p, ok := r.resolve(o); ok {
				r.add(Write{Path: p, Under: "**", By: c.name})
			} else {
				r.stop(fmt.Sprintf(unsurePath, c.name))
			}
		}
	}
}

// into records Copy-Item's or Move-Item's writes at dest: into the folder
// it names, under each source's name; else dest itself.
func (r *reader) into(dest elem, srcs []elem, by string) {
	d, ok := r.resolve(dest)
	if !ok {
		r.stop(fmt.Sprintf(unsurePath, by))
		return
	}
	if !isDir(d) {
		r.add(Write{Path: d, By: by, Opens: true})
		return
	}
	for _, s := range srcs {
		if !s.known {
			r.stop(fmt.Sprintf(unsurePath, by))
			continue
		}
		name := filepath.Base(sep(s.text))
		if wildcard(name) {
			r.add(Write{Path: d, Under: filepath.ToSlash(name), By: by})
			r.add(Write{Path: d, Under: filepath.ToSlash(name) + "/**", By: by})
			continue
		}
		r.add(Write{Path: filepath.Join(d, name), By: by, Opens: true})
	}
}

// writePathElem records a write to the path e names; wild: the parameter
// takes wildcards, which then name the paths under the folder before the
// first of them (and, with -Recurse, everything under those).
func (r *reader) writePathElem(e elem, by string, opens, recurse, wild bool) {
	if !wild || !e.known || !wildcard(e.text) {
		r.writeElem(e, by, opens)
		return
	}
	parts := strings.Split(sep(e.text), string(filepath.Separator))
	k := 0
	for k < len(parts) && !wildcard(parts[k]) {
		k++
	}
	base := strings.Join(parts[:k], string(filepath.Separator))
	if base == "" && k > 0 {
		base = string(filepath.Separator) // the root
	} else if base == "" {
		base = "."
	}
	dir, ok := r.resolve(elem{text: base, known: true})
	if !ok {
		r.stop(unsureDir)
		return
	}
	glob := strings.Join(parts[k:], "/")
	r.add(Write{Path: dir, Under: glob, By: by})
	if recurse || by == "Remove-Item" {
		// A folder the glob matches goes whole.
		r.add(Write{Path: dir, Under: glob + "/**", By: by})
	}
}

// writeElem records a write to the path e names, or why it cannot.
func (r *reader) writeElem(e elem, by string, opens bool) {
	if !e.known {
		r.stop(fmt.Sprintf(unsurePath, by))
		return
	}
	if e.text == "" || isDevice(e.text) {
		return
	}
	p, ok := r.resolve(e)
	if !ok {
		r.stop(unsureDir)
		return
	}
	r.add(Write{Path: p, By: by, Opens: opens})
}

func (r *reader) add(w Write) {
	if r.out.Writes == nil {
		r.out.Writes = make([]Write, 0, 4)
	}
	r.out.Writes = append(r.out.Writes, w)
}

// isDevice reports the names that are no file: $null's empty text, NUL
// and its kin, and PowerShell's drives of other providers (Env:,
// Variable:, HKLM:...).
func isDevice(p string) bool {
	low := strings.ToLower(p)
	switch low {
	case "nul", "con", "prn", "aux", "/dev/null", `\dev\null`:
		return true
	}
	if i := strings.IndexByte(low, ':'); i > 1 {
		switch low[:i] {
		case "env", "variable", "function", "alias", "cert", "hkcu", "hklm", "wsman":
			return true
		}
	}
	return false
}

// sep is p with both of PowerShell's separators as the system's.
func sep(p string) string {
	if filepath.Separator == '/' {
		return strings.ReplaceAll(p, `\`, "/")
	}
	return strings.ReplaceAll(p, "/", `\`)
}

// resolve is the absolute, clean path e names from the folder PowerShell
// is in, as its providers resolve it: ~ is home, either separator works,
// a provider's prefix (FileSystem::) goes.
func (r *reader) resolve(e elem) (string, bool) {
	if !e.known {
		return "", false
	}
	p := e.text
	if i := strings.Index(p, "::"); i >= 0 {
		p = p[i+2:]
	}
	p = sep(p)
	if p == "~" || strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		if r.home == "" {
			return "", false
		}
		p = r.home + p[1:]
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p), true
	}
	if r.dir == "" {
		return "", false
	}
	return filepath.Join(r.dir, p), true
}

func wildcard(s string) bool { return strings.ContainsAny(s, "*?[") }

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
