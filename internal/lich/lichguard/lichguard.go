package lichguard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/lich/lichstore"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/present"
)

// Window is how long another session's edit stays news: long enough to
// span the turn that made it, short enough that finished work goes quiet.
const Window = 10 * time.Minute

// RosterTimeout bounds `$LICH_BIN sessions --json`: the edit waits on it.
const RosterTimeout = 2 * time.Second

// Session is the lich mode of one hook call: the lich session it runs in.
// lich runs several Claude Code sessions in one checkout; each edit leaves a
// marker in lich's format under the git dir, and an edit of a file another
// session edited within Window gets a note naming that session.
type Session struct {
	// Name is LICH_SESSION_ID, the name markers are written under.
	Name string
	// Bin is LICH_BIN, asked for the other sessions' labels; empty, the
	// note names a session by its id.
	Bin string
	// RosterTimeout bounds the call to Bin; zero means RosterTimeout.
	RosterTimeout time.Duration
}

// FromEnv returns the lich mode from LICH_SESSION_ID and LICH_BIN, or
// nil outside lich (LICH_SESSION_ID unset or empty).
func FromEnv() *Session {
	id := os.Getenv("LICH_SESSION_ID")
	if id == "" {
		return nil
	}
	return &Session{Name: id, Bin: os.Getenv("LICH_BIN")}
}

// Before is the lich mode of PreToolUse on Edit, Write or NotebookEdit:
// path is the tool's file_path or notebook_path, exactly as given. When
// other sessions edited the file within Window, after this session's own
// last edit of it, it returns the note for the model (and records it as the
// session's newest news for Status); otherwise "". It reads one small
// file and runs nothing when there is no news.
//
// warn is nil or one line starting "lucid lich:" for stderr: a failure of
// the guard itself, never a reason to stop the edit. Outside a git
// repository it does nothing at all.
func (l *Session) Before(path string, now time.Time) (note string, warn error) {
	if l == nil || l.Name == "" || path == "" {
		return "", nil
	}
	repo, err := gitstore.Find(path)
	if err != nil {
		return "", findWarning(path, err)
	}
	path = onDisk(repo, path)
	m, err := lichstore.ReadMarker(repo, path)
	if err != nil {
		return "", lichWarning("reading the edit marker of %s: %v", path, err)
	}
	news := l.news(m, now)
	if len(news) == 0 {
		return "", nil
	}
	note, by, warn := l.Note(path, news, now)
	var warns []error
	if warn != nil {
		warns = append(warns, warn)
	}
	if err := lichstore.WriteNews(repo, lichstore.News{Session: l.Name, Path: path, By: by, At: news[0].At}); err != nil {
		warns = append(warns, lichWarning("recording the news for the status line: %v", err))
	}
	return note, joinWarnings(warns)
}

// Note tells the model that the lich sessions of news (newest first)
// edited path, each named by its label in lich's roster where Bin gives
// one, else by its id; by is how it named the newest, for the status line.
// warn is a failure of the roster's, one "lucid lich:" line.
func (l *Session) Note(path string, news []lichstore.Edit, now time.Time) (note, by string, warn error) {
	labels, err := l.Labels()
	if err != nil {
		warn = lichWarning("%v; naming sessions by their ids", err)
	}
	who := make([]string, len(news))
	for i, e := range news {
		who[i] = e.Session
		if label := labels[e.Session]; label != "" {
			who[i] = `"` + label + `"`
		}
	}
	return lichNote(path, news, who, now), who[0], warn
}

// news returns the other sessions' edits in m that this session has not
// seen, newest first: those inside the window and newer than this
// session's own last edit of the file (Claude Code makes a session read a
// file changed under it before it edits it, so by its own edit it knew).
func (l *Session) news(m *lichstore.Marker, now time.Time) []lichstore.Edit {
	if m == nil {
		return nil
	}
	var out []lichstore.Edit
	for _, e := range m.Edits() {
		if e.Session == l.Name {
			break
		}
		if now.Sub(e.Time()) < Window {
			out = append(out, e)
		}
	}
	return out
}

// After is the lich mode of PostToolUse for a call that succeeded: it
// writes this session's marker for each path, the Edit, Write or
// NotebookEdit path, or a Bash call's bashEditDiff.changedFiles. A path
// outside any git repository is skipped; a path whose folders are new is
// recorded in the git dir of its nearest existing folder. warn is as in
// Before: every failure, joined into one line.
func (l *Session) After(paths []string, now time.Time) (warn error) {
	if l == nil || l.Name == "" {
		return nil
	}
	var warns []error
	repos := map[string]*gitstore.Repo{} // by folder: a shell command can change many files in one
	for _, p := range paths {
		if p == "" {
			continue
		}
		dir := filepath.Dir(p)
		repo, ok := repos[dir]
		if !ok {
			var err error
			if repo, err = gitstore.Find(p); err != nil {
				if w := findWarning(p, err); w != nil {
					warns = append(warns, w)
				}
			}
			repos[dir] = repo
		}
		if repo == nil {
			continue
		}
		if err := lichstore.RecordEdit(repo, onDisk(repo, p), l.Name, now); err != nil {
			warns = append(warns, lichWarning("writing the edit marker of %s: %v", p, err))
		}
	}
	return joinWarnings(warns)
}

// onDisk is path spelled as the file system holds it below the top of
// its work tree, where names fold: a marker is named by the path, and
// Match.go and MATCH.GO are one file there.
func onDisk(repo *gitstore.Repo, path string) string {
	n := repo.Names()
	if n == 0 {
		return path
	}
	rel, ok := gitstore.InsideNamed(n, repo.Top, path)
	if !ok {
		return path
	}
	return repo.Abs(gitstore.OnDisk(n, repo.Top, filepath.ToSlash(rel)))
}

// Status is the lich part of `lucid statusline` for session (its
// LICH_SESSION_ID) in the work tree workTree: "<file name> also edited by
// <label>" while the newest note the session was given is about an edit
// under Window old, else "". It reads one small file.
func Status(workTree, session string, now time.Time) string {
	if session == "" || workTree == "" {
		return ""
	}
	repo, err := gitstore.Find(workTree)
	if err != nil {
		return ""
	}
	n, err := lichstore.ReadNews(repo, session)
	if err != nil || n == nil || now.Sub(n.Time()) >= Window {
		return ""
	}
	return escape.Line(fileName(n.Path) + " also edited by " + n.By)
}

// fileName is the last part of a path with / or \ separators, as lich cuts it.
func fileName(path string) string {
	return path[strings.LastIndexAny(path, `/\`)+1:]
}

// lichNote tells the model who else edited path, when, and how to reach them.
func lichNote(path string, news []lichstore.Edit, who []string, now time.Time) string {
	var b strings.Builder
	if len(news) == 1 {
		fmt.Fprintf(&b, "lucid (lich): %s was also edited by the lich session %s at %s (%s). ",
			escape.Line(path), escape.Line(who[0]), isoMillis(news[0].Time()), present.Ago(news[0].Time(), now))
		b.WriteString("That session shares this checkout and may still be working on the file. " +
			"Read the file again before building on it; send_to_session or lich send reaches that session, " +
			"to agree on the change rather than undo it.")
		return b.String()
	}
	fmt.Fprintf(&b, "lucid (lich): %s was also edited by %d other lich sessions: ", escape.Line(path), len(news))
	for i, e := range news {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s at %s (%s)", escape.Line(who[i]), isoMillis(e.Time()), present.Ago(e.Time(), now))
	}
	b.WriteString(". They share this checkout and may still be working on the file. " +
		"Read the file again before building on it; send_to_session or lich send reaches each of them, " +
		"to agree on the change rather than undo it.")
	return b.String()
}

// isoMillis is JavaScript's Date.prototype.toISOString (the log's format).
func isoMillis(t time.Time) string { return t.UTC().Format(logformat.TimeFormat) }

// findWarning is the warning for a path whose repository could not be
// found: none outside any work tree, where lich mode has nothing to do.
func findWarning(path string, err error) error {
	var notRepo *gitstore.NotRepoError
	if errors.As(err, &notRepo) || errors.Is(err, gitstore.ErrBare) {
		return nil // no work tree: nothing another session could be editing
	}
	return lichWarning("finding the git dir of %s: %v", path, err)
}

func lichWarning(format string, args ...any) error {
	msg := strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(fmt.Sprintf(format, args...))
	return errors.New("lucid lich: " + msg)
}

// joinWarnings makes one line of several warnings.
func joinWarnings(warns []error) error {
	switch len(warns) {
	case 0:
		return nil
	case 1:
		return warns[0]
	}
	parts := make([]string, len(warns))
	for i, w := range warns {
		parts[i] = strings.TrimPrefix(w.Error(), "lucid lich: ")
	}
	return errors.New("lucid lich: " + strings.Join(parts, "; "))
}
