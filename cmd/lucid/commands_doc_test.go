package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// updateDocs has TestCommandsDoc write docs/commands.md instead of checking
// it: make docs.
var updateDocs = flag.Bool("update", false, "write docs/commands.md from the commands' --help")

// commandsDocPath is the command reference, from this package's folder.
var commandsDocPath = filepath.Join("..", "..", "docs", "commands.md")

// servedByView are the commands that lucid hands to lucid-view whole, help
// included: their help is lucid-view's.
var servedByView = []string{"web", "watch"}

// The command reference is what the commands print for --help, so that it
// cannot say what they do not: docs/commands.md is written from it (make
// docs) and must stay what they print.
func TestCommandsDoc(t *testing.T) {
	doc := commandsDoc(t)
	if *updateDocs {
		if err := os.WriteFile(commandsDocPath, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	was, err := os.ReadFile(commandsDocPath)
	if err != nil {
		t.Fatalf("%v: run `make docs` to write it", err)
	}
	if string(was) != doc {
		t.Fatalf("docs/commands.md is not what the commands' --help print (first difference at line %d): run `make docs` to write it again", firstDifferentLine(string(was), doc))
	}
}

// commandsDoc is docs/commands.md: lucid's own help, then each command's,
// by name, those lucid --help does not list too.
func commandsDoc(t *testing.T) string {
	var b strings.Builder
	b.WriteString(`# Commands

<!-- Written by make docs from each command's --help (cmd/lucid; lucid-view's for web and watch): change the help, not this file. -->

Every command takes ` + "`--help`" + `, which prints what its section below holds.

` + "```text\n")
	b.WriteString(helpOf(t, "--help"))
	b.WriteString("```\n")
	sorted := slices.Clone(commands)
	slices.SortFunc(sorted, func(a, b *command) int { return strings.Compare(a.name, b.name) })
	for _, c := range sorted {
		summary := strings.ToUpper(c.summary[:1]) + c.summary[1:] + "."
		if c.hidden {
			summary += " `lucid --help` does not list it."
		}
		fmt.Fprintf(&b, "\n## lucid %s\n\n%s\n\n```text\n%s```\n", c.name, summary, helpOf(t, c.name, "--help"))
	}
	return b.String()
}

// helpOf is what lucid prints for args, a call for help.
func helpOf(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if slices.Contains(servedByView, args[0]) {
		// lucid would become lucid-view, built beside it by TestMain, after
		// refusing an agent's shell; lucid-view reads --help first.
		view := exec.Command(viewBinary, args...)
		view.Stdout, view.Stderr = &stdout, &stderr
		if err := view.Run(); err != nil {
			t.Fatalf("%s %s: %v\n%s", viewBinary, strings.Join(args, " "), err, stderr.String())
		}
		return stdout.String()
	}
	if code := run(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("lucid %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String()
}

// firstDifferentLine is the number of the first line where a and b differ.
func firstDifferentLine(a, b string) int {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return i + 1
		}
	}
	return min(len(al), len(bl)) + 1
}
