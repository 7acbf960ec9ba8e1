package opencode

import (
	"bytes"
	_ "embed"
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

// Plugin is lucid's plugin, as lucid init writes it.
//
//go:embed plugin.js
var Plugin []byte

// PluginName is where opencode loads lucid's plugin from, a file lucid
// owns whole; KiloPluginName is Kilo Code's (which does not load
// .opencode/plugins).
const (
	PluginName     = ".opencode/plugins/lucid.js"
	KiloPluginName = ".kilo/plugins/lucid.js"
)

// place is one client's copy of the plugin: the client's name, title and
// settings as init and doctor find them.
type place struct {
	id, title, file string
	hooks           *installers.Client
}

var (
	opencodePlace = place{identity.Opencode{}.Name(), identity.Opencode{}.Title(), PluginName, Hooks}
	kiloPlace     = place{identity.Kilo{}.Name(), identity.Kilo{}.Title(), KiloPluginName, KiloHooks}
)

// pluginHead is the first line of lucid's plugin, of every version.
const pluginHead = "// lucid's plugin for opencode"

// ownFile reports whether b is lucid's plugin, of any version.
func ownFile(b []byte) bool { return bytes.HasPrefix(b, []byte(pluginHead)) }

// Hooks is opencode's plugin as plain lucid init and doctor find it: set
// up where the file is lucid's, detected where .opencode/ is.
var Hooks = &installers.Client{
	ID:       "opencode",
	Name:     "opencode",
	Settings: PluginName,
	Events:   events,
	Folders:  []string{".opencode"},
	Own:      ownFile,
}

// KiloHooks is Kilo Code's copy of the plugin, likewise, detected where
// .kilo/ or .kilocode/ is (Kilo loads plugins from both; lucid's goes in
// .kilo/plugins/).
var KiloHooks = &installers.Client{
	ID:       "kilo",
	Name:     "Kilo Code",
	Settings: KiloPluginName,
	Events:   events,
	Folders:  []string{".kilo", ".kilocode"},
	Own:      ownFile,
}

// Setup is lucid's set-up of opencode: its plugin, which doctor checks
// loads as opencode loads it (one extra export or a throw at load, and
// opencode skips it with a log line alone) and finds lucid.
// It is made when asked for, not at start, which every hook would pay.
func (Client) Setup() *installers.Setup { return opencodePlace.installer() }

// installer is the set-up of the plugin at p: written, or its current
// version over an older one (a file of that name that is not lucid's is
// refused); removed with the folders lucid created for it, once they are
// empty. lucid sets up no user plugins.
func (p place) installer() *installers.Setup {
	return &installers.Setup{
		Hooks: p.hooks, Write: p.install, Remove: p.uninstall, Check: p.check, Advice: p.advice,
		NotForUser: "lucid sets " + p.title + " up per repository (lucid init --client " + p.id + ")",
	}
}

func (p place) install(repo *gitstore.Repo, _ installers.Options) ([]setup.Change, error) {
	path := repo.Abs(p.file)
	raw, err := gitstore.ReadFile(path, gitstore.MaxSettings)
	what := "lucid's plugin written"
	switch {
	case err == nil && bytes.Equal(raw, Plugin):
		return nil, nil
	case err == nil && !ownFile(raw):
		return nil, fmt.Errorf("%s is not lucid's plugin: rename it (%s loads every .js of %s), then run `lucid init --client %s` again", p.file, p.title, filepath.ToSlash(filepath.Dir(p.file)), p.id)
	case err == nil:
		what = "lucid's plugin updated"
	case !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	made, err := installers.NewDirs(repo, filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if err := gitstore.WriteFileAtomic(path, Plugin, 0o644); err != nil {
		return nil, err
	}
	if len(made) > 0 {
		if err := p.updateRecord(repo, func(r *record) { r.Dirs = append(r.Dirs, made...) }); err != nil {
			return nil, err
		}
	}
	return []setup.Change{{Path: p.file, What: what}}, nil
}

func (p place) uninstall(repo *gitstore.Repo) ([]setup.Change, error) {
	var changes []setup.Change
	raw, err := gitstore.ReadFile(repo.Abs(p.file), gitstore.MaxSettings)
	switch {
	case err == nil && ownFile(raw):
		if err := os.Remove(repo.Abs(p.file)); err != nil {
			return nil, err
		}
		changes = append(changes, setup.Change{Path: p.file, What: "removed"})
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	rec, err := p.readRecord(repo)
	if err != nil || len(rec.Dirs) == 0 {
		return changes, err
	}
	for _, d := range rec.Dirs {
		os.Remove(repo.Abs(d)) // only where it is empty
	}
	return changes, p.updateRecord(repo, func(r *record) { r.Dirs = nil })
}

// record is what lucid init did beside the plugin, for uninstall to undo
// exactly: the folders it created. It is the work tree's own, in its git
// dir.
type record struct {
	Dirs []string `json:"dirs,omitempty"`
}

func (p place) recordPath(repo *gitstore.Repo) string {
	return filepath.Join(repo.GitDir, "lucid", p.id+"-install.json")
}

func (p place) readRecord(repo *gitstore.Repo) (record, error) {
	return installers.ReadRecord[record](p.recordPath(repo))
}

// updateRecord changes the record; an empty one goes.
func (p place) updateRecord(repo *gitstore.Repo, change func(*record)) error {
	return installers.UpdateRecord(p.recordPath(repo), change, func(r record) bool { return len(r.Dirs) == 0 })
}

func (p place) check(repo *gitstore.Repo) []setup.Finding {
	return []setup.Finding{p.checkPlugin(repo), p.checkLoads(repo), installers.CheckLucidOnPath(p.id, p.title)}
}

func (p place) checkPlugin(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: p.id + " plugin"}
	raw, err := gitstore.ReadFile(repo.Abs(p.file), gitstore.MaxSettings)
	switch {
	case err != nil:
		f.Detail, f.Fix = err.Error(), "run `lucid init --client "+p.id+"`"
	case !bytes.Equal(raw, Plugin):
		f.Detail, f.Fix = p.file+" is not this lucid's plugin (another version, or changed)", "run `lucid init --client "+p.id+"` to write it again"
	default:
		f.OK, f.Detail = true, p.file+" is this lucid's plugin"
	}
	return f
}

// checkLoads loads the plugin as opencode does, with node: every export
// must be a function, and the module must load.
func (p place) checkLoads(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: p.id + " plugin loads"}
	node, err := exec.LookPath("node")
	if err != nil {
		f.OK, f.Detail = true, "not checked: no node on PATH to load it with"
		return f
	}
	const script = `import(require("url").pathToFileURL(process.argv[1]).href).then(m => {
  const bad = Object.keys(m).filter(k => typeof m[k] !== "function");
  if (bad.length) { console.log("exports " + bad.join(", ") + ", not a function: opencode skips the whole plugin"); process.exit(1); }
}, e => { console.log("does not load: " + (e && e.message || e)); process.exit(1); })`
	out, err := exec.Command(node, "-e", script, repo.Abs(p.file)).CombinedOutput()
	if err != nil {
		f.Detail = strings.TrimSpace(string(out))
		if f.Detail == "" {
			f.Detail = err.Error()
		}
		f.Detail = p.file + " " + f.Detail
		f.Fix = "run `lucid init --client " + p.id + "` to write lucid's plugin again"
		return f
	}
	f.OK, f.Detail = true, p.file+" loads and exports only its plugin function"
	return f
}

func (p place) advice(*gitstore.Repo) string {
	return p.title + " loads lucid's plugin from " + p.file + " at its next start; `lucid doctor` checks that it loads."
}

// Kilo is Kilo Code's CLI, a fork of opencode that loads the same plugin
// from its own folder, .kilo/plugins/ (not .opencode/plugins/), and hands
// its calls to lucid hook --client kilo.
type Kilo struct{ Client }

func (Kilo) Name() string  { return identity.Kilo{}.Name() }
func (Kilo) Title() string { return identity.Kilo{}.Title() }

// ClientProcess: Kilo Code CLI's own program, kilo, not opencode's.
func (Kilo) ClientProcess(name string, args []string) bool {
	return identity.Kilo{}.ClientProcess(name, args)
}

// Setup is lucid's set-up of Kilo Code: the plugin in .kilo/plugins/.
func (Kilo) Setup() *installers.Setup { return kiloPlace.installer() }
