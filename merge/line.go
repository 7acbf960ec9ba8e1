package merge

import (
	"github.com/lucid-dev/lucid/logformat"
)

// A line of the log is an entry when gitstore.DecodeEntry accepts it, and
// nowhere else: the driver and every reader agree on which lines count.
// DecodeEntry costs about 7 µs a line here (encoding/json, ten allocations),
// which would spend the driver's whole budget on a million lines, so
// lineEntry first tries quickEntry, a scanner that reads the line once
// without allocating and answers only when it is sure; every other line
// (anything unusual, which lucid never writes) goes to DecodeEntry.
// FuzzQuickEntry checks that quickEntry never says yes where DecodeEntry
// says no, or with another id or time.

// lineEntry returns the id and time of line, and whether line is an entry.
// The returned strings are parts of line when the fast path answered.
func lineEntry(line string) (id, at string, ok bool) {
	if id, at, ok = quickEntry(line); ok {
		return id, at, true
	}
	e, err := logformat.DecodeEntry([]byte(line))
	if err != nil {
		return "", "", false
	}
	return e.ID, e.At, true
}

// The top-level keys of an entry, as gitstore.Entry names them.
const (
	keyID = iota
	keyAt
	keyAgent
	keyKind
	keyText
	keyEvidence
	keySupersedes
	keyRetired
	keyDiff
	keyUnknown
	keyUnsure // a spelling encoding/json might match to a field: leave it to DecodeEntry
)

var entryKeys = [...]string{"id", "at", "agent", "kind", "text", "evidence", "supersedes", "retired", "diff"}

// evidenceKeys are gitstore.Evidence's keys; "line" is the one number.
var evidenceKeys = [...]string{"path", "line", "blake3", "text"}

// classifyKey returns the index of key in names, keyUnknown for a key that
// no field takes, and keyUnsure for one that encoding/json could still
// match to a field (it folds case, and some non-ASCII letters) or whose
// spelling has escapes.
func classifyKey(key string, esc bool, names []string) int {
	if esc {
		return keyUnsure
	}
	for i, n := range names {
		if key == n {
			return i
		}
	}
	for i := 0; i < len(key); i++ {
		if key[i] >= 0x80 {
			return keyUnsure
		}
	}
	for _, n := range names {
		if equalFoldASCII(key, n) {
			return keyUnsure
		}
	}
	return keyUnknown
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// quickEntry reports whether line is certainly an entry: a JSON object
// whose keys are spelled as lucid writes them, each known key once, with
// values of the types gitstore.Entry expects (no nulls), and whose id, time
// and kind pass gitstore's checks. It returns false for anything else,
// including lines that are entries after all: those are DecodeEntry's to
// judge.
func quickEntry(line string) (id, at string, ok bool) {
	l := lexer{s: line}
	var seen uint16
	var kind string
	member := func() bool {
		key, esc, good := l.key()
		if !good {
			return false
		}
		k := classifyKey(key, esc, entryKeys[:])
		switch {
		case k == keyUnsure:
			return false
		case k != keyUnknown && seen&(1<<k) != 0:
			return false // a repeated key: the last one wins, let DecodeEntry say which
		case k != keyUnknown:
			seen |= 1 << k
		}
		switch k {
		case keyID, keyAt, keyKind:
			v, vesc, good := l.str()
			if !good || vesc {
				return false
			}
			switch k {
			case keyID:
				id = v
			case keyAt:
				at = v
			default:
				kind = v
			}
			return true
		case keyAgent, keyText, keySupersedes, keyDiff:
			_, _, good := l.str()
			return good
		case keyEvidence:
			return l.eat('[') && l.seq(']', l.evidence)
		case keyRetired:
			return l.word("true") || l.word("false")
		default:
			return l.value(0)
		}
	}
	l.ws()
	if !l.eat('{') || !l.seq('}', member) {
		return "", "", false
	}
	l.ws()
	if l.i != len(l.s) || !logformat.ValidID(id) || !validAt(at) || kind == "" {
		return "", "", false
	}
	return id, at, true
}

// lexer reads JSON from s at i. Its methods return false on anything they
// do not accept, leaving i wherever it got to.
type lexer struct {
	s string
	i int
}

func (l *lexer) ws() {
	for l.i < len(l.s) {
		switch l.s[l.i] {
		case ' ', '\t', '\n', '\r':
			l.i++
		default:
			return
		}
	}
}

func (l *lexer) eat(c byte) bool {
	if l.i < len(l.s) && l.s[l.i] == c {
		l.i++
		return true
	}
	return false
}

func (l *lexer) word(w string) bool {
	if len(l.s)-l.i >= len(w) && l.s[l.i:l.i+len(w)] == w {
		l.i += len(w)
		return true
	}
	return false
}

// str reads a string and returns what is between its quotes, and whether
// that has escapes (then it is not the string's value). Bytes that are not
// UTF-8 are accepted, as encoding/json accepts them.
func (l *lexer) str() (raw string, esc, ok bool) {
	if !l.eat('"') {
		return "", false, false
	}
	s, start := l.s, l.i
	for j := start; j < len(s); j++ {
		// Eight bytes at a time while none of them is special: texts and
		// diffs are most of a log's bytes.
		for j+8 <= len(s) && plain8(s[j:j+8]) {
			j += 8
		}
		if j >= len(s) {
			break
		}
		c := s[j]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue // a byte that stands for itself
		}
		switch c {
		case '"':
			l.i = j + 1
			return s[start:j], esc, true
		case '\\':
			esc = true
			j++
			if j >= len(s) {
				return "", false, false
			}
			switch s[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(s) || !isHex(s[j+1]) || !isHex(s[j+2]) || !isHex(s[j+3]) || !isHex(s[j+4]) {
					return "", false, false
				}
				j += 4
			default:
				return "", false, false
			}
		default: // a control character
			return "", false, false
		}
	}
	return "", false, false
}

// plain8 reports whether none of the eight bytes of s is a quote, a
// backslash or a control character (the bit tricks of "Bit Twiddling
// Hacks": a byte is zero, or below 0x20, where the subtraction borrows).
func plain8(s string) bool {
	x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote := x ^ ('"' * ones)
	backslash := x ^ ('\\' * ones)
	special := (x-0x20*ones) & ^x |
		(quote-ones)&^quote |
		(backslash-ones)&^backslash
	return special&highs == 0
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number reads a JSON number and reports whether it is a whole number
// that surely fits an int (no fraction, no exponent, at most 18 digits).
func (l *lexer) number() (ok, whole bool) {
	s, start := l.s, l.i
	i := start
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return false, false
	}
	digits := i - start
	whole = true
	if i < len(s) && s[i] == '.' {
		whole = false
		i++
		if i >= len(s) || !isDigit(s[i]) {
			return false, false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		whole = false
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return false, false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	l.i = i
	return true, whole && digits <= 18
}

// seq reads items separated by commas up to close, the opening bracket
// read already.
func (l *lexer) seq(close byte, item func() bool) bool {
	l.ws()
	if l.eat(close) {
		return true
	}
	for {
		if !item() {
			return false
		}
		l.ws()
		if l.eat(',') {
			l.ws()
			continue
		}
		return l.eat(close)
	}
}

// key reads a key and its colon.
func (l *lexer) key() (key string, esc, ok bool) {
	if key, esc, ok = l.str(); !ok {
		return "", false, false
	}
	l.ws()
	if !l.eat(':') {
		return "", false, false
	}
	l.ws()
	return key, esc, true
}

// maxDepth bounds the nesting quickEntry follows in keys it does not know;
// deeper lines go to DecodeEntry (encoding/json stops at 10000).
const maxDepth = 64

// value reads any JSON value.
func (l *lexer) value(depth int) bool {
	if l.i >= len(l.s) || depth > maxDepth {
		return false
	}
	switch c := l.s[l.i]; {
	case c == '"':
		_, _, ok := l.str()
		return ok
	case c == '{':
		l.i++
		return l.seq('}', func() bool {
			_, _, ok := l.key()
			return ok && l.value(depth+1)
		})
	case c == '[':
		l.i++
		return l.seq(']', func() bool { return l.value(depth + 1) })
	case c == '-' || isDigit(c):
		ok, _ := l.number()
		return ok
	default:
		return l.word("true") || l.word("false") || l.word("null")
	}
}

// evidence reads one gitstore.Evidence object, each value of the type its
// field takes.
func (l *lexer) evidence() bool {
	return l.eat('{') && l.seq('}', func() bool {
		key, esc, ok := l.key()
		if !ok {
			return false
		}
		switch classifyKey(key, esc, evidenceKeys[:]) {
		case 0, 2, 3: // path, blake3, text
			_, _, ok := l.str()
			return ok
		case 1: // line
			ok, whole := l.number()
			return ok && whole
		case keyUnknown:
			return l.value(2)
		default:
			return false
		}
	})
}

// validAt reports whether at is a time as lucid writes it, which parses
// with gitstore.TimeFormat (time.Parse costs 300 ns; this, a few): a
// four-digit year, month, a day that month has, two-digit hour, minute,
// second, milliseconds after a point, Z. time.Parse accepts a little more
// (a one-digit hour, a comma): such times are DecodeEntry's to judge.
func validAt(at string) bool {
	if len(at) != 24 {
		return false
	}
	for i := 0; i < 24; i++ {
		c := at[i]
		switch i {
		case 4, 7:
			if c != '-' {
				return false
			}
		case 10:
			if c != 'T' {
				return false
			}
		case 13, 16:
			if c != ':' {
				return false
			}
		case 19:
			if c != '.' {
				return false
			}
		case 23:
			if c != 'Z' {
				return false
			}
		default:
			if !isDigit(c) {
				return false
			}
		}
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range at[i : i+n] {
			v = v*10 + int(c-'0')
		}
		return v
	}
	year, month, day := num(0, 4), num(5, 2), num(8, 2)
	if month < 1 || month > 12 || day < 1 || day > daysIn(month, year) {
		return false
	}
	return num(11, 2) < 24 && num(14, 2) < 60 && num(17, 2) < 60
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
