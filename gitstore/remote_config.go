package gitstore

import (
	"fmt"
	"path/filepath"
	"strings"
)

// RemoteConfigKey is the git config key that names the remote claims are
// shared through. `lucid remote set` writes it into the repository's own
// config, where ClaimsRemote reads it.
const RemoteConfigKey = "lucid.remote"

// ClaimsRemote is the name of the remote claims are shared through, "" when
// they are not. It reads the repository's config file itself (a git
// process would add a millisecond or more to every lucid claim), so a value
// set only in a global or included config is not seen.
func (r *Repo) ClaimsRemote() string {
	v, _ := configValue(filepath.Join(r.CommonDir, "config"), "lucid", "remote")
	return v
}

// RemoteURL is the URL of the remote name as git sees it; an error that
// names `git remote -v` when there is no such remote.
func (r *Repo) RemoteURL(name string) (string, error) {
	if name == "" || strings.HasPrefix(name, "-") || strings.ContainsAny(name, " \t\n") {
		return "", fmt.Errorf("%q is not the name of a git remote: `git remote -v` lists them", name)
	}
	out, err := r.git(nil, "remote", "get-url", name)
	if err != nil {
		return "", fmt.Errorf("this repository has no remote %q: `git remote -v` lists them, `git remote add %s URL` adds one", name, name)
	}
	return strings.TrimSpace(string(out)), nil
}

// SetClaimsRemote shares claims through the remote name, which must exist.
// Changing the remote forgets the copy of the old one's claims.
func (r *Repo) SetClaimsRemote(name string) error {
	if _, err := r.RemoteURL(name); err != nil {
		return err
	}
	if old := r.ClaimsRemote(); old != name {
		if err := r.forgetRemoteClaims(); err != nil {
			return err
		}
	}
	if _, err := r.git(nil, "config", "--local", RemoteConfigKey, name); err != nil {
		return err
	}
	return nil
}

// UnsetClaimsRemote stops sharing claims: it removes the setting and the
// copy of the remote's claims, so that the hooks stop enforcing them. The
// remote keeps what it holds. It reports whether a remote was set.
func (r *Repo) UnsetClaimsRemote() (bool, error) {
	set := r.ClaimsRemote() != ""
	if err := r.forgetRemoteClaims(); err != nil {
		return set, err
	}
	if !set {
		return false, nil
	}
	if _, err := r.git(nil, "config", "--local", "--unset-all", RemoteConfigKey); err != nil {
		return true, err
	}
	return true, nil
}
