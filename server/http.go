package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/internal/allow"
	"github.com/chaturaji/chaturaji/internal/strictjson"
)

// Handler returns the server's HTTP handler: the API under /api/, the
// WebSockets, /healthz, /readyz and /metrics, behind the front door (see
// Site).
//
// Requests that change anything (POST) must be application/json, and
// browsers' cross-origin requests are refused unless their origin is
// allowed (Config.Origins): http.CrossOriginProtection looks at
// Sec-Fetch-Site and Origin. Reads are open to any origin (CORS "*"): they
// show nothing secret.
func (s *Server) Handler() http.Handler {
	return s.Site(nil, nil)
}

// RouteFunc tells, before a request is served, the pattern of the route
// that will serve it (such as "POST /web/analyze", as http.ServeMux
// patterns read) and what that route costs.
type RouteFunc func(r *http.Request) (pattern string, class Class)

// Site returns the handler of a whole site: the server's API at /api/,
// /healthz, /readyz and /metrics, and other (such as package web's client)
// at every other path; with other nil, those are not found.
//
// Every request passes the front door first, the one place where the
// limits apply. It finds the request's client (its peer's address or,
// from a trusted proxy, the address X-Forwarded-For gives: see
// Config.TrustedProxies), the route that will serve it and that route's
// class (the API's own; other's from route, every one General if route is
// nil), takes a token from the client's budget for the class or refuses
// the request with ETOOMANY, and counts and times the request in the
// metrics by route and status code.
func (s *Server) Site(other http.Handler, route RouteFunc) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/api/", s.api)
	mux.Handle("/healthz", s.api)
	mux.Handle("/readyz", s.api)
	mux.Handle("/metrics", s.api)
	if other != nil {
		mux.Handle("/", other)
	}
	find := func(r *http.Request) (string, Class) {
		if _, p := mux.Handler(r); p == "/" {
			if route == nil {
				return p, General
			}
			return route(r)
		}
		_, p := s.apiMux.Handler(r)
		return p, s.classes[p]
	}
	return s.front(mux, find)
}

// front is the front door of Site.
func (s *Server) front(next http.Handler, route RouteFunc) http.Handler {
	limited := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ri := infoOf(r)
		if ri.forwarded && ri.route == presenceRoute {
			next.ServeHTTP(w, r) // a node's report, not a client's request
			return
		}
		if ok, wait := s.budgets.allow(ri.client, ri.class, time.Now()); !ok {
			b := s.budgets.classes[ri.class]
			w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(wait.Seconds())))))
			s.fail(w, r, Errorf(ETOOMANY, "too many %s requests from your address: the limit is %g a second, %d at once; try again in %v",
				ri.class, float64(b.rate), b.burst, max(wait, time.Second).Round(time.Second)))
			return
		}
		if ri.refused != nil {
			// Charged to its peer's budget, as any client's request.
			s.fail(w, r, ri.refused)
			return
		}
		if ri.class == Account {
			if !s.hashing.open(ri.client) {
				s.fail(w, r, Errorf(ETOOMANY, "too many account requests under way from your address: at most %d at once; wait for their answers",
					s.cfg.AccountInFlight))
				return
			}
			defer s.hashing.close(ri.client)
		}
		next.ServeHTTP(w, r)
	})
	counted := s.metrics.instrument(limited)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pattern, class := route(r)
		if pattern == "" {
			pattern = "unmatched" // a redirect to a cleaned path, or not found
		}
		s.deadlines(w, r)
		ri := &requestInfo{client: clientOf(r, s.cfg.TrustedProxies), route: pattern, class: class}
		if s.node != nil && r.Header.Get(hdrSignature) != "" {
			// A request another node forwarded counts as its client's;
			// one whose signature does not hold is refused.
			if c, err := s.forwardedClient(w, r); err != nil {
				ri.refused = err
			} else {
				ri.client, ri.forwarded = c, true
			}
		}
		counted.ServeHTTP(w, withInfo(r, ri))
	})
}

// routes builds the API's mux, with each route's class.
func (s *Server) routes() {
	mux := http.NewServeMux()
	s.classes = make(map[string]Class)
	handle := func(pattern string, class Class, h http.Handler) {
		mux.Handle(pattern, h)
		s.classes[pattern] = class
	}
	handle("GET /healthz", General, http.HandlerFunc(s.handleHealth))
	handle("GET /readyz", General, http.HandlerFunc(s.handleReady))
	handle("GET /metrics", General, s.metrics.handler())
	handle("POST /api/games", Costly, http.HandlerFunc(s.handleCreate)) // its bots may search until it ends
	handle("GET /api/games", General, http.HandlerFunc(s.handleList))
	handle("GET /api/games/{id}", General, http.HandlerFunc(s.handleGame))
	handle("GET /api/games/{id}/record", General, http.HandlerFunc(s.handleRecord))
	handle("GET /api/records", Costly, http.HandlerFunc(s.handleRecords)) // replays up to 500 games
	handle("GET /api/key", General, http.HandlerFunc(s.handleKey))
	handle("GET /api/games/{id}/events", General, http.HandlerFunc(s.handleEvents))
	handle("POST /api/games/{id}/actions", General, s.owning(s.handleAction))
	handle("POST /api/games/{id}/claim", General, s.owning(s.handleClaim))
	handle("POST /api/games/{id}/invites", General, s.owning(s.handleInvites))
	handle("POST /api/games/{id}/rematch", Costly, s.homed(s.handleRematch)) // may create a game
	handle("GET /api/games/{id}/rematch", General, s.homed(s.handleRematchState))
	handle("GET /api/games/{id}/ws", General, http.HandlerFunc(s.handleWS))
	s.accountRoutes(handle)
	handle("GET /api/players/{name}", General, http.HandlerFunc(s.handleProfile))
	handle("GET /api/leaderboard", General, http.HandlerFunc(s.handleLeaderboard))
	handle("GET /api/lobby", General, http.HandlerFunc(s.handleLobby)) // read from the store at most once a LobbyView
	handle("GET /api/lobby/ws", General, http.HandlerFunc(s.handleLobbyWS))
	handle(presenceRoute, General, http.HandlerFunc(s.handlePresence))
	handle("OPTIONS /api/", General, http.HandlerFunc(s.handlePreflight))
	for _, catchAll := range apiCatchAlls {
		handle(catchAll, General, s.noEndpoint(mux))
	}
	s.apiMux, s.api = mux, s.guard(mux)
}

// apiCatchAlls are the patterns that take every request of the API's paths
// that no endpoint takes, to answer it with the API's JSON error.
var apiCatchAlls = []string{"/api/", "/healthz", "/readyz", "/metrics"}

// noEndpoint answers a request no endpoint takes: 405 with Allow if its
// path has endpoints for other methods, else 404. (ServeMux would say 405
// itself, but in plain text, and not past a catch-all.)
func (s *Server) noEndpoint(mux *http.ServeMux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if methods := allow.Methods(mux, r, append(apiCatchAlls, "OPTIONS /api/")...); len(methods) > 0 {
			list := strings.Join(methods, ", ")
			w.Header().Set("Allow", list)
			s.fail(w, r, Errorf(EMETHOD, "%s %s: the endpoint takes %s", r.Method, r.URL.Path, list))
			return
		}
		s.fail(w, r, Errorf(ENOTFOUND, "no endpoint %s %s", r.Method, r.URL.Path))
	}
}

// guard wraps the API in its protections: panics become EINTERNAL,
// cross-origin browser writes are refused, and reads carry CORS headers.
func (s *Server) guard(next http.Handler) http.Handler {
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", v)
				s.fail(w, r, fmt.Errorf("panic: %v", v))
			}
		}()
		if strings.HasPrefix(r.URL.Path, "/api/") {
			s.cors(w, r)
		}
		next.ServeHTTP(w, r)
		s.log.Debug("request", "method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr, "client", infoOf(r).client, "took", time.Since(start))
	})
	return s.originGuard(h)
}

// cors sets the CORS headers: reads are open to every origin; allowed
// origins may also send tokens and JSON.
func (s *Server) cors(w http.ResponseWriter, r *http.Request) {
	o := r.Header.Get("Origin")
	if o == "" {
		return
	}
	h := w.Header()
	h.Add("Vary", "Origin")
	if s.trusted(o) {
		h.Set("Access-Control-Allow-Origin", o)
		h.Set("Access-Control-Allow-Methods", "GET, POST")
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
		h.Set("Access-Control-Max-Age", "600")
		return
	}
	if r.Method == http.MethodGet {
		h.Set("Access-Control-Allow-Origin", "*")
	}
}

// handlePreflight answers CORS preflight requests; the headers are set by
// cors.
func (s *Server) handlePreflight(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusNoContent)
}

// errorBody is the JSON of every refused request.
type errorBody struct {
	Error *Error `json:"error"`
}

// fail answers a request with an error: its code's status and
// {"error": {"code": ..., "message": ...}}. Errors that are not an *Error
// are logged and shown as EINTERNAL without their details.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	code := ErrorCode(err)
	if code == EINTERNAL {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	} else {
		s.log.Debug("request refused", "method", r.Method, "path", r.URL.Path, "code", code, "err", ErrorMessage(err))
	}
	s.metrics.reject(code)
	if (code == ETOOMANY || code == EUNAVAILABLE) && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter(err)))
	}
	writeJSON(w, StatusCode(code), errorBody{&Error{Code: code, Message: ErrorMessage(err)}})
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.Encode(v)
}

// readJSON reads a request's JSON body into v: it must be declared
// application/json (a browser cannot send that across origins without
// asking first), fit in Config.MaxBody, and be read strictly
// (strictjson.Decode: one object, keys exactly as documented and each once,
// strings in UTF-8).
func (s *Server) readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	return s.readJSONUpTo(w, r, v, s.cfg.MaxBody)
}

// readJSONUpTo is readJSON with a body of up to limit bytes.
func (s *Server) readJSONUpTo(w http.ResponseWriter, r *http.Request, v any, limit int64) error {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return Errorf(EINVALID, "the body must be JSON sent with Content-Type: application/json, not %q", ct)
	}
	// The whole body is read first, so that one over the limit is refused
	// as too large whatever it holds.
	data, err := s.readBodyUpTo(w, r, limit)
	if err != nil {
		return err
	}
	if err := strictjson.Decode(data, v); err != nil {
		return Errorf(EINVALID, "malformed JSON body: %v", err)
	}
	return nil
}

// readBody reads a request's whole body, within Config.MaxBody and
// Config.BodyTimeout.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	return s.readBodyUpTo(w, r, s.cfg.MaxBody)
}

// readBodyUpTo is readBody with a body of up to limit bytes.
func (s *Server) readBodyUpTo(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooBig *http.MaxBytesError
	var late *BodyTimeoutError
	switch {
	case errors.As(err, &tooBig):
		return nil, Errorf(ETOOLARGE, "the body is over the limit of %d bytes", tooBig.Limit)
	case errors.As(err, &late):
		return nil, Errorf(ETIMEOUT, "%v", late)
	case err != nil:
		return nil, Errorf(EINVALID, "reading the body: %v", err)
	}
	return data, nil
}
