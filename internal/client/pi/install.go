package pi

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/setup"
)

// Extension is lucid's extension, as lucid init writes it.
//
//go:embed extension.js
var Extension []byte

// ExtensionName is where Pi loads a project's extensions from (its cwd's
// .pi/extensions/, no walk up to parents), a file lucid owns whole;
// OmpExtensionName is omp's, which does not read .pi/extensions/.
const (
	ExtensionName    = ".pi/extensions/lucid.js"
	OmpExtensionName = ".omp/extensions/lucid.js"
)

// extensionHead is the first line of lucid's extension, of every version.
const extensionHead = "// lucid's extension for Pi"

// ownFile reports whether b is lucid's extension, of any version.
func ownFile(b []byte) bool { return bytes.HasPrefix(b, []byte(extensionHead)) }

// Hooks is Pi's extension as plain lucid init and doctor find it: set up
// where the file is lucid's, detected where .pi/ is.
var Hooks = &installers.Client{
	ID:       "pi",
	Name:     "Pi",
	Settings: ExtensionName,
	Events:   events,
	Folders:  []string{".pi"},
	Own:      ownFile,
}

// OmpHooks is omp's copy of the extension, detected where .omp/ is.
var OmpHooks = &installers.Client{
	ID:       "omp",
	Name:     "oh-my-pi",
	Settings: OmpExtensionName,
	Events:   events,
	Folders:  []string{".omp"},
	Own:      ownFile,
}

// place is one client's copy of the extension: the client's name, title,
// project file and user folder.
type place struct {
	id, title, file string
	hooks           *installers.Client
	// userDir is the user's agent folder (~/.pi/agent), whose
	// extensions/ every session loads, trusted or not.
	userDir func() string
}

var (
	piPlace  = place{identity.Pi{}.Name(), identity.Pi{}.Title(), ExtensionName, Hooks, piAgentDir}
	ompPlace = place{identity.Omp{}.Name(), identity.Omp{}.Title(), OmpExtensionName, OmpHooks, ompAgentDir}
)

// piAgentDir is Pi's agent folder: PI_CODING_AGENT_DIR, or ~/.pi/agent.
func piAgentDir() string {
	if d := os.Getenv("PI_CODING_AGENT_DIR"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".pi", "agent")
}

// ompAgentDir is omp's: ~/.omp/agent.
func ompAgentDir() string {
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".omp", "agent")
}

func (p place) userFile() string { return filepath.Join(p.userDir(), "extensions", "lucid.js") }

// Setup is lucid's set-up of Pi: its extension in .pi/extensions/, or with
// --user in the user's agent folder; doctor checks that it loads as Pi
// loads it (a throw at load stops Pi) and what would have Pi skip it.
// It is made when asked for, not at start, which every hook would pay.
func (Client) Setup() *installers.Setup { return piPlace.installer() }

// Setup is lucid's set-up of omp: the extension in .omp/extensions/.
func (Omp) Setup() *installers.Setup { return ompPlace.installer() }

func (p place) installer() *installers.Setup {
	return &installers.Setup{
		Hooks: p.hooks, Write: p.install, Remove: p.uninstall, Check: p.check, Advice: p.advice,
		UserSettings: p.userFile, UserWrite: p.installUser, UserRemove: p.uninstallUser,
	}
}

// write puts the extension at path (abs), over lucid's own of any version
// and nothing else's; shown is how the change names it. made are the
// folders it created, outermost last.
func (p place) write(path, shown string, newDirs func(string) ([]string, error)) ([]setup.Change, []string, error) {
	raw, err := gitstore.ReadFile(path, gitstore.MaxSettings)
	what := "lucid's extension written"
	switch {
	case err == nil && bytes.Equal(raw, Extension):
		return nil, nil, nil
	case err == nil && !ownFile(raw):
		return nil, nil, fmt.Errorf("%s is not lucid's extension: rename it (%s loads every .js of %s), then run `lucid init --client %s` again", shown, p.title, filepath.ToSlash(filepath.Dir(shown)), p.id)
	case err == nil:
		what = "lucid's extension updated"
	case !errors.Is(err, os.ErrNotExist):
		return nil, nil, err
	}
	made, err := newDirs(filepath.Dir(path))
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, nil, err
	}
	if err := gitstore.WriteFileAtomic(path, Extension, 0o644); err != nil {
		return nil, nil, err
	}
	return []setup.Change{{Path: shown, What: what}}, made, nil
}

// remove takes lucid's extension at path away, and the folders made for
// it once they are empty.
func remove(path, shown string, made []string) ([]setup.Change, error) {
	var changes []setup.Change
	raw, err := gitstore.ReadFile(path, gitstore.MaxSettings)
	switch {
	case err == nil && ownFile(raw):
		if err := os.Remove(path); err != nil {
			return nil, err
		}
		changes = append(changes, setup.Change{Path: shown, What: "removed"})
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	for _, d := range made {
		os.Remove(d) // only where it is empty
	}
	return changes, nil
}

func (p place) install(repo *gitstore.Repo, _ installers.Options) ([]setup.Change, error) {
	changes, made, err := p.write(repo.Abs(p.file), p.file, func(dir string) ([]string, error) { return installers.NewDirs(repo, dir) })
	if err != nil || len(made) == 0 {
		return changes, err
	}
	return changes, installers.UpdateRecord(p.recordPath(repo), func(r *record) { r.Dirs = append(r.Dirs, made...) }, record.empty)
}

func (p place) uninstall(repo *gitstore.Repo) ([]setup.Change, error) {
	rec, err := installers.ReadRecord[record](p.recordPath(repo))
	if err != nil {
		return nil, err
	}
	var made []string
	for _, d := range rec.Dirs {
		made = append(made, repo.Abs(d))
	}
	changes, err := remove(repo.Abs(p.file), p.file, made)
	if err != nil || len(made) == 0 {
		return changes, err
	}
	return changes, installers.UpdateRecord(p.recordPath(repo), func(r *record) { r.Dirs = nil }, record.empty)
}

// installUser puts the extension in the user's agent folder, which Pi
// loads in every session, in a folder it trusts or not; the folders it
// made are recorded beside it.
func (p place) installUser() ([]setup.Change, error) {
	path := p.userFile()
	changes, made, err := p.write(path, path, func(dir string) ([]string, error) {
		var made []string
		for d := dir; d != filepath.Dir(d); d = filepath.Dir(d) {
			if _, err := os.Lstat(d); err == nil {
				break
			} else if !errors.Is(err, os.ErrNotExist) {
				return nil, err
			}
			made = append(made, d)
		}
		return made, nil
	})
	if err != nil || len(made) == 0 {
		return changes, err
	}
	return changes, installers.UpdateRecord(p.userRecordPath(), func(r *record) { r.Dirs = append(r.Dirs, made...) }, record.empty)
}

func (p place) uninstallUser() ([]setup.Change, error) {
	rec, err := installers.ReadRecord[record](p.userRecordPath())
	if err != nil {
		return nil, err
	}
	// The record goes first: it sits in a folder that may be one made.
	if err := os.Remove(p.userRecordPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return remove(p.userFile(), p.userFile(), rec.Dirs)
}

// record is what lucid init did beside the extension, for uninstall to
// undo exactly: the folders it created. A work tree's is in its git dir;
// the user's beside the user's extension.
type record struct {
	Dirs []string `json:"dirs,omitempty"`
}

func (r record) empty() bool { return len(r.Dirs) == 0 }

func (p place) recordPath(repo *gitstore.Repo) string {
	return filepath.Join(repo.GitDir, "lucid", p.id+"-install.json")
}

// userRecordPath is beside the user's extension, where Pi loads no file
// (it loads *.js and *.ts), so that uninstall leaves no folder of lucid's
// elsewhere.
func (p place) userRecordPath() string {
	return filepath.Join(p.userDir(), "extensions", ".lucid-install.json")
}

func (p place) check(repo *gitstore.Repo) []setup.Finding {
	fs := []setup.Finding{p.checkExtension(repo), p.checkLoads(repo.Abs(p.file), p.file)}
	if p.id == piPlace.id {
		fs = append(fs, p.checkTrust(repo))
	}
	return append(fs, installers.CheckLucidOnPath(p.id, p.title))
}

func (p place) checkExtension(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: p.id + " extension"}
	raw, err := gitstore.ReadFile(repo.Abs(p.file), gitstore.MaxSettings)
	switch {
	case err != nil:
		f.Detail, f.Fix = err.Error(), "run `lucid init --client "+p.id+"`"
	case !bytes.Equal(raw, Extension):
		f.Detail, f.Fix = p.file+" is not this lucid's extension (another version, or changed)", "run `lucid init --client "+p.id+"` to write it again"
	default:
		f.OK, f.Detail = true, p.file+" is this lucid's extension"
	}
	return f
}

// loadScript loads an extension as Pi does, with node: its default export
// must be a function, and neither the import nor that function may throw,
// since either stops Pi altogether (omp runs on without it). The function
// is called with a stand-in for Pi's API that takes every registration.
const loadScript = `import(require("url").pathToFileURL(process.argv[1]).href).then(m => {
  if (typeof m.default !== "function") { console.log("has no default export function: Pi stops at start with an error"); process.exit(1); }
  const events = [];
  const api = new Proxy({ on: (name) => { events.push(name); } }, { get: (t, k) => k in t ? t[k] : () => {} });
  try { m.default(api); } catch (e) { console.log("throws as Pi loads it (" + (e && e.message || e) + "): Pi stops at start"); process.exit(1); }
  if (!events.includes("tool_call")) { console.log("registers no tool_call handler: lucid would guard nothing"); process.exit(1); }
}, e => { console.log("does not load (" + (e && e.message || e) + "): Pi stops at start"); process.exit(1); })`

// checkLoads loads the extension at path (shown as shown) as Pi does.
func (p place) checkLoads(path, shown string) setup.Finding {
	f := setup.Finding{Check: p.id + " extension loads"}
	node, err := exec.LookPath("node")
	if err != nil {
		f.OK, f.Detail = true, "not checked: no node on PATH to load it with"
		return f
	}
	out, err := exec.Command(node, "-e", loadScript, path).CombinedOutput()
	if err != nil {
		f.Detail = strings.TrimSpace(string(out))
		if f.Detail == "" {
			f.Detail = err.Error()
		}
		f.Detail = shown + " " + f.Detail
		f.Fix = "run `lucid init --client " + p.id + "` to write lucid's extension again"
		return f
	}
	f.OK, f.Detail = true, shown+" loads and registers its handlers"
	return f
}

// checkTrust checks what has Pi from 0.79 on (the package
// @earendil-works/pi-coding-agent) skip a project's extensions without a
// word in pi -p: a folder it has not been told to trust. An extension in
// the user's agent folder loads in every folder; Pi 0.73 has no gate.
func (p place) checkTrust(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "pi project trust"}
	dir := p.userDir()
	if raw, err := os.ReadFile(p.userFile()); err == nil && ownFile(raw) {
		f.OK, f.Detail = true, "lucid's extension is in "+p.userFile()+" too, which Pi loads whether it trusts the folder or not"
		return f
	}
	var settings struct {
		DefaultProjectTrust string `json:"defaultProjectTrust"`
	}
	sb, serr := os.ReadFile(filepath.Join(dir, "settings.json"))
	if serr == nil {
		json.Unmarshal(sb, &settings)
	}
	if settings.DefaultProjectTrust == "always" {
		f.OK, f.Detail = true, "Pi trusts every folder (defaultProjectTrust \"always\" in "+filepath.Join(dir, "settings.json")+")"
		return f
	}
	trust := map[string]bool{}
	tb, terr := os.ReadFile(filepath.Join(dir, "trust.json"))
	if terr == nil {
		json.Unmarshal(tb, &trust)
	}
	for d := repo.Top; ; d = filepath.Dir(d) {
		if v, ok := trust[d]; ok {
			if v {
				f.OK, f.Detail = true, "Pi trusts "+d+" ("+filepath.Join(dir, "trust.json")+")"
				return f
			}
			break
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	fix := "run `lucid init --user --client pi` (the user's extensions load in every folder), or answer Pi's \"Trust project folder?\" with Trust, or start pi with --approve"
	if terr != nil && settings.DefaultProjectTrust == "" {
		// Nothing of Pi 0.79 or later here: 0.73 loads .pi/extensions as it is.
		f.OK, f.Detail = true, "no trust of Pi's recorded: Pi 0.73 loads "+p.file+" as it is; Pi 0.79 and later skip it in pi -p in a folder they do not trust ("+fix+")"
		return f
	}
	f.Detail, f.Fix = "Pi does not trust "+repo.Top+": from 0.79 on it skips "+p.file+" in pi -p without a word, and asks in its TUI", fix
	return f
}

func (p place) advice(*gitstore.Repo) string {
	s := p.title + " loads lucid's extension from " + p.file + " at its next start; `lucid doctor` checks that it loads."
	if p.id == piPlace.id {
		s += " Pi from 0.79 on (@earendil-works/pi-coding-agent) loads a project's extensions only in a folder it trusts: `lucid init --user --client pi` puts lucid's in " + p.userFile() + ", which loads everywhere."
	}
	return s
}
