package claims

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/claims/overlap"
	"github.com/lucid-dev/lucid/internal/claims/remoteclaims"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/shellword"
)

// DefaultClaimTTL is how long an agent's claims outlive its last hook call.
const DefaultClaimTTL = 1200 * time.Second

// ClaimTTL reads LUCID_CLAIM_TTL (seconds); a value that is not a positive
// number gives the default.
func ClaimTTL() time.Duration {
	return gitstore.EnvSeconds("LUCID_CLAIM_TTL", DefaultClaimTTL)
}

// ClaimSet is the claims of a repository as one hook call or command sees
// them at one moment. An expired claim (its owner silent for longer than
// the TTL) is still in the set until a transaction removes it, but it
// blocks nobody: every decision asks Active.
type ClaimSet struct {
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
}

// LoadClaims reads the repository's claims, and the claims of other
// machines from the last fetched copy of the remote's. It never touches
// the network.
func LoadClaims(repo *gitstore.Repo, now time.Time) (*ClaimSet, error) {
	claims, _, err := claimstore.Load(repo)
	if err != nil {
		return nil, err
	}
	s := &ClaimSet{Claims: claims, repo: repo, now: now, ttl: ClaimTTL(), seen: map[string]time.Time{}}
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

// LoadClaimsFor reads only the claims that could concern a write of the
// paths given (relative to their work tree's top; a tree is a folder
// written as a whole, rm -rf dir): those with a glob whose literal prefix
// fits one of them. It is LoadClaims for the write guard, which runs on
// every edit: it decodes almost nothing when no claim applies (see
// claimstore.Find). A ClaimSet read this way answers Check and
// CheckTree for those paths, and nothing else.
func LoadClaimsFor(repo *gitstore.Repo, now time.Time, paths []string, trees []bool) (*ClaimSet, error) {
	files, folders := make([][]byte, len(paths)), make([][]byte, len(paths))
	for i, p := range paths {
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
		for i := range files {
			// A glob under a folder written as a whole can match in it.
			if bytes.HasPrefix(files[i], prefix) || folders[i] != nil && bytes.HasPrefix(prefix, folders[i]) {
				return true
			}
		}
		return false
	}
	return findClaimSet(repo, now, want)
}

// findClaimSet is the ClaimSet of the claims, local and the other
// machines', that have a glob want takes.
func findClaimSet(repo *gitstore.Repo, now time.Time, want func(glob []byte) bool) (*ClaimSet, error) {
	claims, err := claimstore.Find(repo, want)
	if err != nil {
		return nil, err
	}
	s := &ClaimSet{Claims: claims, repo: repo, now: now, ttl: ClaimTTL(), seen: map[string]time.Time{}}
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

// literalPrefixBytes is literalPrefix of a glob as it lies in the store.
func literalPrefixBytes(glob []byte) []byte { return glob[:literalLen(glob)] }

// literalLen is the length of a glob's literal prefix. It runs on every
// glob of every claim a hook or a claim reads, so it tests each byte with
// a switch: bytes.IndexAny took 40 ns a glob, two thirds of reading 1,000
// claims.
func literalLen[T string | []byte](glob T) int {
	for i := 0; i < len(glob); i++ {
		if isGlobSpecial(glob[i]) {
			return i
		}
	}
	return len(glob)
}

// isGlobSpecial reports whether c is one of globSpecial.
func isGlobSpecial(c byte) bool {
	switch c {
	case '*', '?', '[', '{', '\\':
		return true
	}
	return false
}

// Foreign reports whether a claim was made on another machine.
func (s *ClaimSet) Foreign(c claimstore.Claim) bool {
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
func (s *ClaimSet) Freshness() string { return present.Ago(s.Fetched, s.now) }

// LastActive is the owner's last hook call, or the claim's creation when
// that is later (an owner that never ran a hook, such as a script).
func (s *ClaimSet) LastActive(c claimstore.Claim) time.Time {
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
func (s *ClaimSet) Ends(c claimstore.Claim) (time.Time, bool) {
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
func (s *ClaimSet) Active(c claimstore.Claim) bool {
	end, ends := s.Ends(c)
	return !ends || s.now.Before(end)
}

// ActiveClaims returns the claims that still hold: this machine's, then
// other machines'.
func (s *ClaimSet) ActiveClaims() []claimstore.Claim {
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
func (s *ClaimSet) Check(agent, top, rel string) []Hit {
	return s.hits(agent, top, rel, func(g string) bool {
		return strings.HasPrefix(rel, literalPrefix(g)) && overlap.Match(g, rel)
	})
}

// Owns reports whether an active claim of agent in the work tree top
// matches rel.
func (s *ClaimSet) Owns(agent, top, rel string) bool {
	return s.Covering(agent, top, rel) != nil
}

// Covering returns the active claim or lease of agent in the work tree top
// that matches rel, a claim before a lease; nil when it holds none.
func (s *ClaimSet) Covering(agent, top, rel string) *claimstore.Claim {
	var lease *claimstore.Claim
	for i, c := range s.Claims {
		if c.Owner != agent || c.Worktree != top || !s.Active(c) {
			continue
		}
		if _, ok := matching(c.Globs, func(g string) bool {
			return strings.HasPrefix(rel, literalPrefix(g)) && overlap.Match(g, rel)
		}); !ok {
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
func (s *ClaimSet) CheckTree(agent, top, rel string) []Hit {
	tree := escapeGlob(rel) + "/**"
	return s.hits(agent, top, rel, func(g string) bool { return overlap.Globs(tree, g) })
}

// CheckUnder is Check for the paths under the folder rel that the
// doublestar glob under matches, written without being known one by one
// (find rel -name '*.o' -delete: "**/*.o"): a claim hits when it can match
// one of them.
func (s *ClaimSet) CheckUnder(agent, top, rel, under string) []Hit {
	glob := UnderGlob(rel, under)
	return s.hits(agent, top, rel, func(g string) bool { return overlap.Globs(glob, g) })
}

// UnderGlob is the glob, relative to the work tree's top, of the paths
// under the folder rel (relative to the top too) that under matches.
func UnderGlob(rel, under string) string {
	if rel == "." || rel == "" {
		return under
	}
	return escapeGlob(rel) + "/" + under
}

// hits is the active claims with a glob that matches, as Check returns them.
func (s *ClaimSet) hits(agent, top, rel string, match func(glob string) bool) []Hit {
	var here, elsewhere []Hit
	for _, c := range s.Claims {
		if c.Owner == agent || SessionLease(c, agent) {
			continue
		}
		if g, ok := matching(c.Globs, match); ok && s.Active(c) {
			h := Hit{Rel: rel, Glob: g, Claim: c, Here: c.Worktree == top}
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

// PathGlob is the glob that matches just the path rel: what a lease
// holds.
func PathGlob(rel string) string { return escapeGlob(rel) }

// AddLeases records leases, made by the hooks as an agent writes. The
// caller holds the repository's lock, and has checked that no other
// agent's claim forbids the write.
func AddLeases(repo *gitstore.Repo, leases []claimstore.Claim) error {
	if len(leases) == 0 {
		return nil
	}
	return claimstore.Edit(repo, nil, leases)
}

// escapeGlob makes a path a glob that matches just that path.
func escapeGlob(path string) string {
	if !strings.ContainsAny(path, `*?[]{}\`) {
		return path
	}
	var b strings.Builder
	for _, r := range path {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// globSpecial are the characters that make a glob more than a path.
const globSpecial = `*?[{\`

// FolderGlob turns a path that names an existing folder under top, and is
// not a glob, into FOLDER/**, so that claiming (or releasing) a folder
// covers what is in it; anything else is returned as it is.
func FolderGlob(top, g string) string {
	if strings.ContainsAny(g, globSpecial) || strings.HasSuffix(g, "/") || filepath.IsAbs(g) {
		return g
	}
	if fi, err := os.Stat(filepath.Join(top, filepath.FromSlash(g))); err == nil && fi.IsDir() {
		return g + "/**"
	}
	return g
}

// literalPrefix is the part of a glob before its first special character:
// every path the glob matches starts with it.
func literalPrefix(glob string) string { return glob[:literalLen(glob)] }

// Describe says whose a claim is, for what, on which globs and since when,
// for people and models: `general-purpose·a2adb9 for "fix login" (src/**,
// claimed 4 min ago)`.
func (s *ClaimSet) Describe(c claimstore.Claim, labels *present.Labeler) string {
	if c.Lease {
		return fmt.Sprintf("%s (a lease on %s, taken by its write %s and held until its turn ends)", s.who(c, labels),
			escape.Line(strings.Join(c.Globs, ", ")), present.Ago(c.Created, s.now))
	}
	return fmt.Sprintf("%s for %s (%s, claimed %s)", s.who(c, labels), escape.Words(c.Task),
		escape.Line(strings.Join(c.Globs, ", ")), present.Ago(c.Created, s.now))
}

// who is a claim's owner, said as a teammate where it is one, and its
// machine when that is another: "teammate tester·a3f9c1",
// "lead·1bd236 on laptop (4f2a9c)".
func (s *ClaimSet) who(c claimstore.Claim, labels *present.Labeler) string {
	who := labels.Label(c.Owner)
	if _, mate := labels.Naming().Teammate(c.Owner); mate {
		who = "teammate " + who
	}
	if s.Foreign(c) {
		return who + " on " + escape.Line(remoteclaims.MachineLabel(c.Machine))
	}
	return who
}

// ClaimRequest is a claim to make.
type ClaimRequest struct {
	Owner    string
	Worktree string // the top of the work tree the globs are relative to
	Task     string
	Globs    []string // as the user typed them; Acquire cleans them
	Now      time.Time
	// Remote, when not "", is the git remote the claim is shared through
	// (see Acquire); TTL is how long it holds there unless renewed (0:
	// DefaultRemoteTTL).
	Remote string
	TTL    time.Duration
	// Naming is how a refusal names the owner of the claim in the way.
	Naming present.Naming
}

// ConflictError refuses a claim that overlaps an active claim of another
// agent in the same work tree, or of another machine.
type ConflictError struct {
	Glob   string // the requested glob
	Theirs string // the other claim's glob it overlaps
	Path   string // the shortest path both can match
	Other  string // Describe of the other claim
	Owner  string // the other claim's owner
	// Foreign: the other claim is another machine's, whose owner reads
	// what is written here only after a merge.
	Foreign bool
}

func (e *ConflictError) Error() string {
	what := "wait until it is released, ask for it with `" + AskCommand(e.Owner, e.Theirs) + "`, or work on other files"
	switch {
	case e.Owner == agentstore.AgentHuman:
		what = "ask the person who claimed it, or work on other files"
	case e.Foreign:
		what = "wait until it expires, ask that agent (through the user), or work on other files"
	}
	return fmt.Sprintf("%s overlaps %s (both can match %s), claimed by %s: %s", escape.Line(e.Glob), escape.Line(e.Theirs), escape.Line(e.Path), e.Other, what)
}

// conflict is the ConflictError of a claim whose glob mine overlaps
// theirs, of c, both matching path; n names c's owner.
func (s *ClaimSet) conflict(mine, theirs, path string, c claimstore.Claim, n present.Naming) error {
	return &ConflictError{Glob: mine, Theirs: theirs, Path: path, Other: s.Describe(c, present.NewLabeler(s.repo, n)), Owner: c.Owner, Foreign: s.Foreign(c)}
}

// AskCommand is the command that asks owner for its claim on glob, ready
// to run: what a refused claim and a denied write tell the agent.
func AskCommand(owner, glob string) string {
	return fmt.Sprintf("lucid ask %s --for-claim %s \"why you need it\"", shellword.Quote(escape.Line(owner)), shellword.Quote(escape.Line(glob)))
}

// HandCommand is the command that hands the caller's claims on globs to
// the agent to, ready to run: what a request for a claim tells its owner.
func HandCommand(globs []string, to string) string {
	return escape.Line(shellword.Join(append(append([]string{"lucid", "release"}, globs...), "--to", to)))
}

// Acquire records a claim, under the repository's lock: it is refused when
// one of its globs can match a path that an active claim of another agent
// in the same work tree can match (decided on the patterns, whether or not
// such a file exists), or that an active claim of another machine can
// match. An agent's claims never conflict with its own; globs it holds
// already are not claimed twice. It returns the claim made (with no globs
// when all were held already) and the overlapping claims of other work
// trees, which do not refuse it but deserve a warning.
//
// Without req.Remote, the other machines' claims are those of the last
// fetched copy, and nothing touches the network (acquireLocal). With it,
// the claim is decided against the remote's claims as fetched now and
// pushed there first (acquireShared).
func Acquire(repo *gitstore.Repo, req ClaimRequest) (claimstore.Claim, []claimstore.Claim, error) {
	if strings.TrimSpace(req.Task) == "" {
		return claimstore.Claim{}, nil, fmt.Errorf("say what the claim is for: --for \"TASK\"")
	}
	if len(req.Globs) == 0 {
		return claimstore.Claim{}, nil, fmt.Errorf("name what to claim: lucid claim GLOB... --for \"TASK\"")
	}
	globs, err := CleanGlobs(req.Globs)
	if err != nil {
		return claimstore.Claim{}, nil, err
	}
	lock, err := repo.Lock()
	if err != nil {
		return claimstore.Claim{}, nil, err
	}
	defer lock.Unlock()
	if req.Remote == "" {
		return acquireLocal(repo, req, globs)
	}
	return acquireShared(repo, req, globs)
}

// CleanGlobs is globs as the store holds them (overlap.Clean), each once.
func CleanGlobs(globs []string) ([]string, error) {
	var out []string
	for _, g := range globs {
		clean, err := overlap.Clean(g)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, clean) {
			out = append(out, clean)
		}
	}
	return out, nil
}

// acquireLocal decides a claim on this machine's store and the last
// fetched copy of the remote's, without the network. It needs only the
// claims whose globs could overlap its own (see loadClaimsNear), and
// leaves the rest of the store unread.
func acquireLocal(repo *gitstore.Repo, req ClaimRequest, globs []string) (claimstore.Claim, []claimstore.Claim, error) {
	set, err := loadClaimsNear(repo, req.Now, globs)
	if err != nil {
		return claimstore.Claim{}, nil, err
	}
	d, err := set.decide(req, globs)
	if err != nil || len(d.claim.Globs) == 0 {
		return d.claim, d.elsewhere, err
	}
	for _, c := range set.Remote {
		if mine, theirs, path, ok := overlapping(d.claim.Globs, c.Globs); ok && set.Active(c) {
			return claimstore.Claim{}, nil, set.conflict(mine, theirs, path, c, req.Naming)
		}
	}
	if err := claimstore.Edit(repo, d.expired, []claimstore.Claim{d.claim}); err != nil {
		return claimstore.Claim{}, nil, err
	}
	return d.claim, d.elsewhere, nil
}

// acquireShared decides a claim against the remote's claims as fetched
// now and pushes it there (see share) before the store holds it, so that
// a claim the remote did not take is not held here either. Sharing
// rewrites this machine's part of the remote's claims, which needs every
// claim of the store.
func acquireShared(repo *gitstore.Repo, req ClaimRequest, globs []string) (claimstore.Claim, []claimstore.Claim, error) {
	set, err := LoadClaims(repo, req.Now)
	if err != nil {
		return claimstore.Claim{}, nil, err
	}
	d, err := set.decide(req, globs)
	if err != nil || len(d.claim.Globs) == 0 {
		return d.claim, d.elsewhere, err
	}
	if err := share(repo, set, &d.claim, req); err != nil {
		return claimstore.Claim{}, nil, err
	}
	if err := claimstore.Save(repo, append(d.keep, d.claim)); err != nil {
		return claimstore.Claim{}, nil, err
	}
	return d.claim, d.elsewhere, nil
}

// decision is what this machine's claims say about a request.
type decision struct {
	claim     claimstore.Claim   // the claim to make, on the globs its owner does not hold yet
	keep      []claimstore.Claim // the claims read, without the expired ones met
	expired   map[string]bool    // ids of expired claims that overlapped it: they go now
	elsewhere []claimstore.Claim // overlapping claims of other work trees, a warning
}

// decide checks globs against the set's own claims (not the other
// machines'): an active claim of another agent in the same work tree that
// overlaps refuses the request; the owner's own globs are not claimed twice.
func (s *ClaimSet) decide(req ClaimRequest, globs []string) (decision, error) {
	d := decision{keep: make([]claimstore.Claim, 0, len(s.Claims)+1), expired: map[string]bool{}}
	for _, c := range s.Claims {
		if c.Owner == req.Owner {
			if c.Worktree == req.Worktree {
				globs = slices.DeleteFunc(globs, func(g string) bool { return slices.Contains(c.Globs, g) })
			}
			d.keep = append(d.keep, c)
			continue
		}
		mine, theirs, path, ok := overlapping(globs, c.Globs)
		switch {
		case !ok || SessionLease(c, req.Owner):
		case !s.Active(c):
			d.expired[c.ID] = true
			continue
		case c.Worktree != req.Worktree:
			d.elsewhere = append(d.elsewhere, c)
		default:
			return decision{}, s.conflict(mine, theirs, path, c, req.Naming)
		}
		d.keep = append(d.keep, c)
	}
	d.claim = claimstore.Claim{ID: logformat.NewID(req.Now), Owner: req.Owner, Created: req.Now,
		Worktree: req.Worktree, Task: strings.TrimSpace(req.Task), Globs: globs}
	return d, nil
}

// loadClaimsNear reads the claims that could overlap globs: those with a
// glob whose literal prefix and one of globs' are prefixes of one another
// (the same test overlapping makes first), and the other machines' alike.
func loadClaimsNear(repo *gitstore.Repo, now time.Time, globs []string) (*ClaimSet, error) {
	prefixes := make([][]byte, len(globs))
	for i, g := range globs {
		prefixes[i] = []byte(literalPrefix(g))
	}
	want := func(glob []byte) bool {
		p := literalPrefixBytes(glob)
		for _, q := range prefixes {
			if bytes.HasPrefix(p, q) || bytes.HasPrefix(q, p) {
				return true
			}
		}
		return false
	}
	return findClaimSet(repo, now, want)
}

// overlapping returns the first pair of globs, one of each list, that can
// match a common path, and the shortest such path. Every path a glob matches starts with the glob's
// literal prefix, so two globs whose prefixes differ before either ends
// cannot overlap: that cheap test spares most pairs the exact one.
func overlapping(mine, theirs []string) (string, string, string, bool) {
	for _, m := range mine {
		pm := literalPrefix(m)
		for _, t := range theirs {
			pt := literalPrefix(t)
			if !strings.HasPrefix(pm, pt) && !strings.HasPrefix(pt, pm) {
				continue
			}
			if path, ok := overlap.Witness(m, t); ok {
				return m, t, path, true
			}
		}
	}
	return "", "", "", false
}

// Release removes the owner's claims on globs (cleaned as Acquire cleans
// them), or all the owner's claims when globs is empty, and returns the
// globs released, and whether one of the claims it changed was shared
// through a remote (then Sync takes the change there). A glob the owner
// does not hold is an error, and then nothing is released.
func Release(repo *gitstore.Repo, owner string, globs []string) ([]string, bool, error) {
	want := map[string]bool{}
	for _, g := range globs {
		clean, err := overlap.Clean(g)
		if err != nil {
			return nil, false, err
		}
		want[clean] = true
	}
	var released []string
	shared := false
	err := update(repo, func(claims []claimstore.Claim) ([]claimstore.Claim, bool, error) {
		held := map[string]bool{}
		var out []claimstore.Claim
		for _, c := range claims {
			if c.Owner != owner {
				out = append(out, c)
				continue
			}
			var kept []string
			for _, g := range c.Globs {
				held[g] = true
				if len(want) == 0 || want[g] {
					released = append(released, g)
					shared = shared || c.Machine != ""
				} else {
					kept = append(kept, g)
				}
			}
			if len(kept) > 0 {
				c.Globs = kept
				out = append(out, c)
			}
		}
		for _, g := range globs {
			if g, _ := overlap.Clean(g); !held[g] {
				return nil, false, &NotHeldError{Glob: g}
			}
		}
		return out, len(released) > 0, nil
	})
	if err != nil {
		return nil, false, err
	}
	return released, shared, nil
}

// ReleaseWhere removes every claim that which takes (by its owner, or its
// kind: the leases of a teammate whose task is done), and returns how
// many it removed. The hooks use it when agents stop and sessions end,
// within a time they must keep: when the lock does not come free within
// wait (a claim through a slow remote holds it), the claims are left to
// expire with their owners, and the error says so.
func ReleaseWhere(repo *gitstore.Repo, which func(claimstore.Claim) bool, wait time.Duration) (int, error) {
	// Most stops own no claim: a look without the lock (the store is
	// replaced whole, so a read is never torn) spares them the lock.
	if claims, _, err := claimstore.Load(repo); err == nil && !slices.ContainsFunc(claims, which) {
		return 0, nil
	}
	n := 0
	err := updateWithin(repo, wait, func(claims []claimstore.Claim) ([]claimstore.Claim, bool, error) {
		out := slices.DeleteFunc(slices.Clone(claims), which)
		n = len(claims) - len(out)
		return out, n > 0, nil
	})
	return n, err
}

// Prune removes the expired claims, and lines of the store that cannot be
// read, and returns how many claims it removed (lucid gc).
func Prune(repo *gitstore.Repo, now time.Time) (int, error) {
	_, bad, err := claimstore.Load(repo)
	if err != nil {
		return 0, err
	}
	n := 0
	err = update(repo, func(claims []claimstore.Claim) ([]claimstore.Claim, bool, error) {
		set := &ClaimSet{Claims: claims, repo: repo, now: now, ttl: ClaimTTL(), seen: map[string]time.Time{}}
		out := slices.DeleteFunc(slices.Clone(claims), func(c claimstore.Claim) bool { return !set.Active(c) })
		n = len(claims) - len(out)
		return out, n > 0 || bad > 0, nil
	})
	return n, err
}

// ErrStillLocked says that a release waited for the lock as long as it
// might, and gave up: the claims stay, and expire with their owners.
var ErrStillLocked = errors.New("the claims stayed locked")

// update changes the claims under the lock; change reports whether it
// changed anything, and only then is the file written. Without a claims
// file it runs change on no claims without taking the lock, so that the
// hooks that release claims at every stop cost nothing where none exist.
func update(repo *gitstore.Repo, change func([]claimstore.Claim) ([]claimstore.Claim, bool, error)) error {
	return updateWithin(repo, 0, change)
}

// updateWithin is update that waits at most wait for the lock (0: as
// long as it takes).
func updateWithin(repo *gitstore.Repo, wait time.Duration, change func([]claimstore.Claim) ([]claimstore.Claim, bool, error)) error {
	if _, err := os.Stat(repo.ClaimsPath()); os.IsNotExist(err) {
		_, _, err := change(nil)
		return err
	}
	var lock *gitstore.Lock
	var err error
	if wait > 0 {
		var ok bool
		lock, ok, err = repo.TryLock(wait)
		if err == nil && !ok {
			err = fmt.Errorf("%w for %v by another lucid: these claims end when their owners' silence reaches LUCID_CLAIM_TTL", ErrStillLocked, wait.Round(10*time.Millisecond))
		}
	} else {
		lock, err = repo.Lock()
	}
	if err != nil {
		return err
	}
	defer lock.Unlock()
	claims, _, err := claimstore.Load(repo)
	if err != nil {
		return err
	}
	out, changed, err := change(claims)
	if err != nil || !changed {
		return err
	}
	return claimstore.Save(repo, out)
}

// ClaimLine is one claim as `lucid claims` and the digest list it:
// `src/**, docs/*.md: general-purpose·a2adb9 for "fix login" (4 min ago)`,
// with the work tree named when it is not top, and the machine when it is
// another.
func (s *ClaimSet) ClaimLine(c claimstore.Claim, labels *present.Labeler, top string) string {
	what := "for " + escape.Words(c.Task)
	if c.Lease {
		what = "editing it (a lease, until its turn ends)"
	}
	line := fmt.Sprintf("%s: %s %s (%s)", escape.Line(strings.Join(c.Globs, ", ")), s.who(c, labels), what, present.Ago(c.Created, s.now))
	if c.Worktree != top && !s.Foreign(c) {
		line += " in the work tree " + escape.Line(c.Worktree)
	}
	return line
}
