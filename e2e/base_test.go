package e2e

// The base every client's harness stands on: the scratch world (a
// repository and a HOME of its own), the test binary linked in as a hook
// that records, the JSON-lines logs those hooks write, a client run with a
// timeout, and the dump a failing run leaves. Each client's harness
// (harness_test.go for Claude Code, codex_harness_test.go,
// gemini_harness_test.go) keeps only what differs.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/testkit/scripted"
)

// unavailable is what `make e2e` sets a client's variable to when the
// client could not be installed (its installer said why, in one line).
const unavailable = "unavailable"

// runTimeout bounds one client's run: long enough for a slow machine,
// short enough that a hang fails with the request log in CI's time.
const runTimeout = 5 * time.Minute

var clip = scripted.Clip

// clientBinary is a client's binary, looked up once for the whole suite.
type clientBinary struct {
	once      sync.Once
	bin, skip string
}

// need returns the binary named by the variable env, or skips the test
// saying why: the variable unset (`make e2e` sets it) or unavailable, or
// check (given the binary) finding it will not run the scenarios.
func (c *clientBinary) need(t *testing.T, env, client string, check func(bin string) string) string {
	t.Helper()
	c.once.Do(func() {
		switch c.bin = os.Getenv(env); c.bin {
		case "":
			c.skip = fmt.Sprintf("%s is not set: the %s scenarios skip; `make e2e` installs %s and runs them", env, client, client)
		case unavailable:
			c.skip = fmt.Sprintf("%s could not be installed (`make e2e` said why): the %s scenarios skip", client, client)
		default:
			c.skip = check(c.bin)
		}
	})
	if c.skip != "" {
		t.Skip(c.skip)
	}
	return c.bin
}

// gitconfig is the scratch HOME's: an identity, and main as the first
// branch.
const gitconfig = "[user]\n\tname = e2e\n\temail = e2e@example.com\n[init]\n\tdefaultBranch = main\n"

// newWorld makes the folders of a world under root, repo and home and
// any more, and the HOME's git configuration; the repository is not yet
// made.
func newWorld(t *testing.T, root string, more ...string) *env {
	t.Helper()
	e := &env{t: t, repo: filepath.Join(root, "repo"), home: filepath.Join(root, "home")}
	for _, d := range append([]string{e.repo, e.home}, more...) {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.write(filepath.Join(e.home, ".gitconfig"), gitconfig)
	return e
}

// linkSelf puts this test binary at path, for a client to run as a hook
// that records (TestMain tells by the name it runs under).
func linkSelf(t *testing.T, path string) {
	t.Helper()
	self, err := os.Executable()
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o755)
	}
	if err == nil {
		err = os.Symlink(self, path)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// appendLine appends v as one JSON line to the log at path, in one
// write(2): hooks running at once do not mix their lines.
func appendLine(path string, v any) {
	line, _ := json.Marshal(v)
	if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		f.Write(append(line, '\n'))
		f.Close()
	}
}

// readLines returns the whole lines of a log that may not exist yet. A
// hook may be appending its line as this reads: a read is not atomic with
// a write, so the text after the last newline can be a line cut short. It
// is whole at the next read.
func readLines(path string) ([][]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	b = b[:bytes.LastIndexByte(b, '\n')+1]
	var out [][]byte
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(line) > 0 {
			out = append(out, line)
		}
	}
	return out, nil
}

func readAll(f *os.File) ([]byte, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(f)
	return b.Bytes(), err
}

// clientEnviron is the environment of a client that runs a recording
// hook: with lucid, the one lucid's hooks run in (env.environ: the shim
// first on PATH, the scratch HOME), else the caller's with the scratch
// HOME, no LUCID_* and no GIT_*; in both, without the variables drop
// names, which would point the client elsewhere. The recording hook is
// this test binary: under -race it would sleep a second at each exit (see
// gittest.QuickRaceExit).
func (e *env) clientEnviron(lucid bool, drop func(key string) bool) []string {
	base := os.Environ()
	if lucid {
		base = e.environ()
	}
	var out []string
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case lucid && (k == "HOME" || k == "PATH" || strings.HasPrefix(k, "LUCID_") || k == "GIT_CONFIG_NOSYSTEM"):
			// env.environ set them for lucid's world
		case !lucid && (k == "HOME" || strings.HasPrefix(k, "LUCID_") || strings.HasPrefix(k, "GIT_")), drop(k):
			continue
		}
		out = append(out, kv)
	}
	if !lucid {
		out = append(out, "HOME="+e.home, "GIT_CONFIG_NOSYSTEM=1")
	}
	if os.Getenv("GORACE") == "" {
		out = append(out, "GORACE=atexit_sleep_ms=0")
	}
	return out
}

// scriptedServer is what the base uses of a scripted model server,
// whatever its API.
type scriptedServer[R any] interface {
	Requests() []R
	Problems() []string
	Dump() string
}

// run is one finished run of a client.
type run struct {
	stdout, stderr string
	code           int // the exit code
	took           time.Duration
}

// runClient runs the client bin with args in dir, in the environment env,
// against srv, and waits for it at most timeout. err is the run's failure
// (not an exit code: that is in run.code), or says the run hung.
func runClient[R any](srv scriptedServer[R], timeout time.Duration, dir string, env []string, bin string, args ...string) (run, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 10 * time.Second
	// The steps run on the server's goroutines and read what the test set
	// up before this call (srv itself, in a step that waits for another
	// conversation). The server takes its lock before each step: taking
	// it here, after the set-up, orders the two for the race detector,
	// which does not see the client process in between.
	srv.Problems()
	start := time.Now()
	err := cmd.Run()
	res := run{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		res.code, err = exit.ExitCode(), nil
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return res, fmt.Errorf("did not finish in %s", timeout)
	}
	return res, err
}

// dumpDir makes and returns $LUCID_E2E_DUMP/<test>/, where a run leaves
// every request body and its output for reading what the client sent; ""
// when LUCID_E2E_DUMP is not set.
func dumpDir(t *testing.T) string {
	root := os.Getenv("LUCID_E2E_DUMP")
	if root == "" {
		return ""
	}
	dir := filepath.Join(root, strings.ReplaceAll(t.Name(), "/", "_"))
	os.MkdirAll(dir, 0o755)
	return dir
}

// dumpFiles writes files (name: content) into dir, and the copies of the
// logs named in logs (name: path) that exist.
func dumpFiles(dir string, files map[string]string, logs map[string]string) {
	for name, content := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
	}
	for name, path := range logs {
		if b, err := os.ReadFile(path); err == nil {
			os.WriteFile(filepath.Join(dir, name), b, 0o644)
		}
	}
}

// pathName makes a request's path a file name.
var pathName = strings.NewReplacer("/", "_", "?", "_", "=", "_", ":", "_")

// offHost lists the connections and lookups that netlogJS logged in
// netLog, of anything but the loopback (and local sockets).
func offHost(netLog string) []string {
	b, _ := os.ReadFile(netLog)
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		kind, target, _ := strings.Cut(line, " ")
		host := target
		if kind == "connect" {
			if strings.HasPrefix(target, "unix:") {
				continue
			}
			if i := strings.LastIndex(target, ":"); i >= 0 {
				host = target[:i]
			}
		}
		switch host {
		case "", "127.0.0.1", "localhost", "::1", "[::1]":
			continue
		}
		out = append(out, line)
	}
	return out
}
