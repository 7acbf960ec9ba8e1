package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/remoteclaims"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/present"
)

func init() {
	register(&command{name: "claim", summary: "claim files for a task, so other agents leave them alone", run: runClaim})
}

func runClaim(c *cli, args []string) error {
	f := newFlags("claim", `lucid claim GLOB... --for "TASK"

Claims the files that the globs match (doublestar globs, relative to the work
tree's top: src/auth/**, *.go, docs/{a,b}.md) for TASK. While the claim
holds, lucid denies every other agent's edits of those files in this work
tree. A path that is not a glob claims that path exactly; an existing folder
claims everything in it (FOLDER/**).

A claim is refused when one of its globs can match a file that another
agent's active claim can match, whether or not such a file exists yet.
It ends with lucid release, when its owner stops, or after the owner has
been silent for LUCID_CLAIM_TTL seconds (default 1200); a claim by a person
(no LUCID_AGENT) ends only with lucid release.

With a remote set (lucid remote set NAME), the claim is shared with the
other clones of the repository through that git remote: it is decided
against the remote's claims as fetched now, and pushed there before it is
held here. A claim the remote cannot take is not made at all. Shared claims
expire after --ttl unless lucid remote sync renews them.`)
	task := f.String("for", "", "what the claim is for (required)")
	ttl := f.Duration("ttl", claims.DefaultRemoteTTL, "how long the claim holds on the remote unless lucid remote sync renews it")
	localOnly := f.Bool("local-only", false, "claim on this machine only, without the remote")
	asJSON := f.Bool("json", false, "print the claim as JSON")
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() == 0 {
		return usageErr("name what to claim: lucid claim GLOB... --for \"TASK\"")
	}
	if strings.TrimSpace(*task) == "" {
		return usageErr("say what the claim is for: lucid claim GLOB... --for \"TASK\"")
	}
	repo, _, err := findInitialised()
	if err != nil {
		return err
	}
	globs := make([]string, f.NArg())
	for i, g := range f.Args() {
		globs[i] = claims.FolderGlob(repo.Top, g)
	}
	if *ttl <= 0 {
		return usageErr("--ttl must be a positive duration, such as 30m or 2h")
	}
	owner, err := agent()
	if err != nil {
		return err
	}
	req := claims.Request{Owner: owner, Worktree: repo.Top, Task: *task, Globs: globs, Now: time.Now(), TTL: *ttl, Naming: identity.Naming()}
	if !*localOnly {
		req.Remote = remoteclaims.Remote(repo)
	}
	claim, elsewhere, err := claims.Acquire(repo, req)
	if err != nil {
		return err
	}
	if *asJSON {
		return c.printJSON(claim)
	}
	if len(claim.Globs) == 0 {
		fmt.Fprintln(c.stdout, "you hold these already; nothing changed")
	} else if req.Remote != "" {
		fmt.Fprintf(c.stdout, "claimed %s for %s, shared through %s until %s\n", escape.Line(strings.Join(claim.Globs, ", ")), escape.Words(claim.Task),
			req.Remote, claim.Expires.Local().Format("15:04"))
	} else {
		fmt.Fprintf(c.stdout, "claimed %s for %s\n", escape.Line(strings.Join(claim.Globs, ", ")), escape.Words(claim.Task))
	}
	labels := present.NewLabeler(repo, identity.Naming())
	for _, o := range elsewhere {
		fmt.Fprintf(c.stderr, "lucid: warning: %s claimed %s for %s in the work tree %s: work on the same files in both may conflict when the branches merge\n",
			labels.Label(o.Owner), escape.Line(strings.Join(o.Globs, ", ")), escape.Words(o.Task), escape.Line(o.Worktree))
	}
	return nil
}
