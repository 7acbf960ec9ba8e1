//go:build !windows

package termview

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
)

// In a real terminal the view draws the board and quits on q.
func TestTerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	drawn := func() string {
		mu.Lock()
		defer mu.Unlock()
		return ansi.Strip(screen.String())
	}
	shown := func(s string) bool { return strings.Contains(drawn(), s) }

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	watch := func(ctx context.Context, changed func()) error { <-ctx.Done(); return nil }
	done := make(chan error, 1)
	go func() { done <- runTUI(ctx, (&loads{}).load, watch, tty, tty) }()

	for !shown("3 agents (1 working)") {
		select {
		case err := <-done:
			t.Fatalf("the view ended before it drew the board: %v", err)
		case <-ctx.Done():
			t.Fatalf("the board was not drawn; the terminal shows:\n%q", drawn())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if !shown("codex·21259d codex idle") {
		t.Errorf("the agents are not drawn:\n%s", drawn())
	}
	if _, err := io.WriteString(ptmx, "q"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("quitting on q: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("q did not quit")
	}
}
