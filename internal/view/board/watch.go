package board

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/lucid-dev/lucid/gitstore"
)

// settle is how long Watch waits after a change for the rest of it (a
// hook writes a record, then the log) before it calls changed; apart is
// the least time between two calls, since every hook call of every agent
// touches its record.
const (
	settle = 40 * time.Millisecond
	apart  = 200 * time.Millisecond
	// pollEvery is how often Watch looks at the files where it cannot be
	// notified.
	pollEvery = 500 * time.Millisecond
)

// Watch calls changed, from one goroutine, soon after any of lucid's files
// of the repository changes (the log, the plan, the claims, the agents'
// records, lich's markers), and every tick even without a change, so that
// ages and states move on. It watches with file-system notifications where
// it can and polls where it cannot, and returns when ctx ends.
func Watch(ctx context.Context, repo *gitstore.Repo, tick time.Duration, changed func()) error {
	return NewWatcher(ctx, repo).Run(ctx, tick, changed)
}

// A Watcher is Watch set up and not yet running: every change from its
// making on is seen by Run, so a caller that reads what it shows after
// NewWatcher and before Run misses nothing that comes after its read.
type Watcher struct {
	events chan struct{}
	stop   func()
}

// NewWatcher starts watching lucid's files of repo until ctx ends.
func NewWatcher(ctx context.Context, repo *gitstore.Repo) *Watcher {
	dirs := watchedDirs(repo)
	for _, d := range dirs {
		os.MkdirAll(d, 0o755) // a folder made later would go unwatched
	}
	w := &Watcher{events: make(chan struct{}, 1), stop: func() {}}
	notify := func() {
		select {
		case w.events <- struct{}{}:
		default:
		}
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		startPoll(ctx, dirs, notify)
		return w
	}
	w.stop = func() { fsw.Close() }
	watching := true
	for _, d := range dirs {
		if fsw.Add(d) != nil {
			watching = false
		}
	}
	go func() {
		for {
			select {
			case _, ok := <-fsw.Events:
				if !ok {
					return
				}
				notify()
			case _, ok := <-fsw.Errors:
				if !ok {
					return
				}
				notify() // an overflow loses events: look again
			}
		}
	}()
	if !watching {
		startPoll(ctx, dirs, notify)
	}
	return w
}

// Run calls changed as Watch does, until ctx ends.
func (w *Watcher) Run(ctx context.Context, tick time.Duration, changed func()) error {
	defer w.stop()
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C:
		case <-w.events:
			wait := max(settle, apart-time.Since(last))
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(wait):
			}
			select { // what came in while waiting is seen by this call
			case <-w.events:
			default:
			}
		}
		last = time.Now()
		changed()
	}
}

// watchedDirs are the folders that hold what a board shows.
func watchedDirs(repo *gitstore.Repo) []string {
	dirs := []string{
		filepath.Dir(repo.LogPath()), // the log, the plan
		filepath.Dir(repo.ClaimsPath()),
		repo.AgentsDir(),
		filepath.Join(repo.GitDir, gitstore.LichEditsDir),
	}
	return dirs
}

// startPoll notifies when the size or time of a file in dirs changes from
// what they are now.
func startPoll(ctx context.Context, dirs []string, notify func()) {
	last := stamp(dirs)
	go func() {
		t := time.NewTicker(pollEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if s := stamp(dirs); s != last {
				notify()
				last = s
			}
		}
	}()
}

// stamp sums up the names, sizes and times of the files in dirs.
func stamp(dirs []string) string {
	var b []byte
	for _, d := range dirs {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if fi, err := e.Info(); err == nil {
				b = fi.ModTime().AppendFormat(append(append(b, e.Name()...), ' '), time.RFC3339Nano)
				b = append(b, byte(fi.Size()), byte(fi.Size()>>8), byte(fi.Size()>>16), '\n')
			}
		}
	}
	return string(b)
}
