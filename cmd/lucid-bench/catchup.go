package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"time"
)

// catchupSection measures what lucid web's server pays when a page comes
// back far behind: a page that read the log while it was empty reconnects
// its event stream (GET /api/events with that tail) once 200,000 entries
// (and the largest of -sizes) are in the log. The server reads the log from
// its end, no further back than one event carries (500 entries), and tells
// the page to read the log again; it read every entry into memory before
// (320 MB more at 200,000). Printed: the time from the request to the
// reload event, and the server's peak memory after its first page of the
// log and after the catch-ups. The server is lucid-view, found beside lucid.
//
// Goal: the peak after the catch-ups within 1.2x of the peak before them,
// at every size.
func catchupSection(b *bench) error {
	const goal = "page catch-up from an empty log's tail: server peak after / before, within 1.2x"
	view, why := b.viewBinary()
	if why != "" {
		fmt.Fprintf(b.out, "  not measured: %s\n", why)
		b.addUnmeasured(goal, why)
		return nil
	}
	sizes := []int{200000}
	if big := slices.Max(b.sizes); big > 200000 {
		sizes = append(sizes, big)
	}
	fmt.Fprintf(b.out, "  %-9s %-34s %10s %10s %12s %12s\n", "entries", "what", "median", "max", "peak before", "peak after")
	worst := 0.0
	for _, n := range sizes {
		err := b.withLog("catchup", n, func(s *scratch) error {
			times, before, after, err := b.measureCatchup(view, s)
			if err != nil {
				return err
			}
			fmt.Fprintf(b.out, "  %-9d %-34s %s %s %9.1f MB %9.1f MB\n", n, "catch-up from an empty log's tail", ms(median(times)), ms(slices.Max(times)),
				float64(before)/1e6, float64(after)/1e6)
			if before > 0 {
				worst = max(worst, float64(after)/float64(before))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if worst > 0 {
		b.addGoal(goal, worst, 1.2)
	} else {
		b.addUnmeasured(goal, "a system that reports peak memory")
	}
	return nil
}

// measureCatchup starts the server on the scratch repository, reads the
// log's first page as a page does, and then reconnects an event stream
// from an empty log's tail a few times, each until its reload event. It
// returns those times and the server's peak memory before and after them.
func (b *bench) measureCatchup(view string, s *scratch) (times []time.Duration, before, after int64, err error) {
	page, srv, err := b.startView(view, s)
	if err != nil {
		return nil, 0, 0, err
	}
	defer func() { srv.Process.Kill(); srv.Wait() }()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: time.Minute}
	base, _ := url.Parse(page)
	get := func(path string) (*http.Response, error) {
		resp, err := c.Get(base.Scheme + "://" + base.Host + path)
		if err == nil && resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return nil, fmt.Errorf("GET %s: %s", path, resp.Status)
		}
		return resp, err
	}
	for _, path := range []string{"/?" + base.RawQuery, "/api/log"} {
		resp, err := get(path)
		if err != nil {
			return nil, 0, 0, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	before = processPeak(srv.Process.Pid)
	empty := "/api/events?tail=" + url.QueryEscape(`{"size":0,"inode":0,"mtime_ns":0}`)
	for range min(b.runs, 7) {
		start := time.Now()
		resp, err := get(empty)
		if err != nil {
			return nil, 0, 0, err
		}
		sc := bufio.NewScanner(resp.Body)
		reloaded := false
		for !reloaded && sc.Scan() {
			reloaded = strings.TrimSpace(sc.Text()) == "event: reload"
		}
		times = append(times, time.Since(start))
		resp.Body.Close()
		if !reloaded {
			return nil, 0, 0, fmt.Errorf("a page back from an empty log's tail was not told to reload")
		}
	}
	return times, before, processPeak(srv.Process.Pid), nil
}
