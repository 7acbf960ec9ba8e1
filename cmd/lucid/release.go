package main

import (
	"fmt"
	"strings"

	"github.com/lucid-dev/lucid/guard"
)

func init() {
	register(&command{name: "release", summary: "release your claims (all of them, or the globs named)", run: runRelease})
}

func runRelease(c *cli, args []string) error {
	f := newFlags("release", `lucid release [GLOB...]

Releases the caller's claims on the globs named, as they were claimed, or
all of the caller's claims when none is named. The caller is $LUCID_AGENT,
else "human". A glob the caller does not hold is an error, and then nothing
is released.`)
	if err := f.parse(c, args); err != nil {
		return err
	}
	repo, _, err := findInitialised()
	if err != nil {
		return err
	}
	globs := make([]string, f.NArg())
	for i, g := range f.Args() {
		globs[i] = folderGlob(repo, g)
	}
	released, err := guard.Release(repo, agent(), globs)
	if err != nil {
		return err
	}
	if len(released) == 0 {
		fmt.Fprintln(c.stdout, "you hold no claims; nothing changed")
		return nil
	}
	fmt.Fprintf(c.stdout, "released %s\n", strings.Join(released, ", "))
	return nil
}
