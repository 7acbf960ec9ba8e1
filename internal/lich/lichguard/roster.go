package lichguard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// rosterEntry is the part of one session of `lich sessions --json` lucid
// reads. lich before 0.60.0 lists no id, and so names nobody.
type rosterEntry struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// Labels asks `$LICH_BIN sessions --json` once for the label of every
// session it lists, by id. With no Bin it asks nothing and returns none; a
// failure (the command fails, times out, or prints what is not a JSON
// array of sessions) is an error, and the note falls back to ids.
func (l *Session) Labels() (map[string]string, error) {
	if l.Bin == "" {
		return nil, nil
	}
	timeout := l.RosterTimeout
	if timeout <= 0 {
		timeout = RosterTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, l.Bin, "sessions", "--json")
	killTreeOnCancel(cmd)
	cmd.WaitDelay = 100 * time.Millisecond
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%s sessions --json took over %v", l.Bin, timeout)
	case err != nil:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil, fmt.Errorf("%s sessions --json exited %d", l.Bin, exit.ExitCode())
		}
		return nil, fmt.Errorf("%s sessions --json: %w", l.Bin, err)
	}
	var roster []rosterEntry
	if err := json.Unmarshal(out.Bytes(), &roster); err != nil {
		return nil, fmt.Errorf("%s sessions --json printed no list of sessions: %w", l.Bin, err)
	}
	labels := make(map[string]string, len(roster))
	for _, s := range roster {
		if s.ID != "" && s.Label != "" {
			labels[s.ID] = s.Label
		}
	}
	return labels, nil
}
