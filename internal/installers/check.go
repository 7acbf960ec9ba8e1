package installers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/setup"
)

// SetUp reports whether lucid has hooks in the client's settings (of any
// version).
func (c *Client) SetUp(repo *gitstore.Repo) bool {
	if c.Own != nil {
		b, err := gitstore.ReadFile(repo.Abs(c.Settings), gitstore.MaxSettings)
		return err == nil && c.Own(b) || err != nil && !errors.Is(err, os.ErrNotExist)
	}
	for _, name := range c.Files() {
		if s, err := c.Read(repo, name); err != nil || s.HasLucid() {
			return true // a file lucid cannot read is for doctor to name
		}
	}
	return false
}

// CheckHooks checks that every event of c is registered, in one file:
// check names the check, none says what is wrong where no file holds
// lucid's hooks, and noneFix what to do then.
func (c *Client) CheckHooks(repo *gitstore.Repo, check, none, noneFix string) setup.Finding {
	f := setup.Finding{Check: check}
	name, events, err := c.Registered(repo)
	switch {
	case err != nil:
		f.Detail, f.Fix = err.Error(), "fix the file, then run `lucid init`"
	case len(events) == 0:
		f.Detail, f.Fix = none, noneFix
	case len(events) < len(c.Events):
		var missing []string
		for _, r := range c.Events {
			if !slices.Contains(events, r.Name) {
				missing = append(missing, r.Name)
			}
		}
		f.Detail = fmt.Sprintf("%s lacks lucid's hooks for %s (or has another version of them)", name, strings.Join(missing, ", "))
		f.Fix = "run `lucid init" + c.initFlag() + "` to register them again"
	default:
		f.OK, f.Detail = true, fmt.Sprintf("registered in %s for all %d events", name, len(events))
		if len(events) == 1 {
			f.Detail = fmt.Sprintf("registered in %s for its one event, %s", name, events[0])
		}
	}
	return f
}

// CheckRegistered is CheckHooks as doctor says it of a client that lucid
// init sets up with --client.
func (c *Client) CheckRegistered(repo *gitstore.Repo) setup.Finding {
	return c.CheckHooks(repo, c.ID+" hooks", "lucid's hooks are not in "+c.Settings, "run `lucid init --client "+c.ID+"`")
}

func (c *Client) initFlag() string {
	if c.Default {
		return ""
	}
	return " --client " + c.ID
}

// Detected returns the client's folder where it is at the work tree's
// top (.codex/, .gemini/), relative to the top: plain lucid init sets the
// client up too.
func (c *Client) Detected(repo *gitstore.Repo) (string, bool) {
	dirs := c.Folders
	if len(dirs) == 0 {
		dirs = []string{filepath.Dir(c.Settings)}
	}
	for _, d := range dirs {
		if fi, err := os.Stat(repo.Abs(d)); err == nil && fi.IsDir() {
			return d, true
		}
	}
	return "", false
}

// NewDirs are the folders from dir up to the work tree's top that are not
// there yet, relative to the top, the deepest first: those lucid creates
// for a file of its own, which uninstall removes again once empty.
func NewDirs(repo *gitstore.Repo, dir string) ([]string, error) {
	var made []string
	for {
		rel, ok := gitstore.Inside(repo.Top, dir)
		if !ok || rel == "." {
			break
		}
		if _, err := os.Lstat(dir); err == nil {
			break
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		made = append(made, filepath.ToSlash(rel))
		dir = filepath.Dir(dir)
	}
	return made, nil
}
