package server

import (
	"net/http"
	"net/url"
	"strings"
)

// An origin is a scheme and a host together (RFC 6454): a page at
// http://host is not the server at https://host, and may be an attacker's
// where the network is not trusted. Browsers say where a request comes
// from in Sec-Fetch-Site (which compares whole origins) and in Origin;
// the server compares the Origin with its own scheme and host, or with the
// allowed origins (Config.Origins), scheme included.

// crossOriginProtection sets the allowed origins and returns the
// protection that refuses browsers' cross-origin writes, except from
// them; nil if any origin is allowed.
func (s *Server) crossOriginProtection() *http.CrossOriginProtection {
	cop := http.NewCrossOriginProtection()
	s.origins = []string{}
	for _, o := range s.cfg.Origins {
		if o == "*" {
			s.origins = nil
			return nil
		}
		n, ok := normalOrigin(strings.TrimSuffix(o, "/"))
		if !ok {
			s.log.Warn("ignoring origin: want a scheme and a host, such as https://example.org", "origin", o)
			continue
		}
		if err := cop.AddTrustedOrigin(n); err != nil {
			s.log.Warn("ignoring origin", "origin", o, "err", err)
			continue
		}
		s.origins = append(s.origins, n)
	}
	cop.SetDenyHandler(http.HandlerFunc(s.denyOrigin))
	return cop
}

// denyOrigin answers a request refused for its origin.
func (s *Server) denyOrigin(w http.ResponseWriter, r *http.Request) {
	s.fail(w, r, Errorf(EFORBIDDEN, "cross-origin request from %q refused: only the server's own pages and allowed origins may act", r.Header.Get("Origin")))
}

// originGuard refuses browsers' cross-origin writes: those
// http.CrossOriginProtection refuses, and those it lets through for want
// of Sec-Fetch-Site when the Origin has the server's host but not its
// scheme.
func (s *Server) originGuard(next http.Handler) http.Handler {
	if s.cop == nil {
		return next
	}
	return s.cop.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
		default:
			if !s.originAllowed(r) {
				s.denyOrigin(w, r)
				return
			}
		}
		next.ServeHTTP(w, r)
	}))
}

// originAllowed reports whether a browser's request may act or open a
// WebSocket: any origin is allowed; or Sec-Fetch-Site says it comes from
// the server's own origin (or none, as a typed address); or its Origin is
// an allowed one; or, from browsers without Sec-Fetch-Site, its Origin is
// the server's own scheme and host. A request without either header is
// not from a browser.
func (s *Server) originAllowed(r *http.Request) bool {
	if s.origins == nil {
		return true
	}
	o := r.Header.Get("Origin")
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin", "none":
		return true
	case "":
		if o == "" {
			return true
		}
		if n, ok := normalOrigin(o); ok && n == requestScheme(r)+"://"+strings.ToLower(r.Host) {
			return true
		}
	}
	return s.trusted(o)
}

// trusted reports whether origin o is one of the allowed origins.
func (s *Server) trusted(o string) bool {
	if s.origins == nil {
		return true
	}
	n, ok := normalOrigin(o)
	if !ok {
		return false
	}
	for _, a := range s.origins {
		if a == n {
			return true
		}
	}
	return false
}

// normalOrigin returns an origin as browsers serialize it, scheme and
// host in lower case ("https://example.org:8443"), and whether o is one:
// an http or https URL with a host and nothing after it.
func normalOrigin(o string) (string, bool) {
	u, err := url.Parse(o)
	if err != nil || u.Host == "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", false
	}
	return scheme + "://" + strings.ToLower(u.Host), true
}

// requestScheme returns the scheme the client used to reach the server:
// https over TLS; behind a proxy that ends TLS, what its X-Forwarded-Proto
// says (a browser cannot set that header, so it cannot pass for another
// origin with it); else http.
func requestScheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	if p := strings.ToLower(strings.TrimSpace(proto)); p == "https" || p == "http" {
		return p
	}
	return "http"
}
