package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/lucid-dev/lucid/internal/escape"
)

// printJSON writes v as indented JSON on stdout, with every control
// character escaped (escape.JSON): exact for a program, safe on a terminal.
func (c *cli) printJSON(v any) error {
	b, err := encodeJSON(v, "")
	if err != nil {
		return err
	}
	_, err = c.stdout.Write(b)
	return err
}

// encodeJSON is v as indented JSON, each line after the first starting
// with prefix, ending with a newline, HTML characters as they are, and
// control characters escaped.
func encodeJSON(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escape.JSON(buf.Bytes()), nil
}

// jsonArray writes a JSON array one element at a time, as printJSON would
// write the whole slice, so that a long list is never held.
type jsonArray struct {
	w io.Writer
	n int
}

func newJSONArray(w io.Writer) *jsonArray { return &jsonArray{w: w} }

func (a *jsonArray) add(v any) error {
	b, err := encodeJSON(v, "  ")
	if err != nil {
		return err
	}
	sep := ",\n  "
	if a.n == 0 {
		sep = "[\n  "
	}
	a.n++
	_, err = fmt.Fprintf(a.w, "%s%s", sep, bytes.TrimSuffix(b, []byte("\n")))
	return err
}

func (a *jsonArray) close() error {
	end := "\n]\n"
	if a.n == 0 {
		end = "[]\n"
	}
	_, err := io.WriteString(a.w, end)
	return err
}
