package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/log/logstore"
)

// factsSection times what an edit pays to be told what the log knows of
// its file (hooks/filefacts.go): lucid hook PreToolUse on an Edit of a
// file that 10 of 1,000 live entries (citing 100 files) cite, after the
// agent was given them, so nothing is new for it, on each log of -sizes
// with the 1,000 entries appended. The hook reads the index's cursor and
// the edited file's list, not the log. Goals: within 1.35x the floor at
// the smallest log, as a tool call's hook with nothing new; and flat, the
// largest log within 1.2x of the smallest (compared as "x floor").
func factsSection(b *bench) error {
	const session = "30df32ba-0d45-4195-af71-803394f51561"
	const nFiles, nEntries = 100, 1000
	x := map[int]float64{}
	fmt.Fprintf(b.out, "  %-9s %-44s %10s %10s %10s %8s\n", "entries", "command", "median", "max", "floor", "x floor")
	for _, n := range b.sizes {
		err := b.withLog("facts", n, func(s *scratch) error {
			var evs []logformat.Evidence
			for i := range nFiles {
				rel := fmt.Sprintf("pkg/file%03d.go", i)
				path := filepath.Join(s.dir, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(path, fmt.Appendf(nil, "package pkg\n\n// File%d does its part.\nfunc File%d() {}\n", i, i), 0o644); err != nil {
					return err
				}
				ev, err := logstore.Cite(s.repo, s.dir, rel+":3")
				if err != nil {
					return err
				}
				evs = append(evs, ev)
			}
			at := time.Now().Add(-time.Hour)
			for i := range nEntries {
				e := logformat.NewEntry(at.Add(time.Duration(i)*time.Millisecond), fmt.Sprintf("%s/writer%d", session, i%7), logformat.KindFact,
					fmt.Sprintf("fact %d about this file: it is called from the handlers, keep its signature", i))
				e.Evidence = []logformat.Evidence{evs[i%nFiles]}
				if err := logstore.Append(s.repo.LogPath(), e); err != nil {
					return err
				}
			}
			start := []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, session, s.dir))
			if _, err := b.output(s.dir, start, b.lucid, "hook", client.SessionStart); err != nil {
				return err
			}
			edit := []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Edit","tool_input":{"file_path":%q,"old_string":"a","new_string":"b"}}`,
				session, s.dir, filepath.Join(s.dir, "pkg", "file042.go")))
			// The first edit is given the file's 10 entries (and builds the
			// index); from then on, nothing is new.
			began := time.Now()
			out, err := b.output(s.dir, edit, b.lucid, "hook", client.PreToolUse)
			if err != nil {
				return err
			}
			fmt.Fprintf(b.out, "  %-9d %-44s %s  (once, untimed rows aside: the index built from the whole log)\n", n, "first Edit, given the file's entries", ms(time.Since(began)))
			if !strings.Contains(out, "fact 942 about this file") {
				return fmt.Errorf("the first edit of pkg/file042.go was not told its newest entry: %q", out)
			}
			if out, err := b.output(s.dir, edit, b.lucid, "hook", client.PreToolUse); err != nil {
				return err
			} else if strings.TrimSpace(out) != "" {
				return fmt.Errorf("an edit with nothing new printed %q", out)
			}
			// Beside it, the same Edit of a file nothing cites: what the
			// tool call's hook costs without what is known of its file.
			plain := bytes.Replace(edit, []byte("file042.go"), []byte("uncited.go"), 1)
			for _, r := range []struct {
				label string
				stdin []byte
				into  map[int]float64
			}{{"hook PreToolUse, Edit of a cited file", edit, x}, {"hook PreToolUse, Edit of a file none cites", plain, nil}} {
				t, err := b.timeCommand(s.dir, nil, r.stdin, b.lucid, "hook", client.PreToolUse)
				if err != nil {
					return err
				}
				if r.into != nil {
					r.into[n] = xFloor(t)
				}
				fmt.Fprintf(b.out, "  %-9d %-44s %s %s %s %8.2f\n", n, r.label, ms(t.median), ms(t.max), ms(t.floor), xFloor(t))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if len(b.sizes) == 0 {
		return nil
	}
	if err := manyCitesRows(b); err != nil {
		return err
	}
	small, big := slices.Min(b.sizes), slices.Max(b.sizes)
	b.addGoal(fmt.Sprintf("an Edit with 1,000 live entries citing 100 files, nothing new for this agent, at %d entries within 1.35x floor", small), x[small], 1.35)
	if big > small {
		b.addGoal(fmt.Sprintf("that Edit at %d / %d entries within 1.2x (x floor)", big, small), x[big]/x[small], 1.2)
	}
	return nil
}

// manyCitesRows times an Edit of a file that 10,000 live entries cite,
// once the agent was given them (the newest that fit, the rest counted),
// beside an Edit of a file none cites, on the smallest log of -sizes: the
// hook reads the file's citations from the newest and stops where the
// count began, so the two cost the same (it parsed all 10,000, 2.3x the
// uncited edit). Goal: the cited edit within 1.1x of the uncited, as
// "x floor".
func manyCitesRows(b *bench) error {
	const session = "30df32ba-0d45-4195-af71-803394f51561"
	const many = 10000
	n := slices.Min(b.sizes)
	var cited, plain float64
	err := b.withLog("facts-many", n, func(s *scratch) error {
		rel := "pkg/hot.go"
		path := filepath.Join(s.dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte("package pkg\n\n// Hot is changed by everyone.\nfunc Hot() {}\n"), 0o644); err != nil {
			return err
		}
		ev, err := logstore.Cite(s.repo, s.dir, rel+":3")
		if err != nil {
			return err
		}
		f, err := os.OpenFile(s.repo.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		var lines []byte
		at := time.Now().Add(-time.Hour)
		for i := range many {
			e := logformat.NewEntry(at.Add(time.Duration(i)*time.Millisecond), fmt.Sprintf("%s/writer%d", session, i%7), logformat.KindFact,
				fmt.Sprintf("fact %d about the hot file: it is called from the handlers, keep its signature", i))
			e.Evidence = []logformat.Evidence{ev}
			line, err := logformat.EncodeEntry(e)
			if err != nil {
				f.Close()
				return err
			}
			lines = append(lines, line...)
		}
		if _, err := f.Write(lines); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		start := []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, session, s.dir))
		if _, err := b.output(s.dir, start, b.lucid, "hook", client.SessionStart); err != nil {
			return err
		}
		edit := []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Edit","tool_input":{"file_path":%q,"old_string":"a","new_string":"b"}}`,
			session, s.dir, path))
		out, err := b.output(s.dir, edit, b.lucid, "hook", client.PreToolUse)
		if err != nil {
			return err
		}
		// The newest were in the agent's digest: it is told the newest
		// of the others, and the rest is counted.
		if !strings.Contains(out, "about the hot file") || !strings.Contains(out, "more: `lucid log --path pkg/hot.go`") {
			return fmt.Errorf("the first edit of a file %d entries cite was not told the newest and the count of the rest: %q", many, out)
		}
		fmt.Fprintf(b.out, "  %-9d %-44s %d bytes told (once, untimed)\n", n, fmt.Sprintf("first Edit, %d entries cite the file", many), len(strings.TrimSpace(out)))
		plainEdit := bytes.Replace(edit, []byte("hot.go"), []byte("cold.go"), 1)
		for _, r := range []struct {
			label string
			stdin []byte
			into  *float64
		}{{fmt.Sprintf("hook PreToolUse, Edit, %d entries cite it", many), edit, &cited}, {"hook PreToolUse, Edit of a file none cites", plainEdit, &plain}} {
			t, err := b.timeCommand(s.dir, nil, r.stdin, b.lucid, "hook", client.PreToolUse)
			if err != nil {
				return err
			}
			*r.into = xFloor(t)
			fmt.Fprintf(b.out, "  %-9d %-44s %s %s %s %8.2f\n", n, r.label, ms(t.median), ms(t.max), ms(t.floor), xFloor(t))
		}
		return nil
	})
	if err != nil {
		return err
	}
	b.addGoal(fmt.Sprintf("an Edit of a file %d entries cite, nothing new, / an Edit of a file none cites, within 1.1x (x floor)", many), cited/plain, 1.1)
	return nil
}
