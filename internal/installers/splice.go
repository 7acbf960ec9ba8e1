package installers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// A settings file is edited as bytes: lucid inserts and removes its own
// members and elements as byte ranges and leaves every other byte of the
// user's where it was, so that uninstall after init gives the file back
// byte for byte, however it was spaced (compact, indented with spaces or
// tabs, CRLF, minified). What it inserts follows the style around it.

// node is one JSON value in a document: its bytes are doc[start:end].
// For an object's member, key is its key and keyStart where the key's
// string begins.
type node struct {
	key             string
	keyStart        int
	start, end      int
	isObject, isArr bool
}

// skipSpace returns the offset of the first byte at or after i that is
// not JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns the offset just after the JSON value that starts at i.
// The document has been checked with json.Valid, so this only counts.
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return len(b)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = valueEnd(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && !bytes.ContainsRune([]byte(" \t\r\n,:]}"), rune(b[j])) {
		j++
	}
	return j
}

// valueAt returns the node of the value that starts at i.
func valueAt(b []byte, i int) node {
	return node{start: i, end: valueEnd(b, i), isObject: b[i] == '{', isArr: b[i] == '['}
}

// children returns an object's members or an array's elements, in order.
func children(b []byte, n node) []node {
	var out []node
	i := skipSpace(b, n.start+1)
	for i < n.end-1 {
		var c node
		if n.isObject {
			keyEnd := valueEnd(b, i)
			var key string
			json.Unmarshal(b[i:keyEnd], &key)
			colon := skipSpace(b, keyEnd) // the ':'
			c = valueAt(b, skipSpace(b, colon+1))
			c.key, c.keyStart = key, i
		} else {
			c = valueAt(b, i)
			c.keyStart = i
		}
		out = append(out, c)
		i = skipSpace(b, c.end)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	return out
}

// member returns the member key of object n.
func member(b []byte, n node, key string) (node, bool) {
	if !n.isObject {
		return node{}, false
	}
	for _, c := range children(b, n) {
		if c.key == key {
			return c, true
		}
	}
	return node{}, false
}

// root returns the document's top value.
func root(b []byte) node { return valueAt(b, skipSpace(b, 0)) }

// splice returns b with b[start:end] replaced by with.
func splice(b []byte, start, end int, with []byte) []byte {
	out := make([]byte, 0, len(b)-(end-start)+len(with))
	out = append(out, b[:start]...)
	out = append(out, with...)
	return append(out, b[end:]...)
}

// removeChild returns b without child i of container n: the member or
// element and the separator before it (after it, for the first one), so
// that removing what insertChild added gives back the bytes before it.
func removeChild(b []byte, n node, i int) []byte {
	cs := children(b, n)
	switch {
	case len(cs) == 1:
		return splice(b, n.start+1, n.end-1, nil)
	case i > 0:
		return splice(b, cs[i-1].end, cs[i].end, nil)
	default:
		return splice(b, cs[0].keyStart, cs[1].keyStart, nil)
	}
}

// style is how a document is spaced, as lucid copies it into what it
// inserts.
type style struct {
	nl     string // "\n" or "\r\n"
	unit   string // one level of indentation
	spaced bool   // a space after ':' and ',' on one line
}

func styleOf(b []byte) style {
	s := style{nl: "\n", unit: detectIndent(b)}
	if bytes.Contains(b, []byte("\r\n")) {
		s.nl = "\r\n"
	}
	// The first ':' outside a string says whether the file spaces them.
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = valueEnd(b, i) - 1
		case ':':
			s.spaced = i+1 < len(b) && (b[i+1] == ' ' || b[i+1] == '\t')
			return s
		}
	}
	s.spaced = true
	return s
}

// detectIndent returns the indentation of the first indented line, or two
// spaces.
func detectIndent(raw []byte) string {
	for _, line := range bytes.Split(raw, []byte{'\n'})[1:] {
		ws := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		if len(ws) > 0 && len(ws) < len(bytes.TrimRight(line, "\r")) {
			return string(ws)
		}
	}
	return "  "
}

// lineIndent returns the indentation of the line that holds offset i.
func lineIndent(b []byte, i int) string {
	start := bytes.LastIndexByte(b[:i], '\n') + 1
	end := start
	for end < len(b) && (b[end] == ' ' || b[end] == '\t') {
		end++
	}
	return string(b[start:end])
}

// insertChild returns b with a new last member (key, value) of object n,
// or a new last element value of array n (key ignored). value is compact
// JSON; it is laid out like the container's other children: on lines of
// their own at their indentation, or on one line.
func insertChild(b []byte, n node, key string, value []byte) []byte {
	st := styleOf(b)
	cs := children(b, n)
	var lead string // what goes between the previous child (or the bracket) and the new one
	multiline := false
	indent := ""
	switch {
	case len(cs) > 0:
		before := b[n.start+1 : cs[0].keyStart]
		if len(cs) > 1 {
			// The separator after a comma, as the file writes it.
			before = b[skipCommaFrom(b, cs[len(cs)-2].end):cs[len(cs)-1].keyStart]
		}
		if k := bytes.LastIndexByte(before, '\n'); k >= 0 {
			multiline, indent = true, string(before[k+1:])
			lead = st.nl + indent
		} else {
			lead = string(before)
			if len(cs) == 1 && lead == "" && st.spaced {
				lead = " "
			}
		}
	default:
		// An empty container: on lines of its own if the file has any.
		multiline = bytes.IndexByte(b, '\n') >= 0 && bytes.IndexByte(bytes.TrimRight(b, " \t\r\n"), '\n') >= 0
		if multiline {
			indent = lineIndent(b, n.start) + st.unit
		}
	}
	var item bytes.Buffer
	if n.isObject {
		kb, _ := MarshalNoEscape(key)
		item.Write(kb)
		item.WriteByte(':')
		if st.spaced || multiline {
			item.WriteByte(' ')
		}
	}
	if multiline {
		var ind bytes.Buffer
		json.Indent(&ind, value, indent, st.unit)
		item.Write(bytes.ReplaceAll(ind.Bytes(), []byte("\n"), []byte(st.nl)))
	} else {
		item.Write(spaceOut(value, st.spaced))
	}
	if len(cs) > 0 {
		last := cs[len(cs)-1].end
		return splice(b, last, last, []byte(","+lead+item.String()))
	}
	inner := item.String()
	if multiline {
		inner = st.nl + indent + inner + st.nl + lineIndent(b, n.start)
	}
	return splice(b, n.start+1, n.end-1, []byte(inner))
}

// skipCommaFrom returns the offset just after the comma that follows a
// child ending at i.
func skipCommaFrom(b []byte, i int) int {
	i = skipSpace(b, i)
	if i < len(b) && b[i] == ',' {
		i++
	}
	return i
}

// spaceOut writes compact JSON on one line, with a space after each ':'
// and ',' when spaced.
func spaceOut(compact []byte, spaced bool) []byte {
	if !spaced {
		return compact
	}
	var out bytes.Buffer
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		if c == '"' {
			j := valueEnd(compact, i)
			out.Write(compact[i:j])
			i = j - 1
			continue
		}
		out.WriteByte(c)
		if c == ':' || c == ',' {
			out.WriteByte(' ')
		}
	}
	return out.Bytes()
}

// setMember returns b with object n's member key set to value: its value
// bytes replaced where it exists, else a new last member.
func setMember(b []byte, n node, key string, value []byte) []byte {
	if m, ok := member(b, n, key); ok {
		return splice(b, m.start, m.end, spaceOut(value, styleOf(b).spaced))
	}
	return insertChild(b, n, key, value)
}

// removeMember returns b without object n's member key.
func removeMember(b []byte, n node, key string) []byte {
	for i, c := range children(b, n) {
		if c.key == key {
			return removeChild(b, n, i)
		}
	}
	return b
}

// checkObject reports an error unless b is one JSON object.
func checkObject(b []byte) error {
	if !json.Valid(b) {
		var v any
		return json.Unmarshal(b, &v)
	}
	if !root(b).isObject {
		return fmt.Errorf("not a JSON object")
	}
	return nil
}

// ListMember returns the elements of the list member key of the JSON
// object doc, each as the file has it, and whether doc has that member.
// doc must be valid JSON (json.Valid); the error says that it is no
// object, or that the member is no list.
func ListMember(doc []byte, key string) (elems [][]byte, found bool, err error) {
	r := root(doc)
	if !r.isObject {
		return nil, false, errors.New("not a JSON object")
	}
	m, ok := member(doc, r, key)
	if !ok {
		return nil, false, nil
	}
	if !m.isArr {
		return nil, true, fmt.Errorf("%s is not a list", key)
	}
	for _, c := range children(doc, m) {
		elems = append(elems, doc[c.start:c.end])
	}
	return elems, true, nil
}

// AppendElement returns the JSON object doc with value (compact JSON) as
// the last element of its list member key, or as the one element of a new
// last member key where there is none (see ListMember). What it adds is
// laid out as the file is, and RemoveElement takes away exactly that.
func AppendElement(doc []byte, key string, value []byte) []byte {
	r := root(doc)
	if m, ok := member(doc, r, key); ok {
		return insertChild(doc, m, "", value)
	}
	return insertChild(doc, r, key, []byte("["+string(value)+"]"))
}

// RemoveElement returns the JSON object doc without element i of its list
// member key, and without the member itself where that was its one
// element and dropMember.
func RemoveElement(doc []byte, key string, i int, dropMember bool) []byte {
	r := root(doc)
	m, ok := member(doc, r, key)
	if !ok {
		return doc
	}
	if dropMember && len(children(doc, m)) == 1 {
		return removeMember(doc, r, key)
	}
	return removeChild(doc, m, i)
}
