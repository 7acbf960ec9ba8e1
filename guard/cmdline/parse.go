package cmdline

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Limits that keep hostile input (recursive functions, bash -c nested
// deeply, megabytes of command line) from costing more than a hook may
// spend; past them, what is left is not looked at, and the reader says so.
const (
	MaxDepth = 8 // bash -c inside bash -c, and function calls
	// MaxBytes is the longest command read at all: parsing runs at
	// 5 to 25 MB/s, and the hook parses a command twice (the analysis of
	// what it writes, and its stamp), so 1 MiB costs at most about 0.3 s.
	// What agents write stays far below it: a tool call's input is a
	// model's output.
	MaxBytes = 1 << 20
)

var parsers = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash))
}}

// Parse parses src as bash, or returns nil when it does not parse.
func Parse(src string) *syntax.File {
	p := parsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(src), "")
	// The parser drops its buffers on reset, so f stays valid.
	parsers.Put(p)
	if err != nil {
		return nil
	}
	return f
}
