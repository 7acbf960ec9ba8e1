package guard

import "strings"

const maxPyArgTokens = 64

// pyWrite is a file a Python script writes.
type pyWrite struct {
	path, by string
	src      string // for a copy: its source, kept by name when path is a folder
}

// pyToken is a token of Python source: an identifier or number ('i'), a
// string literal ('s', with ok false when its value is not known, as in an
// f-string with fields), or one punctuation byte ('p').
type pyToken struct {
	kind byte
	text string
	ok   bool
}

// pythonWrites scans Python source for the calls that write a file named
// by a string literal: open(PATH, 'w'|'a'|'x'|'+'...), Path(PATH).write_text
// and its kin, os.remove, os.rename, shutil.move, shutil.copy, shutil.rmtree.
// Anything computed (os.path.join, f-strings, variables) is left out.
func pythonWrites(src string) []pyWrite {
	toks := pyTokens(src)
	var out []pyWrite
	tok := func(i int) pyToken {
		if i < 0 || i >= len(toks) {
			return pyToken{}
		}
		return toks[i]
	}
	isP := func(i int, c string) bool { t := tok(i); return t.kind == 'p' && t.text == c }
	isI := func(i int, s string) bool { t := tok(i); return t.kind == 'i' && t.text == s }
	for i, t := range toks {
		// Every call looked at starts with a string literal argument.
		if t.kind != 'i' || !isP(i+1, "(") || tok(i+2).kind != 's' {
			continue
		}
		args := pyArgs(toks, i+2)
		switch {
		case t.text == "open" && !(isP(i-1, ".") && isP(i-2, ")")):
			// open, io.open, gzip.open...; Path(...).open is below.
			if len(args) > 0 && args[0].kind == 's' && pyWriteMode(args, 1) {
				out = append(out, pyWrite{path: pyValue(args[0]), by: "python open()"})
			}
		case t.text == "Path" && len(args) == 1 && args[0].kind == 's' && isP(i+4, ".") && isP(i+6, "("):
			// Path('x').method(...): args spans the tokens up to ')'.
			path := pyValue(args[0])
			margs := pyArgs(toks, i+7)
			switch m := tok(i + 5).text; m {
			case "write_text", "write_bytes", "touch", "unlink", "rmdir":
				out = append(out, pyWrite{path: path, by: "python " + m + "()"})
			case "open":
				if pyWriteMode(margs, 0) {
					out = append(out, pyWrite{path: path, by: "python open()"})
				}
			case "rename", "replace":
				out = append(out, pyWrite{path: path, by: "python " + m + "()"})
				if len(margs) > 0 && margs[0].kind == 's' {
					out = append(out, pyWrite{path: pyValue(margs[0]), by: "python " + m + "()"})
				}
			}
		case isP(i-1, ".") && (isI(i-2, "os") || isI(i-2, "shutil")):
			fn := tok(i-2).text + "." + t.text
			switch fn {
			case "os.remove", "os.unlink", "os.rmdir", "shutil.rmtree":
				if len(args) > 0 && args[0].kind == 's' {
					out = append(out, pyWrite{path: pyValue(args[0]), by: "python " + fn + "()"})
				}
			case "os.rename", "os.replace", "shutil.move":
				for _, a := range args[:min(len(args), 2)] {
					if a.kind == 's' {
						out = append(out, pyWrite{path: pyValue(a), by: "python " + fn + "()"})
					}
				}
			case "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree":
				if len(args) > 1 && args[1].kind == 's' {
					pw := pyWrite{path: pyValue(args[1]), by: "python " + fn + "()"}
					if args[0].kind == 's' && fn != "shutil.copyfile" && fn != "shutil.copytree" {
						pw.src = pyValue(args[0])
					}
					out = append(out, pw)
				}
			}
		}
	}
	return out
}

// pyValue is a string token's value, or shUnknown when it is not known.
func pyValue(t pyToken) string {
	if !t.ok {
		return shUnknown
	}
	return t.text
}

// pyArgs returns the arguments of a call whose '(' is just before toks[i]:
// one token per argument when the argument is a single token, a 'p' token
// "=" holding the keyword in text for keyword=literal arguments, and a
// 'x' token for anything else.
func pyArgs(toks []pyToken, i int) []pyToken {
	var args []pyToken
	depth := 0
	start := i
	// A call whose arguments run longer than this is not one of the
	// simple calls looked for; the bound keeps the scan linear.
	end := min(len(toks), i+maxPyArgTokens)
	for ; i < end; i++ {
		t := toks[i]
		if t.kind == 'p' {
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
	case len(toks) == 3 && toks[0].kind == 'i' && toks[1].kind == 'p' && toks[1].text == "=" && toks[2].kind == 's':
		return pyToken{kind: 'k', text: toks[0].text + "=" + pyValue(toks[2]), ok: toks[2].ok}
	}
	return pyToken{kind: 'x'}
}

// pyWriteMode reports whether the mode of an open call, the positional
// argument at index at or mode=..., opens for writing.
func pyWriteMode(args []pyToken, at int) bool {
	mode := ""
	if at < len(args) && args[at].kind == 's' && args[at].ok {
		mode = args[at].text
	}
	for _, a := range args {
		if a.kind == 'k' && a.ok && strings.HasPrefix(a.text, "mode=") {
			mode = a.text[len("mode="):]
		}
	}
	return strings.ContainsAny(mode, "wax+")
}

// pyTokens splits Python source into the tokens pythonWrites looks at,
// skipping comments and whitespace.
func pyTokens(src string) []pyToken {
	var toks []pyToken
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\':
			i++
		case c == '\'' || c == '"':
			t, n := pyString(src[i:], "")
			toks = append(toks, t)
			i += n
		case c == '_' || c >= 0x80 || ('a' <= c|0x20 && c|0x20 <= 'z') || ('0' <= c && c <= '9'):
			j := i
			for j < len(src) {
				d := src[j]
				if d == '_' || d >= 0x80 || ('a' <= d|0x20 && d|0x20 <= 'z') || ('0' <= d && d <= '9') {
					j++
					continue
				}
				break
			}
			word := src[i:j]
			if j < len(src) && (src[j] == '\'' || src[j] == '"') && len(word) <= 2 &&
				strings.Trim(strings.ToLower(word), "rbuf") == "" {
				t, n := pyString(src[j:], strings.ToLower(word))
				toks = append(toks, t)
				i = j + n
				continue
			}
			toks = append(toks, pyToken{kind: 'i', text: word})
			i = j
		default:
			toks = append(toks, pyToken{kind: 'p', text: src[i : i+1]})
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
			return pyToken{kind: 's', text: v, ok: ok}, i + len(q)
		}
		c := s[i]
		if c == '\n' && len(q) == 1 {
			return pyToken{kind: 's', text: b.String()}, i // unterminated
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
	return pyToken{kind: 's', text: b.String(), ok: false}, len(s)
}
