package remoteclaims

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
)

// A claim on the remote is one file, "<claim id>.json", holding one JSON
// object with these keys in this order, times in RFC 3339 UTC with
// milliseconds; a reader ignores keys it does not know:
//
//	{"id":"01K...","owner":"<agent>","machine":"4f2a9c1b7d3e@laptop",
//	 "worktree":"/home/dev/repo","globs":["src/**"],"task":"fix login",
//	 "created":"2026-12-02T07:52:18.123Z","expires":"2026-12-02T09:52:18.123Z"}
//
// Globs are relative to the top of the repository, so they name the same
// paths in every clone; the work tree is where it was made, for people.
type remoteClaim struct {
	ID       string   `json:"id"`
	Owner    string   `json:"owner"`
	Machine  string   `json:"machine"`
	Worktree string   `json:"worktree"`
	Globs    []string `json:"globs"`
	Task     string   `json:"task"`
	Created  string   `json:"created"`
	Expires  string   `json:"expires"`
}

const remoteTimeFormat = "2006-01-02T15:04:05.000Z07:00"

func encodeRemoteClaim(c claimstore.Claim) ([]byte, error) {
	b, err := json.Marshal(remoteClaim{ID: c.ID, Owner: c.Owner, Machine: c.Machine, Worktree: c.Worktree,
		Globs: c.Globs, Task: c.Task, Created: c.Created.UTC().Format(remoteTimeFormat), Expires: c.Expires.UTC().Format(remoteTimeFormat)})
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// decodeRemoteClaim reads the file name of a claims tree; the error says
// what is wrong with it, for BadRefError.
func decodeRemoteClaim(name string, data []byte) (claimstore.Claim, error) {
	var rc remoteClaim
	if err := json.Unmarshal(data, &rc); err != nil {
		return claimstore.Claim{}, fmt.Errorf("%s does not parse as JSON (%w)", name, err)
	}
	created, err1 := time.Parse(time.RFC3339, rc.Created)
	expires, err2 := time.Parse(time.RFC3339, rc.Expires)
	switch {
	case rc.ID+".json" != name:
		return claimstore.Claim{}, fmt.Errorf("%s holds the claim id %q", name, rc.ID)
	case rc.Owner == "" || rc.Machine == "" || len(rc.Globs) == 0 || slices.Contains(rc.Globs, ""):
		return claimstore.Claim{}, fmt.Errorf("%s lacks an owner, a machine or globs", name)
	case err1 != nil || err2 != nil:
		return claimstore.Claim{}, fmt.Errorf("%s has a created or expires time that is not RFC 3339", name)
	}
	return claimstore.Claim{ID: rc.ID, Owner: rc.Owner, Machine: rc.Machine, Worktree: rc.Worktree, Globs: rc.Globs,
		Task: rc.Task, Created: created, Expires: expires}, nil
}

// claimFileName is the name of a claim's file, refused for an id that
// would not make one plain file name.
func claimFileName(id string) (string, error) {
	if id == "" || strings.ContainsAny(id, "/\\\x00\n") || id[0] == '.' {
		return "", fmt.Errorf("the claim id %q cannot name a file", id)
	}
	return id + ".json", nil
}

// writeClaimsCommit writes the blobs, the tree and the commit of claims,
// with parent (when not "") as the commit's parent, and returns the
// commit's id.
func writeClaimsCommit(r *gitstore.Repo, claims []claimstore.Claim, parent, message string, now time.Time) (string, error) {
	w, err := newObjectWriter(r)
	if err != nil {
		return "", err
	}
	var entries []treeEntry
	for _, c := range claims {
		name, err := claimFileName(c.ID)
		if err != nil {
			return "", err
		}
		data, err := encodeRemoteClaim(c)
		if err != nil {
			return "", err
		}
		oid, err := w.write("blob", data)
		if err != nil {
			return "", err
		}
		entries = append(entries, treeEntry{name: name, oid: oid})
	}
	// git sorts a tree by name (a folder as if "/" followed it; there are
	// none here), and refuses a name twice.
	slices.SortFunc(entries, func(a, b treeEntry) int { return strings.Compare(a.name, b.name) })
	entries = slices.CompactFunc(entries, func(a, b treeEntry) bool { return a.name == b.name })
	data, err := encodeTree(entries)
	if err != nil {
		return "", err
	}
	tree, err := w.write("tree", data)
	if err != nil {
		return "", err
	}
	var c bytes.Buffer
	fmt.Fprintf(&c, "tree %s\n", tree)
	if parent != "" {
		fmt.Fprintf(&c, "parent %s\n", parent)
	}
	// Written here, so no user.name is needed; the machine says who.
	who := fmt.Sprintf("lucid <%s> %d +0000", strings.NewReplacer("<", "", ">", "", "\n", "").Replace(KnownMachine(r)), now.Unix())
	fmt.Fprintf(&c, "author %s\ncommitter %s\n\n%s\n", who, who, strings.TrimSpace(message))
	commit, err := w.write("commit", c.Bytes())
	if err != nil {
		return "", err
	}
	return commit, w.flush()
}

// readClaimsCommit decodes the claims commit commit (an id, or a name cat-file
// resolves), with o; the BadRefError says what is wrong.
func readClaimsCommit(o *objectReader, remote, commit string, hashLen int) ([]claimstore.Claim, error) {
	bad := func(format string, a ...any) error {
		return &BadRefError{Remote: remote, Commit: commit, Why: fmt.Sprintf(format, a...)}
	}
	objs, err := o.read(commit)
	if err != nil {
		return nil, err
	}
	switch objs[0].kind {
	case "":
		return nil, fmt.Errorf("the commit %s fetched from %s is missing here", commit, remote)
	case "commit":
	default:
		return nil, bad("it points to a %s, not a commit", objs[0].kind)
	}
	tree, ok := commitTree(objs[0].data)
	if !ok {
		return nil, bad("the commit has no tree")
	}
	objs, err = o.read(tree)
	if err != nil {
		return nil, err
	}
	if objs[0].kind != "tree" {
		return nil, bad("the commit's tree is missing")
	}
	entries, err := decodeTree(objs[0].data, hashLen)
	if err != nil {
		return nil, bad("%v", err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		if !strings.HasSuffix(e.name, ".json") {
			return nil, bad("its tree holds %s, which is not a claim file", e.name)
		}
		names[i] = e.oid
	}
	blobs, err := o.read(names...)
	if err != nil {
		return nil, err
	}
	claims := make([]claimstore.Claim, 0, len(entries))
	for i, b := range blobs {
		if b.kind != "blob" {
			return nil, bad("%s is missing", entries[i].name)
		}
		c, err := decodeRemoteClaim(entries[i].name, b.data)
		if err != nil {
			return nil, bad("%v", err)
		}
		claims = append(claims, c)
	}
	return claims, nil
}
