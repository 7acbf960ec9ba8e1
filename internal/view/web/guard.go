package web

import (
	"crypto/subtle"
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// The headers of every answer: no script but the page's own files, no
// guessing of types, no referrer (the URL carries the token), no framing.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
		"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	"X-Content-Type-Options": "nosniff",
	"Referrer-Policy":        "no-referrer",
	"X-Frame-Options":        "DENY",
	"Cache-Control":          "no-store",
}

// The page's own files, served to any request that names this server's
// host: they hold no secret (the token is in no file), and a reload asks
// for them with none. Everything else needs the token.
var pageFiles = map[string]bool{"/": true, "/app.js": true, "/app.css": true, "/favicon.svg": true}

// guard lets through the requests of the person's page alone: to this
// server's own host, with the token in their Authorization header unless
// they ask for the page's files, and, when they change anything, from the
// page's own origin as JSON.
//
// No cookie carries the token, and none is read: a browser sends a cookie
// of 127.0.0.1 to every server of that address, whatever its port, so an
// agent's dev server the person opened would get it. The page keeps the
// token where only its origin (scheme, host and port) reads it, and sends
// it in a header, which a page of another origin cannot make the browser
// add.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range securityHeaders {
			w.Header().Set(k, v)
		}
		if !s.hosts[r.Host] {
			// A page of another site whose name was pointed at this
			// address (DNS rebinding) sends its own name.
			refuse(w, http.StatusForbidden, "the request names host "+quoteHost(r.Host)+", not this server's: open the URL lucid web printed")
			return
		}
		if pageFiles[r.URL.Path] {
			if r.Method != http.MethodGet && r.Method != http.MethodHead {
				w.Header().Set("Allow", "GET")
				refuse(w, http.StatusMethodNotAllowed, r.Method+" is not served: the page's files are read with GET")
				return
			}
			// The printed URL: the page's script takes the token from
			// the address and drops it there. A token of another server
			// (one that ran on this port before) is said at once.
			if q := r.URL.Query(); q.Has("token") && !s.tokenIs(q.Get("token")) {
				refuse(w, http.StatusForbidden, "the token in the address is not this server's: open the URL lucid web printed")
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		if why := s.unauthorised(r); why != "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="lucid web"`)
			refuse(w, http.StatusUnauthorized, why)
			return
		}
		switch r.Method {
		case http.MethodGet, http.MethodHead:
		case http.MethodPost:
			if why := s.crossSite(r); why != "" {
				refuse(w, http.StatusForbidden, why)
				return
			}
		default:
			w.Header().Set("Allow", "GET, POST")
			refuse(w, http.StatusMethodNotAllowed, r.Method+" is not served: the page reads with GET and acts with POST")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// unauthorised says why r does not carry this server's token as
// "Authorization: Bearer TOKEN", or "". A cookie, or a token in the query,
// counts for nothing.
func (s *Server) unauthorised(r *http.Request) string {
	auth := r.Header.Get("Authorization")
	if auth == "" {
		return "no token: open the URL lucid web printed, which carries it (the page sends it in the Authorization header)"
	}
	scheme, token, _ := strings.Cut(auth, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "the Authorization header is not Bearer TOKEN: the page sends the token of the URL lucid web printed that way"
	}
	if !s.tokenIs(strings.TrimSpace(token)) {
		return "the token is not this server's (was lucid web started again?): open the URL lucid web printed"
	}
	return ""
}

// tokenIs compares in constant time, so that the time of a refusal says
// nothing of the token.
func (s *Server) tokenIs(t string) bool {
	return subtle.ConstantTimeCompare([]byte(t), []byte(s.token)) == 1
}

// crossSite says why a request that changes something is not the page's
// own, or "". With the token in a header, no other site's request gets
// here; this holds besides: a form of another site can post, but not as
// JSON, and its browser names its origin.
func (s *Server) crossSite(r *http.Request) string {
	switch origin := r.Header.Get("Origin"); {
	case origin == "http://"+r.Host:
	case origin == "" && r.Header.Get("Sec-Fetch-Site") == "same-origin":
	case origin == "":
		return "the request names no origin: the page's own requests do; act from the page lucid web printed"
	default:
		return "the request comes from " + quoteHost(origin) + ", not from this server's page: act from the page lucid web printed"
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return "the request's body is not application/json: the page sends JSON"
	}
	return ""
}

// quoteHost quotes a name a request gave, cut short, for a refusal.
func quoteHost(h string) string {
	if len(h) > 100 {
		h = h[:100] + "…"
	}
	return strconv.Quote(h)
}
