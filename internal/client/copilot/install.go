package copilot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/setup"
)

// writeTools are the tools lucid guards, as an anchored regular expression
// over toolName; postToolUse takes the subagent tool too, so that the lead
// hears what its subagent recorded as it hands back.
const (
	writeTools = "^(" + Bash + "|" + PowerShell + "|" + Create + "|" + Edit + "|" + ApplyPatch + ")$"
	afterTools = "^(" + Bash + "|" + PowerShell + "|" + Create + "|" + Edit + "|" + ApplyPatch + "|" + Task + ")$"
)

// events are the events lucid registers in Copilot, onto lucid's. A
// timed-out hook lets the tool run, so the tool events' timeout is far
// above the hooks' lock wait (hooks.lockBudget).
var events = []client.Event{
	{Name: SessionStart, Lucid: client.SessionStart, Timeout: 15 * time.Second},
	{Name: SubagentStart, Lucid: client.SubagentStart, Timeout: 15 * time.Second},
	{Name: UserPromptSubmitted, Lucid: client.UserPromptSubmit, Timeout: 10 * time.Second},
	{Name: PreToolUse, Lucid: client.PreToolUse, Matcher: writeTools, Timeout: 10 * time.Second},
	{Name: PostToolUse, Lucid: client.PostToolUse, Matcher: afterTools, Timeout: 10 * time.Second},
	{Name: AgentStop, Lucid: client.Stop, Timeout: 10 * time.Second},
	{Name: SubagentStop, Lucid: client.SubagentStop, Timeout: 10 * time.Second},
	{Name: PreCompact, Lucid: client.PreCompact, Timeout: 10 * time.Second},
	{Name: SessionEnd, Lucid: client.SessionEnd, Timeout: 2 * time.Second},
}

// HooksName is lucid's own hook file for Copilot, which lucid owns whole
// (Copilot loads every .json of .github/hooks).
const HooksName = ".github/hooks/lucid.json"

// HookCommand is the command registered for event. Copilot denies a tool
// whose preToolUse hook exits non-zero or is killed, so the command exits
// 0 whatever becomes of lucid: missing, crashed or killed.
func HookCommand(event string) string {
	return "command -v lucid >/dev/null 2>&1 || exit 0; lucid hook --client copilot " + event + " || true"
}

// Hooks is Copilot CLI (1.0.102): lucid's hook file, flat, timeouts in
// seconds.
var Hooks = &installers.Client{
	ID:          "copilot",
	Name:        "GitHub Copilot CLI",
	Settings:    HooksName,
	Events:      events,
	TimeoutUnit: time.Second,
	Command:     HookCommand,
	Flat:        true,
}

// installer is lucid's set-up of Copilot: lucid's hook file, the folder
// trust Copilot needs before it runs a repository's hooks (with
// Options.Trust), and doctor's checks of the hooks, the trust, and lucid
// on the PATH its hooks see. Copilot runs the hooks of ~/.copilot/hooks
// beside a repository's, both: lucid sets it up per repository.
var installer = &installers.Setup{
	Hooks:   Hooks,
	Write:   writeFile,
	Remove:  removeFile,
	Trust:   Trust,
	Untrust: Untrust,
	Check: func(repo *gitstore.Repo) []setup.Finding {
		return []setup.Finding{Hooks.CheckRegistered(repo), checkTrust(repo), installers.CheckLucidOnPath(Hooks.ID, "GitHub Copilot CLI")}
	},
	Advice:     advice,
	NotForUser: "GitHub Copilot CLI runs a user hook beside the repository's own, both; lucid sets Copilot up per repository (lucid init --client copilot)",
}

// Setup is lucid's set-up of Copilot.
func (Client) Setup() *installers.Setup { return installer }

// isLucidFile reports whether b is lucid's hook file, cheaply (a hook
// reads it): it registers lucid's hook.
func isLucidFile(b []byte) bool { return bytes.Contains(b, []byte("lucid hook --client copilot ")) }

// ownFile reports whether b, a file at HooksName, is lucid's, of any
// version: version and hooks alone, every hook of it lucid's.
func ownFile(b []byte) bool {
	var f map[string]json.RawMessage
	if json.Unmarshal(b, &f) != nil {
		return false
	}
	var evs map[string][]struct {
		Bash string `json:"bash"`
	}
	for k, v := range f {
		switch k {
		case "version":
		case "hooks":
			if json.Unmarshal(v, &evs) != nil {
				return false
			}
		default:
			return false
		}
	}
	for _, hs := range evs {
		for _, h := range hs {
			if !strings.Contains(h.Bash, "lucid hook --client copilot ") {
				return false
			}
		}
	}
	return true
}

// writeFile writes lucid's hook file. A file of that name that is not
// lucid's is refused.
func writeFile(repo *gitstore.Repo, _ installers.Options) ([]setup.Change, error) {
	raw, err := gitstore.ReadFile(repo.Abs(HooksName), gitstore.MaxSettings)
	switch {
	case err == nil && len(bytes.TrimSpace(raw)) > 0 && !ownFile(raw):
		return nil, fmt.Errorf("%s is not lucid's (it holds more than lucid's hooks): rename it, since Copilot reads every .json in .github/hooks, then run `lucid init --client copilot` again", HooksName)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	s, err := Hooks.Read(repo, HooksName)
	if err != nil {
		return nil, err
	}
	if _, ok := s.Member("version"); !ok {
		s.SetMember("version", []byte("1"))
	}
	what := s.RegisterWhat()
	if what == "" {
		return nil, nil
	}
	made, err := installers.NewDirs(repo, filepath.Dir(repo.Abs(HooksName)))
	if err != nil {
		return nil, err
	}
	if err := s.Write(); err != nil {
		return nil, err
	}
	if len(made) > 0 {
		if err := updateRecord(repo, func(r *record) { r.Dirs = append(r.Dirs, made...) }); err != nil {
			return nil, err
		}
	}
	return []setup.Change{{Path: HooksName, What: what}}, nil
}

// removeFile removes lucid's hook file (lucid's hooks alone where someone
// added their own to it), and the folders lucid created for it once they
// are empty.
func removeFile(repo *gitstore.Repo) ([]setup.Change, error) {
	var changes []setup.Change
	s, err := Hooks.Read(repo, HooksName)
	if err != nil {
		return nil, err
	}
	if s.Unregister() {
		if f, ok := s.Member("hooks"); !ok || installers.SameJSON(f, []byte("{}")) {
			s.RemoveMember("hooks")
			s.RemoveMember("version")
		}
		ch, err := saveOrRemove(repo, s)
		if err != nil {
			return nil, err
		}
		changes = append(changes, ch)
	}
	rec, err := readRecord(repo)
	if err != nil || len(rec.Dirs) == 0 {
		return changes, err
	}
	for _, d := range rec.Dirs {
		os.Remove(repo.Abs(d)) // only where it is empty
	}
	return changes, updateRecord(repo, func(r *record) { r.Dirs = nil })
}

// saveOrRemove writes s, or removes the file where lucid left nothing in
// it.
func saveOrRemove(repo *gitstore.Repo, s *installers.Settings) (setup.Change, error) {
	if _, ok := s.Member("version"); ok {
		return setup.Change{Path: HooksName, What: "lucid's hooks removed"}, s.Write()
	}
	if err := os.Remove(repo.Abs(HooksName)); err != nil {
		return setup.Change{}, err
	}
	return setup.Change{Path: HooksName, What: "removed (it held only lucid's hooks)"}, nil
}

// advice is what lucid init says about Copilot's folder trust.
func advice(repo *gitstore.Repo) string {
	s := "GitHub Copilot CLI runs a repository's hooks only in a folder it trusts, and skips them without a word elsewhere (the tools then run unguarded)."
	if f := checkTrust(repo); !f.OK {
		s += " It does not trust this one yet: " + f.Fix + ". `lucid doctor` checks it."
	}
	return s
}
