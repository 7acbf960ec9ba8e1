package claude

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/internal/installers"
)

// StatusLineCommand is the status line lucid registers; like HookCommand,
// it does nothing where lucid is not on PATH.
const StatusLineCommand = "command -v lucid >/dev/null 2>&1 || exit 0; exec lucid statusline"

// statusLine is lucid's statusLine setting.
func statusLine() json.RawMessage {
	b, _ := installers.MarshalNoEscape(struct {
		Type    string `json:"type"`
		Command string `json:"command"`
	}{"command", StatusLineCommand})
	return b
}

// isLucidStatusLine reports whether a statusLine setting runs lucid's.
func isLucidStatusLine(raw json.RawMessage) bool {
	var sl struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(raw, &sl) != nil {
		return false
	}
	cmd := strings.TrimSpace(sl.Command)
	f := strings.Fields(cmd)
	return cmd == StatusLineCommand || len(f) == 2 && filepath.Base(f[0]) == "lucid" && f[1] == "statusline"
}

// registerStatusLine sets lucid's status line. One the user has is
// theirs: it is replaced only with force.
func registerStatusLine(s *installers.Settings, force bool) (string, error) {
	old, ok := s.Member("statusLine")
	switch {
	case ok && installers.SameJSON(old, statusLine()):
		return "", nil
	case ok && !isLucidStatusLine(old) && !force:
		return "", fmt.Errorf("%s already has a statusLine of yours (%s): keep it, or run lucid init --statusline --force to replace it", s.Name(), installers.CompactJSON(old))
	}
	s.SetMember("statusLine", statusLine())
	if ok && !isLucidStatusLine(old) {
		return "status line replaced (it was " + installers.CompactJSON(old) + ")", nil
	}
	return "lucid's status line registered", nil
}

// unregisterStatusLine removes lucid's status line; it reports whether it
// did.
func unregisterStatusLine(s *installers.Settings) bool {
	if old, ok := s.Member("statusLine"); ok && isLucidStatusLine(old) {
		s.RemoveMember("statusLine")
		return true
	}
	return false
}
