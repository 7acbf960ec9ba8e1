package installers

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
)

// SetUp reports whether lucid has hooks in the client's settings (of any
// version).
func (c *Client) SetUp(repo *gitstore.Repo) bool {
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
func (c *Client) CheckHooks(repo *gitstore.Repo, check, none, noneFix string) Finding {
	f := Finding{Check: check}
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
	}
	return f
}

func (c *Client) initFlag() string {
	if c.Default {
		return ""
	}
	return " --client " + c.ID
}

// Detected reports whether the folder of the client's settings is at the
// work tree's top (.codex/, .gemini/): plain lucid init sets it up too.
func (c *Client) Detected(repo *gitstore.Repo) bool {
	fi, err := os.Stat(repo.Abs(filepath.Dir(c.Settings)))
	return err == nil && fi.IsDir()
}
