package server

import (
	"net/http"

	"github.com/chaturaji/chaturaji/account"
)

// signedIn returns the account signed in by the request's session, nil
// for a guest. Every request is a guest's until sessions are served.
func (s *Server) signedIn(r *http.Request) *account.Account {
	return nil
}
