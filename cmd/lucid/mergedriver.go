package main

import (
	"fmt"

	"github.com/lucid-dev/lucid/merge"
)

func init() {
	register(&command{name: "merge-driver", summary: "merge .lucid/log.jsonl (run by git)", run: runMergeDriver, hidden: true})
}

const mergeDriverUsage = `usage: lucid merge-driver ANCESTOR OURS THEIRS [MARKER-SIZE [PATH]]

git's merge driver for .lucid/log.jsonl, configured as
  merge.lucid.driver = lucid merge-driver %O %A %B %L %P || ...
Writes into OURS every line of ours, then each entry of theirs that ours
lacks (by id) in time order, then theirs' other lines that ours lacks, and
exits 0. It exits 1, leaving OURS as it was, when a side cannot be read.
`

// runMergeDriver takes its arguments as git passes them, with no flags:
// git's temp file names could look like flags.
func runMergeDriver(c *cli, args []string) error {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(c.stdout, mergeDriverUsage)
		return errQuiet
	}
	if len(args) < 3 || len(args) > 5 {
		return usageErr("merge-driver takes the arguments git passes: %%O %%A %%B [%%L [%%P]] (see `lucid merge-driver --help`)")
	}
	return merge.Driver(args[0], args[1], args[2])
}
