package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/lucid-dev/lucid/internal/testkit/browser"
)

// webSection measures lucid web as a person meets it, in a real headless
// Chromium: the page's first paint of data (from the navigation's start
// to the page's own mark 'lucid-first-data', set once the board and the
// first page of the log are drawn), how long an entry appended by another
// process takes to show on the open page (from the start of that `lucid
// fact` process to the moment the page put the entry on screen, which the
// page notes in window.lucidSeen), and the server's peak memory after
// both, on the logs of -sizes. The server is lucid-view, the binary lucid
// web runs (found beside the lucid binary).
//
// Goals: at 1M entries, first paint under 300 ms and an append shown
// within 500 ms; the server's peak memory flat in the log's size (at the
// largest log within 1.5x of the smallest).
func webSection(b *bench) error {
	const paintGoal, appendGoal, memGoal = "page first paint at 1M under 300 ms", "append shown on the page at 1M within 500 ms", "lucid web peak memory, largest log / smallest, within 1.5x"
	view, why := b.viewBinary()
	if _, err := browser.Path(); why == "" && err != nil {
		why = err.Error()
	}
	if why != "" {
		fmt.Fprintf(b.out, "  not measured: %s\n", why)
		for _, g := range []string{paintGoal, appendGoal, memGoal} {
			b.addUnmeasured(g, why)
		}
		return nil
	}
	fmt.Fprintf(b.out, "  %-9s %-28s %10s %10s %12s\n", "entries", "what", "median", "max", "peak memory")
	paint, shown, peaks := map[int]time.Duration{}, map[int]time.Duration{}, map[int]int64{}
	for _, n := range b.sizes {
		err := b.withLog("web", n, func(s *scratch) error {
			p, a, peak, err := b.measurePage(view, s, n)
			if err != nil {
				return err
			}
			paint[n], shown[n], peaks[n] = median(p), median(a), peak
			fmt.Fprintf(b.out, "  %-9d %-28s %s %s\n", n, "first paint of data", ms(median(p)), ms(slices.Max(p)))
			fmt.Fprintf(b.out, "  %-9d %-28s %s %s %9.1f MB\n", n, "append shown on the page", ms(median(a)), ms(slices.Max(a)), float64(peak)/1e6)
			return nil
		})
		if err != nil {
			return err
		}
	}
	const big = 1000000
	if d, ok := paint[big]; ok {
		b.addGoalIn(paintGoal, float64(d)/float64(time.Millisecond), 300, "ms")
		b.addGoalIn(appendGoal, float64(shown[big])/float64(time.Millisecond), 500, "ms")
	} else {
		b.addUnmeasured(paintGoal, "-sizes has no 1000000")
		b.addUnmeasured(appendGoal, "-sizes has no 1000000")
	}
	small, large := slices.Min(b.sizes), slices.Max(b.sizes)
	if small != large && peaks[small] > 0 {
		b.addGoal(memGoal, float64(peaks[large])/float64(peaks[small]), 1.5)
	} else {
		b.addUnmeasured(memGoal, "-sizes needs two sizes, and a system that reports peak memory")
	}
	return nil
}

// measurePage starts the server on the scratch repository and a browser,
// and returns the first paints of a few fresh loads, the delays of a few
// appends, and the server's peak memory.
func (b *bench) measurePage(view string, s *scratch, n int) (paints, appends []time.Duration, peak int64, err error) {
	url, srv, err := b.startView(view, s)
	if err != nil {
		return nil, nil, 0, err
	}
	defer func() { srv.Process.Kill(); srv.Wait() }()
	tab, stop, err := browser.Start(context.Background(), filepath.Join(s.dir, ".chromium"))
	if err != nil {
		return nil, nil, 0, err
	}
	defer stop()
	runs := min(b.runs, 7)
	for range runs + 1 { // the first load warms the page cache, the server and the browser
		ctx, cancel := context.WithTimeout(tab, 60*time.Second)
		err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url))
		var at float64
		// The poll may start in a document that is being replaced (the
		// blank one): then it starts again in the new one.
		for try := 0; err == nil; try++ {
			at, err = chromedp.Run(ctx, chromedp.Poll[float64](
				`(performance.getEntriesByName('lucid-first-data')[0] || {}).startTime`, chromedp.WithPollingInterval(5*time.Millisecond)))
			if err == nil || try == 3 || !strings.Contains(err.Error(), "Cannot find context") {
				break
			}
			err = nil
		}
		cancel()
		if err != nil {
			return nil, nil, 0, fmt.Errorf("the page at %d entries: %w", n, err)
		}
		paints = append(paints, time.Duration(at*float64(time.Millisecond)))
	}
	paints = paints[1:]
	for i := range runs {
		start := time.Now()
		id, err := b.output(s.dir, nil, b.lucid, "fact", fmt.Sprintf("bench append %d", i))
		if err != nil {
			return nil, nil, 0, err
		}
		ctx, cancel := context.WithTimeout(tab, 30*time.Second)
		seen, err := chromedp.Run(ctx, chromedp.Poll[float64](
			fmt.Sprintf(`window.lucidSeen && window.lucidSeen[%q]`, strings.TrimSpace(id)), chromedp.WithPollingInterval(5*time.Millisecond)))
		cancel()
		if err != nil {
			return nil, nil, 0, fmt.Errorf("an appended entry never showed on the page: %w", err)
		}
		appends = append(appends, time.UnixMilli(int64(seen)).Sub(start))
	}
	return paints, appends, processPeak(srv.Process.Pid), nil
}

// viewBinary is lucid-view, the binary lucid web runs, found beside the
// lucid binary; why says why not when it is not there.
func (b *bench) viewBinary() (view, why string) {
	view = filepath.Join(filepath.Dir(b.lucid), "lucid-view")
	if _, err := os.Stat(view); err != nil {
		return "", "no lucid-view beside " + b.lucid + " (make build makes both)"
	}
	return view, ""
}

// startView starts `lucid-view web` on the scratch repository and returns
// the address it printed (with its token) and the running server, which
// the caller kills.
func (b *bench) startView(view string, s *scratch) (string, *exec.Cmd, error) {
	srv := exec.Command(view, "web")
	srv.Dir, srv.Env = s.dir, b.env
	out, err := srv.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	srv.Stderr = io.Discard
	if err := srv.Start(); err != nil {
		return "", nil, err
	}
	url, err := serverURL(out)
	if err != nil {
		srv.Process.Kill()
		srv.Wait()
		return "", nil, fmt.Errorf("lucid web printed no address: %w", err)
	}
	go io.Copy(io.Discard, out)
	return url, srv, nil
}

// serverURL reads the server's output until the line with its address.
func serverURL(r io.Reader) (string, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		for f := range strings.FieldsSeq(sc.Text()) {
			if strings.HasPrefix(f, "http://") {
				return f, nil
			}
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", errors.New("its output ended")
}

// processPeak returns a running process's peak resident set (VmHWM), or 0.
func processPeak(pid int) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	return vmHWM(string(data))
}
