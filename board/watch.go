package board

import (
	"context"
	"errors"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
)

// Watch calls changed, from one goroutine, soon after any of lucid's files
// of the repository changes (the log, the plan, the claims, the agents'
// records, lich's markers), and every tick even without a change, so that
// ages and states move on. It watches with file-system notifications where
// it can and polls where it cannot, and returns when ctx ends.
func Watch(ctx context.Context, repo *gitstore.Repo, tick time.Duration, changed func()) error {
	return errors.New("board: not built yet")
}
