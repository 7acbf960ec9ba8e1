// Package termview is lucid watch: a repository's agents, claims, newest
// log entries and notices in a terminal, redrawn as lucid's files change,
// or written as plain text, a frame per change, when the output is not a
// terminal. All it shows of the log, the claims and the agents' names was
// written by models, and is escaped before it reaches the terminal.
package termview

import (
	"bytes"
	"context"
	"errors"
	"io"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/view/board"
)

// tick is how often the view is read again without a change, so that ages
// and states move on.
const tick = 5 * time.Second

// plainEntries is how many log entries a plain frame shows.
const plainEntries = 20

// Run shows the board of repo until ctx ends or the person quits: drawn in
// the terminal when out is one (read keys from in), else as plain text,
// one frame each time what it shows changes. With once it writes one plain
// frame and returns. naming names the agents.
func Run(ctx context.Context, repo *gitstore.Repo, naming present.Naming, in io.Reader, out io.Writer, once bool) error {
	load := func(n int) (*board.Board, *board.LogPage, error) { return read(repo, naming, n) }
	var watch watcher // none: one frame
	if !once {
		watch = func(ctx context.Context, changed func()) error { return board.Watch(ctx, repo, tick, changed) }
	}
	if f, ok := out.(interface{ Fd() uintptr }); watch == nil || !ok || !term.IsTerminal(f.Fd()) {
		return runPlain(ctx, load, watch, out)
	}
	return runTUI(ctx, load, watch, in, out)
}

// watcher calls changed when the board may have changed, until ctx ends.
type watcher func(ctx context.Context, changed func()) error

// runTUI runs the terminal view on in and out, reading with load at the
// start and each time watch calls its changed.
func runTUI(ctx context.Context, load loader, watch watcher, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := tea.NewProgram(newModel(load), tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out))
	go func() {
		err := watch(ctx, func() { p.Send(changedMsg{}) })
		if err != nil && ctx.Err() == nil {
			p.Send(watchErrMsg{err})
		}
	}()
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil // ended from outside: an interrupt
	}
	return err
}

// read reads the board now and the newest n entries of the log.
func read(repo *gitstore.Repo, naming present.Naming, n int) (*board.Board, *board.LogPage, error) {
	b, err := board.Load(repo, naming, time.Now())
	if err != nil {
		return nil, nil, err
	}
	page, err := board.Log(context.Background(), repo, naming, board.LogQuery{N: n})
	if err != nil {
		return nil, nil, err
	}
	return b, page, nil
}

// runPlain writes a plain frame, and unless watch is nil another each time
// the frame's text changes, until ctx ends.
func runPlain(ctx context.Context, load loader, watch watcher, out io.Writer) error {
	var last []byte
	show := func() error {
		b, page, err := load(plainEntries)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := writePlain(&buf, makeFrame(b, page)); err != nil {
			return err
		}
		if bytes.Equal(buf.Bytes(), last) {
			return nil
		}
		text := buf.Bytes()
		if last != nil {
			text = append([]byte("\n"), text...) // frames are parted by a blank line
		}
		last = bytes.Clone(buf.Bytes())
		_, err = out.Write(text)
		return err
	}
	if err := show(); err != nil || watch == nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var showErr error
	err := watch(ctx, func() {
		if showErr == nil {
			if showErr = show(); showErr != nil {
				cancel()
			}
		}
	})
	switch {
	case showErr != nil:
		return showErr
	case ctx.Err() != nil:
		return nil
	}
	return err
}
