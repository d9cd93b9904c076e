package web

import (
	"net/http"

	"github.com/chaturaji/chaturaji/server"
)

// Mount returns the handler of the whole site as `chaturaji serve` runs it:
// the game server's API at /api/, /healthz, /readyz and /metrics, and the web
// client, Handler(opts), everywhere else. Every request passes the game
// server's front door (server.Server.Site), which applies its limits and
// counts it in its metrics; the client's costly routes, analysis and
// verification, draw on the costly budget. The analysis asks the server
// whether a position is that of a live game without engine help, and
// refuses it if so.
func Mount(srv *server.Server, opts Options) http.Handler {
	s := newSite(opts)
	s.helpOff = srv.HelpOff
	return srv.Site(secure(s.mux), s.route)
}
