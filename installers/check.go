package installers

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/merge"
)

// Finding is the result of one check (the merge driver's checks report
// the same way).
type Finding = merge.Finding

// Check checks that every event is registered, in one settings file,
// and that the /lucid:dream command is there.
func Check(repo *gitstore.Repo) []Finding {
	hooks := Finding{Check: "hooks"}
	name, events, err := ClaudeCode.Registered(repo)
	switch {
	case err != nil:
		hooks.Detail, hooks.Fix = err.Error(), "fix the file, then run `lucid init`"
	case len(events) == 0:
		hooks.Detail, hooks.Fix = "lucid's hooks are not in .claude/settings.json or settings.local.json: agents get nothing", "run `lucid init` (or `lucid init --local`)"
	case len(events) < len(ClaudeCode.Events):
		var missing []string
		for _, r := range ClaudeCode.Events {
			if !slices.Contains(events, r.Name) {
				missing = append(missing, r.Name)
			}
		}
		hooks.Detail = fmt.Sprintf("%s lacks lucid's hooks for %s (or has another version of them)", name, strings.Join(missing, ", "))
		hooks.Fix = "run `lucid init` to register them again"
	default:
		hooks.OK, hooks.Detail = true, fmt.Sprintf("registered in %s for all %d events", name, len(events))
	}
	dream := Finding{Check: "/lucid:dream"}
	if _, err := os.Stat(repo.Abs(DreamCommandName)); err != nil {
		dream.Detail, dream.Fix = DreamCommandName+" is missing", "run `lucid init`"
	} else {
		dream.OK, dream.Detail = true, DreamCommandName
	}
	return []Finding{hooks, dream}
}
