package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/internal/allow"
	"github.com/chaturaji/chaturaji/internal/strictjson"
)

// Handler returns the server's HTTP handler: the API under /api/, the
// WebSockets, /healthz and /metrics. The web client (package web) serves
// the pages beside it.
//
// Every request to /api/ is rate-limited by client address. Requests that
// change anything (POST) must be application/json, and browsers' cross-origin
// requests are refused unless their origin is allowed (Config.Origins):
// http.CrossOriginProtection looks at Sec-Fetch-Site and Origin. Reads are
// open to any origin (CORS "*"): they show nothing secret.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.handleHealth)
	mux.HandleFunc("GET /metrics", s.handleMetrics)
	mux.HandleFunc("POST /api/games", s.handleCreate)
	mux.HandleFunc("GET /api/games", s.handleList)
	mux.HandleFunc("GET /api/games/{id}", s.handleGame)
	mux.HandleFunc("GET /api/games/{id}/record", s.handleRecord)
	mux.HandleFunc("GET /api/records", s.handleRecords)
	mux.HandleFunc("GET /api/key", s.handleKey)
	mux.HandleFunc("GET /api/games/{id}/events", s.handleEvents)
	mux.HandleFunc("POST /api/games/{id}/actions", s.handleAction)
	mux.HandleFunc("GET /api/games/{id}/ws", s.handleWS)
	mux.HandleFunc("OPTIONS /api/", s.handlePreflight)
	mux.HandleFunc("/", s.noEndpoint(mux))
	return s.guard(mux)
}

// noEndpoint answers a request no endpoint takes: 405 with Allow if its
// path has endpoints for other methods, else 404. (ServeMux would say 405
// itself, but in plain text, and not past a catch-all.)
func (s *Server) noEndpoint(mux *http.ServeMux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if methods := allow.Methods(mux, r, "/", "OPTIONS /api/"); len(methods) > 0 {
			list := strings.Join(methods, ", ")
			w.Header().Set("Allow", list)
			s.fail(w, r, Errorf(EMETHOD, "%s %s: the endpoint takes %s", r.Method, r.URL.Path, list))
			return
		}
		s.fail(w, r, Errorf(ENOTFOUND, "no endpoint %s %s", r.Method, r.URL.Path))
	}
}

// guard wraps the API in its protections: panics become EINTERNAL, each
// client address has a request budget, cross-origin browser writes are
// refused, and reads carry CORS headers.
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
			if !s.requests.allow(r, start) {
				s.fail(w, r, Errorf(ETOOMANY, "too many requests from your address: the limit is %g a second", s.cfg.RequestRate))
				return
			}
			s.cors(w, r)
		}
		next.ServeHTTP(w, r)
		s.log.Debug("request", "method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr, "took", time.Since(start))
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
	if code == ETOOMANY {
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
// asking first), fit in Config.MaxBody, and be read strictly
// (strictjson.Decode: one object, keys exactly as documented and each once,
// strings in UTF-8).
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
	if err := strictjson.Decode(data, v); err != nil {
		return Errorf(EINVALID, "malformed JSON body: %v", err)
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
