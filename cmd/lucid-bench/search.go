package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/lucid-dev/lucid/internal/log/search"
)

// searchSection times lucid search on the logs of -sizes from 100k
// entries up: ranked by one word and by three, a filter alone (then every
// line is read and the newest kept), and a path with a word. Each runs once
// to warm the page cache, then a few times, as in wholeSection; beside the
// median and maximum wall time it prints the floor's multiple, the CPU
// time and the peak memory as peakOf measures it.
//
// Two more rows: a search of search.MaxWords of the log's commonest words,
// the longest search there is (each word is another pass over the log's
// lines that may hold it, so it is left out of the goal below), and one of
// 10,000 words, refused at once (it did not finish).
//
// Goals: every search on the 1M log under 1 s, and its peak memory flat in
// the log's size: at 1M within 1.5x of its peak at 100k. What grows is
// the set of superseded ids (a search, like lucid dream, must know what is
// no longer live), some 60 bytes for each: 20,000 of them in the 1M log.
func searchSection(b *bench) error {
	commands := []struct {
		label string
		args  []string
		most  bool // the longest search: not in the goal of every search under 1 s
	}{
		{"lucid search cache", []string{"search", "cache"}, false},
		{"lucid search session cache redis", []string{"search", "session", "cache", "redis"}, false},
		{"lucid search --kind dead-end", []string{"search", "--kind", "dead-end"}, false},
		{"lucid search --path src/db/** cache", []string{"search", "--path", "src/db/**", "cache"}, false},
		{fmt.Sprintf("lucid search, %d words (the most)", search.MaxWords), append([]string{"search"}, searchWords(search.MaxWords)...), true},
		{"lucid search, 10,000 words (refused)", append([]string{"search"}, searchWords(10000)...), false},
	}
	var sizes []int
	for _, n := range b.sizes {
		if n >= 100000 {
			sizes = append(sizes, n)
		}
	}
	peaks := map[int]int64{} // the largest of the commands' peaks, by size
	slowest := map[int]time.Duration{}
	fmt.Fprintf(b.out, "  %-9s %-36s %10s %10s %8s %10s %12s\n", "entries", "command", "median", "max", "x floor", "cpu", "peak memory")
	for _, n := range sizes {
		err := b.withLog("search", n, func(s *scratch) error {
			for _, c := range commands {
				times, cpus, _, err := b.timeWhole(s.dir, c.args, min(b.runs, 5))
				if err != nil {
					return err
				}
				peak, err := b.peakOf(s.dir, c.args)
				if err != nil {
					return err
				}
				med := median(times)
				peaks[n] = max(peaks[n], peak)
				if !c.most {
					slowest[n] = max(slowest[n], med)
				}
				fmt.Fprintf(b.out, "  %-9d %-36s %s %s %8.1f %s %9.1f MB\n", n, c.label, ms(med), ms(slices.Max(times)),
					float64(med)/float64(b.floor.median), ms(median(cpus)), float64(peak)/1e6)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	const big, small = 1000000, 100000
	if d, ok := slowest[big]; ok {
		b.addGoalIn("search at 1M under 1 s (slowest row)", float64(d)/float64(time.Millisecond), 1000, "ms")
	} else {
		b.addUnmeasured("search at 1M under 1 s (slowest row)", "-sizes has no 1000000")
	}
	if peaks[big] > 0 && peaks[small] > 0 {
		b.addGoal("search peak memory 1M / 100k within 1.5x", float64(peaks[big])/float64(peaks[small]), 1.5)
	} else {
		b.addUnmeasured("search peak memory 1M / 100k within 1.5x", "-sizes needs 100000 and 1000000, and a system that reports peak memory")
	}
	return nil
}

// searchWords are n different words, those of the log's texts first.
func searchWords(n int) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range slices.Concat(subjects, predicates, details) {
		for w := range strings.FieldsFuncSeq(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if len(out) < n && !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	for i := 0; len(out) < n; i++ {
		out = append(out, fmt.Sprintf("word%d", i))
	}
	return out
}

// timeWhole runs lucid with args in dir once to warm the page cache, then
// runs times, and returns each run's wall time and CPU time (user and
// system) and the largest peak memory the system reported (which a child
// of the bench reports as at least the bench's own: see peakOf). An exit
// status other than 0 is an answer, not a failure.
func (b *bench) timeWhole(dir string, args []string, runs int) (times, cpus []time.Duration, peak int64, err error) {
	for i := range 1 + runs {
		cmd := exec.Command(b.lucid, args...)
		cmd.Dir = dir
		cmd.Env = b.env
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		if _, exit := err.(*exec.ExitError); err != nil && !exit {
			return nil, nil, 0, fmt.Errorf("lucid %v: %v", args, err)
		}
		if i == 0 {
			continue
		}
		times = append(times, d)
		cpus = append(cpus, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		peak = max(peak, peakRSS(cmd.ProcessState))
	}
	return times, cpus, peak, nil
}

// peakArg, as the bench's first argument, makes it peakChild.
const peakArg = "-peak-of"

// peakOf is the peak memory of lucid with args, run in dir. A process the
// bench starts reports at least the bench's own peak (Go starts it with
// vfork, and Linux keeps the larger figure across exec), which is more
// than lucid's own; so the bench runs itself again as a small process
// (peakChild) that runs lucid and reports its peak. That figure has the
// small process's own peak (a few MB) as its floor.
func (b *bench) peakOf(dir string, args []string) (int64, error) {
	self, err := os.Executable()
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(self, append([]string{peakArg, b.lucid}, args...)...)
	cmd.Dir = dir
	cmd.Env = b.env
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("measuring the peak memory of lucid %v: %v", args, err)
	}
	return strconv.ParseInt(string(bytes.TrimSpace(out)), 10, 64)
}

// peakChild runs argv, its output discarded, and prints its peak memory
// in bytes (0 where the system does not say).
func peakChild(argv []string) int {
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Run(); err != nil {
		if _, exit := err.(*exec.ExitError); !exit {
			fmt.Fprintln(os.Stderr, strings.TrimSpace(err.Error()))
			return 1
		}
	}
	fmt.Println(peakRSS(cmd.ProcessState))
	return 0
}
