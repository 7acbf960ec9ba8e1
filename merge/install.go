package merge

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/setup"
)

// DriverCommand is the value of merge.lucid.driver. When lucid cannot be
// run (a clone on a machine without it, or an old lucid without the
// command), git merge-file --union keeps both sides, where git alone would
// keep only ours and report a conflict. It is also the fallback, harmless,
// when lucid fails: the driver writes %A only when it succeeds.
const DriverCommand = "lucid merge-driver %O %A %B %L %P || git merge-file --union %A %O %B"

// DriverName is the value of merge.lucid.name, which git shows in messages.
const DriverName = "lucid: union of the log's entries, by id"

// The config keys the installer writes.
const (
	driverKey = "merge.lucid.driver"
	nameKey   = "merge.lucid.name"
)

// isOurs reports whether a merge.lucid.driver value is lucid's: this
// version's, or `lucid merge-driver` with git's placeholders and nothing
// else (an earlier form, or one typed by hand), which Install brings up to
// date. Nothing that runs another command counts, so that Check never runs
// a command lucid did not write.
func isOurs(value string) bool {
	if value == DriverCommand {
		return true
	}
	f := strings.Fields(value)
	if len(f) < 2 || f[0] != "lucid" || f[1] != "merge-driver" {
		return false
	}
	for _, arg := range f[2:] {
		switch arg {
		case "%O", "%A", "%B", "%L", "%P":
		default:
			return false
		}
	}
	return true
}

// commonConfig is the config file of the repository's common git dir: every
// linked work tree reads it, also with extensions.worktreeConfig, where
// `git config` in a linked work tree could write to its own config.worktree.
func commonConfig(repo *gitstore.Repo) string {
	return filepath.Join(repo.CommonDir, "config")
}

// ConfigInstalled reports whether the repository's common config has
// lucid's merge.lucid.driver, as this version writes it. It reads the file
// itself and runs no process: InstallConfig asks it first, at every
// SessionStart. It does not look at the user's global config (a driver
// there still gets the repository's own copy, once) nor follow include
// directives.
func ConfigInstalled(repo *gitstore.Repo) bool {
	values, _ := gitstore.ConfigValues(commonConfig(repo), "merge", "lucid", "driver")
	return len(values) > 0 && values[len(values)-1] == DriverCommand
}

// InstallConfig writes merge.lucid.name and merge.lucid.driver into the
// repository's common config when the work tree's .gitattributes gives the
// log lucid's driver (AttrLine) and ConfigInstalled says they are missing,
// and reports whether it wrote them. That is what a fresh clone of a
// repository that uses lucid lacks: the attribute comes with the clone,
// the config does not. It is for the SessionStart hook: when there is
// nothing to do it reads two files and runs no process. A
// merge.lucid.driver that lucid did not write, in any config git reads,
// is left alone with an error.
func InstallConfig(repo *gitstore.Repo) (bool, error) {
	if ConfigInstalled(repo) || !hasAttribute(repo) {
		return false, nil
	}
	return installConfig(repo, false)
}

// Install sets the log's merge driver up: the line AttrLine in the work
// tree's .gitattributes (created if missing) and merge.lucid.name and
// merge.lucid.driver in the repository's common config. Run again, it
// changes nothing. A merge.lucid.driver that lucid did not write is an
// error, and nothing is changed, unless force, which replaces it.
func Install(repo *gitstore.Repo, force bool) ([]setup.Change, error) {
	if _, err := foreignDriver(repo, force); err != nil {
		return nil, err
	}
	var changes []setup.Change
	what, err := addAttribute(repo)
	if err != nil {
		return nil, err
	}
	if what != "" {
		changes = append(changes, setup.Change{Path: attributesName, What: what})
	}
	wrote, err := installConfig(repo, force)
	if err != nil {
		return changes, err
	}
	if wrote {
		changes = append(changes, setup.Change{Path: displayPath(repo, commonConfig(repo)), What: "set " + nameKey + " and " + driverKey})
	}
	return changes, nil
}

// foreignDriver looks up merge.lucid.driver in every config git reads for
// the repository, and returns an error when it is set and not lucid's,
// unless force. It reports whether the effective value is lucid's.
func foreignDriver(repo *gitstore.Repo, force bool) (ours bool, err error) {
	out, err := git(repo.Top, "config", "--show-origin", "--get", driverKey)
	if gitstore.GitExitCode(err) == 1 {
		return false, nil // not set anywhere
	}
	if err != nil {
		return false, err
	}
	origin, value, _ := strings.Cut(out, "\t")
	origin = strings.TrimPrefix(origin, "file:")
	if isOurs(value) {
		return true, nil
	}
	if force {
		return false, nil
	}
	return false, fmt.Errorf("%s is already set to %q (in %s), not by lucid: it is left alone; run `lucid init --force` to replace it", driverKey, value, origin)
}

// installConfig writes the two keys into the common config unless they are
// there already, and reports whether it wrote.
func installConfig(repo *gitstore.Repo, force bool) (bool, error) {
	if _, err := foreignDriver(repo, force); err != nil {
		return false, err
	}
	path := commonConfig(repo)
	drivers, _ := gitstore.ConfigValues(path, "merge", "lucid", "driver")
	names, _ := gitstore.ConfigValues(path, "merge", "lucid", "name")
	if len(drivers) == 1 && drivers[0] == DriverCommand && len(names) == 1 && names[0] == DriverName {
		return false, nil
	}
	for _, kv := range [][2]string{{nameKey, DriverName}, {driverKey, DriverCommand}} {
		if _, err := git(repo.Top, "config", "--file", path, "--replace-all", kv[0], kv[1]); err != nil {
			return false, err
		}
	}
	// A value in a config that git reads after the common one (the work
	// tree's config.worktree) would still win.
	out, err := git(repo.Top, "config", "--show-origin", "--get", driverKey)
	if err != nil {
		return true, err
	}
	if origin, value, _ := strings.Cut(out, "\t"); value != DriverCommand {
		return true, fmt.Errorf("%s in %s overrides lucid's in %s: remove it with `git config --file %s --unset %s`",
			driverKey, strings.TrimPrefix(origin, "file:"), path, strings.TrimPrefix(origin, "file:"), driverKey)
	}
	return true, nil
}

// Uninstall removes what Install added: AttrLine from .gitattributes (and
// the file, if lucid created it and nothing else is left in it), and the
// two keys from the common config, with their [merge "lucid"] section when
// it is left empty. A merge.lucid.driver that lucid did not write stays,
// with its name.
func Uninstall(repo *gitstore.Repo) ([]setup.Change, error) {
	var changes []setup.Change
	what, err := removeAttribute(repo)
	if err != nil {
		return nil, err
	}
	if what != "" {
		changes = append(changes, setup.Change{Path: attributesName, What: what})
	}
	path := commonConfig(repo)
	drivers, _ := gitstore.ConfigValues(path, "merge", "lucid", "driver")
	if len(drivers) == 0 || !isOurs(drivers[len(drivers)-1]) {
		return changes, nil
	}
	for _, key := range []string{driverKey, nameKey} {
		_, err := git(repo.Top, "config", "--file", path, "--unset-all", key)
		if err != nil && gitstore.GitExitCode(err) != 5 { // 5: the key was not there
			return changes, err
		}
	}
	// git 2.39 drops the emptied section itself; older ones leave it.
	if _, has := gitstore.ConfigValues(path, "merge", "lucid", ""); has && !sectionHasKeys(path) {
		if _, err := git(repo.Top, "config", "--file", path, "--remove-section", "merge.lucid"); err != nil {
			return changes, err
		}
	}
	changes = append(changes, setup.Change{Path: displayPath(repo, path), What: "removed " + nameKey + " and " + driverKey})
	return changes, nil
}

// sectionHasKeys reports whether [merge "lucid"] has any key left.
func sectionHasKeys(path string) bool {
	out, err := git(filepath.Dir(path), "config", "--file", path, "--get-regexp", `^merge\.lucid\.`)
	return err == nil && out != ""
}

// displayPath returns path relative to the work tree's top when it is
// inside it, else as it is.
func displayPath(repo *gitstore.Repo, path string) string {
	if rel, ok := gitstore.Inside(repo.Top, path); ok {
		return filepath.ToSlash(rel)
	}
	return path
}
