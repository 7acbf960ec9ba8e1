package logformat

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"time"
	"unicode/utf8"
	"unsafe"
)

// DecodeHead reads the head of a line of the log (its id, time, kind,
// supersedes and retired) without decoding the rest, at about the speed of
// json.Valid: the readers of the whole log (lucid dream, doctor) need only
// that and whether the line is a valid entry. ok is whether DecodeEntry
// would accept the line; sure is false for the rare line this does not
// read the way encoding/json would (escapes in a key, escapes or bytes
// that are not UTF-8 in the id, time, kind or supersedes, a key that
// differs from lucid's only in case, a line number with a fraction or an
// exponent, very deep nesting), and then the caller asks DecodeEntry. A differential fuzz test holds the two to the same answers.
func DecodeHead(line []byte, h *Head) (ok, sure bool) {
	return decodeHead(line, h, false)
}

// DecodeHeadShared is DecodeHead without copies: the strings of h are
// line's own bytes, valid while line is and unchanged. The merge driver
// reads a million lines and keeps none of their strings.
func DecodeHeadShared(line []byte, h *Head) (ok, sure bool) {
	return decodeHead(line, h, true)
}

// ReadHead reads the head of line into h and reports whether line is an
// entry, as DecodeEntry has it: through DecodeHead where it is sure, and
// through DecodeEntry for the rare line it is not sure of (which lucid
// never writes). Every reader that needs only heads uses it, so that all
// agree on which lines are entries.
func ReadHead(line []byte, h *Head) bool {
	if ok, sure := DecodeHead(line, h); sure {
		return ok
	}
	return readWhole(line, h)
}

// ReadHeadShared is ReadHead without copies where the fast reader
// answered: then h's strings are line's own bytes (see DecodeHeadShared).
func ReadHeadShared(line []byte, h *Head) bool {
	if ok, sure := DecodeHeadShared(line, h); sure {
		return ok
	}
	return readWhole(line, h)
}

// Body is the rest of an entry that a reader of many lines may want
// beside its head: the agent and the words (text, diff, and each cited
// path and line). Each is the raw content of its JSON string, escapes
// kept, and shares the line's bytes: valid while the line is.
type Body struct {
	Agent, Text, Diff []byte
	Evidence          []RawEvidence
}

// RawEvidence is a cited path and line's text, as Body keeps them.
type RawEvidence struct {
	Path, Text []byte
}

// ReadBody is ReadHeadShared that also fills b (its Evidence slice is
// reused), at about the same cost: lucid search reads the words of a
// million lines without decoding them.
func ReadBody(line []byte, h *Head, b *Body) bool {
	*b = Body{Evidence: b.Evidence[:0]}
	*h = Head{}
	p := headParser{b: line, shared: true, body: b}
	ok, sure := p.entry(h)
	if sure {
		return ok && validHead(h)
	}
	e, err := DecodeEntry(line)
	*h = Head{ID: e.ID, At: e.At, Kind: e.Kind, Supersedes: e.Supersedes, Retired: e.Retired}
	*b = Body{Agent: rawString(e.Agent), Text: rawString(e.Text), Diff: rawString(e.Diff), Evidence: b.Evidence[:0]}
	for _, ev := range e.Evidence {
		b.Evidence = append(b.Evidence, RawEvidence{Path: rawString(ev.Path), Text: rawString(ev.Text)})
	}
	return err == nil
}

// rawString is s as the content of a JSON string.
func rawString(s string) []byte {
	q, _ := json.Marshal(s)
	return q[1 : len(q)-1]
}

// readWhole reads h from line by DecodeEntry.
func readWhole(line []byte, h *Head) bool {
	e, err := DecodeEntry(line)
	*h = Head{ID: e.ID, At: e.At, Kind: e.Kind, Supersedes: e.Supersedes, Retired: e.Retired}
	return err == nil
}

func decodeHead(line []byte, h *Head, shared bool) (ok, sure bool) {
	*h = Head{}
	p := headParser{b: line, shared: shared}
	ok, sure = p.entry(h)
	if !sure || !ok {
		return ok, sure
	}
	return validHead(h), true
}

type headParser struct {
	b      []byte
	i      int
	shared bool  // strings are made on b's bytes, not copied
	body   *Body // where the words of the entry go, when asked for
}

// walkError ends a walk, as a panic: the line is not JSON, or not
// something encoding/json would read the same way.
type walkError int

const (
	walkInvalid walkError = iota + 1
	walkUnsure
)

func (p *headParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *headParser) peek() byte {
	p.ws()
	if p.i < len(p.b) {
		return p.b[p.i]
	}
	return 0
}

// entry walks the top-level object.
func (p *headParser) entry(h *Head) (ok, sure bool) {
	defer func() {
		if r := recover(); r != nil {
			e, isWalk := r.(walkError)
			if !isWalk {
				panic(r)
			}
			ok, sure = false, e == walkInvalid
		}
	}()
	if p.peek() != '{' {
		return false, true // null or an array or a scalar: DecodeEntry fails on all but null, and null has no id
	}
	p.i++
	p.members(func(key []byte) {
		switch string(key) {
		case "id":
			h.ID = p.headString()
		case "at":
			h.At = p.headString()
		case "kind":
			h.Kind = p.headString()
		case "supersedes":
			h.Supersedes = p.headString()
		case "retired":
			h.Retired = p.boolean()
		case "ask":
			p.boolean()
		case "agent", "text", "diff", "reply_to", "owner":
			s, isString := p.stringOrNull(false)
			if p.body != nil && isString { // null leaves a field as it was, as in encoding/json
				switch string(key) {
				case "agent":
					p.body.Agent = s
				case "text":
					p.body.Text = s
				case "diff":
					p.body.Diff = s
				}
			}
		case "to", "claim":
			p.strings()
		case "evidence":
			if p.body != nil {
				p.body.Evidence = p.body.Evidence[:0] // the last "evidence" counts, as in encoding/json
			}
			p.evidence()
		default:
			for _, k := range [...]string{"id", "at", "kind", "supersedes", "retired", "agent", "text", "diff", "evidence",
				"to", "ask", "reply_to", "claim", "owner"} {
				if bytes.EqualFold(key, []byte(k)) {
					panic(walkUnsure) // encoding/json matches keys without case
				}
			}
			p.value(0)
		}
	})
	p.ws()
	if p.i != len(p.b) {
		panic(walkInvalid)
	}
	return true, true
}

// members walks the members of an object whose '{' was read, calling
// member with each key, positioned at its value.
func (p *headParser) members(member func(key []byte)) {
	if p.peek() == '}' {
		p.i++
		return
	}
	for {
		if p.peek() != '"' {
			panic(walkInvalid)
		}
		key, escaped := p.str()
		if escaped {
			panic(walkUnsure)
		}
		if p.peek() != ':' {
			panic(walkInvalid)
		}
		p.i++
		p.ws()
		member(key)
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			return
		default:
			panic(walkInvalid)
		}
	}
}

// headString reads a string (or null) whose content matters.
func (p *headParser) headString() string {
	s, ok := p.stringOrNull(true)
	if !ok || len(s) == 0 {
		return ""
	}
	if p.shared {
		return unsafe.String(unsafe.SliceData(s), len(s))
	}
	return string(s)
}

// stringOrNull reads a string value or null; any other value is a type
// error, which makes DecodeEntry fail. With exact, a string with escapes
// is unsure (its content would need decoding).
func (p *headParser) stringOrNull(exact bool) ([]byte, bool) {
	switch p.peek() {
	case '"':
		s, escaped := p.str()
		if exact && (escaped || !utf8.Valid(s)) {
			panic(walkUnsure) // encoding/json would decode or replace bytes
		}
		return s, true
	case 'n':
		p.literal("null")
		return nil, false
	}
	p.value(0)
	panic(walkInvalid)
}

func (p *headParser) boolean() bool {
	switch p.peek() {
	case 't':
		p.literal("true")
		return true
	case 'f':
		p.literal("false")
		return false
	case 'n':
		p.literal("null")
		return false
	}
	p.value(0)
	panic(walkInvalid)
}

// strings reads an array of strings (or null), whose elements may be null
// too, as DecodeEntry would into a []string.
func (p *headParser) strings() { p.array(func() { p.stringOrNull(false) }) }

// array reads an array (or null), calling elem positioned at each element;
// any other value is a type error, which makes DecodeEntry fail.
func (p *headParser) array(elem func()) {
	switch p.peek() {
	case 'n':
		p.literal("null")
		return
	case '[':
	default:
		p.value(0)
		panic(walkInvalid)
	}
	p.i++
	p.elements(elem)
}

// evidence reads the evidence array, checking the types of its known
// fields as DecodeEntry would.
func (p *headParser) evidence() {
	p.array(func() {
		var ev *RawEvidence
		if p.body != nil {
			p.body.Evidence = append(p.body.Evidence, RawEvidence{})
			ev = &p.body.Evidence[len(p.body.Evidence)-1]
		}
		switch p.peek() {
		case 'n':
			p.literal("null")
		case '{':
			p.i++
			p.members(func(key []byte) {
				switch string(key) {
				case "path", "blake3", "text":
					s, isString := p.stringOrNull(false)
					switch {
					case ev == nil || !isString:
					case key[0] == 'p':
						ev.Path = s
					case key[0] == 't':
						ev.Text = s
					}
				case "line":
					p.lineNumber()
				default:
					for _, k := range [...]string{"path", "blake3", "text", "line"} {
						if bytes.EqualFold(key, []byte(k)) {
							panic(walkUnsure)
						}
					}
					p.value(0)
				}
			})
		default:
			p.value(0)
			panic(walkInvalid)
		}
	})
}

// elements walks the elements of an array whose '[' was read, calling
// elem positioned at each.
func (p *headParser) elements(elem func()) {
	if p.peek() == ']' {
		p.i++
		return
	}
	for {
		elem()
		switch p.peek() {
		case ',':
			p.i++
		case ']':
			p.i++
			return
		default:
			panic(walkInvalid)
		}
	}
}

// lineNumber reads an int field: a plain integer (or null) is read; a
// fraction, an exponent or a long number is left to encoding/json.
func (p *headParser) lineNumber() {
	switch c := p.peek(); {
	case c == 'n':
		p.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		start := p.i
		p.number()
		n := p.b[start:p.i]
		if bytes.ContainsAny(n, ".eE") || len(n) > 18 {
			panic(walkUnsure)
		}
	default:
		p.value(0)
		panic(walkInvalid)
	}
}

// value skips any JSON value, checking its syntax.
func (p *headParser) value(depth int) {
	if depth > 1000 {
		panic(walkUnsure) // encoding/json's own limit is deeper
	}
	switch c := p.peek(); {
	case c == '"':
		p.str()
	case c == '{':
		p.i++
		p.members(func([]byte) { p.value(depth + 1) })
	case c == '[':
		p.i++
		p.elements(func() { p.value(depth + 1) })
	case c == 't':
		p.literal("true")
	case c == 'f':
		p.literal("false")
	case c == 'n':
		p.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		p.number()
	default:
		panic(walkInvalid)
	}
}

func (p *headParser) literal(word string) {
	if !bytes.HasPrefix(p.b[p.i:], []byte(word)) {
		panic(walkInvalid)
	}
	p.i += len(word)
}

// str reads a string at p.i (its '"'), returning its raw content and
// whether it holds escapes. Bytes below 0x20 are not allowed in it; bytes
// that are not UTF-8 are (encoding/json replaces them).
func (p *headParser) str() ([]byte, bool) {
	p.i++
	start, escaped := p.i, false
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			s := p.b[start:p.i]
			p.i++
			return s, escaped
		case c == '\\':
			escaped = true
			if p.i+1 >= len(p.b) {
				panic(walkInvalid)
			}
			switch p.b[p.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i += 2
			case 'u':
				if p.i+6 > len(p.b) {
					panic(walkInvalid)
				}
				for _, h := range p.b[p.i+2 : p.i+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						panic(walkInvalid)
					}
				}
				p.i += 6
			default:
				panic(walkInvalid)
			}
		case c < 0x20:
			panic(walkInvalid)
		default:
			p.i++
			// Eight bytes at a time while none is special, then one by one.
			for p.i+8 <= len(p.b) && !anySpecial(binary.LittleEndian.Uint64(p.b[p.i:])) {
				p.i += 8
			}
			for p.i < len(p.b) && !strSpecial[p.b[p.i]] {
				p.i++
			}
		}
	}
	panic(walkInvalid)
}

// strSpecial are the bytes that end a run of plain bytes in a string.
var strSpecial = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// anySpecial reports whether any of the eight bytes in x is a quote, a
// backslash or below 0x20 (the classic SWAR tests for a zero byte and for
// a byte below n).
func anySpecial(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(v uint64) uint64 { return (v - ones) &^ v & highs }
	below := (x - ones*0x20) &^ x & highs
	return below|zero(x^(ones*'"'))|zero(x^(ones*'\\')) != 0
}

// validHead is Entry.validate on the head, with the time checked by
// canonicalTime where it has lucid's own shape.
func validHead(h *Head) bool {
	if !ValidID(h.ID) || h.Kind == "" {
		return false
	}
	if ok, sure := canonicalTime(h.At); sure {
		return ok
	}
	_, err := time.Parse(TimeFormat, h.At)
	return err == nil
}

// canonicalTime checks a time written exactly as TimeFormat writes it
// (2026-12-02T07:52:18.123Z) the way time.Parse would, without its cost;
// sure is false for any other shape, which time.Parse decides.
func canonicalTime(s string) (ok, sure bool) {
	if len(s) != len(TimeFormat) {
		return false, false
	}
	n := func(i, j int) int {
		v := 0
		for k := i; k < j; k++ {
			v = v*10 + int(s[k]-'0')
		}
		return v
	}
	for i := range len(s) {
		c, l := s[i], TimeFormat[i]
		if l >= '0' && l <= '9' {
			if c < '0' || c > '9' {
				return false, false
			}
		} else if c != l {
			return false, false
		}
	}
	year, month, day := n(0, 4), n(5, 7), n(8, 10)
	if month < 1 || month > 12 || day < 1 || n(11, 13) > 23 || n(14, 16) > 59 || n(17, 19) > 59 {
		return false, true
	}
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[month]
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		days = 29
	}
	return day <= days, true
}

// number reads a number as JSON writes them.
func (p *headParser) number() {
	b, i := p.b, p.i
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		panic(walkInvalid)
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			panic(walkInvalid)
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			panic(walkInvalid)
		}
	}
	p.i = i
}

// Head is the part of an entry OpenLive decodes.
type Head struct {
	ID         string `json:"id"`
	At         string `json:"at"`
	Kind       string `json:"kind"`
	Supersedes string `json:"supersedes"`
	Retired    bool   `json:"retired"`
}
