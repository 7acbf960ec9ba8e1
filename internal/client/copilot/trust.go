package copilot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/installers"
	"github.com/lucid-dev/lucid/internal/setup"
)

// Copilot CLI 1.0.102 loads a repository's hooks only in a trusted folder:
// one in trustedFolders of $COPILOT_HOME/config.json (a folder trusts its
// subfolders), or with --trust-folder, or with COPILOT_ALLOW_ALL=true
// (which approves every tool too). The file starts with // comment lines
// that the CLI writes, before one JSON object.

// Home is Copilot's folder: $COPILOT_HOME, or ~/.copilot.
func Home() string {
	if h := os.Getenv("COPILOT_HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return filepath.Join(h, ".copilot")
}

// ConfigPath is Copilot's config.json.
func ConfigPath() string { return filepath.Join(Home(), "config.json") }

// record is what lucid init did outside lucid's hook file, for uninstall
// to undo exactly: the folders it created for the file, and the trust it
// wrote. It is the work tree's own, in its git dir.
type record struct {
	Dirs  []string `json:"dirs,omitempty"`
	Trust *trusted `json:"trust,omitempty"`
}

// trusted is a folder lucid added to trustedFolders in Config, with the
// member itself where lucid added that too, or the file where it wrote it.
type trusted struct {
	Config, Folder string
	Member, File   bool `json:",omitempty"`
}

func recordPath(repo *gitstore.Repo) string {
	return filepath.Join(repo.GitDir, "lucid", "copilot-install.json")
}

func readRecord(repo *gitstore.Repo) (record, error) {
	return installers.ReadRecord[record](recordPath(repo))
}

// updateRecord changes the record; an empty one goes.
func updateRecord(repo *gitstore.Repo, change func(*record)) error {
	return installers.UpdateRecord(recordPath(repo), change, func(r record) bool { return len(r.Dirs) == 0 && r.Trust == nil })
}

// config is config.json: its leading comment lines, then the object.
type config struct {
	path    string
	head    []byte // the // lines and blank lines before the object
	body    []byte
	existed bool
}

func readConfig(path string) (*config, error) {
	c := &config{path: path}
	b, err := installers.ReadHomeFile(&c.path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	c.existed = true
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line = b[:i+1]
		}
		t := bytes.TrimSpace(line)
		if len(t) > 0 && !bytes.HasPrefix(t, []byte("//")) {
			break
		}
		c.head, b = append(c.head, line...), b[len(line):]
	}
	c.body = b
	if len(bytes.TrimSpace(b)) > 0 {
		if _, err := c.folders(); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// folders is trustedFolders: its values, and whether the object has the
// member at all.
type folders struct {
	values []string
	member bool
}

func (c *config) folders() (folders, error) {
	bad := func(why string) (folders, error) {
		return folders{}, fmt.Errorf("%s: %s: fix it, then run lucid again", c.path, why)
	}
	if !json.Valid(c.body) {
		return bad("not valid JSON")
	}
	elems, member, err := installers.ListMember(c.body, trustedFolders)
	if err != nil {
		return bad(err.Error())
	}
	f := folders{member: member}
	for _, e := range elems {
		var v string
		if err := json.Unmarshal(e, &v); err != nil {
			return bad("trustedFolders is not a list of folders")
		}
		f.values = append(f.values, v)
	}
	return f, nil
}

const trustedFolders = "trustedFolders"

func (c *config) write() error {
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return err
	}
	perm := os.FileMode(0o600)
	if fi, err := os.Stat(c.path); err == nil {
		perm = fi.Mode().Perm()
	}
	return gitstore.WriteFileAtomic(c.path, append(append([]byte{}, c.head...), c.body...), perm)
}

// trusts reports whether folders trust dir: it or a folder above it is
// among them.
func trusts(values []string, dir string) bool {
	for _, v := range values {
		if v == "" {
			continue
		}
		if _, ok := gitstore.Inside(filepath.Clean(v), dir); ok || v == dir {
			return true
		}
	}
	return false
}

// trustedHere reports whether Copilot trusts dir, and so loads the
// repository's hooks there, by what a hook can see: COPILOT_ALLOW_ALL or
// config.json. A session's --trust-folder leaves no trace a hook can read.
func trustedHere(dir string) bool {
	if os.Getenv("COPILOT_ALLOW_ALL") == "true" {
		return true
	}
	c, err := readConfig(ConfigPath())
	if err != nil || len(bytes.TrimSpace(c.body)) == 0 {
		return false
	}
	f, _ := c.folders()
	return trusts(f.values, dir)
}

// Trust adds the work tree's top to trustedFolders in Copilot's
// config.json, keeping every byte of the user's, unless Copilot trusts it
// already; lucid's record says what it added, for Untrust.
func Trust(repo *gitstore.Repo) ([]setup.Change, error) {
	c, err := readConfig(ConfigPath())
	if err != nil {
		return nil, err
	}
	t := &trusted{Config: c.path, Folder: repo.Top}
	q, _ := installers.MarshalNoEscape(repo.Top)
	if len(bytes.TrimSpace(c.body)) == 0 {
		c.body = []byte("{\n  \"trustedFolders\": [\n    " + string(q) + "\n  ]\n}\n")
		t.File = !c.existed && len(c.head) == 0
		t.Member = true
	} else {
		f, _ := c.folders()
		if trusts(f.values, repo.Top) {
			return nil, nil
		}
		c.body = installers.AppendElement(c.body, trustedFolders, q)
		t.Member = !f.member
	}
	if err := c.write(); err != nil {
		return nil, err
	}
	if err := updateRecord(repo, func(r *record) { r.Trust = t }); err != nil {
		return nil, err
	}
	return []setup.Change{{Path: c.path, What: "GitHub Copilot CLI trusts " + repo.Top}}, nil
}

// Untrust removes the trust that Trust added, and nothing else: the
// folder from trustedFolders, the member where Trust added it and it holds
// nothing else, the file where Trust wrote it and it holds nothing else.
func Untrust(repo *gitstore.Repo) ([]setup.Change, error) {
	rec, err := readRecord(repo)
	if err != nil || rec.Trust == nil {
		return nil, err
	}
	t := rec.Trust
	done := func(ch []setup.Change) ([]setup.Change, error) {
		return ch, updateRecord(repo, func(r *record) { r.Trust = nil })
	}
	c, err := readConfig(t.Config)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(c.body)) == 0 {
		return done(nil)
	}
	f, _ := c.folders()
	i := -1
	for j, v := range f.values {
		if v == t.Folder {
			i = j
		}
	}
	if i < 0 {
		return done(nil)
	}
	c.body = installers.RemoveElement(c.body, trustedFolders, i, t.Member)
	what := "GitHub Copilot CLI's trust in " + t.Folder + " removed"
	if t.File && len(c.head) == 0 && installers.SameJSON(c.body, []byte("{}")) {
		if err := os.Remove(c.path); err != nil {
			return nil, err
		}
		return done([]setup.Change{{Path: c.path, What: "removed (it held only the trust lucid wrote)"}})
	}
	if err := c.write(); err != nil {
		return nil, err
	}
	return done([]setup.Change{{Path: c.path, What: what}})
}

// checkTrust checks that Copilot will load lucid's hooks here: the work
// tree is trusted by config.json, or COPILOT_ALLOW_ALL=true trusts every
// folder.
func checkTrust(repo *gitstore.Repo) setup.Finding {
	f := setup.Finding{Check: "copilot folder trust"}
	if os.Getenv("COPILOT_ALLOW_ALL") == "true" {
		f.OK, f.Detail = true, "COPILOT_ALLOW_ALL=true trusts every folder (and approves every tool)"
		return f
	}
	c, err := readConfig(ConfigPath())
	if err != nil {
		f.Detail, f.Fix = err.Error(), "fix the file, then run `lucid doctor` again"
		return f
	}
	var values []string
	if len(bytes.TrimSpace(c.body)) > 0 {
		fs, _ := c.folders()
		values = fs.values
	}
	if trusts(values, repo.Top) {
		f.OK, f.Detail = true, c.path+" trusts "+repo.Top
		return f
	}
	f.Detail = "GitHub Copilot CLI skips lucid's hooks without a word here: " + c.path + " does not trust " + repo.Top
	f.Fix = "run `lucid init --client copilot --trust-copilot` (or start copilot with --trust-folder, or with COPILOT_ALLOW_ALL=true, which also approves every tool)"
	return f
}
