package cmdline

import (
	"slices"
	"strings"
)

// Spec describes a command's options, enough to tell them from its
// operands.
type Spec struct {
	Args     string   // short options that take an argument: "tS"
	Optional string   // short options whose argument, if any, is attached: sed's -i
	Long     []string // long options that take an argument, without "--"
	// Stop ends the options at the first operand, as POSIX and the
	// wrappers (env, timeout, sudo) do; GNU tools take options anywhere.
	Stop bool
	// Exact takes long options only as spelled in full: tools whose
	// parsers take no abbreviation (prettier, eslint, clap, click), where
	// --fix is not --fix-type.
	Exact bool
}

// Flag is one option found: its name ("t" or "target-directory") and
// its argument, if it has one.
type Flag struct {
	Name string
	Val  Arg
	Has  bool
}

// Opts is a command line split into options and operands.
type Opts struct {
	Flags []Flag
	Ops   []Arg
	// Dashes is how many operands came before "--", or -1 without one.
	Dashes int
}

// ParseOpts splits args (without the command name). Abbreviated long
// options that take an argument (--target for --target-directory) are
// expanded, since GNU getopt accepts them.
func ParseOpts(args []Arg, spec Spec) Opts {
	o := Opts{Dashes: -1, Ops: make([]Arg, 0, len(args))}
	noMore := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		s, ok := a.Lit()
		if noMore || !ok || len(s) < 2 || s[0] != '-' {
			o.Ops = append(o.Ops, a)
			noMore = noMore || spec.Stop
			continue
		}
		if s == "--" {
			noMore = true
			o.Dashes = len(o.Ops)
			continue
		}
		if strings.HasPrefix(s, "--") {
			name, val, hasVal := strings.Cut(s[2:], "=")
			full, takes := spec.longName(name)
			switch {
			case hasVal:
				o.Flags = append(o.Flags, Flag{Name: full, Val: a.From(len(s) - len(val)), Has: true})
			case takes && i+1 < len(args):
				i++
				o.Flags = append(o.Flags, Flag{Name: full, Val: args[i], Has: true})
			default:
				o.Flags = append(o.Flags, Flag{Name: full})
			}
			continue
		}
		for j := 1; j < len(s); j++ {
			c := s[j : j+1]
			rest := s[j+1:]
			if strings.Contains(spec.Optional, c) {
				o.Flags = append(o.Flags, Flag{Name: c, Val: a.From(j + 1), Has: rest != ""})
				break
			}
			if strings.Contains(spec.Args, c) {
				switch {
				case rest != "":
					o.Flags = append(o.Flags, Flag{Name: c, Val: a.From(j + 1), Has: true})
				case i+1 < len(args):
					i++
					o.Flags = append(o.Flags, Flag{Name: c, Val: args[i], Has: true})
				default:
					o.Flags = append(o.Flags, Flag{Name: c})
				}
				break
			}
			o.Flags = append(o.Flags, Flag{Name: c})
		}
	}
	return o
}

// longName expands an abbreviation of a long option that takes an
// argument, and reports whether it takes one.
func (spec Spec) longName(name string) (string, bool) {
	if name == "" {
		return name, false
	}
	found := ""
	for _, l := range spec.Long {
		if l == name {
			return l, true
		}
		if strings.HasPrefix(l, name) && !spec.Exact {
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

// Has reports whether any of the named options was given.
func (o Opts) Has(names ...string) bool {
	return slices.ContainsFunc(o.Flags, func(f Flag) bool { return slices.Contains(names, f.Name) })
}

// Get is the argument of the last of the named options given with one.
func (o Opts) Get(names ...string) (Arg, bool) {
	for i := len(o.Flags) - 1; i >= 0; i-- {
		if f := o.Flags[i]; f.Has && slices.Contains(names, f.Name) {
			return f.Val, true
		}
	}
	return Arg{}, false
}

// Informational reports --help or --version, which make a command print
// and write nothing.
func (o Opts) Informational() bool {
	return o.Has("help", "version")
}
