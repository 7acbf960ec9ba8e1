package web

import (
	"crypto/subtle"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
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

// cookieName is the token's cookie. Cookies are shared by every port of a
// host, so each server's has its own name.
func (s *Server) cookieName() string {
	_, port, _ := net.SplitHostPort(s.host)
	return "lucid_" + port
}

// guard lets through the requests of the person's page alone: to this
// server's own host, with the token, and, when they change anything, from
// the page's own origin as JSON.
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
		if q := r.URL.Query(); q.Has("token") {
			if !s.tokenIs(q.Get("token")) {
				refuse(w, http.StatusForbidden, "the token in the address is not this server's: open the URL lucid web printed")
				return
			}
			http.SetCookie(w, &http.Cookie{Name: s.cookieName(), Value: s.token, Path: "/",
				HttpOnly: true, SameSite: http.SameSiteStrictMode})
			// Keep the token out of the address bar and the history.
			q.Del("token")
			to := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
			http.Redirect(w, r, to.String(), http.StatusSeeOther)
			return
		}
		c, err := r.Cookie(s.cookieName())
		if err != nil || !s.tokenIs(c.Value) {
			refuse(w, http.StatusUnauthorized, "no token: open the URL lucid web printed, which carries it")
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

// tokenIs compares in constant time, so that the time of a refusal says
// nothing of the token.
func (s *Server) tokenIs(t string) bool {
	return subtle.ConstantTimeCompare([]byte(t), []byte(s.token)) == 1
}

// crossSite says why a request that changes something is not the page's
// own, or "". A form of another site can post (with the cookie, where the
// browser sends it) but not as JSON, and its browser names its origin.
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
