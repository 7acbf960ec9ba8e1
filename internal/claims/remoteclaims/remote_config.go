package remoteclaims

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
)

// ConfigKey is the git config key that names the remote claims are
// shared through. `lucid remote set` writes it into the repository's own
// config, where Remote reads it.
const ConfigKey = "lucid.remote"

// Remote is the name of the remote claims are shared through, "" when
// they are not. It reads the repository's config file itself (a git
// process would add a millisecond or more to every lucid claim), so a value
// set only in a global or included config is not seen.
func Remote(r *gitstore.Repo) string {
	v, _ := gitstore.ConfigValue(filepath.Join(r.CommonDir, "config"), "lucid", "remote")
	return v
}

// RemoteURL is the URL of the remote name as git sees it; an error that
// names `git remote -v` when there is no such remote.
func RemoteURL(r *gitstore.Repo, name string) (string, error) {
	if name == "" || strings.HasPrefix(name, "-") || strings.ContainsAny(name, " \t\n") {
		return "", fmt.Errorf("%q is not the name of a git remote: `git remote -v` lists them", name)
	}
	out, err := git(r, nil, "remote", "get-url", name)
	if err != nil {
		return "", fmt.Errorf("this repository has no remote %q: `git remote -v` lists them, `git remote add %s URL` adds one", name, name)
	}
	return strings.TrimSpace(string(out)), nil
}

// SetRemote shares claims through the remote name, which must exist.
// Changing the remote forgets the copy of the old one's claims.
func SetRemote(r *gitstore.Repo, name string) error {
	if _, err := RemoteURL(r, name); err != nil {
		return err
	}
	if old := Remote(r); old != name {
		if err := forgetRemoteClaims(r); err != nil {
			return err
		}
	}
	if _, err := git(r, nil, "config", "--local", ConfigKey, name); err != nil {
		return err
	}
	return nil
}

// UnsetRemote stops sharing claims: it removes the setting and the
// copy of the remote's claims, so that the hooks stop enforcing them. The
// remote keeps what it holds. It reports whether a remote was set.
func UnsetRemote(r *gitstore.Repo) (bool, error) {
	set := Remote(r) != ""
	if err := forgetRemoteClaims(r); err != nil {
		return set, err
	}
	if !set {
		return false, nil
	}
	if _, err := git(r, nil, "config", "--local", "--unset-all", ConfigKey); err != nil {
		return true, err
	}
	return true, nil
}
