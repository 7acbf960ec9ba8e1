package guard

import (
	"slices"
	"strings"
)

// optSpec describes a command's options, enough to tell them from its
// operands.
type optSpec struct {
	args     string   // short options that take an argument: "tS"
	optional string   // short options whose argument, if any, is attached: sed's -i
	long     []string // long options that take an argument, without "--"
	// stop ends the options at the first operand, as POSIX and the
	// wrappers (env, timeout, sudo) do; GNU tools take options anywhere.
	stop bool
	// exact takes long options only as spelled in full: tools whose
	// parsers take no abbreviation (prettier, eslint, clap, click), where
	// --fix is not --fix-type.
	exact bool
}

// optFlag is one option found: its name ("t" or "target-directory") and
// its argument, if it has one.
type optFlag struct {
	name string
	val  shArg
	has  bool
}

// opts is a command line split into options and operands.
type opts struct {
	flags []optFlag
	ops   []shArg
	// dashes is how many operands came before "--", or -1 without one.
	dashes int
}

// parseOpts splits args (without the command name). Abbreviated long
// options that take an argument (--target for --target-directory) are
// expanded, since GNU getopt accepts them.
func parseOpts(args []shArg, spec optSpec) opts {
	o := opts{dashes: -1, ops: make([]shArg, 0, len(args))}
	noMore := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		s, ok := a.lit()
		if noMore || !ok || len(s) < 2 || s[0] != '-' {
			o.ops = append(o.ops, a)
			noMore = noMore || spec.stop
			continue
		}
		if s == "--" {
			noMore = true
			o.dashes = len(o.ops)
			continue
		}
		if strings.HasPrefix(s, "--") {
			name, val, hasVal := strings.Cut(s[2:], "=")
			full, takes := spec.longName(name)
			switch {
			case hasVal:
				o.flags = append(o.flags, optFlag{name: full, val: a.from(len(s) - len(val)), has: true})
			case takes && i+1 < len(args):
				i++
				o.flags = append(o.flags, optFlag{name: full, val: args[i], has: true})
			default:
				o.flags = append(o.flags, optFlag{name: full})
			}
			continue
		}
		for j := 1; j < len(s); j++ {
			c := s[j : j+1]
			rest := s[j+1:]
			if strings.Contains(spec.optional, c) {
				o.flags = append(o.flags, optFlag{name: c, val: a.from(j + 1), has: rest != ""})
				break
			}
			if strings.Contains(spec.args, c) {
				switch {
				case rest != "":
					o.flags = append(o.flags, optFlag{name: c, val: a.from(j + 1), has: true})
				case i+1 < len(args):
					i++
					o.flags = append(o.flags, optFlag{name: c, val: args[i], has: true})
				default:
					o.flags = append(o.flags, optFlag{name: c})
				}
				break
			}
			o.flags = append(o.flags, optFlag{name: c})
		}
	}
	return o
}

// longName expands an abbreviation of a long option that takes an
// argument, and reports whether it takes one.
func (spec optSpec) longName(name string) (string, bool) {
	if name == "" {
		return name, false
	}
	found := ""
	for _, l := range spec.long {
		if l == name {
			return l, true
		}
		if strings.HasPrefix(l, name) && !spec.exact {
			if found != "" {
				return name, false // ambiguous
			}
			found = l
		}
	}
	if found == "" {
		return name, false
	}
	return found, true
}

// has reports whether any of the named options was given.
func (o opts) has(names ...string) bool {
	return slices.ContainsFunc(o.flags, func(f optFlag) bool { return slices.Contains(names, f.name) })
}

// get is the argument of the last of the named options given with one.
func (o opts) get(names ...string) (shArg, bool) {
	for i := len(o.flags) - 1; i >= 0; i-- {
		if f := o.flags[i]; f.has && slices.Contains(names, f.name) {
			return f.val, true
		}
	}
	return shArg{}, false
}

// informational reports --help or --version, which make a command print
// and write nothing.
func (o opts) informational() bool {
	return o.has("help", "version")
}
