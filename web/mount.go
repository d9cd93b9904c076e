package web

import "net/http"

// Mount returns the handler of the whole site as `chaturaji serve` runs it:
// the game server's API (api, such as server.Server.Handler) at /api/,
// /healthz and /metrics, and the web client, Handler(opts), everywhere else.
func Mount(api http.Handler, opts Options) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/api/", api)
	mux.Handle("/healthz", api)
	mux.Handle("/metrics", api)
	mux.Handle("/", Handler(opts))
	return mux
}
