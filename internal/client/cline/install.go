package cline

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/setup"
)

// events are the hook files lucid writes, onto lucid's events; Decode
// decides a start's and an end's by who calls (lead or sub-agent). Cline
// kills a tool hook after 120 s, whatever a file says, and lets the tool
// run; the others it never waits for. UserPromptSubmit is left out: it
// fires only for Cline's own reminders, never for the user's prompt, and
// its answer is ignored. PreCompact is left out: it never runs.
var events = []client.Event{
	{Name: TaskStart, Lucid: client.SessionStart, Timeout: 15 * time.Second},
	{Name: TaskResume, Lucid: client.SessionStart, Timeout: 15 * time.Second},
	{Name: PreToolUse, Lucid: client.PreToolUse, Timeout: 10 * time.Second},
	{Name: PostToolUse, Lucid: client.PostToolUse, Timeout: 10 * time.Second},
	{Name: TaskComplete, Lucid: client.Stop, Timeout: 10 * time.Second},
	{Name: TaskError, Lucid: client.Stop, Timeout: 10 * time.Second},
	{Name: SessionShutdown, Lucid: client.SessionEnd, Timeout: 10 * time.Second},
}

// HooksDir is where Cline reads a work tree's hook files: at the top of
// the git work tree (its workspaceRoot), never in a subfolder's. Cline
// also reads .cline/hooks/ there; lucid's go in .clinerules/, the folder
// Cline's users already keep.
const HooksDir = ".clinerules/hooks"

// fileHead starts each of lucid's hook files, of every version.
const fileHead = "#!/usr/bin/env bash\n# lucid's hook for Cline"

// ownFile reports whether b is one of lucid's hook files, of any version.
func ownFile(b []byte) bool { return bytes.HasPrefix(b, []byte(fileHead)) }

// HookFile is lucid's hook file for event. Cline runs it with bash (its
// shebang, or by default), with the payload on stdin, and reads its
// stdout alone; its exit code means nothing. It runs the native lucid and
// exits 0 with nothing of its own on stdout whatever becomes of lucid, so
// that a missing or failing lucid leaves Cline as it was. user is the
// copy in the user's hooks folder, which runs lucid hook --user: it
// stands aside where the work tree has lucid's own file for the event,
// since Cline runs both (Client.UserHookStandsAside).
func HookFile(event string, user bool) []byte {
	var b strings.Builder
	b.WriteString(fileHead)
	if user {
		b.WriteString(" (user hooks): lucid init --user --client cline wrote it,\n# lucid uninstall --user removes it.\n")
	} else {
		b.WriteString(": lucid init --client cline wrote it, lucid\n# uninstall removes it.\n")
	}
	b.WriteString("# Cline runs every hook file of its folders, reads stdout alone and ignores\n" +
		"# the exit code: with lucid missing or failing, this says nothing and Cline\n# goes on.\n")
	b.WriteString("command -v lucid >/dev/null 2>&1 || exit 0\n")
	if user {
		b.WriteString("lucid hook --client cline --user " + event + " || true\nexit 0\n")
	} else {
		b.WriteString("lucid hook --client cline " + event + " || true\nexit 0\n")
	}
	return []byte(b.String())
}

// UserHookStandsAside reports whether lucid's hook file for event in the
// user's hooks folder leaves the call to the work tree's own: Cline runs
// its hooks in the folder it started in, whose git root holds the
// project's hook files, and lucid's file for event was there when Cline
// started (installers.ReadLoadedHooks).
func (Client) UserHookStandsAside(event string) bool {
	wd, err := os.Getwd()
	if err != nil {
		return false
	}
	repo, err := gitstore.Find(wd)
	if err != nil {
		return false
	}
	b, err := readLoadedHooks(repo.Abs(HooksDir + "/" + event))
	return err == nil && ownFile(b) && bytes.Contains(b, []byte("\nlucid hook --client cline "+event+" "))
}

// readLoadedHooks reads a project's hook file as it was when Cline
// started (installers.ReadLoadedHooks); a test reads it as it is.
var readLoadedHooks = installers.ReadLoadedHooks

// Hooks is Cline's hook files as plain lucid init and doctor find them:
// set up where the PreToolUse file is lucid's, detected where .clinerules/
// is at the work tree's top.
var Hooks = &installers.Client{
	ID:       "cline",
	Name:     "Cline",
	Settings: HooksDir + "/" + PreToolUse,
	Events:   events,
	Folders:  []string{".clinerules"},
	Own:      ownFile,
}

var installer = &installers.Setup{
	Hooks:  Hooks,
	Write:  install,
	Remove: uninstall,
	Check: func(repo *gitstore.Repo) []setup.Finding {
		return []setup.Finding{checkFiles(repo.Abs(HooksDir), false, "run `lucid init --client cline`"),
			checkBash(), installers.CheckLucidOnPath(Hooks.ID, "Cline")}
	},
	Advice:    advice,
	UserWrite: installUser, UserRemove: uninstallUser,
}

// Setup is lucid's set-up of Cline: its hook files in .clinerules/hooks/,
// or with --user in the user's hooks folder.
func (Client) Setup() *installers.Setup { return installer }

// UserHooksDir is the user's hooks folder Cline reads: $CLINE_DIR/hooks,
// ~/.cline/hooks by default. (It also reads ~/Documents/Cline/Hooks/.)
func UserHooksDir() string {
	dir := os.Getenv("CLINE_DIR")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".cline")
	}
	return filepath.Join(dir, "hooks")
}

// writeFiles writes lucid's hook files into dir; name is dir as a change
// names it. A file of an event's name that is not lucid's is refused
// before anything is written.
func writeFiles(dir, name string, user bool) ([]setup.Change, error) {
	for _, e := range events {
		raw, err := gitstore.ReadFile(filepath.Join(dir, e.Name), gitstore.MaxSettings)
		if err == nil && !ownFile(raw) {
			return nil, fmt.Errorf("%s/%s is not lucid's: Cline runs every hook file of %s, so rename yours (say, to %s.sh, which it runs too), then run lucid init again", name, e.Name, name, e.Name)
		}
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var changes []setup.Change
	for _, e := range events {
		path := filepath.Join(dir, e.Name)
		want := HookFile(e.Name, user)
		raw, err := os.ReadFile(path)
		if err == nil && bytes.Equal(raw, want) {
			continue
		}
		what := "lucid's hook written"
		if err == nil {
			what = "lucid's hook updated"
		}
		// Executable, though Cline runs it through bash anyway, so that a
		// person can run it as it is.
		if err := gitstore.WriteFileAtomic(path, want, 0o755); err != nil {
			return changes, err
		}
		changes = append(changes, setup.Change{Path: name + "/" + e.Name, What: what})
	}
	return changes, nil
}

// removeFiles removes lucid's hook files from dir, and nothing else.
func removeFiles(dir, name string) ([]setup.Change, error) {
	var changes []setup.Change
	for _, e := range events {
		path := filepath.Join(dir, e.Name)
		raw, err := gitstore.ReadFile(path, gitstore.MaxSettings)
		switch {
		case err == nil && ownFile(raw):
			if err := os.Remove(path); err != nil {
				return changes, err
			}
			changes = append(changes, setup.Change{Path: name + "/" + e.Name, What: "removed"})
		case err != nil && !errors.Is(err, os.ErrNotExist):
			return changes, err
		}
	}
	return changes, nil
}

func install(repo *gitstore.Repo, _ installers.Options) ([]setup.Change, error) {
	made, err := installers.NewDirs(repo, repo.Abs(HooksDir))
	if err != nil {
		return nil, err
	}
	changes, err := writeFiles(repo.Abs(HooksDir), HooksDir, false)
	if err != nil {
		return changes, err
	}
	if len(made) > 0 {
		if err := updateRecord(repo, func(r *record) { r.Dirs = append(r.Dirs, made...) }); err != nil {
			return changes, err
		}
	}
	return changes, nil
}

func uninstall(repo *gitstore.Repo) ([]setup.Change, error) {
	changes, err := removeFiles(repo.Abs(HooksDir), HooksDir)
	if err != nil {
		return changes, err
	}
	rec, err := readRecord(repo)
	if err != nil || len(rec.Dirs) == 0 {
		return changes, err
	}
	for _, d := range rec.Dirs {
		os.Remove(repo.Abs(d)) // only where it is empty
	}
	return changes, updateRecord(repo, func(r *record) { r.Dirs = nil })
}

// installUser writes lucid's hook files into the user's hooks folder, for
// Cline started in any folder. The folder is left in place on uninstall:
// Cline's own.
func installUser() ([]setup.Change, error) {
	dir := UserHooksDir()
	if dir == "" {
		return nil, errors.New("no home folder: set CLINE_DIR to Cline's folder")
	}
	return writeFiles(dir, dir, true)
}

func uninstallUser() ([]setup.Change, error) {
	dir := UserHooksDir()
	if dir == "" {
		return nil, nil
	}
	return removeFiles(dir, dir)
}

// record is what lucid init did beside the hook files, for uninstall to
// undo exactly: the folders it created. It is the work tree's own, in its
// git dir.
type record struct {
	Dirs []string `json:"dirs,omitempty"`
}

func recordPath(repo *gitstore.Repo) string {
	return filepath.Join(repo.GitDir, "lucid", "cline-install.json")
}

func readRecord(repo *gitstore.Repo) (record, error) {
	return installers.ReadRecord[record](recordPath(repo))
}

func updateRecord(repo *gitstore.Repo, change func(*record)) error {
	return installers.UpdateRecord(recordPath(repo), change, func(r record) bool { return len(r.Dirs) == 0 })
}

// checkFiles is doctor's check of the hook files in dir: each there, a
// regular file (Cline runs no symlink), and this lucid's.
func checkFiles(dir string, user bool, fix string) setup.Finding {
	f := setup.Finding{Check: "cline hooks"}
	var missing, stale, links []string
	for _, e := range events {
		path := filepath.Join(dir, e.Name)
		fi, err := os.Lstat(path)
		switch {
		case err != nil:
			missing = append(missing, e.Name)
			continue
		case !fi.Mode().IsRegular():
			links = append(links, e.Name)
			continue
		}
		raw, err := gitstore.ReadFile(path, gitstore.MaxSettings)
		if err != nil || !bytes.Equal(raw, HookFile(e.Name, user)) {
			stale = append(stale, e.Name)
		}
	}
	switch {
	case len(links) > 0:
		f.Detail = fmt.Sprintf("%s in %s is not a regular file (a link?): Cline runs none but regular files, and skips it without a word", strings.Join(links, ", "), dir)
		f.Fix = "remove it, then " + fix
	case len(missing) == len(events):
		f.Detail, f.Fix = "lucid's hook files are not in "+dir, fix
	case len(missing) > 0:
		f.Detail = fmt.Sprintf("%s lacks lucid's hook files for %s: Cline runs those events unguarded", dir, strings.Join(missing, ", "))
		f.Fix = fix
	case len(stale) > 0:
		f.Detail = fmt.Sprintf("%s in %s is not this lucid's hook file (another version, or changed)", strings.Join(stale, ", "), dir)
		f.Fix = fix + " to write them again"
	default:
		f.OK, f.Detail = true, fmt.Sprintf("all %d of lucid's hook files in %s (Cline reads them only there, at the git work tree's top, for a cline started anywhere in it)", len(events), dir)
	}
	return f
}

// checkBash: Cline runs a hook file without an extension through bash.
func checkBash() setup.Finding {
	f := setup.Finding{Check: "cline runs bash"}
	if p, err := exec.LookPath("bash"); err == nil {
		f.OK, f.Detail = true, p+" runs lucid's hook files"
		return f
	}
	f.Detail = "no bash on PATH: Cline runs each hook file with bash, and goes on without it when it cannot"
	f.Fix = "install bash (Git Bash on Windows) onto the PATH cline starts with"
	return f
}

func advice(*gitstore.Repo) string {
	return "Cline (CLI 3.x) runs lucid's hook files from " + HooksDir + "/ in a session started anywhere in this work tree, with no setting to turn on. " +
		"It cannot refuse one tool for a hook (its cancel ends the whole task): lucid makes a refused call fail in place, and says why beside its result. " +
		"A Cline hub daemon already running gives hooks the PATH it started with: stop it (or start cline again from a shell with lucid on PATH) if lucid was installed since."
}
