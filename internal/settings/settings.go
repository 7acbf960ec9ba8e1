// Package settings is a repository's choices for lucid, in
// .lucid/settings.json: committed with the plan and the log, so that every
// clone and every work tree on the branch agrees. Each choice has a
// default; a missing file, or a key left out, takes it. An environment
// variable can override a choice for the processes that see it (a test, a
// trial run), never write it.
//
//	{
//	  "leases": true,
//	  "awareness_window": "10m"
//	}
package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/jsonread"
)

// Name is the settings file, relative to the work tree's top.
const Name = gitstore.SettingsName

// DefaultLeases is whether an agent's write takes a lease on the file when
// the repository says nothing (see the hooks' edit awareness for what a
// lease is). On: every real-client scenario and every case of the promise
// suite ran with leases on and met no denial but a lease's own.
const DefaultLeases = true

// DefaultAwarenessWindow is how long another agent's change of a file
// stays news to an agent about to write it: long enough to span the turn
// that made it, short enough that finished work goes quiet (lich's guard
// uses the same).
const DefaultAwarenessWindow = 10 * time.Minute

// Settings are a repository's choices.
type Settings struct {
	// Leases: an agent's write takes a lease on the file it writes.
	Leases bool
	// LeasesFrom says where Leases came from: the file, the variable
	// LUCID_LEASES, or "default".
	LeasesFrom string
	// AwarenessWindow bounds how old another agent's change may be and
	// still be told to an agent about to write the same file.
	AwarenessWindow time.Duration
}

const maxFile = gitstore.MaxSettingsFile

// Load reads the settings of the work tree r, with LUCID_LEASES (on or
// off) over the file's choice of leases. A missing file gives the
// defaults; a file that cannot be read or decoded is an error naming it,
// with the defaults beside it for a hook, which goes on with them.
func Load(r *gitstore.Repo) (Settings, error) {
	s := Settings{Leases: DefaultLeases, LeasesFrom: "default", AwarenessWindow: DefaultAwarenessWindow}
	err := s.read(r.Abs(Name))
	switch v := strings.ToLower(strings.TrimSpace(os.Getenv("LUCID_LEASES"))); v {
	case "on", "1", "true":
		s.Leases, s.LeasesFrom = true, "LUCID_LEASES"
	case "off", "0", "false":
		s.Leases, s.LeasesFrom = false, "LUCID_LEASES"
	}
	return s, err
}

func (s *Settings) read(path string) error {
	b, err := gitstore.ReadFile(path, maxFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	err = jsonread.Object(b, func(key string, v []byte) error {
		switch key {
		case "leases":
			on, err := jsonread.Bool(v)
			if err != nil {
				return fmt.Errorf(`"leases" is true or false`)
			}
			s.Leases, s.LeasesFrom = on, Name
		case "awareness_window":
			text, err := jsonread.String(v)
			d, derr := time.ParseDuration(text)
			if err != nil || derr != nil || d <= 0 {
				return fmt.Errorf(`"awareness_window" is a duration such as "10m"`)
			}
			s.AwarenessWindow = d
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w: correct it, or lucid init --leases on|off writes it anew", path, err)
	}
	return nil
}

// SetLeases writes the choice of leases into the settings file of the work
// tree r, keeping its other keys, and reports whether the file changed.
// The file is replaced whole (a temp file and a rename).
func SetLeases(r *gitstore.Repo, on bool) (bool, error) {
	path := r.Abs(Name)
	keys := map[string]json.RawMessage{}
	b, err := gitstore.ReadFile(path, maxFile)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return false, err
	default:
		if err := json.Unmarshal(b, &keys); err != nil {
			return false, fmt.Errorf("%s is not a JSON object (%w): correct it or remove it, then run lucid init --leases again", path, err)
		}
	}
	value := json.RawMessage("false")
	if on {
		value = json.RawMessage("true")
	}
	if string(keys["leases"]) == string(value) {
		return false, nil
	}
	keys["leases"] = value
	out, err := json.MarshalIndent(keys, "", "  ")
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(r.Abs(gitstore.LucidDirName), 0o755); err != nil {
		return false, err
	}
	return true, gitstore.WriteFileAtomic(path, append(out, '\n'), 0o644)
}

// Describe says which choice of leases is in force and where it comes
// from, for lucid doctor and the digest: "leases: on (.lucid/settings.json)".
func (s Settings) Describe() string {
	state := "off"
	if s.Leases {
		state = "on"
	}
	return fmt.Sprintf("leases: %s (%s)", state, s.LeasesFrom)
}
