package shell

import (
	"strings"

	"github.com/lucid-dev/lucid/guard/cmdline"
)

const maxPyArgTokens = 64

// pyWrite is a file a Python script writes.
type pyWrite struct {
	path, by string
	src      string // for a copy: its source, kept by name when path is a folder
	// opens is set when the call opens the file and writes into it, as
	// open() does, rather than removing or renaming it: through a
	// symbolic link it writes the link's target.
	opens bool
}

// tokKind is what a token of a script is.
type tokKind uint8

const (
	tokNone    tokKind = iota // past either end of the tokens
	tokIdent                  // an identifier or a number
	tokString                 // a string literal; ok is false when its value is not known (an f-string with fields)
	tokPunct                  // one punctuation byte
	tokKeyword                // an argument keyword=literal, as pyArgs returns it: text is "keyword=value"
	tokOther                  // an argument pyArgs does not read
)

// pyToken is a token of a script's source: Python's, and the JavaScript
// and Ruby that scriptTokens also reads.
type pyToken struct {
	kind tokKind
	text string
	ok   bool
}

// pyScan is a script's tokens, with the tests the call patterns are made of.
type pyScan []pyToken

// at is the token at i, or a tokNone token past either end.
func (toks pyScan) at(i int) pyToken {
	if i < 0 || i >= len(toks) {
		return pyToken{}
	}
	return toks[i]
}

// punct reports whether the token at i is the punctuation c.
func (toks pyScan) punct(i int, c string) bool {
	t := toks.at(i)
	return t.kind == tokPunct && t.text == c
}

// ident reports whether the token at i is the identifier name.
func (toks pyScan) ident(i int, name string) bool {
	t := toks.at(i)
	return t.kind == tokIdent && t.text == name
}

// member reports whether the identifier at i follows a '.' after the
// identifier one of objects: os.remove, shutil.move.
func (toks pyScan) member(i int, objects ...string) (string, bool) {
	if !toks.punct(i-1, ".") {
		return "", false
	}
	for _, o := range objects {
		if toks.ident(i-2, o) {
			return o, true
		}
	}
	return "", false
}

// callWithString reports whether the token at i is an identifier called
// with a string literal as its first argument: NAME('...'.
func (toks pyScan) callWithString(i int) bool {
	return toks.at(i).kind == tokIdent && toks.punct(i+1, "(") && toks.at(i+2).kind == tokString
}

// pythonWrites scans Python source for the calls that write a file named
// by a string literal: open(PATH, 'w'|'a'|'x'|'+'...), Path(PATH).write_text
// and its kin, os.remove, os.rename, shutil.move, shutil.copy, shutil.rmtree.
// Anything computed (os.path.join, f-strings, variables) is left out.
func pythonWrites(src string) []pyWrite {
	toks := pyScan(scriptTokens(src, langPython))
	var out []pyWrite
	for i, t := range toks {
		if !toks.callWithString(i) {
			continue
		}
		args := pyArgs(toks, i+2)
		switch fn, isMember := toks.member(i, "os", "shutil"); {
		case t.text == "open" && !(toks.punct(i-1, ".") && toks.punct(i-2, ")")):
			// open, io.open, gzip.open...; Path(...).open is below.
			if len(args) > 0 && args[0].kind == tokString && pyWriteMode(args, 1) {
				out = append(out, pyWrite{path: pyValue(args[0]), by: "python open()", opens: true})
			}
		case t.text == "Path" && len(args) == 1 && args[0].kind == tokString:
			out = append(out, pathMethodWrites(toks, i, pyValue(args[0]))...)
		case isMember:
			fn += "." + t.text
			switch fn {
			case "os.remove", "os.unlink", "os.rmdir", "shutil.rmtree":
				if len(args) > 0 && args[0].kind == tokString {
					out = append(out, pyWrite{path: pyValue(args[0]), by: "python " + fn + "()"})
				}
			case "os.rename", "os.replace", "shutil.move":
				for _, a := range args[:min(len(args), 2)] {
					if a.kind == tokString {
						out = append(out, pyWrite{path: pyValue(a), by: "python " + fn + "()"})
					}
				}
			case "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree":
				if len(args) > 1 && args[1].kind == tokString {
					pw := pyWrite{path: pyValue(args[1]), by: "python " + fn + "()", opens: true}
					if args[0].kind == tokString && fn != "shutil.copyfile" && fn != "shutil.copytree" {
						pw.src = pyValue(args[0])
					}
					out = append(out, pw)
				}
			}
		}
	}
	return out
}

// pathMethodWrites reads Path('x').method(...), where toks[i] is Path and
// its one argument, the string path, is known to close at i+3.
func pathMethodWrites(toks pyScan, i int, path string) []pyWrite {
	const (
		dot    = 4 // Path ( 'x' ) .
		method = 5
		open   = 6 // the method's (
	)
	if !toks.punct(i+dot, ".") || !toks.punct(i+open, "(") {
		return nil
	}
	margs := pyArgs(toks, i+open+1)
	switch m := toks.at(i + method).text; m {
	case "write_text", "write_bytes", "touch":
		return []pyWrite{{path: path, by: "python " + m + "()", opens: true}}
	case "unlink", "rmdir":
		return []pyWrite{{path: path, by: "python " + m + "()"}}
	case "open":
		if pyWriteMode(margs, 0) {
			return []pyWrite{{path: path, by: "python open()", opens: true}}
		}
	case "rename", "replace":
		out := []pyWrite{{path: path, by: "python " + m + "()"}}
		if len(margs) > 0 && margs[0].kind == tokString {
			out = append(out, pyWrite{path: pyValue(margs[0]), by: "python " + m + "()"})
		}
		return out
	}
	return nil
}

// pyValue is a string token's value, or cmdline.Unknown when it is not known.
func pyValue(t pyToken) string {
	if !t.ok {
		return cmdline.Unknown
	}
	return t.text
}

// pyArgs returns the arguments of a call whose '(' is just before toks[i]:
// one token per argument when the argument is a single token, a tokKeyword
// token for keyword=literal arguments, and a tokOther token for anything
// else.
func pyArgs(toks pyScan, i int) []pyToken {
	var args []pyToken
	depth := 0
	start := i
	// A call whose arguments run longer than this is not one of the
	// simple calls looked for; the bound keeps the scan linear.
	end := min(len(toks), i+maxPyArgTokens)
	for ; i < end; i++ {
		t := toks[i]
		if t.kind == tokPunct {
			switch t.text {
			case "(", "[", "{":
				depth++
				continue
			case ")", "]", "}":
				if depth > 0 {
					depth--
					continue
				}
				if i > start {
					args = append(args, pyArg(toks[start:i]))
				}
				return args
			case ",":
				if depth == 0 {
					args = append(args, pyArg(toks[start:i]))
					start = i + 1
				}
				continue
			}
		}
	}
	return args
}

func pyArg(toks []pyToken) pyToken {
	switch {
	case len(toks) == 1:
		return toks[0]
	case len(toks) == 3 && toks[0].kind == tokIdent && toks[1].kind == tokPunct && toks[1].text == "=" && toks[2].kind == tokString:
		return pyToken{kind: tokKeyword, text: toks[0].text + "=" + pyValue(toks[2]), ok: toks[2].ok}
	}
	return pyToken{kind: tokOther}
}

// pyWriteMode reports whether the mode of an open call, the positional
// argument at index at or mode=..., opens for writing.
func pyWriteMode(args []pyToken, at int) bool {
	mode := ""
	if at < len(args) && args[at].kind == tokString && args[at].ok {
		mode = args[at].text
	}
	for _, a := range args {
		if a.kind == tokKeyword && a.ok && strings.HasPrefix(a.text, "mode=") {
			mode = a.text[len("mode="):]
		}
	}
	return strings.ContainsAny(mode, "wax+")
}

// scriptLang is the language of a script given to an interpreter, as far
// as its comments and string literals differ.
type scriptLang uint8

const (
	langPython scriptLang = iota // # comments; r'', b'', f'' prefixes
	langJS                       // // and /* */ comments; `template` strings
	langRuby                     // # comments; "#{interpolation}"
)

// scriptTokens splits a script's source into the tokens the write
// patterns look at, skipping comments and whitespace.
func scriptTokens(src string, lang scriptLang) []pyToken {
	var toks []pyToken
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '#' && lang != langJS,
			lang == langJS && strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case lang == langJS && strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return toks
			}
			i += 2 + end + 2
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\':
			i++
		case c == '\'' || c == '"' || c == '`' && lang == langJS:
			t, n := pyString(src[i:], "")
			if t.ok && (lang == langJS && c == '`' && strings.Contains(t.text, "${") ||
				lang == langRuby && c == '"' && strings.Contains(t.text, "#{")) {
				t.ok = false // interpolated
			}
			toks = append(toks, t)
			i += n
		case c == '_' || c == '$' && lang == langJS || c >= 0x80 || ('a' <= c|0x20 && c|0x20 <= 'z') || ('0' <= c && c <= '9'):
			j := i
			for j < len(src) {
				d := src[j]
				if d == '_' || d == '$' && lang == langJS || d >= 0x80 || ('a' <= d|0x20 && d|0x20 <= 'z') || ('0' <= d && d <= '9') {
					j++
					continue
				}
				break
			}
			word := src[i:j]
			if lang == langPython && j < len(src) && (src[j] == '\'' || src[j] == '"') && len(word) <= 2 &&
				strings.Trim(strings.ToLower(word), "rbuf") == "" {
				t, n := pyString(src[j:], strings.ToLower(word))
				toks = append(toks, t)
				i = j + n
				continue
			}
			toks = append(toks, pyToken{kind: tokIdent, text: word})
			i = j
		default:
			toks = append(toks, pyToken{kind: tokPunct, text: src[i : i+1]})
			i++
		}
	}
	return toks
}

// pyString reads the string literal at the start of s (after its prefix)
// and returns it with the number of bytes it spans.
func pyString(s, prefix string) (pyToken, int) {
	q := s[:1]
	if strings.HasPrefix(s, q+q+q) {
		q = q + q + q
	}
	raw := strings.Contains(prefix, "r")
	format := strings.Contains(prefix, "f")
	var b strings.Builder
	ok := true
	i := len(q)
	for i < len(s) {
		if strings.HasPrefix(s[i:], q) {
			v := b.String()
			if format && strings.ContainsAny(v, "{}") {
				ok = false
			}
			return pyToken{kind: tokString, text: v, ok: ok}, i + len(q)
		}
		c := s[i]
		if c == '\n' && len(q) == 1 {
			return pyToken{kind: tokString, text: b.String()}, i // unterminated
		}
		if c == '\\' && i+1 < len(s) {
			if raw {
				b.WriteString(s[i : i+2])
				i += 2
				continue
			}
			switch e := s[i+1]; e {
			case '\\', '\'', '"':
				b.WriteByte(e)
			case '\n':
			default:
				ok = false // \n, \t, \x41 in a path: not worth decoding
			}
			i += 2
			continue
		}
		b.WriteByte(c)
		i++
	}
	return pyToken{kind: tokString, text: b.String(), ok: false}, len(s)
}
