package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/client/identity"
)

// flags is a command's flags and its usage text. It reads a command line
// the GNU way, as lucid's commands always have: flags anywhere among the
// arguments, "--" ending them, --name=VALUE or --name VALUE, -xVALUE, -x=VALUE
// or -x VALUE for a shorthand, --bool or --bool=false. lucid has its own
// rather than pflag, whose imports of net and net/netip ran their init at
// the start of every hook.
type flags struct {
	name  string
	usage string // "lucid fact TEXT [-e PATH[:LINE]]..." and a description
	defs  []*flagDef
	args  []string // the arguments left once the flags are read
}

// flagDef is one flag of a command.
type flagDef struct {
	name, short string
	usage       string
	typ         string        // what the value is, for help whose usage names none: "string", "duration"
	def         func() string // the default as help shows it; nil when it is the zero value, not shown
	isBool      bool          // takes no value, unless given as --name=VALUE
	set         func(string) error
	used        bool // given on the command line, even with the default value
}

// errHelp is --help or -h on the command line.
var errHelp = errors.New("help requested")

func newFlags(name, usage string) *flags {
	return &flags{name: name, usage: usage}
}

func (f *flags) String(name, value, usage string) *string {
	return scalar(f, &flagDef{name: name, usage: usage, typ: "string"}, value, "",
		func(s string) (string, error) { return s, nil })
}

func (f *flags) Bool(name string, value bool, usage string) *bool {
	return scalar(f, &flagDef{name: name, usage: usage, isBool: true}, value, "must be true or false", strconv.ParseBool)
}

func (f *flags) Duration(name string, value time.Duration, usage string) *time.Duration {
	return scalar(f, &flagDef{name: name, usage: usage, typ: "duration"}, value, `must be a duration like "30s" or "5m"`, time.ParseDuration)
}

// IntP is an int flag with a shorthand; 0x and 0o prefixes are read too.
func (f *flags) IntP(name, short string, value int, usage string) *int {
	return scalar(f, &flagDef{name: name, short: short, usage: usage, typ: "int"}, value, "must be an integer",
		func(s string) (int, error) {
			v, err := strconv.ParseInt(s, 0, 0)
			return int(v), err
		})
}

// scalar adds d, a flag of one value that parse reads (the last use wins),
// whose bad values are the error bad.
func scalar[T comparable](f *flags, d *flagDef, value T, bad string, parse func(string) (T, error)) *T {
	// The flag's variable is a copy: value stays the default for --help.
	p := new(T)
	*p = value
	d.set = func(s string) error {
		v, err := parse(s)
		if err != nil {
			return errors.New(bad)
		}
		*p = v
		return nil
	}
	// Help shows a default other than the zero value, a string quoted.
	var zero T
	if s, ok := any(value).(string); ok && s != "" {
		d.def = func() string { return strconv.Quote(s) }
	} else if !ok && value != zero {
		// Only --help formats it: fmt's first use in a process is not
		// free, and lucid claim has a duration flag.
		d.def = func() string { return fmt.Sprint(value) }
	}
	f.defs = append(f.defs, d)
	return p
}

// StringArrayP is a repeatable flag with a shorthand: each use adds its
// value whole, commas and all.
func (f *flags) StringArrayP(name, short string, value []string, usage string) *[]string {
	return f.list(name, short, "stringArray", value, usage, func(s string) []string { return []string{s} })
}

// StringSlice is a repeatable flag whose value is also a comma list.
func (f *flags) StringSlice(name string, value []string, usage string) *[]string {
	return f.list(name, "", "strings", value, usage, func(s string) []string {
		if s == "" {
			return nil
		}
		items := strings.Split(s, ",")
		for i := range items {
			items[i] = strings.TrimSpace(items[i])
		}
		return items
	})
}

// list is a repeatable flag: the first use replaces the default, the
// next ones add to it.
func (f *flags) list(name, short, typ string, value []string, usage string, split func(string) []string) *[]string {
	// The flag's variable is a copy: value stays the default for --help.
	p := new([]string)
	*p = value
	used := false
	d := &flagDef{name: name, short: short, usage: usage, typ: typ, set: func(s string) error {
		if !used {
			*p, used = nil, true
		}
		*p = append(*p, split(s)...)
		return nil
	}}
	if len(value) > 0 {
		d.def = func() string { return "[" + strings.Join(value, ",") + "]" }
	}
	f.defs = append(f.defs, d)
	return p
}

func (f *flags) Args() []string { return f.args }
func (f *flags) NArg() int      { return len(f.args) }

// Arg is the i'th argument, "" past the last.
func (f *flags) Arg(i int) string {
	if i < len(f.args) {
		return f.args[i]
	}
	return ""
}

// parse parses args. --help prints the usage on stdout and ends the command
// with exit 0; a bad flag is a usage error with exit 2.
func (f *flags) parse(c *cli, args []string) error {
	err := f.read(args)
	if errors.Is(err, errHelp) {
		f.printHelp(c.stdout)
		return errQuiet
	}
	if err != nil {
		return usageErr("%v (see `%s --help`)", err, "lucid "+f.name)
	}
	return nil
}

// read sets the flags found in args and keeps the rest as the arguments.
func (f *flags) read(args []string) error {
	f.args = []string{}
	for len(args) > 0 {
		s := args[0]
		args = args[1:]
		var err error
		switch {
		case s == "--":
			f.args = append(f.args, args...)
			return nil
		case strings.HasPrefix(s, "--"):
			args, err = f.readLong(s, args)
		case len(s) > 1 && s[0] == '-':
			args, err = f.readShort(s, args)
		default: // "-" too: it names stdin or a file, never a flag
			f.args = append(f.args, s)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readLong reads --name, --name=VALUE or --name VALUE and returns the
// args after it.
func (f *flags) readLong(s string, args []string) ([]string, error) {
	name, value, inline := strings.Cut(s[2:], "=")
	if name == "" || name[0] == '-' {
		return nil, fmt.Errorf("bad flag syntax: %s", s)
	}
	d := f.lookup(func(d *flagDef) bool { return d.name == name })
	switch {
	case d == nil && name == "help":
		return nil, errHelp
	case d == nil:
		return nil, fmt.Errorf("unknown flag: --%s", name)
	case inline:
	case d.isBool:
		value = "true"
	case len(args) > 0:
		value, args = args[0], args[1:]
	default:
		return nil, fmt.Errorf("flag needs an argument: --%s", name)
	}
	return args, d.apply(value)
}

// readShort reads one or more shorthands run together (-ab, of bool flags
// but the last), the last one's value given as -xVALUE, -x=VALUE or -x
// VALUE, and returns the args after them.
func (f *flags) readShort(s string, args []string) ([]string, error) {
	for i := 1; i < len(s); i++ {
		d := f.lookup(func(d *flagDef) bool { return d.short == s[i:i+1] })
		if d == nil && s[i] == 'h' {
			return nil, errHelp
		}
		if d == nil {
			return nil, fmt.Errorf("unknown shorthand flag: %q in %s", s[i], s)
		}
		value, rest := "", s[i+1:]
		switch {
		case strings.HasPrefix(rest, "="):
			value = rest[1:]
		case d.isBool:
			if err := d.apply("true"); err != nil {
				return nil, err
			}
			continue
		case rest != "":
			value = rest
		case len(args) > 0:
			value, args = args[0], args[1:]
		default:
			return nil, fmt.Errorf("flag needs an argument: %q in %s", s[i], s)
		}
		return args, d.apply(value)
	}
	return args, nil
}

func (f *flags) lookup(match func(*flagDef) bool) *flagDef {
	for _, d := range f.defs {
		if match(d) {
			return d
		}
	}
	return nil
}

// Used reports whether the flag name was given, even with an empty value
// (--to "$EMPTY" is not the flag left out).
func (f *flags) Used(name string) bool {
	d := f.lookup(func(d *flagDef) bool { return d.name == name })
	return d != nil && d.used
}

func (d *flagDef) apply(value string) error {
	d.used = true
	if err := d.set(value); err != nil {
		return fmt.Errorf("invalid argument %q for %q flag: %w", value, d.names(), err)
	}
	return nil
}

// names is how errors and help name the flag: "-e, --evidence", "--json".
func (d *flagDef) names() string {
	if d.short != "" {
		return "-" + d.short + ", --" + d.name
	}
	return "--" + d.name
}

// printHelp prints the usage and the flags, one a line: the names, the
// value (the usage's `QUOTED` word, else its type), the usage and a default
// other than the zero value.
func (f *flags) printHelp(w io.Writer) {
	fmt.Fprintf(w, "usage: %s\n", strings.TrimSpace(f.usage))
	if len(f.defs) == 0 {
		return
	}
	heads, usages := make([]string, len(f.defs)), make([]string, len(f.defs))
	width := 0
	for i, d := range f.defs {
		head := "      " + d.names()
		if d.short != "" {
			head = "  " + d.names()
		}
		usage, value := d.usage, d.typ
		if before, rest, ok := strings.Cut(usage, "`"); ok {
			if quoted, after, ok := strings.Cut(rest, "`"); ok {
				usage, value = before+quoted+after, quoted
			}
		}
		switch {
		case d.isBool:
			head += "[=true|false]"
		case value != "":
			head += " " + value
		}
		if d.def != nil {
			usage += " (default " + d.def() + ")"
		}
		heads[i], usages[i] = head, usage
		width = max(width, len(head))
	}
	fmt.Fprint(w, "\nflags:\n")
	for i := range heads {
		fmt.Fprintf(w, "%-*s   %s\n", width, heads[i], usages[i])
	}
}

func usageErr(format string, a ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, a...)}
}

// agent is who runs a command that records or claims: $LUCID_AGENT,
// stamped by the hooks on an agent's shell commands; else the agent whose
// shell this is, where its client names it (Codex CLI); else, outside any
// agent's shell, a person. In an agent's shell the command never acts as a
// person: an unsigned one (its name hidden from the stamp in a script, a
// variable or a $( )) is refused, and so is a LUCID_AGENT that names an
// agent the shell says it is not.
func agent() (string, error) {
	sh, inShell := identity.RunsUnder(identity.All(), os.Getenv)
	if a := strings.TrimSpace(os.Getenv("LUCID_AGENT")); a != "" {
		switch {
		case !inShell:
			return a, nil
		case sh.Agent != "" && a != sh.Agent:
			return "", fmt.Errorf("LUCID_AGENT=%s names another agent than the %s agent whose shell this is (%s): lucid signs your commands itself; run lucid without setting LUCID_AGENT", a, sh.Client, sh.Agent)
		case sh.Session != "" && a != sh.Session && !strings.HasPrefix(a, sh.Session+"/"):
			return "", fmt.Errorf("LUCID_AGENT=%s names an agent of another session than this %s session (%s): lucid signs your commands itself; run lucid without setting LUCID_AGENT", a, sh.Client, sh.Session)
		}
		return a, nil
	}
	switch {
	case sh.Agent != "":
		return sh.Agent, nil
	case inShell:
		return "", fmt.Errorf("this runs in %s agent's shell but is not signed with the agent's id, so lucid cannot tell which agent runs it: run `lucid ...` by its plain name as a command of the shell tool, where lucid's hook signs it (not from a script, a variable or a $( ))", identity.AClient(sh.Client))
	}
	return agentstore.AgentHuman, nil
}

// personOnly refuses a command that is a person's to run where an agent's
// shell runs it, or lucid cannot tell that a person does (identity.PersonRuns).
func personOnly(name string) error {
	if why := identity.PersonRuns(identity.All(), os.Getenv, name); why != "" {
		return errors.New(why)
	}
	return nil
}

// findRepo finds the work tree around the current folder.
func findRepo() (*gitstore.Repo, string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, "", err
	}
	repo, err := gitstore.Find(cwd)
	return repo, cwd, err
}

// findInitialised is findRepo for commands that need .lucid/.
func findInitialised() (*gitstore.Repo, string, error) {
	repo, cwd, err := findRepo()
	if err == nil && !repo.Initialised() {
		err = gitstore.ErrNotInitialised
	}
	return repo, cwd, err
}

// warnInvalid tells the user how many lines of the log were skipped.
func warnInvalid(c *cli, n int) {
	if n > 0 {
		fmt.Fprintf(c.stderr, "lucid: %d line(s) of %s are not valid entries and were skipped (the file is left as it is)\n", n, gitstore.LogName)
	}
}
