package server

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/account"
)

// Sessions. A signed-in client holds its session's token (package
// account) in one cookie, SessionCookie: HttpOnly, so that no script
// reads it; SameSite=Lax, so that a browser sends it on no other site's
// requests but a link followed; Path=/; and Secure when the request came
// over TLS (or a trusted X-Forwarded-Proto says so) or Config.SecureCookies
// says the site is behind TLS. The cookie counts only on requests from the
// server's own pages: a browser's cross-origin request is served as a
// guest's, whatever Config.Origins allows, so that no other origin can act
// as a signed-in player (writes from other origins are refused before that,
// unless Config.Origins is "*").

// SessionCookie is the name of the cookie that holds a session's token.
const SessionCookie = "chaturaji_session"

// sessionToken returns the session token r carries, or "".
func sessionToken(r *http.Request) string {
	c, err := r.Cookie(SessionCookie)
	if err != nil {
		return ""
	}
	return c.Value
}

// signedIn returns the account whose session r's cookie holds, or nil for
// a guest: no cookie, a session ended or expired, a deleted account, a
// request from another origin, or a server without accounts.
func (s *Server) signedIn(r *http.Request) *account.Account {
	a, _ := s.session(r)
	return a
}

// session returns the account whose session r's cookie holds and the
// session's token, or nil and "" as signedIn.
func (s *Server) session(r *http.Request) (*account.Account, string) {
	token := sessionToken(r)
	if s.accounts == nil || token == "" || !sameOrigin(r) {
		return nil, ""
	}
	a, _, err := s.accounts.Authenticate(r.Context(), token)
	if err != nil {
		return nil, ""
	}
	return a, token
}

// sameOrigin reports whether r comes from the server's own origin, or
// from no page at all (an address typed, a program): Sec-Fetch-Site says
// so, or without it the Origin, if any, is the server's own scheme and
// host.
func sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin", "none":
		return true
	case "":
		o := r.Header.Get("Origin")
		if o == "" {
			return true
		}
		n, ok := normalOrigin(o)
		return ok && n == requestScheme(r)+"://"+strings.ToLower(r.Host)
	}
	return false
}

// setSession gives the client the cookie of a new session.
func (s *Server) setSession(w http.ResponseWriter, r *http.Request, ses *account.Session) {
	http.SetCookie(w, &http.Cookie{
		Name:     SessionCookie,
		Value:    ses.Token,
		Path:     "/",
		Expires:  ses.Expires,
		MaxAge:   max(int(time.Until(ses.Expires).Seconds()), 1),
		HttpOnly: true,
		Secure:   s.secure(r),
		SameSite: http.SameSiteLaxMode,
	})
}

// clearSession tells the client to forget its session cookie.
func (s *Server) clearSession(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{
		Name:     SessionCookie,
		Value:    "",
		Path:     "/",
		MaxAge:   -1,
		HttpOnly: true,
		Secure:   s.secure(r),
		SameSite: http.SameSiteLaxMode,
	})
}

// secure reports whether the session cookie is to be Secure: the site is
// behind TLS (Config.SecureCookies), or r came over it.
func (s *Server) secure(r *http.Request) bool {
	return s.cfg.SecureCookies || requestScheme(r) == "https"
}

// purgeSessions removes the sessions and passkey ceremonies that expired.
func (s *Server) purgeSessions() {
	if s.accounts == nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, storeTimeout)
	defer cancel()
	if _, _, err := s.accounts.PurgeExpired(ctx); err != nil {
		s.repeats.Error("purging expired sessions", "err", err)
	}
}
