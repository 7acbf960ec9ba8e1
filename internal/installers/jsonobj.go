package installers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
)

// MarshalNoEscape is json.Marshal without HTML escaping, so that commands
// such as `a && b` stay readable in the settings file.
func MarshalNoEscape(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// syntaxLine returns the line of a JSON syntax error in raw, or 0.
func syntaxLine(raw []byte, err error) int {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var off int64
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		off = int64(len(raw)) // cut short: the error is at the end
	default:
		return 0
	}
	off = min(max(off, 1), int64(len(raw)))
	return bytes.Count(raw[:off-1], []byte{'\n'}) + 1
}

func JSONKey(k string) string {
	b, _ := MarshalNoEscape(k)
	return string(b)
}

// SameJSON reports whether a and b hold the same JSON value, however
// spaced or escaped.
func SameJSON(a, b []byte) bool {
	var va, vb any
	return json.Unmarshal(a, &va) == nil && json.Unmarshal(b, &vb) == nil && reflect.DeepEqual(va, vb)
}

// CompactJSON is raw without its spaces, or as it is where it is no JSON.
func CompactJSON(raw []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}
