package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/lucid-dev/lucid/gitstore"
	"github.com/lucid-dev/lucid/internal/present"
)

// Options are how a Server listens and what it allows.
type Options struct {
	// Addr is HOST:PORT to listen on; "" is 127.0.0.1 on a free port.
	Addr string
	// ReadOnly serves no action: the page only shows (a shared screen).
	ReadOnly bool
	// Tick is how often the page is sent the board even without a change,
	// so that ages and states move on; 0 is 10 s.
	Tick time.Duration
	// Naming is how the page names agents, as lucid's commands do.
	Naming present.Naming
}

// Server is one lucid web server of a repository.
type Server struct {
	repo     *gitstore.Repo
	naming   present.Naming
	readOnly bool
	token    string
	ln       net.Listener
	host     string          // the host of the printed URL, as in a Host header
	hosts    map[string]bool // the Host headers that name this server
	exposed  string          // the address other machines may reach, or ""
	hub      *hub
	tick     time.Duration
}

// Listen binds the server's address; Serve serves it.
func Listen(repo *gitstore.Repo, opt Options) (*Server, error) {
	addr := opt.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, errors.New("--addr takes HOST:PORT, such as 127.0.0.1:8080")
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	s := &Server{repo: repo, naming: opt.Naming, readOnly: opt.ReadOnly, token: hex.EncodeToString(raw[:]), ln: ln,
		tick: opt.Tick}
	if !loopback(host) {
		s.exposed = net.JoinHostPort(host, port)
	}
	if s.tick <= 0 {
		s.tick = 10 * time.Second
	}
	s.hosts = map[string]bool{}
	for _, h := range []string{"127.0.0.1", "localhost", "::1"} {
		s.hosts[net.JoinHostPort(h, port)] = true
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		// Every address of the machine: a request may name any of them by
		// its number (a name could be another site's, rebound), and the
		// URL names the loopback one.
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if ip, ok := a.(*net.IPNet); ok {
					s.hosts[net.JoinHostPort(ip.IP.String(), port)] = true
				}
			}
		}
		host = "127.0.0.1"
	}
	if host == "localhost" {
		// The address it is bound to: a browser may take localhost for
		// the other loopback address (::1 or 127.0.0.1), where another
		// server may listen on this port and would be sent the token.
		host = ln.Addr().(*net.TCPAddr).IP.String()
	}
	s.host = net.JoinHostPort(host, port)
	s.hosts[s.host] = true
	s.hub = newHub(repo, opt.Naming, opt.ReadOnly)
	return s, nil
}

// loopback reports whether host names only this machine.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Exposed is the address the server listens on when other machines may
// reach it, else "".
func (s *Server) Exposed() string { return s.exposed }

// URL is the address to open, with the token.
func (s *Server) URL() string {
	return (&url.URL{Scheme: "http", Host: s.host, Path: "/", RawQuery: "token=" + s.token}).String()
}

// Serve serves until ctx ends, then closes the pages' streams and returns
// nil.
func (s *Server) Serve(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	srv := &http.Server{
		Handler:           s.handler(),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	w, err := s.hub.start(ctx)
	if err != nil {
		return err
	}
	watched := make(chan error, 1)
	go func() { watched <- w.Run(ctx, s.tick, s.hub.changed) }()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(s.ln) }()
	select {
	case <-ctx.Done():
	case err := <-served:
		return err
	case err := <-watched:
		if err != nil && ctx.Err() == nil {
			srv.Close()
			return err
		}
	}
	cancel() // ends the event streams, whose requests would hold Shutdown
	shut, done := context.WithTimeout(context.Background(), 5*time.Second)
	defer done()
	if err := srv.Shutdown(shut); err != nil {
		srv.Close()
	}
	return nil
}
