package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// mergeSection times `lucid merge-driver` on a large case: two
// sides of 500k entries each that share a base of 250k (each branch then
// appended 250k of its own, interleaved in time), as git runs it: from the
// work tree's top, with %O %A %B %L %P. Each run gets a fresh copy of ours,
// which the driver replaces. It prints the wall time, the CPU time and the
// peak memory (the child's maximum resident set, from rusage), and checks
// the result: every entry of both sides exactly once.
//
// Goals: under 2 s (git waits on the driver during a merge or rebase); peak
// memory under 3x the size of the inputs,
// counted as the two sides the driver reads (the base, which it does not
// read, is left out, which makes the goal stricter).
//
// Peak memory: Go starts a child with vfork, sharing this process's memory
// until the exec, and Linux counts this process's own peak into the
// child's maximum resident set. So the bench keeps its own memory small
// here (it streams the files it writes), prints its own peak beside the
// child's, and says so when the child's figure is only that bound.
func mergeSection(b *bench) error {
	const base, side = 250000, 500000
	total := base + 2*(side-base)
	return b.withLog("merge", total, func(s *scratch) error {
		names, inputs, err := splitSides(s, base)
		if err != nil {
			return err
		}
		runs := min(b.runs, 7)
		var times, cpus []time.Duration
		var peak int64
		for i := range 1 + runs { // one warm-up: the page cache
			if err := copyFile(names.oursCopy, filepath.Join(s.dir, names.ours)); err != nil {
				return err
			}
			cmd := exec.Command(b.lucid, "merge-driver", names.base, names.ours, names.theirs, "7", ".lucid/log.jsonl")
			cmd.Dir = s.dir
			cmd.Env = b.env
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			start := time.Now()
			err := cmd.Run()
			d := time.Since(start)
			if err != nil {
				return fmt.Errorf("lucid merge-driver: %v (%s)", err, firstLine(stderr.Bytes()))
			}
			if i == 0 {
				continue
			}
			times = append(times, d)
			cpus = append(cpus, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
			peak = max(peak, peakRSS(cmd.ProcessState))
		}
		if err := checkMerged(filepath.Join(s.dir, names.ours), total); err != nil {
			return err
		}
		med := median(times)
		fmt.Fprintf(b.out, "  %-34s %10s %10s %10s %12s %9s\n", "command", "median", "max", "cpu", "peak memory", "x inputs")
		fmt.Fprintf(b.out, "  %-34s %s %s %s %9.1f MB %9.2f\n", "merge-driver 500k+500k, base 250k",
			ms(med), ms(slices.Max(times)), ms(median(cpus)), float64(peak)/1e6, float64(peak)/float64(inputs))
		fmt.Fprintf(b.out, "  (inputs: ours and theirs, %.1f MB together; %d runs; cpu: user+system time,\n"+
			"  above the wall time when both sides are read at once, below it on a busy machine)\n", float64(inputs)/1e6, runs)
		if own := ownPeak(); own > 0 {
			note := ""
			if peak <= own {
				note = ": the child's figure is this bound, its own peak is lower"
			}
			fmt.Fprintf(b.out, "  (this bench's own peak, counted into the child's: %.1f MB%s)\n", float64(own)/1e6, note)
		}
		b.addGoal("merge-driver 500k+500k under 2 s (/ 2 s)", med.Seconds()/2, 1)
		if peak > 0 {
			b.addGoal("merge-driver peak memory (x inputs)", float64(peak)/float64(inputs), 3)
		} else {
			b.addUnmeasured("merge-driver peak memory", "no rusage on this system")
		}
		return nil
	})
}

// sides names the files of a merge, relative to the scratch repository.
type sides struct {
	base, ours, theirs string
	oursCopy           string // absolute: ours as it was, copied to ours before each run
}

// splitSides splits the scratch log into a base of its first n entries and
// two sides that each add every other entry after it, and returns the file
// names and the size of the two sides. It streams, so that the bench's own
// memory stays small (see mergeSection).
func splitSides(s *scratch, n int) (sides, int64, error) {
	// git names its temp files like this, in the work tree's top.
	names := sides{base: ".merge_file_base", ours: ".merge_file_ours", theirs: ".merge_file_theirs",
		oursCopy: filepath.Join(s.dir, ".ours-as-committed")}
	in, err := os.Open(s.repo.LogPath())
	if err != nil {
		return names, 0, err
	}
	defer in.Close()
	paths := []string{filepath.Join(s.dir, names.base), names.oursCopy, filepath.Join(s.dir, names.theirs)}
	var files []*os.File
	var ws []*bufio.Writer
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	for _, p := range paths {
		f, err := os.Create(p)
		if err != nil {
			return names, 0, err
		}
		files = append(files, f)
		ws = append(ws, bufio.NewWriterSize(f, 1<<20))
	}
	r := bufio.NewReaderSize(in, 1<<20)
	for i := 0; ; i++ {
		line, err := r.ReadSlice('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			return names, 0, err
		}
		switch {
		case i < n: // both sides have the base
			ws[0].Write(line)
			ws[1].Write(line)
			ws[2].Write(line)
		case i%2 == 0:
			ws[1].Write(line)
		default:
			ws[2].Write(line)
		}
	}
	var inputs int64
	for i, w := range ws {
		if err := w.Flush(); err != nil {
			return names, 0, err
		}
		if i > 0 {
			fi, err := files[i].Stat()
			if err != nil {
				return names, 0, err
			}
			inputs += fi.Size()
		}
	}
	return names, inputs, nil
}

// copyFile copies from to to in the kernel (copy_file_range), not
// through this process's memory.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// checkMerged checks that the merged log has want lines, each a different
// entry, and ends with a newline.
func checkMerged(path string, want int) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	ids := make(map[[26]byte]struct{}, want)
	r := bufio.NewReaderSize(f, 1<<20)
	n := 0
	for ; ; n++ {
		line, err := r.ReadSlice('\n')
		if err == io.EOF {
			if len(line) > 0 {
				return fmt.Errorf("the merged log does not end with a newline")
			}
			break
		}
		if err != nil {
			return err
		}
		// lucid writes the id first: {"id":"<26 characters>",...
		if len(line) < 33 || !bytes.HasPrefix(line, []byte(`{"id":"`)) {
			return fmt.Errorf("the merged log has a line that is not an entry: %.80q", line)
		}
		ids[[26]byte(line[7:33])] = struct{}{}
	}
	if n != want || len(ids) != want {
		return fmt.Errorf("the merged log has %d lines and %d different ids, want %d of each", n, len(ids), want)
	}
	return nil
}

// ownPeak returns this process's peak resident set (VmHWM), or 0.
func ownPeak() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	return vmHWM(string(data))
}

// vmHWM reads the peak resident set from a /proc status file.
func vmHWM(status string) int64 {
	for line := range strings.Lines(status) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024
		}
	}
	return 0
}
