package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// version, commit and date are set at build time (-ldflags -X main.version=...):
// the Makefile sets version, and make dist (scripts/dist) all three, the
// date being the commit's so that two builds of one commit are the same
// bytes. A build that sets none, such as go install, falls back on what the
// go command recorded in the binary (debug.ReadBuildInfo).
var (
	version = ""
	commit  = ""
	date    = ""
)

func init() {
	register(&command{name: "version", summary: "print lucid's version", run: runVersion})
}

func runVersion(c *cli, args []string) error {
	f := newFlags("version", `lucid version

Prints the version of this lucid binary on one line: the release (or devel),
then the Go it was built with, the commit it was built from and when.

A release archive (make dist) says the tag, its commit and the commit's
date, stamped at build time. go install PACKAGE@VERSION says the module
version; a build in a git checkout says the commit it was built from, its
date, and "with local changes" when the checkout had some.`)
	if err := f.parse(c, args); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, versionLine(version, commit, date, readBuildInfo()))
	return nil
}

func readBuildInfo() *debug.BuildInfo {
	bi, _ := debug.ReadBuildInfo()
	return bi
}

// versionLine is what lucid version prints, one line, since lucid doctor
// compares the whole of it between this binary and the one on PATH. A value
// stamped at build time wins over the build info; the build info's commit
// time is said to be the commit's, not the build's, since it is.
func versionLine(version, commit, date string, bi *debug.BuildInfo) string {
	var modified bool
	when := "built"
	if bi != nil {
		if version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			version = bi.Main.Version
		}
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		if commit == "" {
			commit = settings["vcs.revision"]
			modified = settings["vcs.modified"] == "true"
		}
		if date == "" && settings["vcs.time"] != "" {
			date, when = settings["vcs.time"], "committed"
		}
	}
	if version == "" {
		version = "devel"
	}
	details := []string{runtime.Version()}
	if commit != "" {
		if len(commit) > 12 {
			commit = commit[:12]
		}
		if modified {
			commit += " with local changes"
		}
		details = append(details, "commit "+commit)
	}
	if date != "" {
		details = append(details, when+" "+date)
	}
	return fmt.Sprintf("lucid %s (%s)", version, strings.Join(details, ", "))
}
