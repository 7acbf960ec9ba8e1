package hooks

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/lucid-dev/lucid/internal/client"
)

// bulky are the members of a tool's input that carry a file's content or
// an edit's text: lucid never reads them, and past MaxPayload they are
// skipped instead of kept.
func bulky(key string) bool {
	switch key {
	case "content", "old_string", "new_string", "new_source", "edits":
		return true
	}
	return false
}

// shape is where a client's payloads keep a tool's input and its bulky
// members.
type shape struct {
	input string
	bulky func(key string) bool
}

func shapeOf(c client.Client) shape {
	l, ok := c.(client.LargeInput)
	if !ok {
		return shape{"tool_input", bulky}
	}
	input, more := l.LargeInput()
	return shape{input, func(key string) bool { return bulky(key) || slices.Contains(more, key) }}
}

// readLarge reads a payload larger than MaxPayload (a Write of a big
// file) as a stream and returns it without the bulky members of
// the tool's input (sh.input: tool_input, unless the client says) and with
// only bashEditDiff of tool_response (what the adapters read), so that the
// claim check still sees the tool and its path, and what it skips is never
// held in memory. A Write past the limit must be checked like any other:
// failing open there would let a big enough file through every claim.
func readLarge(r io.Reader, sh shape) ([]byte, error) {
	s := &stream{r: bufio.NewReaderSize(r, 64<<10)}
	top := map[string]json.RawMessage{}
	keep := func(into map[string]json.RawMessage, key string) error {
		v, err := s.value(true)
		into[key] = v
		return err
	}
	err := s.members(func(key string) error {
		switch key {
		case sh.input:
			if c, err := s.peek(); err != nil || c != '{' {
				return keep(top, key) // apply_patch's patch: the files it names are in it
			}
			input := map[string]json.RawMessage{}
			if err := s.members(func(k string) error {
				if sh.bulky(k) {
					_, err := s.value(false)
					return err
				}
				return keep(input, k)
			}); err != nil {
				return fmt.Errorf("%s: %w", key, err)
			}
			b, err := json.Marshal(input)
			top[key] = b
			return err
		case "tool_response":
			resp := map[string]json.RawMessage{}
			if err := s.members(func(k string) error {
				if k == "bashEditDiff" {
					return keep(resp, k)
				}
				_, err := s.value(false)
				return err
			}); err != nil {
				return fmt.Errorf("tool_response: %w", err)
			}
			b, err := json.Marshal(resp)
			top[key] = b
			return err
		}
		return keep(top, key)
	})
	if err != nil {
		return nil, err
	}
	return json.Marshal(top) // checks each kept value, too
}

// stream reads JSON from a reader one byte at a time, keeping only the
// values asked for. It checks structure (brackets, strings, separators)
// and leaves the checking of kept values to encoding/json.
type stream struct {
	r *bufio.Reader
}

func (s *stream) byte() (byte, error) {
	c, err := s.r.ReadByte()
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return c, err
}

// nonSpace returns the next byte that is not JSON whitespace.
func (s *stream) nonSpace() (byte, error) {
	for {
		c, err := s.byte()
		if err != nil || (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			return c, err
		}
	}
}

// peek returns the next byte that is not JSON whitespace, left unread.
func (s *stream) peek() (byte, error) {
	for {
		b, err := s.r.Peek(1)
		switch {
		case err == io.EOF:
			return 0, io.ErrUnexpectedEOF
		case err != nil:
			return 0, err
		case b[0] != ' ' && b[0] != '\t' && b[0] != '\n' && b[0] != '\r':
			return b[0], nil
		}
		s.r.ReadByte()
	}
}

// members reads an object, calling member after each key and its colon;
// member must read the value.
func (s *stream) members(member func(key string) error) error {
	c, err := s.nonSpace()
	if err != nil {
		return err
	}
	if c != '{' {
		return fmt.Errorf("not a JSON object")
	}
	for first := true; ; first = false {
		c, err := s.nonSpace()
		if err != nil {
			return err
		}
		if c == '}' && first {
			return nil
		}
		if !first {
			if c == '}' {
				return nil
			}
			if c != ',' {
				return fmt.Errorf("want , or } in an object, got %q", c)
			}
			if c, err = s.nonSpace(); err != nil {
				return err
			}
		}
		if c != '"' {
			return fmt.Errorf("want a key, got %q", c)
		}
		var raw bytes.Buffer
		raw.WriteByte('"')
		if err := s.rest(&raw, '"'); err != nil {
			return err
		}
		var key string
		if err := json.Unmarshal(raw.Bytes(), &key); err != nil {
			return err
		}
		if c, err := s.nonSpace(); err != nil || c != ':' {
			return fmt.Errorf("want : after key %q", key)
		}
		if err := member(key); err != nil {
			return err
		}
	}
}

// value reads one value, returned when keep is set and dropped byte by
// byte otherwise.
func (s *stream) value(keep bool) (json.RawMessage, error) {
	c, err := s.nonSpace()
	if err != nil {
		return nil, err
	}
	var out *bytes.Buffer
	if keep {
		out = &bytes.Buffer{}
		out.WriteByte(c)
	}
	switch c {
	case '"', '{', '[':
		err = s.rest(out, c)
	default: // a number, true, false or null: up to the next separator
		for {
			b, err := s.r.Peek(1)
			if err != nil || bytes.IndexByte([]byte(",}] \t\r\n"), b[0]) >= 0 {
				break
			}
			s.r.ReadByte()
			if out != nil {
				out.WriteByte(b[0])
			}
		}
	}
	if out == nil {
		return nil, err
	}
	return out.Bytes(), err
}

// plain reads, into out unless out is nil, the bytes of a string up to
// its closing quote or a backslash at the end of the buffer, a buffer at
// a time: the long content of a Write goes by at the speed of memory.
func (s *stream) plain(out *bytes.Buffer) error {
	for {
		if _, err := s.r.Peek(1); err != nil {
			return err
		}
		buf, _ := s.r.Peek(s.r.Buffered())
		i := 0
		for i < len(buf) && buf[i] != '"' {
			if buf[i] == '\\' {
				if i+1 == len(buf) {
					break // its escaped byte is in the next buffer
				}
				i++
			}
			i++
		}
		if out != nil {
			out.Write(buf[:i])
		}
		s.r.Discard(i)
		if i < len(buf) {
			return nil
		}
	}
}

// rest reads the rest of a string, object or array whose first byte open
// was read, into out unless out is nil.
func (s *stream) rest(out *bytes.Buffer, open byte) error {
	depth, inString := 1, open == '"'
	for {
		if inString {
			if err := s.plain(out); err != nil {
				return err
			}
		}
		c, err := s.byte()
		if err != nil {
			return err
		}
		if out != nil {
			out.WriteByte(c)
		}
		switch {
		case inString && c == '\\':
			c, err := s.byte()
			if err != nil {
				return err
			}
			if out != nil {
				out.WriteByte(c)
			}
		case inString && c == '"':
			if open == '"' {
				return nil
			}
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth--; depth == 0 {
				return nil
			}
		}
	}
}

// readPayload reads a hook's payload: whole up to MaxPayload, streamed
// and stripped of what lucid never reads past it (large reports which).
func readPayload(stdin io.Reader, sh shape) (payload []byte, large bool, err error) {
	payload, err = io.ReadAll(io.LimitReader(stdin, MaxPayload+1))
	switch {
	case err != nil:
		return nil, false, fmt.Errorf("reading the payload: %w", err)
	case len(payload) > MaxPayload:
		payload, err = readLarge(io.MultiReader(bytes.NewReader(payload), stdin), sh)
		if err != nil {
			return nil, true, fmt.Errorf("payload over 16 MiB is not a JSON object: %w", err)
		}
		return payload, true, nil
	case len(bytes.TrimSpace(payload)) == 0:
		return nil, false, fmt.Errorf("empty payload ignored")
	}
	return payload, false, nil
}
