package main

import (
	"fmt"
	"slices"
	"time"
)

// wholeSection times the commands that read the whole log, on the largest
// log of -sizes: lucid dream (which lists every live entry),
// lucid doctor, and lucid supersede of an id that is not in the log. Each
// runs once to warm the page cache, then a few times (they take seconds,
// not milliseconds); it prints the median and maximum wall time, the
// median CPU time (user+system: on a busy machine, the steadier figure;
// doctor reads the log on every processor, so its CPU time may exceed its
// wall time) and the peak memory (the child's maximum resident set; see mergeSection for why
// the bench's own peak bounds it from below).
//
// Goals: dream under 64 MB of peak memory (it runs beside the agents),
// doctor under 0.5 s (a person waits on it).
func wholeSection(b *bench) error {
	n := slices.Max(b.sizes)
	return b.withLog("whole", n, func(s *scratch) error {
		runs := min(b.runs, 5)
		fmt.Fprintf(b.out, "  %-9s %-34s %10s %10s %10s %12s\n", "entries", "command", "median", "max", "cpu", "peak memory")
		for _, c := range []struct {
			label string
			args  []string
		}{
			{"lucid dream", []string{"dream"}},
			{"lucid dream --json", []string{"dream", "--json"}},
			{"lucid doctor", []string{"doctor"}},
			{"lucid supersede (an unknown id)", []string{"supersede", "01JZZZZZZZZZZZZZZZZZZZZZZZ", "x"}},
		} {
			times, cpus, peak, err := b.timeWhole(s.dir, c.args, runs)
			if err != nil {
				return err
			}
			med := median(times)
			fmt.Fprintf(b.out, "  %-9d %-34s %s %s %s %9.1f MB\n", n, c.label, ms(med), ms(slices.Max(times)), ms(median(cpus)), float64(peak)/1e6)
			switch c.label {
			case "lucid dream":
				if n >= 1000000 && peak > 0 {
					b.addGoalIn("dream at 1M under 64 MB peak", float64(peak)/1e6, 64, "MB")
				} else {
					b.addUnmeasured("dream at 1M under 64 MB peak", "-sizes has no 1000000, or no peak memory here")
				}
			case "lucid doctor":
				if n >= 1000000 {
					b.addGoalIn("doctor at 1M under 0.5 s", float64(med)/float64(time.Millisecond), 500, "ms")
				} else {
					b.addUnmeasured("doctor at 1M under 0.5 s", "-sizes has no 1000000")
				}
			}
		}
		if own := ownPeak(); own > 0 {
			fmt.Fprintf(b.out, "  (the bench's own peak: %.1f MB, a floor under every child's figure)\n", float64(own)/1e6)
		}
		return nil
	})
}
