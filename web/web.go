package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"net/netip"
	"path"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/chaturaji/chaturaji/internal/allow"
	"github.com/chaturaji/chaturaji/internal/strictjson"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/server"
)

//go:embed static
var staticFS embed.FS

// Options tune the handler. The zero value of a field means its default.
type Options struct {
	// Logger receives the handler's errors (default: discarded).
	Logger *slog.Logger
	// AnalyzeWorkers is how many analyses may run at once (default half the
	// CPUs, at least 1), so that hints cannot starve the games' bots.
	AnalyzeWorkers int
	// AnalyzeTime is the longest an analysis may think (default and upper
	// bound 2s); AnalyzeWait the longest a request waits for a free worker
	// before it is refused (default 3s).
	AnalyzeTime time.Duration
	AnalyzeWait time.Duration // the longest a request waits for a free worker
	// MaxBody bounds a request's body, such as a record to verify (default
	// 256 KiB).
	MaxBody int64
	// ReviewTime is the longest a game's review (POST /web/review) may
	// search in all (default and upper bound 20s): the decisions not
	// judged by then are left out of the answer. ReviewNodes is each of
	// its searches' budget in nodes (default 20000, at most 100000), each
	// also cut at AnalyzeTime. ReviewWorkers is how many reviews may run
	// at once (default 2); each review takes one of the AnalyzeWorkers
	// for one decision at a time, so that hints still get their turn.
	ReviewTime    time.Duration
	ReviewNodes   int64 // each search's nodes in a review
	ReviewWorkers int   // the reviews at once
	// ReviewsPerClient is how many reviews one client (server.ClientOf)
	// may have running or waiting for a worker at once (default 1, at
	// most ReviewWorkers-1 where that is 1 or more), so that one client
	// never holds every review worker nor the queue for them: a request
	// over it is refused at once with 429, and the others' reviews are
	// served while one client floods.
	ReviewsPerClient int
}

// maxAnalyzeTime is the most time an analysis may take, whatever the
// options say.
const maxAnalyzeTime = 2 * time.Second

func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.AnalyzeWorkers <= 0 {
		o.AnalyzeWorkers = max(1, runtime.NumCPU()/2)
	}
	if o.AnalyzeTime <= 0 || o.AnalyzeTime > maxAnalyzeTime {
		o.AnalyzeTime = maxAnalyzeTime
	}
	if o.AnalyzeWait <= 0 {
		o.AnalyzeWait = 3 * time.Second
	}
	if o.MaxBody <= 0 {
		o.MaxBody = 256 << 10
	}
	if o.ReviewTime <= 0 || o.ReviewTime > maxReviewTime {
		o.ReviewTime = maxReviewTime
	}
	if o.ReviewNodes <= 0 {
		o.ReviewNodes = 20000
	}
	o.ReviewNodes = min(o.ReviewNodes, maxReviewNodes)
	if o.ReviewWorkers <= 0 {
		o.ReviewWorkers = 2
	}
	if o.ReviewsPerClient <= 0 {
		o.ReviewsPerClient = 1
	}
	o.ReviewsPerClient = min(o.ReviewsPerClient, max(1, o.ReviewWorkers-1))
	return o
}

// site serves the pages, the static files and the /web/ endpoints.
type site struct {
	opts     Options
	files    map[string]*file   // by path under static/, such as "js/board.js"
	rules    map[string]*Preset // every preset without house rules, its rules rendered, by name
	analysts chan *analyst      // the idle analysts; a request takes one
	reviews  chan struct{}      // the reviews that may start; a review takes one
	// reviewers counts each client's reviews running or waiting
	// (ReviewsPerClient), under reviewMu.
	reviewMu  sync.Mutex
	reviewers map[netip.Prefix]int
	mux       *http.ServeMux
	costly    map[string]bool // the patterns of mux whose requests are costly
	// helpOff reports whether a position is a live game's whose table
	// turned engine help off (server.Server.HelpOff); nil without a game
	// server.
	helpOff func(pos string) bool
	// gameFound reports whether the game server knows a game, for the
	// status of its page (200 or 404); nil without a game server, when
	// every game's page answers 200 and the page finds out.
	gameFound func(r *http.Request, id string) bool
}

// file is an embedded file with its type and a strong ETag.
type file struct {
	name string
	data []byte
	typ  string
	etag string
}

// Handler returns the handler of the web client: the pages at /, /game/{id},
// /replay/{id}, /rules and /rules/{name}, /play (the lobby), /signin,
// /signup, /account, /players/{name} and /leaderboard, the static files under /static/,
// and the JSON endpoints under /web/. It has no limits of its own: Mount
// puts it behind the game server's.
func Handler(opts Options) http.Handler {
	return secure(newSite(opts).mux)
}

// newSite makes the web client: it reads the embedded files and renders
// every preset's rules, once.
func newSite(opts Options) *site {
	s := &site{opts: opts.withDefaults(), files: loadFiles(), rules: renderPresets(), costly: map[string]bool{}, reviewers: map[netip.Prefix]int{}}
	s.analysts = make(chan *analyst, s.opts.AnalyzeWorkers)
	for range s.opts.AnalyzeWorkers {
		s.analysts <- &analyst{}
	}
	s.reviews = make(chan struct{}, s.opts.ReviewWorkers)
	for range s.opts.ReviewWorkers {
		s.reviews <- struct{}{}
	}
	mux := http.NewServeMux()
	handle := func(pattern string, class server.Class, h http.HandlerFunc) {
		mux.HandleFunc(pattern, h)
		s.costly[pattern] = class == server.Costly
	}
	handle("GET /{$}", server.General, s.page("home.html"))
	handle("GET /game/{id}", server.General, s.gamePage("game.html"))
	handle("GET /replay/{id}", server.General, s.gamePage("replay.html"))
	handle("GET /replay", server.General, s.page("replay.html"))
	handle("GET /rules", server.General, s.page("rules.html"))
	handle("GET /rules/{name}", server.General, s.rulesPage)
	handle("GET /play", server.General, s.page("lobby.html"))
	handle("GET /signin", server.General, s.page("signin.html"))
	handle("GET /signup", server.General, s.page("signup.html"))
	handle("GET /account", server.General, s.page("account.html"))
	handle("GET /players/{name}", server.General, s.page("profile.html"))
	handle("GET /leaderboard", server.General, s.page("leaderboard.html"))
	handle("GET /static/", server.General, s.handleStatic)
	handle("GET /favicon.ico", server.General, func(w http.ResponseWriter, r *http.Request) {
		s.serveFile(w, r, s.files["favicon.svg"])
	})
	handle("GET /web/presets", server.General, s.handlePresets)
	handle("GET /web/players", server.General, s.handlePlayers)
	handle("GET /web/rules/{name}", server.General, s.handleRules)
	handle("POST /web/analyze", server.Costly, s.handleAnalyze) // a search of up to AnalyzeTime
	handle("POST /web/verify", server.Costly, s.handleVerify)   // a replay of a record of up to MaxBody
	handle("POST /web/review", server.Costly, s.handleReview)   // searches for up to ReviewTime in all
	handle("/web/", server.General, func(w http.ResponseWriter, r *http.Request) {
		if !wrongMethod(mux, w, r) {
			fail(w, http.StatusNotFound, "no endpoint %s %s", r.Method, r.URL.Path)
		}
	})
	handle("/", server.General, func(w http.ResponseWriter, r *http.Request) {
		if !wrongMethod(mux, w, r) {
			s.notFound(w, r)
		}
	})
	s.mux = mux
	return s
}

// route tells the game server's front door which route serves a request
// and what it costs (server.RouteFunc).
func (s *site) route(r *http.Request) (string, server.Class) {
	_, pattern := s.mux.Handler(r)
	if s.costly[pattern] {
		return pattern, server.Costly
	}
	return pattern, server.General
}

// wrongMethod answers 405 with Allow, as the game server's API does, if
// r's path is served for other methods than r's; it reports whether it
// did. (ServeMux would say 405 itself, but in plain text, and not past a
// catch-all.)
func wrongMethod(mux *http.ServeMux, w http.ResponseWriter, r *http.Request) bool {
	methods := allow.Methods(mux, r, "/", "/web/")
	if len(methods) == 0 {
		return false
	}
	list := strings.Join(methods, ", ")
	w.Header().Set("Allow", list)
	fail(w, http.StatusMethodNotAllowed, "%s %s: this takes %s", r.Method, r.URL.Path, list)
	return true
}

// loadFiles reads every embedded file once, with its ETag.
func loadFiles() map[string]*file {
	files := map[string]*file{}
	err := fs.WalkDir(staticFS, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := staticFS.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		name := strings.TrimPrefix(p, "static/")
		typ := mime.TypeByExtension(path.Ext(p))
		switch path.Ext(p) {
		case ".js":
			typ = "text/javascript; charset=utf-8"
		case ".svg":
			typ = "image/svg+xml"
		case ".webmanifest":
			typ = "application/manifest+json"
		}
		if typ == "" {
			typ = "application/octet-stream"
		}
		files[name] = &file{name: name, data: data, typ: typ, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
		return nil
	})
	if err != nil {
		panic("web: reading the embedded files: " + err.Error())
	}
	return files
}

// secure sets the headers every answer carries: a strict content security
// policy (no inline script or style, connections to this origin only), no
// MIME sniffing, no framing by other sites.
func secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

// page serves one of the HTML pages; the page's module reads what it shows
// (a game's id, a preset's name) from the address.
func (s *site) page(name string) http.HandlerFunc {
	f := s.files[name]
	if f == nil {
		panic("web: no page " + name)
	}
	return func(w http.ResponseWriter, r *http.Request) { s.serveFile(w, r, f) }
}

// gamePage serves a game's page (the game, its replay): with 404 Not
// Found, and the page saying so, for a game the server does not have.
func (s *site) gamePage(name string) http.HandlerFunc {
	serve := s.page(name)
	f := s.files[name]
	return func(w http.ResponseWriter, r *http.Request) {
		if s.gameFound != nil && !s.gameFound(r, r.PathValue("id")) {
			s.missing(w, f)
			return
		}
		serve(w, r)
	}
}

// rulesPage serves the rules page of a preset: with 404 Not Found, and
// the page saying so, for rules that do not exist.
func (s *site) rulesPage(w http.ResponseWriter, r *http.Request) {
	f := s.files["rules.html"]
	if name := r.PathValue("name"); len(name) > 200 || !knownRules(name) {
		s.missing(w, f)
		return
	}
	s.serveFile(w, r, f)
}

// knownRules reports whether a rules name (house rules allowed) names a
// preset.
func knownRules(name string) bool {
	_, err := rules.Lookup(name)
	return err == nil
}

// missing answers 404 with a page that tells what is missing itself.
func (s *site) missing(w http.ResponseWriter, f *file) {
	w.Header().Set("Content-Type", f.typ)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNotFound)
	w.Write(f.data)
}

// handleStatic serves /static/NAME.
func (s *site) handleStatic(w http.ResponseWriter, r *http.Request) {
	f := s.files[strings.TrimPrefix(r.URL.Path, "/static/")]
	if f == nil || strings.HasSuffix(f.name, ".html") {
		s.notFound(w, r)
		return
	}
	s.serveFile(w, r, f)
}

// serveFile answers with an embedded file; browsers revalidate it each
// time, and get 304 Not Modified while its ETag holds.
func (s *site) serveFile(w http.ResponseWriter, r *http.Request, f *file) {
	h := w.Header()
	h.Set("Content-Type", f.typ)
	h.Set("ETag", f.etag)
	h.Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.data))
}

// notFound answers an unknown page.
func (s *site) notFound(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	f := s.files["notfound.html"]
	w.Write(f.data)
}

// errorBody is the JSON of a refused request, in the shape the game
// server's API uses: {"error": {"code": ..., "message": ...}}.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// codes names the statuses this package answers with, as the server's
// error codes do.
var codes = map[int]string{
	http.StatusBadRequest:            "EINVALID",
	http.StatusForbidden:             "EFORBIDDEN",
	http.StatusNotFound:              "ENOTFOUND",
	http.StatusMethodNotAllowed:      "EMETHOD",
	http.StatusRequestTimeout:        server.ETIMEOUT,
	http.StatusRequestEntityTooLarge: "ETOOLARGE",
	http.StatusTooManyRequests:       server.ETOOMANY,
	http.StatusServiceUnavailable:    "EUNAVAILABLE",
	http.StatusInternalServerError:   "EINTERNAL",
}

// fail answers with an error.
func fail(w http.ResponseWriter, status int, format string, args ...any) {
	var b errorBody
	b.Error.Code = codes[status]
	b.Error.Message = fmt.Sprintf(format, args...)
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "2")
	}
	writeJSON(w, status, b)
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// readJSON reads a request's JSON body into v: declared application/json
// (so no other site's form can post it), within the size limit, and read
// strictly as the game server's API reads its bodies (strictjson.Decode:
// one object, keys exactly as documented and each once, UTF-8).
func (s *site) readJSON(w http.ResponseWriter, r *http.Request, v any) (status int, err error) {
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return http.StatusBadRequest, errors.New("the body must be JSON sent with Content-Type: application/json")
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBody))
	var tooBig *http.MaxBytesError
	var late *server.BodyTimeoutError
	switch {
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge, fmt.Errorf("the body is over the limit of %d bytes", tooBig.Limit)
	case errors.As(err, &late):
		return http.StatusRequestTimeout, late
	case err != nil:
		return http.StatusBadRequest, fmt.Errorf("reading the body: %v", err)
	}
	if err := strictjson.Decode(data, v); err != nil {
		return http.StatusBadRequest, errors.New("malformed JSON body: " + err.Error())
	}
	return 0, nil
}
