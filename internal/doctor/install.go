package doctor

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// npmPackage is lucid's npm package; its bins are bin/lucid and
// bin/lucid-view, a node launcher until its postinstall (or the launcher's
// first run) puts the native binary of the platform's package in their
// place.
const npmPackage = "@lucid-dev/lucid"

// installation is how the lucid at path (the one the hooks run, as found on
// PATH) came to be there: a description, and, when it will not do for the
// hooks, why and the fix. A hook runs on every tool call of every agent, so
// a lucid that starts node first is a failure where npm could have put the
// native binary there.
type installation struct {
	detail   string
	bad, fix string
}

func installedAs(path string) installation {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	slash := filepath.ToSlash(real)
	if dir, ok := npmDir(path, slash); ok {
		return npmInstallation(dir, real)
	}
	switch {
	case strings.Contains(slash, "/Cellar/"):
		return installation{detail: "installed by Homebrew"}
	case inGoBin(real):
		return installation{detail: "installed by go install (or make install)"}
	case inLocalBin(real):
		return installation{detail: "installed by install.sh (or by hand) in ~/.local/bin"}
	}
	return installation{}
}

// inLocalBin reports whether path is in ~/.local/bin, where install.sh
// puts lucid unless given --prefix.
func inLocalBin(path string) bool {
	home, err := os.UserHomeDir()
	return err == nil && filepath.Dir(path) == filepath.Join(home, ".local", "bin")
}

// npmDir is the folder of lucid's npm package when path (or real, the file
// it leads to) is npm's: the package's bin itself, or on Windows one of
// the shims npm writes beside its node_modules.
func npmDir(path, slash string) (string, bool) {
	if i := strings.Index(slash, "/node_modules/"+npmPackage+"/bin/"); i >= 0 {
		return filepath.FromSlash(slash[:i+len("/node_modules/"+npmPackage)]), true
	}
	dir := filepath.Join(filepath.Dir(path), "node_modules", filepath.FromSlash(npmPackage))
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return dir, true
	}
	return "", false
}

func npmInstallation(dir, real string) installation {
	in := installation{detail: "installed by npm (" + npmPackage + " in " + dir + ")"}
	head := make([]byte, 2)
	if f, err := os.Open(real); err == nil {
		f.Read(head)
		f.Close()
	}
	if !bytes.Equal(head, []byte("#!")) && !strings.EqualFold(filepath.Ext(real), ".cmd") && !strings.EqualFold(filepath.Ext(real), ".ps1") {
		in.detail += ": the native binary, which the hooks run without node"
		return in
	}
	if runtime.GOOS == "windows" {
		// npm's shims were written for the launcher and run it with node:
		// nothing here can change that.
		in.detail += ": npm's shim runs it through node, which every hook call pays for (the install script's lucid.exe does not)"
		return in
	}
	in.detail += ": still its node launcher, which every hook call would start before lucid"
	in.bad = "lucid on PATH is " + real + ", " + npmPackage + "'s node launcher, not the native binary (npm ran no install script)"
	in.fix = "run `lucid version` once (the launcher puts the native binary in its place), or `npm rebuild -g " + npmPackage + "`"
	return in
}

// inGoBin reports whether path is in the folder go install writes to.
func inGoBin(path string) bool {
	dirs := []string{os.Getenv("GOBIN")}
	for _, p := range filepath.SplitList(os.Getenv("GOPATH")) {
		dirs = append(dirs, filepath.Join(p, "bin"))
	}
	if home, err := os.UserHomeDir(); err == nil && os.Getenv("GOPATH") == "" {
		dirs = append(dirs, filepath.Join(home, "go", "bin"))
	}
	for _, d := range dirs {
		if d != "" && filepath.Dir(path) == filepath.Clean(d) {
			return true
		}
	}
	return false
}
