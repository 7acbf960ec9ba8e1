package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/internal/gittest"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary run as `lucid` inside the scripts, so the
// scripts drive the real command line, main() and all.
func TestMain(m *testing.M) {
	gittest.QuickRaceExit()
	testscript.Main(m, map[string]func(){
		"lucid": main,
		// lucid-holdlock takes the lock of the repository in its folder,
		// prints "held", and keeps it until its stdin closes.
		"lucid-holdlock": holdLockMain,
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
	})
}

// TestScripts runs testdata/*.txtar at the top of the repository: each
// script makes real git repositories in its own temp folder.
func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams(filepath.Join("..", "..", "testdata")))
}

func scriptParams(dir string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"payload": cmdPayload, "hookctx": cmdHookCtx, "hooklist": cmdHookList, "notes": cmdNotes},
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, ".home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			for k, v := range map[string]string{
				"HOME":                home,
				"GIT_CONFIG_NOSYSTEM": "1",
				"GIT_AUTHOR_NAME":     "Test",
				"GIT_AUTHOR_EMAIL":    "test@example.com",
				"GIT_COMMITTER_NAME":  "Test",
				"GIT_COMMITTER_EMAIL": "test@example.com",
				"LUCID_AGENT":         "",
				"CODEX_SESSION_ID":    "",
				"CODEX_THREAD_ID":     "",
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
			} {
				env.Setenv(k, v)
			}
			return os.WriteFile(filepath.Join(home, ".gitconfig"),
				[]byte("[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n"), 0o644)
		},
	}
}
