package opencode

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
	"github.com/lucid-dev/lucid/installers"
)

// Plugin is lucid's plugin, as lucid init writes it.
//
//go:embed plugin.js
var Plugin []byte

// PluginName is where opencode loads lucid's plugin from, a file lucid
// owns whole.
const PluginName = ".opencode/plugins/lucid.js"

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
	Folder:   ".opencode",
	Own:      ownFile,
}

// Title is opencode as its users know it.
func (Client) Title() string { return "opencode" }

// Hooks is lucid's plugin file, as init and doctor find it.
func (Client) Hooks() *installers.Client { return Hooks }

// Install writes lucid's plugin, or its current version over an older
// one. A file of that name that is not lucid's is refused.
func (Client) Install(repo *gitstore.Repo, _ installers.Options) ([]installers.Change, error) {
	path := repo.Abs(PluginName)
	raw, err := gitstore.ReadFile(path, gitstore.MaxSettings)
	what := "lucid's plugin written"
	switch {
	case err == nil && bytes.Equal(raw, Plugin):
		return nil, nil
	case err == nil && !ownFile(raw):
		return nil, fmt.Errorf("%s is not lucid's plugin: rename it (opencode loads every .js of .opencode/plugins), then run `lucid init --client opencode` again", PluginName)
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
		if err := updateRecord(repo, func(r *record) { r.Dirs = append(r.Dirs, made...) }); err != nil {
			return nil, err
		}
	}
	return []installers.Change{{Path: PluginName, What: what}}, nil
}

// Uninstall removes lucid's plugin and the folders lucid created for it,
// once they are empty.
func (Client) Uninstall(repo *gitstore.Repo) ([]installers.Change, error) {
	var changes []installers.Change
	raw, err := gitstore.ReadFile(repo.Abs(PluginName), gitstore.MaxSettings)
	switch {
	case err == nil && ownFile(raw):
		if err := os.Remove(repo.Abs(PluginName)); err != nil {
			return nil, err
		}
		changes = append(changes, installers.Change{Path: PluginName, What: "removed"})
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, err
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

// record is what lucid init did beside the plugin, for uninstall to undo
// exactly: the folders it created. It is the work tree's own, in its git
// dir.
type record struct {
	Dirs []string `json:"dirs,omitempty"`
}

func recordPath(repo *gitstore.Repo) string {
	return filepath.Join(repo.GitDir, "lucid", "opencode-install.json")
}

func readRecord(repo *gitstore.Repo) (record, error) {
	var r record
	b, err := gitstore.ReadFile(recordPath(repo), gitstore.MaxSettings)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("%s: %v", recordPath(repo), err)
	}
	return r, nil
}

// updateRecord changes the record; an empty one goes.
func updateRecord(repo *gitstore.Repo, change func(*record)) error {
	r, err := readRecord(repo)
	if err != nil {
		return err
	}
	change(&r)
	path := recordPath(repo)
	if len(r.Dirs) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	b, _ := json.Marshal(r)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return gitstore.WriteFileAtomic(path, append(b, '\n'), 0o644)
}

// Check checks that the plugin is lucid's current one, that opencode
// loads it (one extra export or a throw at load, and opencode skips it
// with a log line alone), and that it finds lucid.
func (Client) Check(repo *gitstore.Repo) []installers.Finding {
	return []installers.Finding{checkPlugin(repo), checkLoads(repo), installers.CheckLucidOnPath(Hooks.ID, "opencode")}
}

func checkPlugin(repo *gitstore.Repo) installers.Finding {
	f := installers.Finding{Check: "opencode plugin"}
	raw, err := gitstore.ReadFile(repo.Abs(PluginName), gitstore.MaxSettings)
	switch {
	case err != nil:
		f.Detail, f.Fix = err.Error(), "run `lucid init --client opencode`"
	case !bytes.Equal(raw, Plugin):
		f.Detail, f.Fix = PluginName+" is not this lucid's plugin (another version, or changed)", "run `lucid init --client opencode` to write it again"
	default:
		f.OK, f.Detail = true, PluginName+" is this lucid's plugin"
	}
	return f
}

// checkLoads loads the plugin as opencode does, with node: every export
// must be a function, and the module must load.
func checkLoads(repo *gitstore.Repo) installers.Finding {
	f := installers.Finding{Check: "opencode plugin loads"}
	node, err := exec.LookPath("node")
	if err != nil {
		f.OK, f.Detail = true, "not checked: no node on PATH to load it with"
		return f
	}
	const script = `import(require("url").pathToFileURL(process.argv[1]).href).then(m => {
  const bad = Object.keys(m).filter(k => typeof m[k] !== "function");
  if (bad.length) { console.log("exports " + bad.join(", ") + ", not a function: opencode skips the whole plugin"); process.exit(1); }
}, e => { console.log("does not load: " + (e && e.message || e)); process.exit(1); })`
	out, err := exec.Command(node, "-e", script, repo.Abs(PluginName)).CombinedOutput()
	if err != nil {
		f.Detail = strings.TrimSpace(string(out))
		if f.Detail == "" {
			f.Detail = err.Error()
		}
		f.Detail = PluginName + " " + f.Detail
		f.Fix = "run `lucid init --client opencode` to write lucid's plugin again"
		return f
	}
	f.OK, f.Detail = true, PluginName+" loads and exports only its plugin function"
	return f
}

// CheckClient: doctor's checks of the client are all in Check.
func (Client) CheckClient() []installers.Finding { return nil }

// DoctorFiles: lucid reads no file of the client's.
func (Client) DoctorFiles() []string { return nil }

// User: opencode's user plugins are not set up by lucid.
func (Client) User() (*installers.Client, string, string) {
	return nil, "", "lucid sets opencode up per repository (lucid init --client opencode)"
}

// Advice is what lucid init says about opencode.
func (Client) Advice(*gitstore.Repo) string {
	return "opencode loads lucid's plugin from " + PluginName + " at its next start; `lucid doctor` checks that it loads."
}
