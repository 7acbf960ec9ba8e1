// Command bench prints what lucid costs the agents that run it, measured the way
// an agent meets them: every figure is the wall time of a whole lucid process
// (fork, exec, Go runtime start, the work, exit), run in a scratch git
// repository in a temp dir.
//
// How: each command runs a few times to warm the page cache (-warmups, 3),
// then -runs times (41); the median and the maximum are printed. A
// hello-world Go binary, built here with the same flags as bin/lucid, is the
// floor: no Go program starts faster. Both run from copies in the bench's
// temp dir (see copyBinary). The floor is timed alone at the start and at
// the end (which shows how much the machine drifted), and in turns with the
// runs of every command, so that each row's "x floor" divides by a floor
// measured beside it rather than minutes earlier (see timeCommand).
//
// What: the run is a list of named sections, each a function (see sections
// below); -only runs one. A section prints its own table and may add goals,
// which are printed together at the end as met or missed. A missed goal is
// reported, not failed: bench exits 0 unless it cannot measure at all (exit
// 1, for example when the lucid binary cannot be run) or its flags are wrong
// (exit 2).
//
//	log   lucid status and lucid log -n 20 on logs of 1k, 100k and 1M entries
//	      (-sizes), written straight into .lucid/log.jsonl (see scratch.go).
//	hooks lucid hook PreToolUse with nothing new, and SessionStart, on the
//	      same logs.
//	clients the tool-call hooks of every client lucid serves, at 1k and
//	      100k entries.
//	plugin lucid's opencode plugin in opencode's own Bun, and its Pi
//	      extension in node (Pi) and Bun (oh-my-pi): a writing tool call
//	      (two lucid runs) and any other (none), beside a hello-world
//	      run spawned the same way (see plugin.go and piext.go).
//	aware lucid hook PreToolUse on an Edit of the agent's own file, with
//	      nothing new, alone and beside 10,000 other agents' recent edits,
//	      an Edit of a file another agent just changed, and leases on
//	      (see aware.go).
//	claims lucid hook PreToolUse on an Edit and on a Bash command, and
//	      lucid claim, with 1,000 active claims (see claims.go).
//	payloads lucid hook PreToolUse on a git whole-tree command, a 20 MiB
//	      Bash command and a 40 MiB Write (see payloads.go).
//	merge lucid merge-driver on two sides of 500k entries, base 250k.
//	remote lucid claim through a bare repository on disk as the remote,
//	      alone and 16 at once, beside git ls-remote and git push.
//	npm   lucid hook PreToolUse through lucid as `npm i -g @lucid-dev/lucid`
//	      installs it (from a loopback registry), beside the plain binary
//	      and npm's node launcher (see npm.go).
//	whole lucid dream, doctor and supersede of an unknown id, which read
//	      the whole log, on the largest of -sizes, with their peak memory.
//	search lucid search ranked by words and filtered, on the logs of
//	      -sizes from 100k up, with its peak memory (see search.go).
//	web   lucid web's page in headless Chromium: its first paint of data,
//	      an append shown, and the server's peak memory (see web.go).
//	catchup lucid web's event stream reconnected from an empty log's tail
//	      at 200k entries: the time to its reload and the server's peak
//	      memory before and after (see catchup.go).
//
// Run it with `make bench`, which builds bin/lucid first, or
//
//	go run ./internal/bench -lucid bin/lucid [-runs N] [-sizes 1000,1000000] [-only log]
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lucid-dev/lucid/internal/client/clients"
)

// A section measures one part of lucid and prints its table.
type section struct {
	name    string
	summary string
	run     func(b *bench) error
}

// sections run in this order; a new cost to watch gets a section here.
var sections = []section{
	{"log", "lucid status and lucid log -n 20 as the log grows", logSection},
	{"hooks", "lucid hook PreToolUse (nothing new) and SessionStart as the log grows", hooksSection},
	{"clients", "the tool-call hook of " + clients.Known(clientTitles()) + ", nothing new, at 1k and 100k entries", clientsSection},
	{"plugin", "what lucid's opencode plugin and Pi extension cost a writing and any other tool call, from inside the client", pluginSection},
	{"facts", "an Edit told what the log knows of its file: 1,000 live entries citing 100 files, nothing new, as the log grows", factsSection},
	{"aware", "an Edit with edit awareness: nothing new, beside 10,000 recent editors, told of another's change, with leases on", awareSection},
	{"claims", "the write guard and lucid claim with 1,000 active claims", claimsSection},
	{"payloads", "the write guard on a git whole-tree command, a 20 MiB Bash command and a 40 MiB Write", payloadsSection},
	{"concurrent", "lucid hook PreToolUse while 8 agents append, and parallel hooks of one agent", concurrentSection},
	{"merge", "lucid merge-driver on two sides of 500k entries with a base of 250k", mergeSection},
	{"remote", "lucid claim through a git remote on disk, alone and 16 at once, beside git push", remoteSection},
	{"installs", "lucid's tool-call hook as install.sh, lucid init and the Claude Code, Codex CLI and Copilot CLI plugins run it, beside the plain binary", installsSection},
	{"npm", "lucid hook PreToolUse through lucid as npm i -g installs it, beside the plain binary and npm's node launcher", npmSection},
	{"whole", "lucid dream, doctor and supersede, which read the whole log, on the largest log", wholeSection},
	{"search", "lucid search, ranked and filtered, on logs of 100k and 1M entries, with its peak memory", searchSection},
	{"web", "lucid web in headless Chromium: first paint, an append shown, the server's memory, as the log grows", webSection},
	{"catchup", "lucid web's event stream reconnected from an empty log's tail at 200k entries: its reload, the server's memory", catchupSection},
}

// bench is what every section runs with.
type bench struct {
	lucid   string // absolute path of the lucid binary
	runs    int
	warmups int
	sizes   []int      // log lengths, for the sections that grow a log
	root    string     // the temp dir
	mu      sync.Mutex // guards root and errOut against cleanup on a signal
	env     []string   // the environment of every process run, without LUCID_* and GIT_*
	floor   timing     // the hello-world binary, timed alone at the start
	hello   string     // its path, once built
	out     io.Writer  // the tables
	goals   []goal
	errOut  *os.File // stderr of the timed process, kept to report a failure
	scratch int      // counter for scratch dir names
}

// timing is the result of timeCommand.
type timing struct {
	median, max time.Duration
	// floor is the hello-world binary's median over runs alternating with
	// these (see timeCommand).
	floor time.Duration
}

// goal is one target lucid holds itself to, checked after the sections ran.
type goal struct {
	label    string
	value    float64 // a ratio, or a quantity in unit
	limit    float64 // met when value <= limit
	unit     string  // "x" for a ratio
	measured bool
	missing  string // why it was not measured
}

func main() {
	if len(os.Args) > 2 && os.Args[1] == peakArg {
		os.Exit(peakChild(os.Args[2:]))
	}
	os.Exit(run())
}

func run() int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: go run ./internal/bench -lucid PATH [-runs N] [-sizes LIST] [-only SECTION]\n\nsections:\n")
		for _, s := range sections {
			fmt.Fprintf(fs.Output(), "  %-8s %s\n", s.name, s.summary)
		}
		fmt.Fprintf(fs.Output(), "\nflags:\n")
		fs.PrintDefaults()
	}
	lucid := fs.String("lucid", "", "the lucid `binary` to measure (required)")
	runs := fs.Int("runs", 41, "timed runs of each command, after the warm-ups")
	warmups := fs.Int("warmups", 3, "untimed runs before the timed ones")
	sizes := fs.String("sizes", "1000,100000,1000000", "log lengths, comma-separated (1k and 1M are accepted)")
	only := fs.String("only", "", "run only this `section`")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "bench: "+format+"\n", a...)
		return 2
	}
	switch {
	case fs.NArg() > 0:
		return usage("unexpected argument %q", fs.Arg(0))
	case *lucid == "":
		return usage("-lucid PATH is required (make bench passes bin/lucid)")
	case *runs < 1:
		return usage("-runs must be 1 or more")
	case *warmups < 0:
		return usage("-warmups must be 0 or more")
	}
	todo := sections
	if *only != "" {
		i := slices.IndexFunc(sections, func(s section) bool { return s.name == *only })
		if i < 0 {
			var names []string
			for _, s := range sections {
				names = append(names, s.name)
			}
			return usage("no section %q: the sections are %s", *only, strings.Join(names, ", "))
		}
		todo = sections[i : i+1]
	}
	sz, err := parseSizes(*sizes)
	if err != nil {
		return usage("-sizes: %v", err)
	}

	b := &bench{runs: *runs, warmups: *warmups, sizes: sz, out: os.Stdout, env: cleanEnv()}
	defer b.cleanup()
	// An interrupted run removes its temp dir too (several hundred MB at 1M).
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		b.cleanup()
		fmt.Fprintln(os.Stderr, "bench: interrupted")
		os.Exit(130)
	}()
	if err := b.setup(*lucid); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		return 1
	}

	if err := b.measureFloor(); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		return 1
	}
	for _, s := range todo {
		fmt.Fprintf(b.out, "\n%s section: %s\n", s.name, s.summary)
		if err := s.run(b); err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s: %v\n", s.name, err)
			return 1
		}
	}
	if again, err := b.timeCommand(b.root, nil, nil, b.hello); err == nil {
		drift := 100 * (float64(again.median)/float64(b.floor.median) - 1)
		fmt.Fprintf(b.out, "\nfloor again at the end:                %s  (%+.0f%%)\n", ms(again.median), drift)
	}
	b.printGoals()
	return 0
}

// setup checks that the lucid binary runs, makes the temp dir that holds
// everything the bench writes, and prints the heading.
func (b *bench) setup(lucid string) error {
	abs, err := filepath.Abs(lucid)
	if err != nil {
		return err
	}
	b.lucid = abs
	// Every timed command runs in a scratch dir, so a relative path would
	// not do; and a binary that does not run would fail every section.
	out, err := exec.Command(b.lucid, "version").CombinedOutput()
	if err != nil {
		if line := firstLine(out); line != "" {
			err = fmt.Errorf("%v: %s", err, line)
		}
		return fmt.Errorf("cannot run the lucid binary %s: %v (build it with `make build`, or give -lucid PATH)", lucid, err)
	}
	version := strings.TrimSpace(string(out))
	root, err := os.MkdirTemp("", "lucid-bench-*")
	if err != nil {
		return err
	}
	errOut, err := os.Create(filepath.Join(root, "stderr"))
	b.mu.Lock()
	b.root, b.errOut = root, errOut
	b.mu.Unlock()
	if err != nil {
		return err
	}
	// The binary runs from a copy beside the floor's, written alike.
	if b.lucid, err = copyBinary(abs, filepath.Join(root, "bin", "lucid")); err != nil {
		return err
	}
	// lucid-view (lucid web) goes beside it, where lucid and the web
	// section look for it.
	if view := filepath.Join(filepath.Dir(abs), "lucid-view"); exists(view) {
		if _, err := copyBinary(view, filepath.Join(root, "bin", "lucid-view")); err != nil {
			return err
		}
	}
	fmt.Fprintf(b.out, "lucid bench  (%s, %d cores, %d runs each after %d warm-ups, median)\n",
		runtime.Version(), runtime.NumCPU(), b.runs, b.warmups)
	fmt.Fprintf(b.out, "binary: %s  (%s)\n", lucid, version)
	return nil
}

// cleanup removes the temp dir; it may run twice (on a signal, and as the
// run ends).
func (b *bench) cleanup() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.errOut != nil {
		b.errOut.Close()
		b.errOut = nil
	}
	if b.root != "" {
		os.RemoveAll(b.root)
		b.root = ""
	}
}

// timeCommand runs argv in dir, with env added to the bench's environment
// and stdin (when not nil) on its standard input, b.warmups times untimed and
// then b.runs times timed, and returns the median and the maximum wall time.
// Standard output goes to /dev/null; a run that fails ends the measure with
// its standard error.
//
// Once the floor is built, it is timed beside the command: each timed run of
// either comes right after an untimed run of the same binary, so each sees
// the machine as a run of itself left it (a hello-world run straight after a
// lucid run is some 10% slower), and the two alternate, so the machine's
// drift over seconds, often 10-20%, affects both alike.
func (b *bench) timeCommand(dir string, env []string, stdin []byte, argv ...string) (timing, error) {
	return b.timeVaried(dir, stdin, func(int) ([]string, []string) { return env, argv })
}

// timeVaried is timeCommand for a command whose environment and arguments
// change from run to run (for example a claim that must be new each time):
// the n-th process run (counting the warm-ups and untimed runs from 0) runs
// what vary(n) returns. The program,
// argv[0], must be the same in every run.
func (b *bench) timeVaried(dir string, stdin []byte, vary func(run int) (env, argv []string)) (timing, error) {
	return b.timeRuns(dir, func(run int) ([]string, []string, []byte) {
		env, argv := vary(run)
		return env, argv, stdin
	})
}

// timeStdin is timeCommand for a command whose stdin changes from run to
// run (an edit of another file each time), as timeVaried says.
func (b *bench) timeStdin(dir string, env []string, stdin func(run int) []byte, argv ...string) (timing, error) {
	return b.timeRuns(dir, func(run int) ([]string, []string, []byte) { return env, argv, stdin(run) })
}

// timeRuns times the runs of what vary returns, as timeVaried says.
func (b *bench) timeRuns(dir string, vary func(run int) (env, argv []string, stdin []byte)) (timing, error) {
	_, argv, _ := vary(0)
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return timing{}, err
	}
	paired := b.hello != "" && path != b.hello
	// Which of the runs of one round are timed: the last, on a timed round.
	round := func(timed bool) []bool {
		if paired {
			return []bool{false, timed}
		}
		return []bool{timed}
	}
	var times, floors []time.Duration
	calls := 0
	for i := range b.warmups + b.runs {
		timed := i >= b.warmups
		if paired {
			for _, keep := range round(timed) {
				d, err := b.runOnce(b.root, nil, nil, b.hello)
				if err != nil {
					return timing{}, fmt.Errorf("the floor: %v", err)
				}
				if keep {
					floors = append(floors, d)
				}
			}
		}
		for _, keep := range round(timed) {
			env, argv, stdin := vary(calls)
			calls++
			d, err := b.runOnce(dir, env, stdin, path, argv[1:]...)
			if err != nil {
				return timing{}, fmt.Errorf("%s in %s: %v", strings.Join(argv, " "), dir, err)
			}
			if keep {
				times = append(times, d)
			}
		}
	}
	t := timing{median: median(times), max: slices.Max(times)}
	if len(floors) > 0 {
		t.floor = median(floors)
	}
	return t, nil
}

// runOnce runs one process and returns its wall time, from fork to exit.
func (b *bench) runOnce(dir string, env []string, stdin []byte, path string, args ...string) (time.Duration, error) {
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	cmd.Env = append(slices.Clip(b.env), env...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	// A file, not a buffer: exec copies a buffer through a pipe and a
	// goroutine, which would be timed too.
	if err := b.errOut.Truncate(0); err != nil {
		return 0, err
	}
	if _, err := b.errOut.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	cmd.Stderr = b.errOut
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		msg, _ := os.ReadFile(b.errOut.Name())
		if line := firstLine(msg); line != "" {
			err = fmt.Errorf("%v (%s)", err, line)
		}
		return 0, err
	}
	return d, nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Sorted(slices.Values(ds))
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}

// timeLucid is timeCommand for `lucid ARGS` in dir.
func (b *bench) timeLucid(dir string, args ...string) (timing, error) {
	return b.timeCommand(dir, nil, nil, append([]string{b.lucid}, args...)...)
}

const helloSource = `package main

import "fmt"

func main() { fmt.Println("hello") }
`

// copyBinary copies the program at src to dst and returns dst. Both timed
// binaries run from such a copy, because how a binary's file was written
// changes how fast it starts, as much as the goals' margins: a binary the
// Go linker has just written (through a memory map) sits in the page cache
// in small pieces, and starts slower than the same bytes copied or read back
// from disk. Here, lucid as `make build` leaves it started 0.15 ms slower
// (1.30x the floor against 1.15x; a hello world 5% slower), and both read
// back after the page cache was dropped at 1.24x. A copy gives both the
// same footing, and the one they have once installed by a copy.
// exists reports whether path is there.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func copyBinary(src, dst string) (string, error) {
	b, err := os.ReadFile(src)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	return dst, os.WriteFile(dst, b, 0o755)
}

// measureFloor builds the hello-world binary and times it alone; from then
// on timeCommand times it beside every command.
func (b *bench) measureFloor() error {
	dir := filepath.Join(b.root, "hello")
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(helloSource), 0o644); err != nil {
		return err
	}
	// The flags of the Makefile's build, so both binaries are stripped alike.
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", "hello.built", "main.go")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the hello-world floor: %v\n%s", err, out)
	}
	hello, err := copyBinary(filepath.Join(dir, "hello.built"), filepath.Join(dir, "hello"))
	if err != nil {
		return err
	}
	t, err := b.timeCommand(dir, nil, nil, hello)
	if err != nil {
		return err
	}
	b.floor, b.hello = t, hello
	fmt.Fprintf(b.out, "floor: hello-world Go binary          %s  (max %s)\n", ms(t.median), ms(t.max))
	// lucid's own start-up, to tell it from a command's work.
	v, err := b.timeLucid(b.root, "version")
	if err != nil {
		return err
	}
	fmt.Fprintf(b.out, "start: lucid version                  %s  (max %s)  %.2f x floor\n", ms(v.median), ms(v.max), xFloor(v))
	return nil
}

// xFloor is a command's median as a multiple of the floor timed beside it.
func xFloor(t timing) float64 {
	return float64(t.median) / float64(t.floor)
}

// addGoal records a goal; value is met when it is at most limit.
func (b *bench) addGoal(label string, value, limit float64) {
	b.addGoalIn(label, value, limit, "x")
}

// addGoalIn records a goal on a quantity in unit ("ms", "MB").
func (b *bench) addGoalIn(label string, value, limit float64, unit string) {
	b.goals = append(b.goals, goal{label: label, value: value, limit: limit, unit: unit, measured: true})
}

// addUnmeasured records a goal this run could not measure, and why.
func (b *bench) addUnmeasured(label, why string) {
	b.goals = append(b.goals, goal{label: label, missing: why})
}

func (b *bench) printGoals() {
	if len(b.goals) == 0 {
		return
	}
	fmt.Fprintf(b.out, "\ngoals\n")
	for _, g := range b.goals {
		label := g.label + ":"
		switch {
		case !g.measured:
			fmt.Fprintf(b.out, "  %-40s      -  not measured (%s)\n", label, g.missing)
		case g.value <= g.limit:
			fmt.Fprintf(b.out, "  %-40s %6.2f%s  ok\n", label, g.value, g.unit)
		default:
			fmt.Fprintf(b.out, "  %-40s %6.2f%s  MISSED (limit %.3g%s)\n", label, g.value, g.unit, g.limit, g.unit)
		}
	}
}

// runIn runs a setup command (not timed) in dir.
func (b *bench) runIn(dir string, argv ...string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = b.env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s in %s: %v\n%s", strings.Join(argv, " "), dir, err, out)
	}
	return nil
}

// output runs argv once in dir with stdin and returns what it printed.
func (b *bench) output(dir string, stdin []byte, argv ...string) (string, error) {
	return b.outputWith(dir, nil, stdin, argv...)
}

// outputWith is output with env added to the environment.
func (b *bench) outputWith(dir string, env []string, stdin []byte, argv ...string) (string, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(slices.Clip(b.env), env...)
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s in %s: %v", strings.Join(argv, " "), dir, err)
	}
	return string(out), nil
}

// cleanEnv is this process's environment without LUCID_* (an agent id or a
// budget set in the caller's shell would change what lucid does) and without
// GIT_DIR and the like, which would point git at another repository.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "LUCID_") || strings.HasPrefix(kv, "GIT_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// parseSizes reads "1000,100000,1000000"; a k or M suffix multiplies.
func parseSizes(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		mul := 1
		switch {
		case strings.HasSuffix(f, "k"), strings.HasSuffix(f, "K"):
			mul, f = 1000, f[:len(f)-1]
		case strings.HasSuffix(f, "M"), strings.HasSuffix(f, "m"):
			mul, f = 1000000, f[:len(f)-1]
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a number of entries", f)
		}
		out = append(out, n*mul)
	}
	return out, nil
}

// ms writes d in milliseconds, the unit of everything measured here.
func ms(d time.Duration) string {
	return fmt.Sprintf("%7.2f ms", float64(d)/float64(time.Millisecond))
}

func firstLine(b []byte) string {
	line, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return line
}
