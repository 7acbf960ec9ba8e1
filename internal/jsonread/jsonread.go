// Package jsonread reads a JSON object member by member, without
// reflection: what a hook decodes on every tool call (the client's
// payload, the agent's record) is read with it.
//
// encoding/json's first decode in a process builds its cache of the
// struct's fields through reflection and touches much of its code: about
// 0.15 ms of a hook whose whole budget over a hello-world start is 0.45 ms
// (`make bench`, section hooks). Everything else still uses
// encoding/json, and this package reads what encoding/json reads: the same
// inputs are valid, and strings decode to the same text (invalid UTF-8 and
// lone surrogates as U+FFFD), which the tests check against it. Keys are
// matched by the caller, exactly; encoding/json would also take a key
// spelled in another case, which no client sends.
package jsonread

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is how deeply arrays and objects may nest, as in encoding/json.
const maxDepth = 10000

// Object calls member with the key and the raw value of each member of
// the JSON object b, in order; a key given twice is given twice, so that
// the last one wins as in encoding/json. b must be one valid JSON object
// with nothing but whitespace around it; the whole of it is checked before
// member is called. An error of member's ends the walk and is returned.
func Object(b []byte, member func(key string, value []byte) error) error {
	i := skipSpace(b, 0)
	if i == len(b) {
		return errors.New("unexpected end of JSON input")
	}
	if b[i] != '{' {
		return syntaxErr(b, i, "looking for beginning of object")
	}
	end, err := skipValue(b, i, 0)
	if err != nil {
		return err
	}
	if j := skipSpace(b, end); j != len(b) {
		return syntaxErr(b, j, "after top-level value")
	}
	// b is valid from here on: the walk needs no more checks.
	i = skipSpace(b, i+1)
	if b[i] == '}' {
		return nil
	}
	for {
		keyEnd, _ := skipString(b, i)
		key := unquote(b[i:keyEnd])
		i = skipSpace(b, skipSpace(b, keyEnd)+1) // past the colon
		valEnd, _ := skipValue(b, i, 1)
		if err := member(key, b[i:valEnd]); err != nil {
			return err
		}
		i = skipSpace(b, valEnd)
		if b[i] == '}' {
			return nil
		}
		i = skipSpace(b, i+1) // past the comma
	}
}

// String is the text of a raw JSON string; null is "".
func String(v []byte) (string, error) {
	if isNull(v) {
		return "", nil
	}
	if len(v) == 0 || v[0] != '"' {
		return "", typeErr(v, "string")
	}
	return unquote(v), nil
}

// Int is a raw JSON number that is an integer in int64; null is 0.
func Int(v []byte) (int64, error) {
	if isNull(v) {
		return 0, nil
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return 0, typeErr(v, "int64")
	}
	return n, nil
}

// Uint is a raw JSON number that is an integer in uint64; null is 0.
func Uint(v []byte) (uint64, error) {
	if isNull(v) {
		return 0, nil
	}
	n, err := strconv.ParseUint(string(v), 10, 64)
	if err != nil {
		return 0, typeErr(v, "uint64")
	}
	return n, nil
}

// Bool is a raw JSON true or false; null is false.
func Bool(v []byte) (bool, error) {
	switch string(v) {
	case "true":
		return true, nil
	case "false", "null":
		return false, nil
	}
	return false, typeErr(v, "bool")
}

// Strings is a raw JSON array of strings; null is nil. An element that
// is not a string reads as "" and makes the error, as in encoding/json.
func Strings(v []byte) ([]string, error) {
	if isNull(v) {
		return nil, nil
	}
	if len(v) == 0 || v[0] != '[' {
		return nil, typeErr(v, "[]string")
	}
	if _, err := skipArray(v, 0, 0); err != nil {
		return nil, err
	}
	out := []string{}
	var first error
	i := skipSpace(v, 1)
	if v[i] == ']' {
		return out, nil
	}
	for {
		end, _ := skipValue(v, i, 1)
		s, err := String(v[i:end])
		if err != nil && first == nil {
			first = err
		}
		out = append(out, s)
		i = skipSpace(v, end)
		if v[i] == ']' {
			return out, first
		}
		i = skipSpace(v, i+1)
	}
}

// Array calls elem with the raw value of each element of the JSON array
// v, in order; null is no element. The whole of v is checked first. An
// error of elem's ends the walk and is returned.
func Array(v []byte, elem func(value []byte) error) error {
	v = bytesTrimSpace(v)
	if isNull(v) {
		return nil
	}
	if len(v) == 0 || v[0] != '[' {
		return typeErr(v, "array")
	}
	end, err := skipArray(v, 0, 0)
	if err != nil {
		return err
	}
	if end != len(v) {
		return syntaxErr(v, end, "after array")
	}
	i := skipSpace(v, 1)
	if v[i] == ']' {
		return nil
	}
	for {
		end, _ := skipValue(v, i, 1)
		if err := elem(v[i:end]); err != nil {
			return err
		}
		i = skipSpace(v, end)
		if v[i] == ']' {
			return nil
		}
		i = skipSpace(v, i+1)
	}
}

// Fields reads the members of object b named in fields into their
// targets, as encoding/json reads an object into a struct: a member not
// named is skipped, and one whose value does not fit its target leaves the
// target as it was and makes the error returned once every other member
// is read. null leaves a target as it is (a []string becomes nil, a
// []byte "null"), and is a valid b. A target is one of *string, *bool, *int, *int64, *uint64,
// *[]string, *[]byte (the raw value, a subslice of b), or a
// func([]byte) error that reads the raw value itself (a nested object).
func Fields(b []byte, fields map[string]any) error {
	return FieldsFunc(b, func(key string) any { return fields[key] })
}

// FieldsFunc is Fields with each member's target given by target, nil
// for a member not read: for a decoder on the hook path, which would
// rather not build a map on every call.
func FieldsFunc(b []byte, target func(key string) any) error {
	if isNull(bytesTrimSpace(b)) {
		return nil
	}
	var first error
	err := Object(b, func(key string, v []byte) error {
		into := target(key)
		if into == nil {
			return nil
		}
		if err := set(into, v); err != nil && first == nil {
			first = fmt.Errorf("%s: %w", key, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return first
}

func set(into any, v []byte) error {
	if isNull(v) {
		switch p := into.(type) {
		case *[]byte:
			*p = v
		case *[]string:
			*p = nil
		}
		return nil
	}
	var err error
	switch p := into.(type) {
	case *string:
		var s string
		if s, err = String(v); err == nil {
			*p = s
		}
	case *bool:
		var t bool
		if t, err = Bool(v); err == nil {
			*p = t
		}
	case *int:
		var n int64
		if n, err = Int(v); err == nil && int64(int(n)) != n {
			err = typeErr(v, "int")
		}
		if err == nil {
			*p = int(n)
		}
	case *int64:
		var n int64
		if n, err = Int(v); err == nil {
			*p = n
		}
	case *uint64:
		var n uint64
		if n, err = Uint(v); err == nil {
			*p = n
		}
	case *[]string:
		var ss []string
		ss, err = Strings(v)
		if ss != nil {
			*p = ss
		}
	case *[]byte:
		*p = v
	case func([]byte) error:
		err = p(v)
	default:
		panic(fmt.Sprintf("jsonread: cannot read into %T", into))
	}
	return err
}

func bytesTrimSpace(b []byte) []byte {
	i := skipSpace(b, 0)
	j := len(b)
	for j > i && (b[j-1] == ' ' || b[j-1] == '\t' || b[j-1] == '\n' || b[j-1] == '\r') {
		j--
	}
	return b[i:j]
}

func isNull(v []byte) bool { return string(v) == "null" }

func typeErr(v []byte, want string) error {
	if len(v) > 40 {
		v = append(v[:37:37], "..."...)
	}
	return fmt.Errorf("cannot read JSON value %s as %s", v, want)
}

func syntaxErr(b []byte, i int, context string) error {
	if i >= len(b) {
		return errors.New("unexpected end of JSON input")
	}
	return fmt.Errorf("invalid character %s %s (offset %d)", quoteByte(b[i]), context, i)
}

func quoteByte(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue checks the value that starts at b[i] and returns where it ends.
func skipValue(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return 0, errors.New("unexpected end of JSON input")
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{':
		return skipObject(b, i, depth+1)
	case c == '[':
		return skipArray(b, i, depth+1)
	case c == '-' || c >= '0' && c <= '9':
		return skipNumber(b, i)
	case c == 't':
		return skipWord(b, i, "true")
	case c == 'f':
		return skipWord(b, i, "false")
	case c == 'n':
		return skipWord(b, i, "null")
	default:
		return 0, syntaxErr(b, i, "looking for beginning of value")
	}
}

func skipObject(b []byte, i, depth int) (int, error) {
	if depth > maxDepth {
		return 0, errors.New("exceeded max depth")
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(b) {
			return 0, errors.New("unexpected end of JSON input")
		}
		if b[i] != '"' {
			return 0, syntaxErr(b, i, "looking for beginning of object key string")
		}
		end, err := skipString(b, i)
		if err != nil {
			return 0, err
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return 0, syntaxErr(b, i, "after object key")
		}
		if i, err = skipValue(b, skipSpace(b, i+1), depth); err != nil {
			return 0, err
		}
		i = skipSpace(b, i)
		if i < len(b) && b[i] == '}' {
			return i + 1, nil
		}
		if i >= len(b) || b[i] != ',' {
			return 0, syntaxErr(b, i, "after object key:value pair")
		}
		i = skipSpace(b, i+1)
	}
}

func skipArray(b []byte, i, depth int) (int, error) {
	if depth > maxDepth {
		return 0, errors.New("exceeded max depth")
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for {
		end, err := skipValue(b, i, depth)
		if err != nil {
			return 0, err
		}
		i = skipSpace(b, end)
		if i < len(b) && b[i] == ']' {
			return i + 1, nil
		}
		if i >= len(b) || b[i] != ',' {
			return 0, syntaxErr(b, i, "after array element")
		}
		i = skipSpace(b, i+1)
	}
}

// skipString checks the string that starts at b[i] (its opening quote)
// and returns the index after its closing quote.
func skipString(b []byte, i int) (int, error) {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1, nil
		case c < 0x20:
			return 0, syntaxErr(b, i, "in string literal")
		case c == '\\':
			i++
			if i >= len(b) {
				return 0, errors.New("unexpected end of JSON input")
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for k := 0; k < 4; k++ {
					i++
					if i >= len(b) {
						return 0, errors.New("unexpected end of JSON input")
					}
					if !isHex(b[i]) {
						return 0, syntaxErr(b, i, "in \\u hexadecimal character escape")
					}
				}
			default:
				return 0, syntaxErr(b, i, "in string escape code")
			}
		}
	}
	return 0, errors.New("unexpected end of JSON input")
}

func skipNumber(b []byte, i int) (int, error) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return 0, syntaxErr(b, i, "in numeric literal")
	}
	if i < len(b) && b[i] == '.' {
		if j := digits(b, i+1); j > i+1 {
			i = j
		} else {
			return 0, syntaxErr(b, i+1, "after decimal point in numeric literal")
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		j := i + 1
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if k := digits(b, j); k > j {
			i = k
		} else {
			return 0, syntaxErr(b, j, "in exponent of numeric literal")
		}
	}
	return i, nil
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

func skipWord(b []byte, i int, word string) (int, error) {
	for k := 0; k < len(word); k++ {
		if i+k >= len(b) {
			return 0, errors.New("unexpected end of JSON input")
		}
		if b[i+k] != word[k] {
			return 0, syntaxErr(b, i+k, "in literal "+word+" (expecting "+quoteByte(word[k])+")")
		}
	}
	return i + len(word), nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// unquote decodes a checked JSON string, quotes included, as
// encoding/json does: invalid UTF-8 and lone surrogates become U+FFFD.
func unquote(q []byte) string {
	s := q[1 : len(q)-1]
	plain := true
	for _, c := range s {
		if c == '\\' || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return string(s)
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '\\':
			e := s[i+1]
			i += 2
			switch e {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(s[i:])
				i += 4
				if utf16.IsSurrogate(r) {
					if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
						if pair := utf16.DecodeRune(r, hex4(s[i+2:])); pair != utf8.RuneError {
							out = utf8.AppendRune(out, pair)
							i += 6
							break
						}
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
			default: // " \ /
				out = append(out, e)
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, s[i:i+size]...)
			}
			i += size
		}
	}
	return string(out)
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
