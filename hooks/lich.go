package hooks

import (
	"fmt"
	"io"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/lich/lichguard"
)

// lichMode is the lich mode of a hook call, run after lucid's own handler,
// for the files of repositories lucid keeps no state for: inside lich
// (LICH_SESSION_ID set), PreToolUse on an edit adds the note about other
// lich sessions that just edited the file, and PostToolUse writes this
// session's markers for what the call changed (at PreToolUse, for a
// client that has no PostToolUse: NoAfter); where PreToolUse shows the
// model nothing (WarnAfter), PostToolUse gives the note too. (In a repository lucid
// keeps state for, its edit awareness does both, for every agent: see
// aware.go.) A call lucid denies gets no note, and, having not run, no
// PostToolUse and no marker. The guard's own trouble is one line on
// stderr; the edit goes on.
func lichMode(in client.Input, out *client.Output, stderr io.Writer) *client.Output {
	l := lichguard.FromEnv()
	if l == nil || (in.Event != client.PreToolUse && in.Event != client.PostToolUse) {
		return out
	}
	now := time.Now()
	switch {
	case in.Event == client.PreToolUse && in.Tool == client.ToolEdit:
		if out != nil && out.Deny != "" {
			return out
		}
		note, warn := "", error(nil)
		if len(in.Paths) > 0 && !lucidKeeps(in.Paths[0]) {
			note, warn = l.Before(in.Paths[0], now)
		}
		if warn != nil {
			fmt.Fprintln(stderr, warn)
		}
		if in.Caps.Has(client.NoAfter) {
			if warn := l.After(outsideLucid(in.Paths), now); warn != nil {
				fmt.Fprintln(stderr, warn)
			}
		}
		if note == "" {
			return out
		}
		if out == nil {
			out = &client.Output{}
		}
		out.Context = joinLines(out.Context, note)
	case in.Event == client.PostToolUse && (in.Tool == client.ToolEdit || in.Tool == client.ToolShell):
		// A client that showed the model nothing at PreToolUse (Pi, omp,
		// Gemini CLI, opencode, Qwen Code) gets the note with the edit's
		// result: read before this call's own marker, it names the same
		// sessions.
		if in.Tool == client.ToolEdit && in.Caps.Has(client.WarnAfter) && len(in.Paths) > 0 && !lucidKeeps(in.Paths[0]) {
			note, warn := l.Before(in.Paths[0], now)
			if warn != nil {
				fmt.Fprintln(stderr, warn)
			}
			if note != "" {
				if out == nil {
					out = &client.Output{}
				}
				out.Context = joinLines(out.Context, note)
			}
		}
		if warn := l.After(outsideLucid(in.Changed), now); warn != nil {
			fmt.Fprintln(stderr, warn)
		}
	}
	return out
}

// outsideLucid are the paths that no repository lucid keeps state for
// holds: lich's to mark.
func outsideLucid(paths []string) []string {
	var out []string
	for _, p := range paths {
		if !lucidKeeps(p) {
			out = append(out, p)
		}
	}
	return out
}

// lucidKeeps reports whether path lies in a work tree of a repository
// lucid keeps state for, whose edit awareness records and tells its
// edits.
func lucidKeeps(path string) bool {
	r, err := gitstore.Find(path)
	return err == nil && (r.Initialised() || r.HasState())
}
