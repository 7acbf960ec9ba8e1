package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// installsSection times lucid's tool-call hook as each way of installing
// lucid runs it, beside the plain binary: the binary install.sh puts in
// place from make dist's archive of this platform (served on loopback, as
// a release is), lucid init's hook command through sh, and the hooks of
// the Claude Code, Codex CLI and Copilot CLI plugins (read from their
// hooks.json), alone and, but for Codex's (which needs the person's trust
// of the project's entry), standing aside where the project registers
// lucid's own. It
// also prints the archive's size, and how long make dist and the install
// took. (npm's install has its own section; Gemini's extension registers
// lucid init's command, which Gemini runs once.)
func installsSection(b *bench) error {
	project := os.Getenv(projectEnv)
	if project == "" {
		return installsInChild(b)
	}
	for _, tool := range []string{"sh", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			why := "no " + tool + " on PATH"
			fmt.Fprintf(b.out, "  not measured: %s\n", why)
			b.addUnmeasured("installs", why)
			return nil
		}
	}
	top, err := gittest.ModuleTop()
	if err != nil {
		return err
	}
	installed, err := installByScript(b, top)
	if err != nil {
		return err
	}
	lucid, err := filepath.Abs(b.lucid)
	if err != nil {
		return err
	}
	// The plugins' commands find lucid on PATH, as a person's do.
	pathDir := filepath.Join(b.root, "installs", "path")
	if err := os.MkdirAll(pathDir, 0o755); err != nil {
		return err
	}
	if err := os.Symlink(lucid, filepath.Join(pathDir, "lucid")); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	path := "PATH=" + pathDir + string(os.PathListSeparator) + os.Getenv("PATH")
	claudePlugin, err := pluginCommand(filepath.Join(top, "plugins", "claude", "hooks", "hooks.json"), "PreToolUse")
	if err != nil {
		return err
	}
	copilotPlugin, err := pluginCommand(filepath.Join(top, "plugins", "copilot", "hooks", "hooks.json"), "preToolUse")
	if err != nil {
		return err
	}
	codexPlugin, err := pluginCommand(filepath.Join(top, "plugins", "codex", "hooks", "hooks.json"), "PreToolUse")
	if err != nil {
		return err
	}
	// A project folder without lucid's hooks, where the plugins' hooks
	// run; project registers lucid's Claude Code hooks, so there they
	// stand aside (Copilot's in a folder it trusts).
	bare := filepath.Join(b.root, "installs", "no-hooks")
	if err := os.MkdirAll(bare, 0o755); err != nil {
		return err
	}

	n := slices.Min(b.sizes)
	return b.withLog("installs", n, func(s *scratch) error {
		const session = "30df32ba-0d45-4195-af71-803394f51561"
		claude, claudeStart := payloadOf("claude", "tool-", session, s.dir), payloadOf("claude", "start", session, s.dir)
		copilot, copilotStart := payloadOf("copilot", "tool-1", session, s.dir), payloadOf("copilot", "start", session, s.dir)
		codex, codexStart := payloadOf("codex", "tool-", session, s.dir), payloadOf("codex", "start", session, s.dir)
		if claude == nil || copilot == nil || codex == nil || claudeStart == nil || copilotStart == nil || codexStart == nil {
			return errors.New("the Claude Code, Codex CLI or Copilot CLI payloads are missing from testdata/clients")
		}
		// Each session looks first, so the hook has nothing new.
		if _, err := b.output(s.dir, claudeStart, lucid, "hook", "SessionStart"); err != nil {
			return err
		}
		if _, err := b.output(s.dir, copilotStart, lucid, "hook", "--client", "copilot", "sessionStart"); err != nil {
			return err
		}
		if _, err := b.output(s.dir, codexStart, lucid, "hook", "--client", "codex", "SessionStart"); err != nil {
			return err
		}
		fmt.Fprintf(b.out, "  %-62s %10s %10s %10s %8s\n", "tool-call hook (nothing new), "+sizeName(n)+" entries", "median", "max", "floor", "x floor")
		rows := []struct {
			label string
			env   []string
			stdin []byte
			argv  []string
		}{
			{"the plain binary (make build): lucid hook PreToolUse", nil, claude, []string{lucid, "hook", "PreToolUse"}},
			{"install.sh's lucid, from make dist's archive", nil, claude, []string{installed, "hook", "PreToolUse"}},
			{"lucid init's Claude Code hook command, through sh", []string{path}, claude, []string{"sh", "-c", "command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook PreToolUse"}},
			{"Claude Code plugin's hook, no project hooks", []string{path, "CLAUDE_PROJECT_DIR=" + bare}, claude, []string{"sh", "-c", claudePlugin}},
			{"Claude Code plugin's hook, standing aside", []string{path, "CLAUDE_PROJECT_DIR=" + project}, claude, []string{"sh", "-c", claudePlugin}},
			{"Codex CLI plugin's PreToolUse, no project hooks", []string{path}, codex, []string{"sh", "-c", codexPlugin}},
			{"Copilot CLI plugin's preToolUse, no project hooks", []string{path, "COPILOT_PROJECT_DIR=" + bare}, copilot, []string{"sh", "-c", copilotPlugin}},
			{"Copilot CLI plugin's preToolUse, standing aside", []string{path, "COPILOT_PROJECT_DIR=" + project, "COPILOT_ALLOW_ALL=true"}, copilot, []string{"sh", "-c", copilotPlugin}},
		}
		// Each row does what its label says: with a.go claimed by another
		// agent, a hook that runs denies the edit, one that stands aside
		// prints nothing.
		const owner = "LUCID_AGENT=9d2b6c1e-4f3a-4e8b-9c7d-2a1b3c4d5e6f/owner"
		if _, err := b.output(s.dir, nil, "env", owner, lucid, "claim", "a.go", "--for", "bench"); err != nil {
			return err
		}
		for _, r := range rows {
			out, err := b.outputWith(s.dir, r.env, r.stdin, r.argv...)
			if err != nil {
				return err
			}
			if aside := strings.Contains(r.label, "standing aside"); aside != (strings.TrimSpace(out) == "") || !aside && !strings.Contains(out, "a.go is claimed") {
				return fmt.Errorf("%s: printed %q", r.label, out)
			}
		}
		if _, err := b.output(s.dir, nil, "env", owner, lucid, "release", "a.go"); err != nil {
			return err
		}
		for _, r := range rows {
			t, err := b.timeCommand(s.dir, r.env, r.stdin, r.argv...)
			if err != nil {
				return err
			}
			fmt.Fprintf(b.out, "  %-62s %s %s %s %8.2f\n", r.label, ms(t.median), ms(t.max), ms(t.floor), xFloor(t))
		}
		return nil
	})
}

// projectEnv names, in the bench's child, the project folder that
// registers lucid's hooks for the plugins' to stand aside.
const projectEnv = "LUCID_BENCH_PROJECT"

// installsInChild runs the section in a child bench: a plugin's hook
// stands aside only for the project's hooks that were there when the
// client that runs it started (a client reads them then), and here the
// client is the bench. So the project folder is made first, and the
// section runs in a bench started after it; its rows are printed here.
func installsInChild(b *bench) error {
	project := filepath.Join(b.root, "installs", "project")
	settings := filepath.Join(project, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		return err
	}
	hook := `{"hooks":{"PreToolUse":[{"matcher":"Edit|Write|Bash","hooks":[{"type":"command","command":"command -v lucid >/dev/null 2>&1 || exit 0; exec lucid hook PreToolUse"}]}]}}`
	if err := os.WriteFile(settings, []byte(hook+"\n"), 0o644); err != nil {
		return err
	}
	// A start read to 20 ms, and the slack lucid gives it.
	time.Sleep(200 * time.Millisecond)
	var sizes []string
	for _, n := range b.sizes {
		sizes = append(sizes, fmt.Sprint(n))
	}
	cmd := exec.Command(os.Args[0], "-lucid", b.lucid, "-runs", fmt.Sprint(b.runs), "-warmups", fmt.Sprint(b.warmups),
		"-sizes", strings.Join(sizes, ","), "-only", "installs")
	cmd.Env = append(os.Environ(), projectEnv+"="+project)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("the child bench: %v", err)
	}
	// Its section's lines, between its heading and the floor's second
	// reading.
	_, rows, ok := strings.Cut(string(out), "installs section:")
	if !ok {
		return fmt.Errorf("the child bench printed no installs section:\n%s", out)
	}
	_, rows, _ = strings.Cut(rows, "\n")
	rows, _, _ = strings.Cut(rows, "\nfloor again")
	fmt.Fprint(b.out, strings.TrimRight(rows, "\n")+"\n")
	return nil
}

// installByScript runs make dist for this platform alone and install.sh
// against it, served on loopback as a release is, and returns the lucid it
// installed.
func installByScript(b *bench, top string) (string, error) {
	dir := filepath.Join(b.root, "installs")
	const version = "v0.0.0-bench"
	out := filepath.Join(dir, "release", version)
	cmd := exec.Command(filepath.Join(top, "scripts", "dist"), out)
	cmd.Dir = top
	cmd.Env = append(os.Environ(), "VERSION="+version, "LUCID_DIST_PLATFORMS="+runtime.GOOS+"/"+runtime.GOARCH)
	start := time.Now()
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("scripts/dist: %v\n%s", err, msg)
	}
	built := time.Since(start)
	archives, _ := filepath.Glob(filepath.Join(out, "lucid_*"))
	var sizes []string
	for _, a := range archives {
		if fi, err := os.Stat(a); err == nil {
			sizes = append(sizes, fmt.Sprintf("%s %.1f MB", filepath.Base(a), float64(fi.Size())/1e6))
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(filepath.Dir(out)))}
	go srv.Serve(ln)
	defer srv.Close()
	prefix := filepath.Join(dir, "prefix")
	cmd = exec.Command("sh", filepath.Join(top, "install.sh"), "--prefix", prefix, "--version", version)
	cmd.Env = append(os.Environ(), "LUCID_INSTALL_BASE=http://"+ln.Addr().String(), "HOME="+dir)
	start = time.Now()
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("install.sh: %v\n%s", err, msg)
	}
	fmt.Fprintf(b.out, "  make dist for %s/%s in %.1f s (%s); install.sh from loopback in %.2f s\n",
		runtime.GOOS, runtime.GOARCH, built.Seconds(), strings.Join(sizes, ", "), time.Since(start).Seconds())
	return filepath.Join(prefix, "lucid"), nil
}

// pluginCommand is the command a plugin's hooks.json registers for event,
// in Claude Code's nested form or Copilot CLI's flat one.
func pluginCommand(file, event string) (string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	var f struct {
		Hooks map[string][]struct {
			Bash  string
			Hooks []struct{ Command string }
		}
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return "", fmt.Errorf("%s: %v", file, err)
	}
	for _, e := range f.Hooks[event] {
		if e.Bash != "" {
			return e.Bash, nil
		}
		for _, h := range e.Hooks {
			if h.Command != "" {
				return h.Command, nil
			}
		}
	}
	return "", fmt.Errorf("%s registers no hook for %s", file, event)
}

// payloadOf is the first of client's payloads in testdata/clients whose
// file name starts with prefix, or nil.
func payloadOf(client, prefix, session, dir string) []byte {
	for _, p := range clientPayloads(client, prefix, session, dir) {
		return p.stdin
	}
	return nil
}
