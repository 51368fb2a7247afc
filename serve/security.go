package serve

import (
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// tokenCookie carries the token after a first request with ?token=.
const tokenCookie = "taudb_analyze_token"

// contentPolicy lets pages load scripts, styles, images and data from this
// server only: no other host is ever contacted, and no inline script runs.
const contentPolicy = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// reportPolicy is contentPolicy for the stored results' report pages, whose
// charts are drawn by an inline script (report.WritePage); they fetch
// nothing.
const reportPolicy = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'none'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

func setSafetyHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin") // "no-referrer" would make a form's Origin "null"
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
}

// allowed checks a request before it is answered, answering it itself
// when refused: without a token, the Host must be a loopback name (a page
// of another site that rebinds its name to 127.0.0.1 is refused); with a
// token, the request must carry it; a POST must come from a page of this
// server (Origin, or Referer when the browser sends no Origin).
func (s *Server) allowed(w http.ResponseWriter, r *http.Request) bool {
	if s.opt.Token == "" && !loopbackHost(r.Host) {
		http.Error(w, "this server answers on its loopback address only", http.StatusMisdirectedRequest)
		return false
	}
	if s.opt.Token != "" && !s.hasToken(w, r) {
		http.Error(w, "a token is required: open the address the server printed (…/?token=…)", http.StatusUnauthorized)
		return false
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead && !sameOrigin(r) {
		http.Error(w, "cross-site request refused", http.StatusForbidden)
		return false
	}
	return true
}

// hasToken reports whether r carries the token, setting the cookie when it
// came as ?token=.
func (s *Server) hasToken(w http.ResponseWriter, r *http.Request) bool {
	want := []byte(s.opt.Token)
	if q := r.URL.Query().Get("token"); q != "" && subtle.ConstantTimeCompare([]byte(q), want) == 1 {
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: s.opt.Token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		return true
	}
	if c, err := r.Cookie(tokenCookie); err == nil && subtle.ConstantTimeCompare([]byte(c.Value), want) == 1 {
		return true
	}
	if a, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return subtle.ConstantTimeCompare([]byte(a), want) == 1
	}
	return false
}

// loopbackHost reports whether a Host header names the loopback interface
// (localhost, 127.0.0.0/8, ::1), with or without a port.
func loopbackHost(host string) bool {
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// IsLoopback reports whether a listening address (host:port) binds the
// loopback interface only; ":8080" and "0.0.0.0:8080" bind every
// interface.
func IsLoopback(addr string) bool {
	h, _, err := net.SplitHostPort(addr)
	if err != nil || h == "" {
		return false
	}
	return loopbackHost(h)
}

// sameOrigin reports whether a state-changing request came from a page of
// this server.
func sameOrigin(r *http.Request) bool {
	src := r.Header.Get("Origin")
	if src == "" {
		src = r.Header.Get("Referer")
	}
	u, err := url.Parse(src)
	return err == nil && src != "" && u.Host == r.Host
}
