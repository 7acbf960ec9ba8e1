package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdHookList is the script command
//
//	hooklist FILE
//
// which prints every hook of a Claude Code settings file, one a line, in
// the file's order: "EVENT [MATCHER]: COMMAND (timeout N)". It reads the
// file the way Claude Code does, as plain JSON, so that a script checks
// what Claude Code would run rather than how lucid wrote it.
func cmdHookList(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: hooklist FILE")
	}
	raw := []byte(ts.ReadFile(args[0]))
	var doc struct {
		Hooks json.RawMessage `json:"hooks"`
	}
	ts.Check(json.Unmarshal(raw, &doc))
	// Walk the events in file order: a map would lose it.
	dec := json.NewDecoder(bytes.NewReader(doc.Hooks))
	_, err := dec.Token()
	ts.Check(err)
	for dec.More() {
		tok, err := dec.Token()
		ts.Check(err)
		var groups []struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				Name    string `json:"name"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		}
		ts.Check(dec.Decode(&groups))
		for _, g := range groups {
			for _, h := range g.Hooks {
				m := ""
				if g.Matcher != "" {
					m = " [" + g.Matcher + "]"
				}
				if h.Type != "command" {
					ts.Fatalf("%s: hook of type %q", tok, h.Type)
				}
				if h.Name != "" {
					m += " " + h.Name // Gemini CLI's entries are named
				}
				fmt.Fprintf(ts.Stdout(), "%s%s: %s (timeout %d)\n", tok, m, h.Command, h.Timeout)
			}
		}
	}
}
