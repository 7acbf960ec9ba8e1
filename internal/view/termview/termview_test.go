package termview

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lucid-dev/lucid/internal/view/board"
)

// Not on a terminal, a frame is written at the start and again each time
// its text changes, parted by a blank line; a tick that changes nothing
// writes nothing.
func TestPlainFrames(t *testing.T) {
	reads := 0
	load := func(n int) (*board.Board, *board.LogPage, error) {
		reads++
		b := testBoard()
		if reads >= 3 { // a new claim from the third read on
			b.Claims = append(b.Claims, board.Claim{ID: "c3", Label: "codex·21259d", Globs: []string{"docs/**"}, Created: at, Active: true})
		}
		return b, testPage(), nil
	}
	changes := 0
	watch := func(ctx context.Context, changed func()) error {
		for range 4 {
			changed()
			changes++
		}
		return nil
	}
	var out strings.Builder
	if err := runPlain(context.Background(), load, watch, &out); err != nil {
		t.Fatal(err)
	}
	frames := strings.Split(out.String(), "\n\nlucid watch ")
	if reads != 5 || len(frames) != 2 {
		t.Fatalf("%d reads wrote %d frames, want 5 reads and 2 frames:\n%s", reads, len(frames), out.String())
	}
	if strings.Contains(frames[0], "docs/** (claimed under") || !strings.Contains(frames[1], "Claims (3)") ||
		!strings.Contains(frames[1], "codex·21259d holds docs/** (claimed under a minute ago)") {
		t.Errorf("the second frame does not show the new claim alone:\n%s", out.String())
	}
}

// Without a watch (--once) one frame is written; an error in a read ends
// the stream with it.
func TestPlainOnceAndErrors(t *testing.T) {
	var out strings.Builder
	if err := runPlain(context.Background(), (&loads{}).load, nil, &out); err != nil || !strings.HasSuffix(out.String(), "\n") || strings.Count(out.String(), "lucid watch ") != 1 {
		t.Errorf("once: %v\n%s", err, out.String())
	}
	l := &loads{}
	watch := func(ctx context.Context, changed func()) error {
		l.err = errors.New("log unreadable")
		changed()
		select {
		case <-ctx.Done(): // the failed read ends the watch
			return nil
		case <-time.After(5 * time.Second):
			return errors.New("the watch went on after a failed read")
		}
	}
	if err := runPlain(context.Background(), l.load, watch, &out); err == nil || err.Error() != "log unreadable" {
		t.Errorf("a failed read returned %v", err)
	}
}
