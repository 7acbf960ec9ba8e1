// Package applypatch reads the apply_patch format that Codex CLI's
// apply_patch tool takes (and GitHub Copilot CLI's, for GPT-5 models):
// which files a patch adds, updates, deletes or moves. The grammar follows codex-rs/apply-patch (parser.rs, invocation.rs)
// as Codex 0.169.0 applies it, leniencies included, so that every file Codex
// would touch is listed:
//
//	*** Begin Patch
//	*** Add File: PATH        then lines starting "+"
//	*** Delete File: PATH
//	*** Update File: PATH     then, optionally, "*** Move to: PATH",
//	                          then chunks: "@@" / "@@ CONTEXT" and lines
//	                          starting " ", "+", "-", or empty; "*** End of File"
//	*** End Patch
//
// The text is trimmed first; the begin and end markers and the hunk headers
// may carry surrounding white space; "*** Move to:" may not (Codex reads it
// without trimming). A blank line in an update is an empty context line;
// the end marker may come twice. Where Codex 0.169.0's parser and its
// later sources differ, this follows the binary (e2e's TestCodexPatchCorpus
// and TestCodexPatchDifferential hold the two together). A patch wrapped as "<<'EOF'" / "<<EOF" / `<<"EOF"` ...
// "EOF" is unwrapped, as Codex does for models that send the heredoc with
// the patch. In a shell command, `apply_patch <<'EOF' ... EOF` and
// `cd DIR && apply_patch <<'EOF' ... EOF` (also spelt applypatch) carry a
// patch in their heredoc.
//
// Where Codex would reject a patch, it applies none of it; a guard cannot
// count on that (a later Codex may be more lenient), so a malformed patch
// still yields every path written in a hunk header, beside the error.
package applypatch

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// PatchOp is what a patch does to one file.
type PatchOp string

const (
	PatchAdd    PatchOp = "add"
	PatchUpdate PatchOp = "update" // MoveTo set: a move, with or without changes
	PatchDelete PatchOp = "delete"
)

// PatchFile is one hunk of a patch: a file it writes. Paths are as the
// patch spells them, relative to the patch's folder unless absolute.
type PatchFile struct {
	Op     PatchOp
	Path   string
	MoveTo string // for an update that renames the file
	Line   int    // of the hunk header, 1 for the patch's first line
}

// Patch is what one apply_patch writes.
type Patch struct {
	// Dir is the folder of `cd DIR && apply_patch`, "" when the patch
	// runs in the agent's folder.
	Dir   string
	Files []PatchFile
}

// Paths lists every path the patch writes, in order, each once: the file
// of every hunk and the destination of every move, resolved against cwd
// (the agent's folder) and Dir.
func (p Patch) Paths(cwd string) []string {
	base := cwd
	if p.Dir != "" {
		base = resolveAgainst(cwd, p.Dir)
	}
	var out []string
	seen := map[string]bool{}
	add := func(path string) {
		if path == "" {
			return
		}
		abs := resolveAgainst(base, path)
		if !seen[abs] {
			seen[abs] = true
			out = append(out, abs)
		}
	}
	for _, f := range p.Files {
		add(f.Path)
		add(f.MoveTo)
	}
	return out
}

func resolveAgainst(base, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(base, path)
}

const (
	patchBegin    = "*** Begin Patch"
	patchEnd      = "*** End Patch"
	patchAdd      = "*** Add File: "
	patchDelete   = "*** Delete File: "
	patchUpdate   = "*** Update File: "
	patchMoveTo   = "*** Move to: "
	patchEOF      = "*** End of File"
	patchCtx      = "@@ "
	patchEmptyCtx = "@@"
)

// PatchError is a patch Codex would reject, with the line where it goes
// wrong (1 for the patch's first line; 0 for the patch as a whole).
type PatchError struct {
	Line int
	Msg  string
}

func (e *PatchError) Error() string {
	if e.Line == 0 {
		return "invalid apply_patch: " + e.Msg
	}
	return fmt.Sprintf("invalid apply_patch at line %d: %s", e.Line, e.Msg)
}

// Parse reads the text of an apply_patch call (what Codex's hooks get
// in tool_input.command for the apply_patch tool). On a malformed patch it
// returns the files it found, every hunk header's path among them, and a
// *PatchError.
func Parse(text string) (Patch, error) {
	lines := patchLines(text)
	body, first, err := patchBody(lines)
	if err != nil {
		return Patch{Files: sweepHeaders(lines, 1, nil)}, err
	}
	files, err := parseHunks(body, first)
	if err != nil {
		files = sweepHeaders(body, first, files)
	}
	return Patch{Files: files}, err
}

// patchLines splits like Rust's str::trim then str::lines: "\n" or "\r\n"
// end a line, and a final line ending adds no empty line.
func patchLines(text string) []string {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// patchBody checks the begin and end markers, unwrapping a heredoc around
// them, and returns the lines between the markers and the line number of
// the first of them.
func patchBody(lines []string) ([]string, int, error) {
	err := checkMarkers(lines)
	if err == nil {
		return dropDoubledEnd(lines[1 : len(lines)-1]), 2, nil
	}
	if n := len(lines); n >= 4 && (lines[0] == "<<EOF" || lines[0] == "<<'EOF'" || lines[0] == `<<"EOF"`) &&
		strings.HasSuffix(lines[n-1], "EOF") {
		inner := lines[1 : n-1]
		if checkMarkers(inner) == nil {
			return dropDoubledEnd(inner[1 : len(inner)-1]), 3, nil
		}
	}
	return nil, 0, err
}

// dropDoubledEnd takes off a second end marker (and blank lines after it)
// at the end of a body: Codex 0.169.0 applies a patch that ends with
// "*** End Patch" twice.
func dropDoubledEnd(body []string) []string {
	n := len(body)
	for n > 0 && strings.TrimSpace(body[n-1]) == "" {
		n--
	}
	if n > 0 && strings.TrimSpace(body[n-1]) == patchEnd {
		return body[:n-1]
	}
	return body
}

func checkMarkers(lines []string) error {
	switch {
	case len(lines) == 0 || strings.TrimSpace(lines[0]) != patchBegin:
		return &PatchError{Line: 1, Msg: "the first line must be '" + patchBegin + "'"}
	case len(lines) < 2 || strings.TrimSpace(lines[len(lines)-1]) != patchEnd:
		return &PatchError{Line: len(lines), Msg: "the last line must be '" + patchEnd + "'"}
	}
	return nil
}

// parseHunks reads the hunks of a patch body whose first line is line
// first of the patch; on an error it returns the hunks before it.
func parseHunks(lines []string, first int) ([]PatchFile, error) {
	var files []PatchFile
	for i := 0; i < len(lines); {
		f, n, err := parseHunk(lines[i:], first+i)
		if err != nil {
			return files, err
		}
		files = append(files, f)
		i += n
	}
	return files, nil
}

// parseHunk reads one hunk at the start of lines and says how many lines
// it took.
func parseHunk(lines []string, lineNo int) (PatchFile, int, error) {
	header := strings.TrimSpace(lines[0])
	if path, ok := strings.CutPrefix(header, patchAdd); ok {
		n := 1
		for n < len(lines) && strings.HasPrefix(lines[n], "+") {
			n++
		}
		return PatchFile{Op: PatchAdd, Path: path, Line: lineNo}, n, nil
	}
	if path, ok := strings.CutPrefix(header, patchDelete); ok {
		return PatchFile{Op: PatchDelete, Path: path, Line: lineNo}, 1, nil
	}
	path, ok := strings.CutPrefix(header, patchUpdate)
	if !ok {
		return PatchFile{}, 0, &PatchError{Line: lineNo, Msg: fmt.Sprintf(
			"%q is not a hunk header (one of '%sPATH', '%sPATH', '%sPATH')", clipPatch(header), patchAdd, patchDelete, patchUpdate)}
	}
	f := PatchFile{Op: PatchUpdate, Path: path, Line: lineNo}
	n := 1
	if n < len(lines) {
		if to, ok := strings.CutPrefix(lines[n], patchMoveTo); ok {
			f.MoveTo = to
			n++
		}
	}
	chunks := 0
	for n < len(lines) {
		// A blank line is an empty context line of a chunk, as in Codex
		// 0.169.0 (later sources skip blank lines between chunks; for the
		// paths it makes no difference).
		if strings.HasPrefix(lines[n], "*") { // the next hunk
			break
		}
		used, err := chunkLines(lines[n:], lineNo+n, chunks == 0)
		if err != nil {
			return f, 0, err
		}
		chunks++
		n += used
	}
	if chunks == 0 {
		return f, 0, &PatchError{Line: lineNo, Msg: fmt.Sprintf("the update of %q has no changes", clipPatch(path))}
	}
	return f, n, nil
}

// chunkLines measures one chunk of an update: an optional "@@" line (which
// only the first chunk may leave out), then diff lines up to the first line
// that is none, which starts the next chunk or hunk.
func chunkLines(lines []string, lineNo int, first bool) (int, error) {
	start := 0
	switch {
	case lines[0] == patchEmptyCtx || strings.HasPrefix(lines[0], patchCtx):
		start = 1
	case !first:
		return 0, &PatchError{Line: lineNo, Msg: fmt.Sprintf("expected a chunk to start with '@@', got %q", clipPatch(lines[0]))}
	}
	if start >= len(lines) {
		return 0, &PatchError{Line: lineNo + 1, Msg: "a chunk has no lines"}
	}
	n := 0
	for _, l := range lines[start:] {
		if l == patchEOF {
			if n == 0 {
				return 0, &PatchError{Line: lineNo + start, Msg: "a chunk has no lines"}
			}
			n++
			break
		}
		if l != "" && l[0] != ' ' && l[0] != '+' && l[0] != '-' {
			if n == 0 {
				return 0, &PatchError{Line: lineNo + start, Msg: fmt.Sprintf(
					"%q in a chunk: every line starts with ' ', '+' or '-'", clipPatch(l))}
			}
			break
		}
		n++
	}
	return start + n, nil
}

// sweepHeaders adds, to the files a failed parse found, every hunk header
// and move in lines that they lack: a patch Codex rejects today may be one
// a later Codex applies, and the guard must see its paths.
func sweepHeaders(lines []string, first int, files []PatchFile) []PatchFile {
	seen := map[string]bool{}
	for _, f := range files {
		seen[f.Path], seen[f.MoveTo] = true, true
	}
	for i, l := range lines {
		t := strings.TrimSpace(l)
		for _, h := range [...]struct {
			marker string
			op     PatchOp
		}{{patchAdd, PatchAdd}, {patchDelete, PatchDelete}, {patchUpdate, PatchUpdate}, {patchMoveTo, PatchUpdate}} {
			path, ok := strings.CutPrefix(t, h.marker)
			if !ok || seen[path] {
				continue
			}
			seen[path] = true
			f := PatchFile{Op: h.op, Path: path, Line: first + i}
			if h.marker == patchMoveTo { // the destination of a move whose source is unknown
				f = PatchFile{Op: PatchUpdate, MoveTo: path, Line: first + i}
			}
			files = append(files, f)
		}
	}
	return files
}

func clipPatch(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// ShellPatches finds the apply_patch calls in a shell command (Codex's
// exec_command, which hooks see as Bash): `apply_patch <<'EOF' ... EOF`,
// `cd DIR && apply_patch <<'EOF' ...`, `apply_patch 'PATCH'`, spelt
// apply_patch or applypatch. Codex 0.169.0 intercepts and applies the first
// two when they are the whole command (and no PostToolUse follows); it puts
// no apply_patch on the shell's PATH, so the others write nothing today,
// but they are listed all the same: an apply_patch of the user's, or a later
// Codex, would apply them.
// A call whose patch cannot be read (it comes from a file, a pipe or an
// expansion) is an error, with the hunk headers found anywhere in the
// command as its paths. ok is false when the command calls no apply_patch.
func ShellPatches(command string) (patches []Patch, ok bool, err error) {
	if !mentionsApplyPatch(command) { // most commands: no parse
		return nil, false, nil
	}
	file, perr := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if perr != nil {
		p, _ := Parse(command) // the shell cannot be parsed: its hunk headers, at least
		return []Patch{{Files: sweepHeaders(patchLines(command), 1, p.Files)}}, true,
			fmt.Errorf("a shell command that calls apply_patch does not parse (%w); its patch cannot be read", perr)
	}
	return PatchesInShell(file, command)
}

// PatchesInShell is ShellPatches for a command the caller has parsed
// already (with syntax.LangBash, from src), so that a hook parses each
// command once.
func PatchesInShell(file *syntax.File, src string) (patches []Patch, ok bool, err error) {
	command := src
	var errs []error
	var dir string // of the last `cd DIR &&` before a call
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.BinaryCmd:
			if c, ok := n.X.Cmd.(*syntax.CallExpr); ok && n.Op == syntax.AndStmt && len(c.Args) == 2 && c.Args[0].Lit() == "cd" {
				dir = shellLit(c.Args[1])
			}
		case *syntax.Stmt:
			c, isCall := n.Cmd.(*syntax.CallExpr)
			if !isCall || len(c.Args) == 0 || !isApplyPatch(c.Args[0].Lit()) {
				return true
			}
			ok = true
			text, found := "", false
			for _, r := range n.Redirs {
				if (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) && r.Hdoc != nil {
					text, found = heredocBody(command, r), true
					if r.Op == syntax.DashHdoc {
						text = stripTabs(text)
					}
				}
			}
			if !found && len(c.Args) == 2 {
				text = shellLit(c.Args[1])
				found = text != ""
			}
			if !found {
				errs = append(errs, errors.New("apply_patch reads its patch from where the guard cannot see (a file, a pipe or an expansion)"))
				patches = append(patches, Patch{Dir: dir, Files: sweepHeaders(patchLines(command), 1, nil)})
				return true
			}
			p, perr := Parse(text)
			p.Dir = dir
			patches = append(patches, p)
			if perr != nil {
				errs = append(errs, perr)
			}
			dir = ""
		}
		return true
	})
	return patches, ok, errors.Join(errs...)
}

func isApplyPatch(name string) bool { return name == "apply_patch" || name == "applypatch" }

// shellLit is a word's value when it has no expansion: plain, single- or
// double-quoted; "" otherwise.
func shellLit(w *syntax.Word) string {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return ""
				}
				b.WriteString(l.Value)
			}
		default:
			return ""
		}
	}
	return b.String()
}

// heredocBody is a heredoc's text as written, expansions unexpanded (a
// patch holds none worth expanding). mvdan.cc/sh ends the word after the
// closing delimiter, so the delimiter's line is cut off.
func heredocBody(src string, r *syntax.Redirect) string {
	body := src[r.Hdoc.Pos().Offset():r.Hdoc.End().Offset()]
	if i := strings.LastIndexByte(body, '\n'); i >= 0 && strings.TrimLeft(body[i+1:], "\t") == shellLit(r.Word) {
		body = body[:i+1]
	} else if i < 0 && body == shellLit(r.Word) {
		body = ""
	}
	return body
}

func stripTabs(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "\n")
}

func mentionsApplyPatch(s string) bool {
	return strings.Contains(s, "apply_patch") || strings.Contains(s, "applypatch")
}
