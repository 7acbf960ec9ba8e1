package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// testFlags is a command with a flag of each kind lucid's commands use.
// It returns the set and a function that shows what the parse left.
func testFlags() (*flags, func() string) {
	f := newFlags("test", "lucid test [ARG...]\n\nA command for the tests.")
	asJSON := f.Bool("json", false, "print JSON")
	task := f.String("for", "", "what it is for")
	ttl := f.Duration("ttl", 2*time.Hour, "how long it holds")
	n := f.IntP("n", "n", 0, "show at most `N`")
	evidence := f.StringArrayP("evidence", "e", nil, "cite `PATH[:LINE]` (repeatable)")
	clients := f.StringSlice("client", []string{"claude"}, "the clients (repeatable, or a comma list)")
	return f, func() string {
		return fmt.Sprintf("json=%v for=%q ttl=%v n=%d e=%q client=%q args=%q", *asJSON, *task, *ttl, *n, *evidence, *clients, f.Args())
	}
}

const testDefaults = `json=false for="" ttl=2h0m0s n=0 e=[] client=["claude"]`

func TestFlagsParse(t *testing.T) {
	for _, tc := range []struct {
		args string // split on spaces; "''" is an empty argument
		want string // what testFlags shows, or the error line
	}{
		{"", testDefaults + ` args=[]`},
		{"a --json b -e x c", `json=true for="" ttl=2h0m0s n=0 e=["x"] client=["claude"] args=["a" "b" "c"]`},
		{"a -n 3 --for task b", `json=false for="task" ttl=2h0m0s n=3 e=[] client=["claude"] args=["a" "b"]`},

		// "--" ends the flags; "-" and "" are arguments.
		{"--json -- --for x -e", `json=true for="" ttl=2h0m0s n=0 e=[] client=["claude"] args=["--for" "x" "-e"]`},
		{"- ''", testDefaults + ` args=["-" ""]`},
		{"-- --help", testDefaults + ` args=["--help"]`},

		// The forms of a value.
		{"--for=a=b", `json=false for="a=b" ttl=2h0m0s n=0 e=[] client=["claude"] args=[]`},
		{"--for=", testDefaults + ` args=[]`},
		{"--for --json", `json=false for="--json" ttl=2h0m0s n=0 e=[] client=["claude"] args=[]`},
		{"-e p1 -ep2 -e=p3 --evidence p4 --evidence=p5", `json=false for="" ttl=2h0m0s n=0 e=["p1" "p2" "p3" "p4" "p5"] client=["claude"] args=[]`},
		{"-e= --evidence=", `json=false for="" ttl=2h0m0s n=0 e=["" ""] client=["claude"] args=[]`},
		{"-n5 --ttl 30m", `json=false for="" ttl=30m0s n=5 e=[] client=["claude"] args=[]`},
		{"--n=0x10 --ttl=1h30m", `json=false for="" ttl=1h30m0s n=16 e=[] client=["claude"] args=[]`},

		// A bool takes a value only after "=".
		{"--json=false", testDefaults + ` args=[]`},
		{"--json false", `json=true for="" ttl=2h0m0s n=0 e=[] client=["claude"] args=["false"]`},
		{"--json --json=0", testDefaults + ` args=[]`},

		// Repeated flags: a list adds each use, replacing its default
		// first; any other flag keeps the last.
		{"-e a,b -e c", `json=false for="" ttl=2h0m0s n=0 e=["a,b" "c"] client=["claude"] args=[]`},
		{"--client codex,gemini --client claude", `json=false for="" ttl=2h0m0s n=0 e=[] client=["codex" "gemini" "claude"] args=[]`},
		{"--client codex", `json=false for="" ttl=2h0m0s n=0 e=[] client=["codex"] args=[]`},
		{"--client ''", `json=false for="" ttl=2h0m0s n=0 e=[] client=[] args=[]`},
		{"--for a --for b -n 1 -n 2", `json=false for="b" ttl=2h0m0s n=2 e=[] client=["claude"] args=[]`},

		// Errors name the flag as pflag did.
		{"a --nope", "unknown flag: --nope"},
		{"-x", "unknown shorthand flag: 'x' in -x"},
		{"-xe a", "unknown shorthand flag: 'x' in -xe"},
		{"a --for", "flag needs an argument: --for"},
		{"-e", "flag needs an argument: 'e' in -e"},
		{"-n abc", `invalid argument "abc" for "-n, --n" flag: must be an integer`},
		{"--n=3x", `invalid argument "3x" for "-n, --n" flag: must be an integer`},
		{"--ttl 5", `invalid argument "5" for "--ttl" flag: must be a duration like "30s" or "5m"`},
		{"--json=maybe", `invalid argument "maybe" for "--json" flag: must be true or false`},
		{"---x", "bad flag syntax: ---x"},
		{"--=x", "bad flag syntax: --=x"},
		{"--nope --help", "unknown flag: --nope"},
	} {
		t.Run(tc.args, func(t *testing.T) {
			f, show := testFlags()
			var out bytes.Buffer
			err := f.parse(&cli{stdout: &out}, splitArgs(tc.args))
			got := ""
			var ee *exitError
			switch {
			case err == nil:
				got = show()
			case errors.As(err, &ee) && ee.code == 2:
				got = strings.TrimSuffix(ee.Error(), " (see `lucid test --help`)")
				if got == ee.Error() {
					t.Errorf("the error does not send the user to `lucid test --help`: %v", err)
				}
			default:
				t.Fatalf("parse(%q) = %v, want a usage error (exit 2) or none", tc.args, err)
			}
			if got != tc.want {
				t.Errorf("parse(%q):\n got %s\nwant %s", tc.args, got, tc.want)
			}
			if out.Len() > 0 {
				t.Errorf("parse(%q) printed %q", tc.args, out.String())
			}
		})
	}
}

// Used tells a flag given its default, or nothing, from a flag left out:
// lucid release --to "$EMPTY" must not release.
func TestFlagsUsed(t *testing.T) {
	for args, want := range map[string]string{
		"":                       "",
		"--for ''":               "for",
		"--for= -e x":            "for evidence",
		"--json=false -n 0":      "json n",
		"-- --for x":             "",
		"a --client '' --ttl 2h": "ttl client",
	} {
		f, _ := testFlags()
		if err := f.parse(&cli{stdout: &bytes.Buffer{}}, splitArgs(args)); err != nil {
			t.Fatal(err)
		}
		var used []string
		for _, name := range []string{"json", "for", "ttl", "n", "evidence", "client"} {
			if f.Used(name) {
				used = append(used, name)
			}
		}
		if got := strings.Join(used, " "); got != want {
			t.Errorf("%q: used %q, want %q", args, got, want)
		}
	}
}

func splitArgs(s string) []string {
	args := strings.Fields(s)
	for i, a := range args {
		if a == "''" {
			args[i] = ""
		}
	}
	return args
}

// TestFlagsHelp checks that --help and -h, wherever they are, print the
// usage and the flags in pflag's layout, defaults shown where they are not
// the zero value (what the command line set does not change them), and end
// the command with exit 0.
func TestFlagsHelp(t *testing.T) {
	const want = `usage: lucid test [ARG...]

A command for the tests.

flags:
      --json[=true|false]      print JSON
      --for string             what it is for
      --ttl duration           how long it holds (default 2h0m0s)
  -n, --n N                    show at most N
  -e, --evidence PATH[:LINE]   cite PATH[:LINE] (repeatable)
      --client strings         the clients (repeatable, or a comma list) (default [claude])
`
	for _, args := range []string{"--help", "-h", "a --help b", "--json -h", "--help=x", "-hn", "--ttl 5m --client codex --help"} {
		f, _ := testFlags()
		var out bytes.Buffer
		if err := f.parse(&cli{stdout: &out}, splitArgs(args)); err != errQuiet {
			t.Errorf("parse(%q) = %v, want the end of the command with exit 0", args, err)
		}
		if out.String() != want {
			t.Errorf("parse(%q) printed\n%s\nwant\n%s", args, out.String(), want)
		}
	}
	f := newFlags("gc", "lucid gc\n\nCompacts.\n")
	var out bytes.Buffer
	if err := f.parse(&cli{stdout: &out}, []string{"--help"}); err != errQuiet || out.String() != "usage: lucid gc\n\nCompacts.\n" {
		t.Errorf("help of a command without flags: %v, %q", err, out.String())
	}
}
