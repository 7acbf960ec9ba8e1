package main

import (
	"bytes"
	"encoding/json"

	"github.com/lucid-dev/lucid/internal/escape"
)

// printJSON writes v as indented JSON on stdout, with every control
// character escaped (escape.JSON): exact for a program, safe on a terminal.
func (c *cli) printJSON(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := c.stdout.Write(escape.JSON(buf.Bytes()))
	return err
}
