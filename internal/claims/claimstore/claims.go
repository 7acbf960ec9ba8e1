package claimstore

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
)

// Claim is an agent's claim on files: globs relative to the top of the work
// tree it was made in.
type Claim struct {
	ID       string    `json:"id"`
	Owner    string    `json:"owner"`    // an agent id, or AgentHuman
	Created  time.Time `json:"created"`  // when it was made
	Worktree string    `json:"worktree"` // the top of the work tree
	Task     string    `json:"task"`
	Globs    []string  `json:"globs"`
	// Lease marks a claim that an agent's own write took, without a lucid
	// claim: it holds the file the agent is editing until its turn ends. A
	// lease has no task; the store writes it with an empty task field,
	// which no claim made with lucid claim has, so that a store an older
	// lucid wrote reads the same.
	Lease bool `json:"lease,omitempty"`
	// Machine and Expires are set on a claim shared through a git remote:
	// the machine that made it, and the absolute time it ends unless
	// renewed. A local claim has neither.
	Machine string    `json:"machine,omitempty"`
	Expires time.Time `json:"expires,omitzero"`
}

// The claims of a repository live in one file, <common git dir>/lucid/claims,
// shared by every linked work tree: one claim a line, fields separated by
// tabs (id, owner, created and expires in Unix ms (0: never), machine, work
// tree, task (empty for a lease), then one field per glob), with %, tab, CR and LF
// percent-escaped. The copy of a remote's claims (Repo.RemoteClaimsPath) has the
// same format.
//
// One line a claim, not a JSON file a claim: the PreToolUse hook reads every
// claim on every edit, and it must stay within twice a hello-world start
// with 1,000 claims: reading 1,000 files took 68 ms here, decoding 1,000
// lines of JSON 3.8 ms, and splitting 1,000 lines of this format takes
// about 0.1 ms. The file is only ever replaced whole (a temp file and a
// rename) by a transaction that holds the repository's lock, so a reader
// sees the claims before or after a transaction, never half of one, and a
// writer killed halfway leaves the old file in place.

// Load reads every claim, expired or not; a missing file holds none.
// Lines that do not parse are skipped and counted.
func Load(r *gitstore.Repo) ([]Claim, int, error) { return Read(r.ClaimsPath()) }

// Save replaces the claims file whole. The caller holds the lock.
func Save(r *gitstore.Repo, claims []Claim) error { return writeClaims(r.ClaimsPath(), claims) }

func Read(path string) ([]Claim, int, error) {
	b, err := gitstore.ReadFile(path, gitstore.MaxClaims)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	claims, bad := decodeClaims(b)
	return claims, bad, nil
}

// writeClaims replaces a claims file whole (a temp file and a rename); no
// claims, no file.
func writeClaims(path string, claims []Claim) error {
	if len(claims) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return gitstore.WriteFileAtomic(path, Encode(claims), 0o644)
}

func Encode(claims []Claim) []byte {
	var b bytes.Buffer
	b.Grow(len(claims) * 160)
	for _, c := range claims {
		task := c.Task
		if c.Lease {
			task = ""
		}
		fields := append([]string{c.ID, c.Owner, unixMilli(c.Created), unixMilli(c.Expires), c.Machine, c.Worktree, task}, c.Globs...)
		for i, f := range fields {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(escapeField(f))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// decodeClaims parses the store. It makes one string of the whole file and
// every field a slice of it, so that the hook that reads a thousand claims
// on every edit allocates little more than one glob list per claim.
func decodeClaims(b []byte) ([]Claim, int) {
	s := string(b)
	claims := make([]Claim, 0, strings.Count(s, "\n")+1)
	bad := 0
	for s != "" {
		line, rest, whole := strings.Cut(s, "\n")
		if !whole {
			break // a write under way (see Edit)
		}
		s = rest
		if line == "" {
			continue
		}
		c, ok := decodeClaim(line)
		if !ok {
			bad++
			continue
		}
		claims = append(claims, c)
	}
	return claims, bad
}

// claimFields is the number of fields before the globs.
const claimFields = 7

func decodeClaim(line string) (Claim, bool) {
	var f [claimFields]string
	for i := range f {
		var ok bool
		if f[i], line, ok = strings.Cut(line, "\t"); !ok {
			return Claim{}, false // a claim has at least one glob after these
		}
		f[i] = unescapeField(f[i])
	}
	created, err1 := strconv.ParseInt(f[2], 10, 64)
	expires, err2 := strconv.ParseInt(f[3], 10, 64)
	if err1 != nil || err2 != nil || f[0] == "" || f[1] == "" {
		return Claim{}, false
	}
	globs := strings.Split(line, "\t")
	for i := range globs {
		globs[i] = unescapeField(globs[i])
	}
	c := Claim{ID: f[0], Owner: f[1], Created: time.UnixMilli(created), Machine: f[4], Worktree: f[5], Task: f[6], Globs: globs, Lease: f[6] == ""}
	if expires != 0 {
		c.Expires = time.UnixMilli(expires)
	}
	return c, true
}

func unixMilli(t time.Time) string {
	if t.IsZero() {
		return "0"
	}
	return strconv.FormatInt(t.UnixMilli(), 10)
}

// escapeField writes %, tab, newline and carriage return as %25, %09, %0A
// and %0D, which unescapeField reads back.
func escapeField(s string) string {
	if !strings.ContainsAny(s, "%\t\n\r") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '%', '\t', '\n', '\r':
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func unescapeField(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			switch s[i+1 : i+3] {
			case "25":
				b.WriteByte('%')
			case "09":
				b.WriteByte('\t')
			case "0A":
				b.WriteByte('\n')
			case "0D":
				b.WriteByte('\r')
			default:
				b.WriteByte(s[i])
				continue
			}
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// AgentLastSeen is the time of the agent's last hook call; ok is false when
// it never made one.
func AgentLastSeen(r *gitstore.Repo, id string) (time.Time, bool) {
	fi, err := os.Stat(r.AgentPath(id))
	if err != nil {
		return time.Time{}, false
	}
	return fi.ModTime(), true
}
