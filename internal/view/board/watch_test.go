package board

import (
	"context"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/log/logstore"
)

// An append to the log is seen well before the next tick.
func TestWatchSeesAppend(t *testing.T) {
	repo := newRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changed := make(chan time.Time, 100)
	done := make(chan error)
	go func() { done <- Watch(ctx, repo, time.Hour, func() { changed <- time.Now() }) }()
	time.Sleep(300 * time.Millisecond) // the watch is set up
	for range len(changed) {
		<-changed
	}
	wrote := time.Now()
	if _, err := logstore.Record(repo, "sess-a", "fact", "seen?", repo.Top, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case at := <-changed:
		if d := at.Sub(wrote); d > 2*time.Second {
			t.Errorf("the append was seen after %v", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("an append to the log was not seen")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// Where it cannot be notified, it polls.
func TestPollSeesAppend(t *testing.T) {
	repo := newRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := make(chan struct{}, 10)
	startPoll(ctx, watchedDirs(repo), func() { seen <- struct{}{} })
	logstore.Record(repo, "sess-a", "fact", "polled", repo.Top, nil)
	select {
	case <-seen:
	case <-time.After(10 * pollEvery):
		t.Fatal("polling did not see an append")
	}
}
