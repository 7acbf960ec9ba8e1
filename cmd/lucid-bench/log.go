package main

import (
	"fmt"
)

// logSection times `lucid status` (the digest every agent gets when it
// starts) and `lucid log -n 20` on logs of each of b.sizes entries. Both read
// the log from its end, so neither should grow with the log. The goals:
// status on a 1M log within 3x the floor, and within 1.3x of
// status on a 1k log. The second compares the two "x floor" figures, so
// that the machine's drift between the two measures does not count.
func logSection(b *bench) error {
	commands := []struct {
		label string
		args  []string
	}{
		{"lucid status", []string{"status"}},
		{"lucid log -n 20", []string{"log", "-n", "20"}},
	}
	status := map[int]float64{} // x floor, by size
	fmt.Fprintf(b.out, "  %-9s %-17s %10s %10s %10s %8s\n", "entries", "command", "median", "max", "floor", "x floor")
	for _, n := range b.sizes {
		err := b.withLog("log", n, func(s *scratch) error {
			for _, c := range commands {
				t, err := b.timeLucid(s.dir, c.args...)
				if err != nil {
					return err
				}
				if c.args[0] == "status" {
					status[n] = xFloor(t)
				}
				fmt.Fprintf(b.out, "  %-9d %-17s %s %s %s %8.2f\n", n, c.label, ms(t.median), ms(t.max), ms(t.floor), xFloor(t))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}

	const big, small = 1000000, 1000
	label := "status at 1M within 3x floor"
	if x, ok := status[big]; ok {
		b.addGoal(label, x, 3)
	} else {
		b.addUnmeasured(label, "-sizes has no 1000000")
	}
	label = "status 1M / 1k within 1.3x (x floor)"
	if x, ok := status[big]; ok && status[small] > 0 {
		b.addGoal(label, x/status[small], 1.3)
	} else {
		b.addUnmeasured(label, "-sizes needs 1000 and 1000000")
	}
	return nil
}
