package claims

import (
	"bytes"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/claims/overlap"
	"github.com/lucid-dev/lucid/internal/claims/remoteclaims"
	"github.com/lucid-dev/lucid/internal/present"
)

// DefaultTTL is how long an agent's claims outlive its last hook call.
const DefaultTTL = 1200 * time.Second

// TTL reads LUCID_CLAIM_TTL (seconds); a value that is not a positive
// number gives the default.
func TTL() time.Duration {
	return gitstore.EnvSeconds("LUCID_CLAIM_TTL", DefaultTTL)
}

// Set is the claims of a repository as one hook call or command sees
// them at one moment. An expired claim (its owner silent for longer than
// the TTL) is still in the set until a transaction removes it, but it
// blocks nobody: every decision asks Active.
type Set struct {
	// Claims is this machine's store.
	Claims []claimstore.Claim
	// Remote is the claims of other machines in the last fetched copy of
	// the remote's (see remoteclaims.Ref), expired or not; a
	// foreign claim holds until it expires. Fetched is when that copy was
	// fetched, zero without one.
	Remote  []claimstore.Claim
	Fetched time.Time
	repo    *gitstore.Repo
	now     time.Time
	ttl     time.Duration
	seen    map[string]time.Time // owner -> last active, read once
	machine *string              // this machine's identity, read once when needed
	// names is how the work tree's file system compares names: a glob
	// matches a path, and two work trees are one, as it does.
	names gitstore.Names
}

// newSet is the set of the claims given, as of now.
func newSet(repo *gitstore.Repo, now time.Time, local, remote []claimstore.Claim, names gitstore.Names) *Set {
	return &Set{Claims: local, Remote: remote, repo: repo, now: now, ttl: TTL(), seen: map[string]time.Time{}, names: names}
}

// name is p as the work tree's file system compares names.
func (s *Set) name(p string) string { return s.names.Key(p) }

// sameTree reports whether two work tree tops are one.
func (s *Set) sameTree(a, b string) bool { return s.names.Same(a, b) }

// matches reports whether the glob g matches rel, as Check matches them.
func (s *Set) matches(g, rel string) bool {
	g, rel = s.name(g), s.name(rel)
	return strings.HasPrefix(rel, literalPrefix(g)) && overlap.Match(g, rel)
}

// Load reads the repository's claims, and the claims of other
// machines from the last fetched copy of the remote's. It never touches
// the network.
func Load(repo *gitstore.Repo, now time.Time) (*Set, error) {
	claims, _, err := claimstore.Load(repo)
	if err != nil {
		return nil, err
	}
	s := newSet(repo, now, claims, nil, repo.Names())
	remote, fetched, err := remoteclaims.LoadCopy(repo)
	if err != nil {
		return nil, err
	}
	s.Fetched = fetched
	for _, c := range remote {
		// This machine's own are in its store, with their owners' state.
		if s.Foreign(c) {
			s.Remote = append(s.Remote, c)
		}
	}
	return s, nil
}

// LoadFor reads only the claims that could concern a write of the
// paths given (relative to their work tree's top; a tree is a folder
// written as a whole, rm -rf dir): those with a glob whose literal prefix
// fits one of them. It is Load for the write guard, which runs on
// every edit: it decodes almost nothing when no claim applies (see
// claimstore.Find). A Set read this way answers Check and
// CheckTree for those paths, and nothing else.
func LoadFor(repo *gitstore.Repo, now time.Time, paths []string, trees []bool) (*Set, error) {
	names := repo.Names()
	files, folders := make([][]byte, len(paths)), make([][]byte, len(paths))
	for i, p := range paths {
		p = names.Key(p)
		files[i] = []byte(p)
		switch {
		case trees[i] && p == ".":
			folders[i] = []byte{} // the top: every glob lies under it
		case trees[i]:
			folders[i] = []byte(p + "/")
		}
	}
	want := func(glob []byte) bool {
		prefix := literalPrefixBytes(glob)
		if names != 0 {
			prefix = []byte(names.Key(string(prefix)))
		}
		for i := range files {
			// A glob under a folder written as a whole can match in it.
			if bytes.HasPrefix(files[i], prefix) || folders[i] != nil && bytes.HasPrefix(prefix, folders[i]) {
				return true
			}
		}
		return false
	}
	return findSet(repo, now, want, names)
}

// findSet is the Set of the claims, local and the other
// machines', that have a glob want takes.
func findSet(repo *gitstore.Repo, now time.Time, want func(glob []byte) bool, names gitstore.Names) (*Set, error) {
	claims, err := claimstore.Find(repo, want)
	if err != nil {
		return nil, err
	}
	s := newSet(repo, now, claims, nil, names)
	remote, err := claimstore.FindRemote(repo, want)
	if err != nil {
		return nil, err
	}
	for _, c := range remote {
		if s.Foreign(c) {
			s.Remote = append(s.Remote, c)
		}
	}
	return s, nil
}

// Foreign reports whether a claim was made on another machine.
func (s *Set) Foreign(c claimstore.Claim) bool {
	if c.Machine == "" {
		return false
	}
	if s.machine == nil {
		m := remoteclaims.KnownMachine(s.repo)
		s.machine = &m
	}
	return c.Machine != *s.machine
}

// Freshness says how old the copy of the other machines' claims is:
// "2 min ago".
func (s *Set) Freshness() string { return present.Ago(s.Fetched, s.now) }

// LastActive is the owner's last hook call, or the claim's creation when
// that is later (an owner that never ran a hook, such as a script).
func (s *Set) LastActive(c claimstore.Claim) time.Time {
	t, ok := s.seen[c.Owner]
	if !ok {
		t, _ = claimstore.AgentLastSeen(s.repo, c.Owner)
		s.seen[c.Owner] = t
	}
	if c.Created.After(t) {
		return c.Created
	}
	return t
}

// Ends is when a claim ends unless its owner renews it: an agent's when
// its silence reaches the TTL, another machine's at its expiry. A
// person's claim never ends by itself (false).
func (s *Set) Ends(c claimstore.Claim) (time.Time, bool) {
	switch {
	case s.Foreign(c):
		return c.Expires, true
	case c.Owner == agentstore.AgentHuman:
		return time.Time{}, false
	}
	return s.LastActive(c).Add(s.ttl), true
}

// Active reports whether a claim still holds: a person's claim until it is
// released, an agent's while the agent made a hook call within the TTL,
// another machine's until it expires.
func (s *Set) Active(c claimstore.Claim) bool {
	end, ends := s.Ends(c)
	return !ends || s.now.Before(end)
}

// ActiveClaims returns the claims that still hold: this machine's, then
// other machines'.
func (s *Set) ActiveClaims() []claimstore.Claim {
	var out []claimstore.Claim
	for _, c := range s.Claims {
		if s.Active(c) {
			out = append(out, c)
		}
	}
	for _, c := range s.Remote {
		if s.Active(c) {
			out = append(out, c)
		}
	}
	return out
}

// Hit is an active claim of another agent on a path about to be written.
type Hit struct {
	Rel   string // the path, relative to its work tree's top
	Glob  string // the claim's glob that matches it
	Claim claimstore.Claim
	// Here is true when the claim was made in the work tree being
	// written; otherwise the edit passes with a warning of a merge
	// conflict to come.
	Here bool
}

// Check returns the active claims of agents other than agent that match
// rel in the work tree top, those made in top first. It matches the cheap
// literal prefix of each glob before the glob itself, so that a thousand
// claims cost little when none applies. A claim of another machine applies
// to the same relative paths in every work tree here.
func (s *Set) Check(agent, top, rel string) []Hit {
	return s.hits(agent, top, rel, func(g string) bool { return s.matches(g, rel) })
}

// Owns reports whether an active claim of agent in the work tree top
// matches rel.
func (s *Set) Owns(agent, top, rel string) bool {
	return s.Covering(agent, top, rel) != nil
}

// Covering returns the active claim or lease of agent in the work tree top
// that matches rel, a claim before a lease; nil when it holds none.
func (s *Set) Covering(agent, top, rel string) *claimstore.Claim {
	var lease *claimstore.Claim
	for i, c := range s.Claims {
		if c.Owner != agent || !s.sameTree(c.Worktree, top) || !s.Active(c) {
			continue
		}
		if _, ok := matching(c.Globs, func(g string) bool { return s.matches(g, rel) }); !ok {
			continue
		}
		if !c.Lease {
			return &s.Claims[i]
		}
		if lease == nil {
			lease = &s.Claims[i]
		}
	}
	return lease
}

// CheckTree is Check for a folder that a command writes as a whole
// (rm -rf dir, cp -r a dir): a claim hits when it can match anything
// under the folder, or the folder itself.
func (s *Set) CheckTree(agent, top, rel string) []Hit {
	tree := s.name(escapeGlob(rel) + "/**")
	return s.hits(agent, top, rel, func(g string) bool { return overlap.Globs(tree, s.name(g)) })
}

// CheckUnder is Check for the paths under the folder rel that the
// doublestar glob under matches, written without being known one by one
// (find rel -name '*.o' -delete: "**/*.o"): a claim hits when it can match
// one of them.
func (s *Set) CheckUnder(agent, top, rel, under string) []Hit {
	glob := s.name(UnderGlob(rel, under))
	return s.hits(agent, top, rel, func(g string) bool { return overlap.Globs(glob, s.name(g)) })
}

// hits is the active claims with a glob that matches, as Check returns them.
func (s *Set) hits(agent, top, rel string, match func(glob string) bool) []Hit {
	var here, elsewhere []Hit
	for _, c := range s.Claims {
		if c.Owner == agent || SessionLease(c, agent) {
			continue
		}
		if g, ok := matching(c.Globs, match); ok && s.Active(c) {
			h := Hit{Rel: rel, Glob: g, Claim: c, Here: s.sameTree(c.Worktree, top)}
			if h.Here {
				here = append(here, h)
			} else {
				elsewhere = append(elsewhere, h)
			}
		}
	}
	// Another machine's owner is another agent, whatever its id.
	for _, c := range s.Remote {
		if g, ok := matching(c.Globs, match); ok && s.Active(c) {
			here = append(here, Hit{Rel: rel, Glob: g, Claim: c, Here: true})
		}
	}
	return append(here, elsewhere...)
}

// SessionLease reports whether c is a lease of another agent of agent's
// own session (its lead, a subagent, a teammate): the agents of one session
// work on one task, so such a lease tells agent who else is editing the
// file (the hooks' edit awareness) and does not stop it. A claim made with
// lucid claim stops them as it stops anyone.
func SessionLease(c claimstore.Claim, agent string) bool {
	return c.Lease && c.Owner != agent && SameSession(c.Owner, agent)
}

// SameSession reports whether two agents (agentstore.AgentID) belong to one
// session: a lead's id is its session's, a subagent's is "session/agent".
func SameSession(a, b string) bool {
	sa, _, _ := strings.Cut(a, "/")
	sb, _, _ := strings.Cut(b, "/")
	return sa == sb
}

func matching(globs []string, match func(string) bool) (string, bool) {
	for _, g := range globs {
		if match(g) {
			return g, true
		}
	}
	return "", false
}
