package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is set at build time by the Makefile (-ldflags -X main.version=...).
var version = ""

func init() {
	register(&command{name: "version", summary: "print lucid's version", run: runVersion})
}

func runVersion(c *cli, args []string) error {
	f := newFlags("version", "lucid version\n\nPrints the version of this lucid binary.")
	if err := f.parse(c, args); err != nil {
		return err
	}
	v := version
	if v == "" {
		v = "devel"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
	}
	fmt.Fprintf(c.stdout, "lucid %s (%s)\n", v, runtime.Version())
	return nil
}
