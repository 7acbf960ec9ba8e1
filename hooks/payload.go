package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// bulky are the members of a tool's input that carry a file's content or
// an edit's text: lucid never reads them, and past MaxPayload they are
// skipped instead of kept.
var bulky = map[string]bool{"content": true, "old_string": true, "new_string": true, "new_source": true, "edits": true}

// readLarge reads a payload larger than MaxPayload (a Write of a big
// file) as a stream: it keeps every member but the bulky ones of
// tool_input and, of tool_response, only what readTool takes from it, so
// that the claim check still sees the tool and its path. A Write past the
// limit must be checked like any other: failing open there would let a
// big enough file through every claim.
func readLarge(r io.Reader) (Input, error) {
	dec := json.NewDecoder(r)
	var in Input
	top := map[string]json.RawMessage{}
	err := readMembers(dec, func(key string) error {
		switch key {
		case "tool_input":
			input := map[string]json.RawMessage{}
			if err := readMembers(dec, func(k string) error {
				if bulky[k] {
					return skipValue(dec)
				}
				var v json.RawMessage
				if err := dec.Decode(&v); err != nil {
					return err
				}
				input[k] = v
				return nil
			}); err != nil {
				return fmt.Errorf("tool_input: %w", err)
			}
			b, err := json.Marshal(input)
			in.ToolInput = b
			return err
		case "tool_response":
			var br bashResponse
			if err := dec.Decode(&br); err != nil {
				return err
			}
			b, err := json.Marshal(br)
			in.ToolResponse = b
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		top[key] = v
		return nil
	})
	if err != nil {
		return Input{}, err
	}
	b, err := json.Marshal(top)
	if err != nil {
		return Input{}, err
	}
	ti, tr := in.ToolInput, in.ToolResponse
	if err := json.Unmarshal(b, &in); err != nil {
		return Input{}, err
	}
	in.ToolInput, in.ToolResponse = ti, tr
	return in, nil
}

// readMembers reads one JSON object from dec, calling member for each key;
// member must read the key's value.
func readMembers(dec *json.Decoder, member func(key string) error) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return fmt.Errorf("not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if err := member(tok.(string)); err != nil {
			return err
		}
	}
	_, err = dec.Token() // the closing brace
	return err
}

// skipValue reads one JSON value from dec and drops it, token by token,
// so that nothing of it is kept.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// readPayload reads a hook's stdin: whole up to MaxPayload, streamed past
// it. A large payload of an edit tool whose path cannot be found is an
// error, so the hook fails open saying so.
func readPayload(stdin io.Reader) (Input, error) {
	payload, err := io.ReadAll(io.LimitReader(stdin, MaxPayload+1))
	switch {
	case err != nil:
		return Input{}, fmt.Errorf("reading the payload: %v", err)
	case len(payload) > MaxPayload:
		in, err := readLarge(io.MultiReader(bytes.NewReader(payload), stdin))
		if err != nil {
			return Input{}, fmt.Errorf("payload over 16 MiB is not a JSON object: %v", err)
		}
		var ti toolInput
		json.Unmarshal(in.ToolInput, &ti)
		if editTools[in.ToolName] && ti.path() == "" {
			return Input{}, fmt.Errorf("payload over 16 MiB names no file for %s: not checked", in.ToolName)
		}
		return in, nil
	case len(bytes.TrimSpace(payload)) == 0:
		return Input{}, fmt.Errorf("empty payload ignored")
	}
	var in Input
	if err := json.Unmarshal(payload, &in); err != nil {
		return Input{}, fmt.Errorf("payload is not a JSON object: %v", err)
	}
	return in, nil
}
