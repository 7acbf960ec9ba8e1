package gemini

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/installers"
)

var updateExtension = flag.Bool("update", false, "write hooks/hooks.json, the hooks of lucid's Gemini CLI extension, from lucid init's")

// lucid's Gemini CLI extension is gemini-extension.json and
// hooks/hooks.json at the repository's top, where Gemini CLI looks for them
// in a repository or its source archive (it takes no subfolder). Its hooks
// are lucid init's entries, with their names and commands: Gemini runs one
// hook for every source that registers one name and command (the hook
// planner's deduplication, 0.61.0), so beside a teammate's lucid init each
// event runs lucid once. A missing lucid is told by one more SessionStart
// entry of its own name, which prints a message for the person.
var missingHook = &installers.Client{
	ID:          "gemini",
	Name:        "Gemini CLI",
	Events:      []client.Event{{Name: client.SessionStart, Lucid: client.SessionStart, Timeout: 5 * time.Second}},
	TimeoutUnit: time.Millisecond,
	Command:     func(string) string { return installers.MissingCommand },
	HookName:    func(string) string { return "lucid-missing" },
}

// extensionHooks is the extension's hooks file, from the repository's top.
var extensionHooks = filepath.Join("..", "..", "..", "hooks", "hooks.json")

// The extension's hooks are what lucid init registers, so that a change
// of the table reaches the extension: this test fails while they differ,
// and -update writes them.
func TestExtensionMatchesLucidInit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hooks.json")
	for _, c := range []*installers.Client{Hooks, missingHook} {
		if _, err := installers.InstallUser(c, path); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if *updateExtension {
		if err := os.WriteFile(extensionHooks, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got, err := os.ReadFile(extensionHooks); err != nil || string(got) != string(want) {
		t.Errorf("hooks/hooks.json is not lucid init's Gemini hooks (go test ./internal/client/gemini -run TestExtensionMatchesLucidInit -update writes it):\n%s", want)
	}
}
