package web

import (
	"net/http"
	"net/url"

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
//
// A game's page answers 404 for a game the server does not have: it asks
// the server's API (GET /api/games/{id}) first, as the client that opened
// the page, through the same front door.
func Mount(srv *server.Server, opts Options) http.Handler {
	s := newSite(opts)
	s.helpOff = srv.HelpOff
	api := srv.Handler()
	s.gameFound = func(r *http.Request, id string) bool {
		req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, "/api/games/"+url.PathEscape(id), nil)
		if err != nil {
			return true // the page finds out
		}
		req.RemoteAddr = r.RemoteAddr
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			req.Header.Set("X-Forwarded-For", xff)
		}
		w := &statusOnly{header: http.Header{}}
		api.ServeHTTP(w, req)
		return w.status != http.StatusNotFound
	}
	return srv.Site(secure(s.mux), s.route)
}

// statusOnly is a ResponseWriter that keeps only the status.
type statusOnly struct {
	header http.Header
	status int
}

func (w *statusOnly) Header() http.Header { return w.header }
func (w *statusOnly) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return len(b), nil
}
func (w *statusOnly) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}
