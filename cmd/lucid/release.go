package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/agents/address"
	"github.com/lucid-dev/lucid/internal/agents/agentstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/claimstore"
	"github.com/lucid-dev/lucid/internal/claims/remoteclaims"
	"github.com/lucid-dev/lucid/internal/client/identity"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/log/logformat"
	"github.com/lucid-dev/lucid/internal/present"
	"github.com/lucid-dev/lucid/internal/talk"
)

func init() {
	register(&command{name: "release", summary: "release your claims, hand them to another agent, or (a person) end an agent's", run: runRelease})
}

func runRelease(c *cli, args []string) error {
	f := newFlags("release", `lucid release [GLOB...]
lucid release GLOB... --to AGENT
lucid release --owner AGENT [GLOB...] [--why TEXT]

Releases the caller's claims on the globs named, as they were claimed, or
all of the caller's claims when none is named. The caller is $LUCID_AGENT,
else "human". A glob the caller does not hold is an error, and then nothing
is released.

With --to, hands the caller's claims on the globs named to AGENT instead,
at once: no other agent can claim the files between. AGENT is told in its
next tool call, and a request it made for them (lucid ask --for-claim) is
answered. It is refused when AGENT has ended, when it would then hold
files that overlap another agent's claim, and for a claim shared through a
remote.

With --owner, a person ends AGENT's claims (all of them, or the globs
named), such as a stuck agent's: refused in an agent's shell. It is
recorded in the log, with --why, and AGENT is told in its next tool call.
Another machine's claims can be released only on that machine.

With a remote set (lucid remote set NAME), a claim that was shared is
removed from the remote too. When the remote cannot be reached, the claim is
released here, and the remote's copy stays until it expires or the next
lucid remote sync.

`+agentNames)
	to := f.String("to", "", "hand the claims on the globs named to `AGENT`")
	owner := f.String("owner", "", "a person's override: end `AGENT`'s claims")
	why := f.String("why", "", "with --owner: why, recorded for the owner")
	if err := f.parse(c, args); err != nil {
		return err
	}
	switch {
	case f.Used("to") && f.Used("owner"):
		return usageErr("--to hands your claims over, --owner ends another agent's: use one")
	case f.Used("why") && !f.Used("owner"):
		return usageErr("--why goes with --owner: lucid release --owner AGENT [GLOB...] --why \"TEXT\"")
	case f.Used("to") && f.NArg() == 0:
		return usageErr("name the claims to hand over: lucid release GLOB... --to AGENT")
	case f.Used("to") && strings.TrimSpace(*to) == "", f.Used("owner") && strings.TrimSpace(*owner) == "":
		return usageErr("no agent named: name one by its id or its label as `lucid agents` lists them")
	}
	repo, _, err := findInitialised()
	if err != nil {
		return err
	}
	globs := make([]string, f.NArg())
	for i, g := range f.Args() {
		globs[i] = claims.FolderGlob(repo.Top, g)
	}
	if f.Used("owner") {
		return releaseOwner(c, repo, *owner, globs, *why)
	}
	me, err := agent()
	if err != nil {
		return err
	}
	if f.Used("to") {
		return handOver(c, repo, me, *to, globs)
	}
	released, shared, err := claims.Release(repo, me, globs)
	if err != nil {
		return err
	}
	if len(released) == 0 {
		fmt.Fprintln(c.stdout, "you hold no claims; nothing changed")
		return nil
	}
	fmt.Fprintf(c.stdout, "released %s\n", strings.Join(released, ", "))
	syncReleased(c, repo, shared)
	return nil
}

// syncReleased takes a release of a shared claim to the remote.
func syncReleased(c *cli, repo *gitstore.Repo, shared bool) {
	noteUnsynced(c, claims.SyncReleased(repo, shared))
}

// noteUnsynced says that the remote keeps its copy of a claim released
// here, when err says why.
func noteUnsynced(c *cli, err error) {
	if err != nil {
		fmt.Fprintf(c.stderr, "lucid: released here, but %v: the remote's copy of the claim stays until it expires or the next `lucid remote sync`\n", err)
	}
}

// cleanGlobs is claims.CleanGlobs, a bad glob a usage error.
func cleanGlobs(globs []string) ([]string, error) {
	out, err := claims.CleanGlobs(globs)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return out, nil
}

// handOver is lucid release GLOB... --to NAME: me hands its claims on
// globs to the agent NAME names, and the log tells it.
func handOver(c *cli, repo *gitstore.Repo, me, name string, globs []string) error {
	globs, err := cleanGlobs(globs)
	if err != nil {
		return err
	}
	now := time.Now()
	book, err := address.Open(repo, identity.Naming(), now, claims.TTL())
	if err != nil {
		return err
	}
	to, err := book.Resolve(me, name)
	if err != nil {
		return usageErr("%v", err)
	}
	switch to.ID {
	case me:
		return usageErr("--to names yourself: name the agent to hand the claims to")
	case logformat.ToAll:
		return usageErr("--to names one agent to hand the claims to, not all")
	}
	if !to.Ended.IsZero() {
		return fmt.Errorf("%s has ended (%s), and would hold the claims for nobody: hand them to another agent (lucid agents lists them)", to.Label, present.Ago(to.Ended, now))
	}
	_, gave, err := claims.Handoff(repo, me, to.ID, globs, now, identity.Naming())
	if err != nil {
		return err
	}
	// The request it answers was made after the claims it asked for.
	since := now
	for _, g := range gave {
		if g.Created.Before(since) {
			since = g.Created
		}
	}
	ask, err := talk.Request(repo, to.ID, me, globs, since)
	if err != nil {
		fmt.Fprintf(c.stderr, "lucid: the log could not be read for %s's request: %v\n", to.Label, err)
	}
	joined := escape.Line(strings.Join(globs, ", "))
	if _, err := talk.Handoff(repo, me, to.ID, globs, ask, "handed over the claim on "+joined); err != nil {
		return fmt.Errorf("handed %s to %s, but the log could not tell it (%w): tell it with lucid tell %s", joined, to.Label, err, to.ID)
	}
	fmt.Fprintf(c.stdout, "handed %s to %s\n", joined, to.Label)
	if to.Silent > 0 {
		fmt.Fprintf(c.stderr, "lucid: %s has made no tool call for %s and may have ended: its claim ends unless it makes one within LUCID_CLAIM_TTL\n",
			to.Label, to.Silent.Round(time.Minute))
	}
	return nil
}

// releaseOwner is lucid release --owner NAME [GLOB...]: a person ends the
// claims of the agent NAME names, and the log tells it.
func releaseOwner(c *cli, repo *gitstore.Repo, name string, globs []string, why string) error {
	if err := personOnly("release --owner"); err != nil {
		return err
	}
	me, err := agent()
	if err != nil {
		return err
	}
	if me != agentstore.AgentHuman {
		return fmt.Errorf("lucid release --owner is a person's command, and LUCID_AGENT=%s says an agent runs it: ask the user to run it", escape.Line(me))
	}
	globs, err = cleanGlobs(globs)
	if err != nil {
		return err
	}
	now := time.Now()
	book, err := address.Open(repo, identity.Naming(), now, claims.TTL())
	if err != nil {
		return err
	}
	owner := strings.TrimSpace(name)
	if r, err := book.Resolve(me, owner); err == nil {
		owner = r.ID
	} else if set, lerr := claims.Load(repo, now); lerr != nil {
		return lerr
	} else if here, there := set.Held(owner, nil); len(here)+len(there) == 0 {
		// An owner with no record (a script's LUCID_AGENT) is named by
		// its id, as lucid claims --json shows it.
		return usageErr("%v", err)
	}
	label := book.Label(owner)
	end, err := talk.EndClaims(repo, me, owner, globs, why)
	var notHeld *talk.NotHeldError
	switch {
	case errors.Is(err, talk.ErrNotAgent):
		return usageErr("--owner names the agent whose claims to end, not %s; a person's own claims: lucid release GLOB...", owner)
	case errors.As(err, &notHeld) && notHeld.Elsewhere != nil:
		return errors.New(elsewhere(label, notHeld.Glob, *notHeld.Elsewhere, now))
	case errors.As(err, &notHeld):
		return fmt.Errorf("%s holds no claim on %s here: `lucid claims` lists the claims", label, escape.Line(notHeld.Glob))
	case err != nil:
		return err
	}
	if len(end.Released) == 0 {
		fmt.Fprintf(c.stdout, "%s holds no claims here; nothing changed\n", label)
	} else {
		fmt.Fprintf(c.stdout, "released %s's claims on %s; it is told with its next tool call\n", label, escape.Line(strings.Join(end.Released, ", ")))
	}
	if len(globs) == 0 {
		noteElsewhere(c, label, end.Elsewhere, now)
	}
	noteUnsynced(c, end.Unsynced)
	return nil
}

// noteElsewhere says that owner's claims on other machines stay.
func noteElsewhere(c *cli, label string, there []claimstore.Claim, now time.Time) {
	for _, o := range there {
		fmt.Fprintf(c.stderr, "lucid: %s\n", elsewhere(label, strings.Join(o.Globs, ", "), o, now))
	}
}

// elsewhere says that label's claim o on globs was made on another
// machine, which alone can release it.
func elsewhere(label, globs string, o claimstore.Claim, now time.Time) string {
	return fmt.Sprintf("%s's claim on %s was made on another machine (%s): it can be released only there, and expires %s unless renewed",
		label, escape.Line(globs), escape.Line(remoteclaims.MachineLabel(o.Machine)), present.In(o.Expires, now))
}
