package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lucid-dev/lucid/claims"
	"github.com/lucid-dev/lucid/remoteclaims"
)

func init() {
	register(&command{name: "release", summary: "release your claims (all of them, or the globs named)", run: runRelease})
}

func runRelease(c *cli, args []string) error {
	f := newFlags("release", `lucid release [GLOB...]

Releases the caller's claims on the globs named, as they were claimed, or
all of the caller's claims when none is named. The caller is $LUCID_AGENT,
else "human". A glob the caller does not hold is an error, and then nothing
is released.

With a remote set (lucid remote set NAME), a claim that was shared is
removed from the remote too. When the remote cannot be reached, the claim is
released here, and the remote's copy stays until it expires or the next
lucid remote sync.`)
	if err := f.parse(c, args); err != nil {
		return err
	}
	repo, _, err := findInitialised()
	if err != nil {
		return err
	}
	globs := make([]string, f.NArg())
	for i, g := range f.Args() {
		globs[i] = claims.FolderGlob(repo.Top, g)
	}
	owner, err := agent()
	if err != nil {
		return err
	}
	released, shared, err := claims.Release(repo, owner, globs)
	if err != nil {
		return err
	}
	if len(released) == 0 {
		fmt.Fprintln(c.stdout, "you hold no claims; nothing changed")
		return nil
	}
	fmt.Fprintf(c.stdout, "released %s\n", strings.Join(released, ", "))
	if remote := remoteclaims.Remote(repo); shared && remote != "" {
		if _, err := claims.Sync(repo, remote, claims.SyncOptions{Now: time.Now()}); err != nil {
			var re *remoteclaims.RemoteError
			if errors.As(err, &re) {
				err = re
			}
			fmt.Fprintf(c.stderr, "lucid: released here, but %v: the remote's copy of the claim stays until it expires or the next `lucid remote sync`\n", err)
		}
	}
	return nil
}
