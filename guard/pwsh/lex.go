package pwsh

import "strings"

// elem is one value of an argument: an argument given as a list
// (a.txt,b.txt) has several.
type elem struct {
	text  string
	known bool // false: a variable, an expression or a $( ) is in it
}

// token is one word of a statement as PowerShell's argument mode splits it.
type token struct {
	pos   int
	elems []elem
	// bare is set for a word of plain characters only (no quote, variable
	// or group): only such a word names a command or a parameter.
	bare bool
	// first is the word's first character, by which PowerShell tells an
	// expression ('x', $x, (...), 1) from a command.
	first byte
	// param is a parameter's name, lower case and without its dash, and
	// colon its value written -Name:value.
	param string
	colon *elem
	// redir is a redirection's operator (>, >>, 2>, *>...), and target
	// its file, when it names one.
	redir  string
	target *elem
	// block is set for a script block { }, whose body was read where it
	// stands.
	block bool
	// op is = or another assignment operator.
	op string
}

// text is the token's one known value.
func (t token) text() (string, bool) {
	if len(t.elems) != 1 || !t.elems[0].known {
		return "", false
	}
	return t.elems[0].text, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

// ends reports whether c ends a bare word in argument mode.
func ends(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\f', '\v', '\n', ';', '|', '&', ')', '}', ',', '>', '<':
		return true
	}
	return false
}

// closing is the offset just past the bracket that closes the one at
// src[i] (one of ( { [), skipping quotes, comments and nested brackets;
// len(src) when it is not closed.
func closing(src string, i int) int {
	depth := 0
	for ; i < len(src); i++ {
		switch c := src[i]; c {
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '\'':
			i = singleEnd(src, i+1) - 1
		case '"':
			i = doubleEnd(src, i+1) - 1
		case '`':
			i++
		case '#':
			if i > 0 && src[i-1] == '<' {
				if j := strings.Index(src[i:], "#>"); j >= 0 {
					i += j + 1
					continue
				}
				return len(src)
			}
			if i == 0 || isSpace(src[i-1]) || src[i-1] == '\n' || src[i-1] == ';' || src[i-1] == '{' || src[i-1] == '(' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			}
		}
	}
	return len(src)
}

// singleEnd is the offset past the quote closing a single-quoted string
// whose text starts at i.
func singleEnd(src string, i int) int {
	for ; i < len(src); i++ {
		if src[i] == '\'' {
			if i+1 < len(src) && src[i+1] == '\'' {
				i++
				continue
			}
			return i + 1
		}
	}
	return len(src)
}

// doubleEnd is the offset past the quote closing a double-quoted string
// whose text starts at i.
func doubleEnd(src string, i int) int {
	for ; i < len(src); i++ {
		switch src[i] {
		case '`':
			i++
		case '$':
			if i+1 < len(src) && src[i+1] == '(' {
				i = closing(src, i+1) - 1
			}
		case '"':
			if i+1 < len(src) && src[i+1] == '"' {
				i++
				continue
			}
			return i + 1
		}
	}
	return len(src)
}

// escaped is what a backtick followed by c stands for.
func escaped(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case '0':
		return "\x00"
	case 'r':
		return "\r"
	case 'a', 'b', 'e', 'f', 'v':
		return "\x00" // control characters no path holds: the word stays odd
	}
	return string(c)
}

// variable reads a variable's name at src[i] (past the $): $name,
// $env:NAME, ${any name}. It returns the name and the offset past it;
// ok is false where no name follows (a lone $).
func variable(src string, i int) (name string, end int, ok bool) {
	if i < len(src) && src[i] == '{' {
		j := strings.IndexByte(src[i:], '}')
		if j < 0 {
			return "", len(src), true
		}
		return src[i+1 : i+j], i + j + 1, true
	}
	j := i
	for j < len(src) {
		c := src[j]
		if c == '_' || c == '?' || c == '^' || c == '$' && j == i || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80 {
			j++
			if c == '?' || c == '^' || c == '$' {
				break // $?, $^, $$ are whole
			}
			continue
		}
		if c == ':' && j+1 < len(src) && !ends(src[j+1]) && src[j+1] != ':' && src[j+1] != '\\' && src[j+1] != '/' {
			j++ // a scope or drive: $env:HOME, $script:x
			continue
		}
		break
	}
	if j == i {
		return "", i, false
	}
	return src[i:j], j, true
}
