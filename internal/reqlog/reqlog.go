// Package reqlog holds what a scripted model server records: the requests
// in order of arrival, the problems it met following its scripts, and a
// wait for the next request. The scripted servers of each API
// (scriptedapi, scriptedresponses, scriptedgemini) share it.
package reqlog

import (
	"fmt"
	"sync"
	"time"
)

// Log records requests of type R (a pointer type) and problems. Its zero
// value is ready to use.
type Log[R any] struct {
	mu       sync.Mutex
	requests []R
	problems []string
	notify   chan struct{} // closed and replaced at every request
}

// Add keeps a request, setting *seq to its number (1 for the first)
// before anyone else can see it, and wakes whoever waits.
func (l *Log[R]) Add(r R, seq *int) {
	l.mu.Lock()
	*seq = len(l.requests) + 1
	l.requests = append(l.requests, r)
	if l.notify != nil {
		close(l.notify)
	}
	l.notify = make(chan struct{})
	l.mu.Unlock()
}

// All returns every request received so far, in order of arrival.
func (l *Log[R]) All() []R {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]R(nil), l.requests...)
}

// Problem records what the server could not answer as scripted.
func (l *Log[R]) Problem(format string, args ...any) {
	l.mu.Lock()
	l.problems = append(l.problems, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

// Problems lists the problems recorded; a test should expect none.
func (l *Log[R]) Problems() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.problems...)
}

// Wait blocks until cond holds for the requests received (checked at
// each new request) or the timeout passes, and reports whether it held.
func (l *Log[R]) Wait(timeout time.Duration, cond func([]R) bool) bool {
	deadline := time.After(timeout)
	for {
		l.mu.Lock()
		reqs := append([]R(nil), l.requests...)
		if l.notify == nil {
			l.notify = make(chan struct{})
		}
		ch := l.notify
		l.mu.Unlock()
		if cond(reqs) {
			return true
		}
		select {
		case <-ch:
		case <-deadline:
			return false
		}
	}
}

// Clip cuts s to n bytes for a readable dump, marking the cut.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
