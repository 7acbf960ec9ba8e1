// Package installertest holds what the tests of the clients' installers
// share: a fresh repository, and a settings file written, read, and read
// as a client reads its hooks.
package installertest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/testkit/gittest"
)

// NewRepo returns a fresh git repository in a temporary folder.
func NewRepo(t *testing.T) *gitstore.Repo {
	t.Helper()
	repo, err := gitstore.Find(gittest.Init(t))
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

// WriteSettings writes text to the file name of the work tree.
func WriteSettings(t *testing.T, repo *gitstore.Repo, name, text string) {
	t.Helper()
	path := repo.Abs(name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReadFile reads the file name of the work tree.
func ReadFile(t *testing.T, repo *gitstore.Repo, name string) string {
	t.Helper()
	b, err := os.ReadFile(repo.Abs(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Hooks reads a settings file as the client does, as plain JSON:
// "[MATCHER] NAME COMMAND TIMEOUT;" for each hook, by event.
func Hooks(t *testing.T, text string) map[string]string {
	t.Helper()
	var doc struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Name    string `json:"name"`
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatalf("not valid JSON after init: %v\n%s", err, text)
	}
	out := map[string]string{}
	for ev, groups := range doc.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				out[ev] += strings.Join([]string{"[" + g.Matcher + "]", h.Name, h.Command, strconv.Itoa(h.Timeout)}, " ") + ";"
			}
		}
	}
	return out
}
