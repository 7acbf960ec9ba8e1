package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/testkit/gittest"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain puts a build of lucid, and of the lucid-view that lucid watch
// runs, first on PATH (gittest.BuildLucid says why it is not this test
// binary), so that the scripts and the tests that run lucid as processes
// drive the real command line, main() and all; the helpers below run as
// commands of this binary.
func TestMain(m *testing.M) {
	gittest.QuickRaceExit()
	commands := map[string]func(){
		// lucid-holdlock takes the lock of the repository in its folder,
		// prints "held", and keeps it until its stdin closes.
		"lucid-holdlock": holdLockMain,
		// lucid-client runs its arguments as a client runs a hook: as its
		// child, started after what the script wrote before (the test
		// process, which runs a script's commands, started before).
		"lucid-client": func() {
			cmd := exec.Command(os.Args[1], os.Args[2:]...)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
			if err := cmd.Run(); err != nil {
				var exit *exec.ExitError
				if errors.As(err, &exit) {
					os.Exit(exit.ExitCode())
				}
				os.Stderr.WriteString(err.Error() + "\n")
				os.Exit(2)
			}
			os.Exit(0)
		},
		// lucid-id runs lucid with an id read from a file: the first
		// argument after the subcommand names the file.
		"lucid-id": func() {
			id, err := os.ReadFile(os.Args[2])
			if err != nil {
				os.Stderr.WriteString(err.Error() + "\n")
				os.Exit(2)
			}
			os.Exit(run(append([]string{os.Args[1], strings.TrimSpace(string(id))}, os.Args[3:]...), os.Stdin, os.Stdout, os.Stderr))
		},
	}
	var tests testscript.TestingM = m
	if commands[filepath.Base(os.Args[0])] == nil {
		// The test run itself, not one of the commands above.
		dir, err := os.MkdirTemp("", "lucid-cmd-test")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for _, build := range []func(string) (string, error){gittest.BuildLucid, gittest.BuildView} {
			if _, err := build(dir); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
		tests = removeAfter{m, dir}
	}
	testscript.Main(tests, commands)
}

// removeAfter removes a folder once the tests have run: testscript.Main
// exits the process itself.
type removeAfter struct {
	testscript.TestingM
	dir string
}

func (r removeAfter) Run() int {
	defer os.RemoveAll(r.dir)
	return r.TestingM.Run()
}

// TestScripts runs testdata/*.txtar at the top of the repository: each
// script makes real git repositories in its own temp folder.
func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams(filepath.Join("..", "..", "testdata")))
}

func scriptParams(dir string) testscript.Params {
	lichMarkerJS, _ := filepath.Abs(filepath.Join(dir, "lich", "marker.js"))
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"payload": cmdPayload, "hookctx": cmdHookCtx, "hooklist": cmdHookList, "notes": cmdNotes, "backdate": cmdBackdate},
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, ".home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			if dir := os.Getenv(gittest.CoverDirEnv); dir != "" {
				env.Setenv("GOCOVERDIR", dir)
			}
			for _, kv := range gittest.Identity {
				k, v, _ := strings.Cut(kv, "=")
				env.Setenv(k, v)
			}
			for k, v := range map[string]string{
				"HOME":             home,
				"LUCID_AGENT":      "",
				"CODEX_SESSION_ID": "",
				"CODEX_THREAD_ID":  "",
				// An agent's shell, when the suite runs in one: the
				// scripts are a person's terminal unless they say not.
				"AI_AGENT":                   "",
				"CLAUDECODE":                 "",
				"CLAUDE_CODE_SESSION_ID":     "",
				"GEMINI_CLI":                 "",
				"CLAUDE_CODE_BASH_EDIT_DIFF": "",
				"LUCID_BUDGET":               "",
				// The clients' own homes and trust: the test's alone.
				"CODEX_HOME":                      filepath.Join(home, ".codex"),
				"GEMINI_CLI_HOME":                 "",
				"GEMINI_CLI_TRUST_WORKSPACE":      "",
				"GEMINI_CLI_TRUSTED_FOLDERS_PATH": "",
				"GEMINI_RESTRICTED_MODE":          "",
				"QWEN_CODE":                       "",
				"QWEN_PROJECT_DIR":                "",
				"QWEN_HOME":                       "",
				"QWEN_CODE_TRUSTED_FOLDERS_PATH":  "",
				"QWEN_CODE_SYSTEM_SETTINGS_PATH":  filepath.Join(home, "qwen-system.json"),
				"QWEN_CODE_SYSTEM_DEFAULTS_PATH":  filepath.Join(home, "qwen-system-defaults.json"),
				"COPILOT_HOME":                    filepath.Join(home, ".copilot"),
				"COPILOT_CLI":                     "",
				"COPILOT_PROJECT_DIR":             "",
				"COPILOT_HOOK_DIR":                "",
				"COPILOT_ALLOW_ALL":               "",
				// Leases (on by default) stop another session's writes
				// of a file an agent wrote this turn: the scripts about
				// claims, clients and identity turn them off, so that what
				// they try is what they name; hook_aware.txtar tries them.
				"LUCID_LEASES":    "off",
				"LICH_SESSION_ID": "",
				"LICH_BIN":        "",
				// lich's own marker code, for the scripts that compare
				// lucid's markers with lich's byte for byte.
				"LICH_MARKER_JS": lichMarkerJS,
			} {
				env.Setenv(k, v)
			}
			return os.WriteFile(filepath.Join(home, ".gitconfig"),
				[]byte("[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n"), 0o644)
		},
	}
}
