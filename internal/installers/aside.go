package installers

import (
	"errors"
	"sync"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/proctree"
)

// lucid's hooks registered outside a project (the user's settings, a
// client's plugin) stand aside where the project registers lucid's own, so
// that no event runs lucid twice. A client reads the project's hooks as it
// starts: a registration written later (an agent that writes one to have
// lucid's outside hooks stand aside, and no hook of lucid's left running)
// is one the client may never have loaded, so it does not count.

// errNewer is ReadLoadedHooks' error for a file changed after the client
// started.
var errNewer = errors.New("changed after the client started")

// startSlack is how long after the client's start a file still counts as
// there at its start: the start read on Linux is within 20 ms (ticks of
// 10 ms after a boot time read to 10 ms). It stays well below the time a
// client takes to start and get its model's first answer, so that no
// agent's write falls within it.
const startSlack = 100 * time.Millisecond

// clientStart is when the client running this hook started, read once.
var clientStart = sync.OnceValues(proctree.ClientStart)

// ReadLoadedHooks reads a project's hook settings at path, which a hook
// registered outside the project reads to tell whether to stand aside,
// unless the file changed after the client that runs the hook started
// (where that can be told), which the client may not have loaded.
func ReadLoadedHooks(path string) ([]byte, error) {
	f, fi, err := gitstore.OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if start, ok := clientStart(); ok && changed(f, fi).After(start.Add(startSlack)) {
		return nil, errNewer
	}
	return gitstore.ReadLimited(f, path, fi.Size(), gitstore.MaxSettings)
}
