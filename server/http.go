package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Handler returns the server's HTTP handler: the API under /api/, the
// WebSockets, /healthz and /metrics, behind the front door (see Site).
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
// /healthz and /metrics, and other (such as package web's client) at every
// other path; with other nil, those are not found.
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
		if ok, wait := s.budgets.allow(ri.client, ri.class, time.Now()); !ok {
			b := s.budgets.classes[ri.class]
			w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(wait.Seconds())))))
			s.fail(w, r, Errorf(ETOOMANY, "too many %s requests from your address: the limit is %g a second, %d at once; try again in %v",
				ri.class, float64(b.rate), b.burst, max(wait, time.Second).Round(time.Second)))
			return
		}
		next.ServeHTTP(w, r)
	})
	counted := s.metrics.instrument(limited)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pattern, class := route(r)
		if pattern == "" {
			pattern = "unmatched" // a redirect to a cleaned path, or not found
		}
		counted.ServeHTTP(w, withInfo(r, &requestInfo{client: clientOf(r, s.cfg.TrustedProxies), route: pattern, class: class}))
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
	handle("GET /metrics", General, s.metrics.handler())
	handle("POST /api/games", Costly, http.HandlerFunc(s.handleCreate)) // its bots may search until it ends
	handle("GET /api/games", General, http.HandlerFunc(s.handleList))
	handle("GET /api/games/{id}", General, http.HandlerFunc(s.handleGame))
	handle("GET /api/games/{id}/record", General, http.HandlerFunc(s.handleRecord))
	handle("GET /api/records", Costly, http.HandlerFunc(s.handleRecords)) // replays up to 500 games
	handle("GET /api/games/{id}/events", General, http.HandlerFunc(s.handleEvents))
	handle("POST /api/games/{id}/actions", General, http.HandlerFunc(s.handleAction))
	handle("GET /api/games/{id}/ws", General, http.HandlerFunc(s.handleWS))
	handle("OPTIONS /api/", General, http.HandlerFunc(s.handlePreflight))
	handle("/api/", General, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, Errorf(ENOTFOUND, "no endpoint %s %s", r.Method, r.URL.Path))
	}))
	s.apiMux, s.api = mux, s.guard(mux)
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
	if s.cop != nil {
		h = s.cop.Handler(h)
	}
	return h
}

// crossOriginProtection refuses browsers' cross-origin POSTs, except from
// the allowed origins; nil if any origin is allowed.
func (s *Server) crossOriginProtection() *http.CrossOriginProtection {
	cop := http.NewCrossOriginProtection()
	for _, o := range s.cfg.Origins {
		if o == "*" {
			return nil
		}
		if err := cop.AddTrustedOrigin(strings.TrimSuffix(o, "/")); err != nil {
			s.log.Warn("ignoring origin", "origin", o, "err", err)
		}
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, Errorf(EFORBIDDEN, "cross-origin request from %q refused: only the server's own pages and allowed origins may act", r.Header.Get("Origin")))
	}))
	return cop
}

// originAllowed reports whether a request may open a WebSocket: it has no
// Origin (it is not from a browser), or its Origin is the server's own host
// or an allowed origin.
func (s *Server) originAllowed(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	if err == nil && strings.EqualFold(u.Host, r.Host) {
		return true
	}
	return s.trusted(o)
}

// trusted reports whether origin o is one of the allowed origins.
func (s *Server) trusted(o string) bool {
	for _, a := range s.cfg.Origins {
		if a == "*" || strings.EqualFold(strings.TrimSuffix(a, "/"), o) {
			return true
		}
	}
	return false
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
	if code == ETOOMANY && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", "1")
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
// asking first), fit in Config.MaxBody, and hold one object with no unknown
// fields.
func (s *Server) readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return Errorf(EINVALID, "the body must be JSON sent with Content-Type: application/json, not %q", ct)
	}
	// The whole body is read first, so that one over the limit is refused
	// as too large whatever it holds.
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return Errorf(ETOOLARGE, "the body is over the limit of %d bytes", tooBig.Limit)
	}
	if err != nil {
		return Errorf(EINVALID, "reading the body: %v", err)
	}
	if err := decodeStrict(data, v); err != nil {
		return Errorf(EINVALID, "malformed JSON body: %v", err)
	}
	return nil
}

// decodeStrict decodes one JSON object into v, refusing unknown fields and
// anything after the object.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if err := dec.Decode(&struct{}{}); err != io.EOF {
		if err == nil {
			err = errors.New("more than one JSON value")
		}
		return err
	}
	return nil
}

// handleHealth answers 200 "ok" while the server runs, 503 once it is
// shutting down.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if s.shuttingDown() {
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "shutting down\n")
		return
	}
	io.WriteString(w, "ok\n")
}
