package gitstore

import (
	"bufio"
	"errors"
	"fmt"
	"os"
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
		if err := r.ForgetRemoteClaims(); err != nil {
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
	if err := r.ForgetRemoteClaims(); err != nil {
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

// configValue reads the last value of section.key (no subsection) from one
// git config file: what git itself would take from that file alone.
// Section and key compare without case; a value may be quoted.
func configValue(path, section, key string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	var val string
	found := false
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				in = false
				continue
			}
			in = strings.EqualFold(strings.TrimSpace(line[1:end]), section)
			line = strings.TrimSpace(line[end+1:])
		}
		if !in || line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), key) {
			continue
		}
		if v, err := unquoteConfig(strings.TrimSpace(v)); err == nil {
			val, found = v, true
		}
	}
	return val, found
}

// unquoteConfig reads a git config value: double quotes group, a backslash
// escapes, an unquoted # or ; starts a comment.
func unquoteConfig(v string) (string, error) {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(v[i])
			}
		case !quoted && (c == '#' || c == ';'):
			return strings.TrimSpace(b.String()), nil
		default:
			b.WriteByte(c)
		}
	}
	if quoted {
		return "", errors.New("unterminated quote")
	}
	return strings.TrimSpace(b.String()), nil
}
