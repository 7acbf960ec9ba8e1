package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/claims"
	"github.com/lucid-dev/lucid/internal/claims/remoteclaims"
	"github.com/lucid-dev/lucid/internal/escape"
	"github.com/lucid-dev/lucid/internal/present"
)

func init() {
	register(&command{name: "remote", summary: "share claims with other clones through a git remote (set, unset, sync)", run: runRemote})
}

const remoteUsage = `lucid remote [set NAME | unset | sync [--ttl D]] [--json]

Claims are shared with the other clones of the repository (teammates,
cloud sessions, CI runners) through a git remote, as one ref,
refs/lucid/claims. Each clone is a machine.

  lucid remote            shows the remote, this machine, and how fresh the
                          local copy of the other machines' claims is
  lucid remote set NAME   shares claims through the git remote NAME (git
                          config lucid.remote); git remote -v lists them
  lucid remote unset      stops sharing; the hooks forget the other
                          machines' claims
  lucid remote sync       fetches the other machines' claims, renews the
                          expiry of this machine's live shared claims (--ttl
                          from now), and removes from the remote the claims
                          released here, or whose owners stopped

With a remote set, lucid claim and lucid release fetch and push; the hooks
never touch the network: they check edits against the copy of the other
machines' claims that the last claim, release or sync fetched.`

func runRemote(c *cli, args []string) error {
	f := newFlags("remote", remoteUsage)
	ttl := f.Duration("ttl", claims.DefaultRemoteTTL, "sync: the new expiry of this machine's shared claims, from now")
	asJSON := f.Bool("json", false, "print what lucid remote shows as JSON")
	if err := f.parse(c, args); err != nil {
		return err
	}
	repo, _, err := findInitialised()
	if err != nil {
		return err
	}
	sub, rest := "", []string(nil)
	if f.NArg() > 0 {
		sub, rest = f.Arg(0), f.Args()[1:]
	}
	switch {
	case sub == "":
		return showRemote(c, repo, *asJSON)
	case sub == "set" && len(rest) == 1:
		if err := remoteclaims.SetRemote(repo, rest[0]); err != nil {
			return err
		}
		url, _ := remoteclaims.RemoteURL(repo, rest[0])
		fmt.Fprintf(c.stdout, "claims are shared through the remote %s (%s); `lucid remote sync` fetches the other machines' claims now\n", rest[0], url)
		return nil
	case sub == "set":
		return usageErr("name the remote: lucid remote set NAME (`git remote -v` lists them)")
	case sub == "unset" && len(rest) == 0:
		old := remoteclaims.Remote(repo)
		was, err := remoteclaims.UnsetRemote(repo)
		if err != nil {
			return err
		}
		if !was {
			fmt.Fprintln(c.stdout, "claims were not shared; nothing changed")
			return nil
		}
		fmt.Fprintf(c.stdout, "claims are no longer shared; the remote %s keeps this machine's shared claims until they expire\n", old)
		return nil
	case sub == "sync" && len(rest) == 0:
		if *ttl <= 0 {
			return usageErr("--ttl must be a positive duration, such as 30m or 2h")
		}
		return syncRemote(c, repo, *ttl)
	}
	return usageErr("unknown use of lucid remote: %s (see `lucid remote --help`)", strings.Join(f.Args(), " "))
}

func syncRemote(c *cli, repo *gitstore.Repo, ttl time.Duration) error {
	remote := remoteclaims.Remote(repo)
	if remote == "" {
		return fmt.Errorf("claims are not shared: set a remote first with lucid remote set NAME")
	}
	now := time.Now()
	res, err := claims.Sync(repo, remote, claims.SyncOptions{Now: now, Renew: true, TTL: ttl})
	if err != nil {
		return err
	}
	mine := fmt.Sprintf("%d %s of this machine renewed until %s", res.Renewed, present.Plural(res.Renewed, "claim", "claims"), now.Add(ttl).Format("15:04"))
	if res.Shared > 0 {
		mine += fmt.Sprintf(", %d shared again", res.Shared)
	}
	if res.Removed > 0 {
		mine += fmt.Sprintf(", %d released here removed", res.Removed)
	}
	fmt.Fprintf(c.stdout, "synced with %s: %s; %d live %s of other machines\n", remote, mine, res.Others, present.Plural(res.Others, "claim", "claims"))
	for _, l := range res.Lapsed {
		fmt.Fprintf(c.stderr, "lucid: warning: the claim on %s for %s lapsed on the remote, and another machine claimed overlapping files since: it holds on this machine only; `lucid claims` shows both\n",
			escape.Line(strings.Join(l.Globs, ", ")), escape.Words(l.Task))
	}
	return nil
}

func showRemote(c *cli, repo *gitstore.Repo, asJSON bool) error {
	remote := remoteclaims.Remote(repo)
	var url string
	if remote != "" {
		url, _ = remoteclaims.RemoteURL(repo, remote)
	}
	set, err := claims.Load(repo, time.Now())
	if err != nil {
		return err
	}
	live := 0
	for _, cl := range set.Remote {
		if set.Active(cl) {
			live++
		}
	}
	machine := remoteclaims.KnownMachine(repo)
	if asJSON {
		type shown struct {
			Remote  string    `json:"remote"`
			URL     string    `json:"url,omitempty"`
			Machine string    `json:"machine,omitempty"`
			Fetched time.Time `json:"fetched,omitzero"`
			Others  int       `json:"other_machines_claims"`
		}
		out := shown{Remote: remote, URL: url, Machine: machine, Others: live}
		if !set.Fetched.IsZero() {
			out.Fetched = set.Fetched.UTC()
		}
		return c.printJSON(out)
	}
	if remote == "" {
		fmt.Fprintln(c.stdout, "claims are not shared with other machines: `lucid remote set NAME` shares them through a git remote")
		return nil
	}
	fmt.Fprintf(c.stdout, "claims are shared through the remote %s (%s)\n", remote, url)
	if machine != "" {
		fmt.Fprintf(c.stdout, "this machine: %s\n", remoteclaims.MachineLabel(machine))
	}
	if set.Fetched.IsZero() {
		fmt.Fprintln(c.stdout, "no copy of the other machines' claims yet: `lucid remote sync` fetches it")
		return nil
	}
	fmt.Fprintf(c.stdout, "the other machines' claims: %d live, as fetched %s\n", live, set.Freshness())
	return nil
}
