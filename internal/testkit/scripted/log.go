package scripted

import (
	"fmt"
	"time"
)

// Add keeps a request, numbering it (1 for the first) before anyone else
// can see it, and wakes whoever waits.
func (s *Server[R]) Add(r R) {
	s.logMu.Lock()
	r.base().Seq = len(s.reqs) + 1
	s.reqs = append(s.reqs, r)
	if s.notify != nil {
		close(s.notify)
	}
	s.notify = make(chan struct{})
	s.logMu.Unlock()
}

// Requests returns every request received so far, in order of arrival.
func (s *Server[R]) Requests() []R {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return append([]R(nil), s.reqs...)
}

// Problem records what the server could not answer as scripted.
func (s *Server[R]) Problem(format string, args ...any) {
	s.logMu.Lock()
	s.probs = append(s.probs, fmt.Sprintf(format, args...))
	s.logMu.Unlock()
}

// Problems lists what the server could not answer as scripted: unknown
// requests, bodies it could not read, requests no script claimed, markers
// found twice, steps that failed. A test should expect none.
func (s *Server[R]) Problems() []string {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return append([]string(nil), s.probs...)
}

// Wait blocks until cond holds for the requests received (checked at
// each new request) or the timeout passes, and reports whether it held.
func (s *Server[R]) Wait(timeout time.Duration, cond func([]R) bool) bool {
	deadline := time.After(timeout)
	for {
		s.logMu.Lock()
		reqs := append([]R(nil), s.reqs...)
		if s.notify == nil {
			s.notify = make(chan struct{})
		}
		ch := s.notify
		s.logMu.Unlock()
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
