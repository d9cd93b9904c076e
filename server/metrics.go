package server

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promauto"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/chaturaji/chaturaji/ai"
)

// metrics are the server's figures, exposed at /metrics by
// github.com/prometheus/client_golang from a registry of the server's own
// (several servers in one process do not share their figures). Every metric
// is declared here, with its help text; docs/api.md lists them.
type metrics struct {
	registry *prometheus.Registry

	gamesLive  prometheus.Gauge
	gamesTotal prometheus.Counter
	actions    prometheus.Counter // accepted actions of every kind
	events     prometheus.Counter
	botMoves   prometheus.Counter
	wsConns    prometheus.Gauge
	latency    prometheus.Histogram     // a client's action from its arrival to its broadcast
	appendTime prometheus.Histogram     // one AppendEvents call
	commitTime *prometheus.HistogramVec // one write to the store, by operation
	rejected   *prometheus.CounterVec   // refused requests and messages, by code

	requests     *prometheus.CounterVec   // HTTP requests, by route and status code
	requestTime  *prometheus.HistogramVec // their durations, WebSockets left out
	botDecisions *prometheus.CounterVec   // bot decisions, by bot
	botTime      *prometheus.HistogramVec // their durations, by bot

	storeFailures *prometheus.CounterVec // failed store operations, by operation
	gamesWaiting  prometheus.Gauge       // games waiting for the store to come back
	ready         prometheus.Gauge       // 1 if GET /readyz would answer 200
	conns         prometheus.Gauge       // connections open, WebSockets included (listener.go)
	connsRefused  *prometheus.CounterVec // connections closed at once over a cap, by cap
	acceptErrors  prometheus.Counter     // failures to accept a connection

	// A node of a cluster (cluster.go, forward.go).
	renewals  *prometheus.CounterVec // lease renewals, by outcome: ok, failed
	ownership *prometheus.CounterVec // games that changed hands, by how: adopted, fenced
	forwarded *prometheus.CounterVec // requests forwarded to the driving node, by outcome
}

// secondsBuckets are the bounds of every duration histogram, in seconds.
var secondsBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5}

// The store operations of chaturaji_store_commit_seconds.
const (
	opCreate = "create" // CreateGame
	opAppend = "append" // AppendEvents
	opSeat   = "seat"   // UpdateSeat
	opFinish = "finish" // Finish
)

// The other store operations of chaturaji_store_failures_total.
const (
	opRead      = "read"      // a game read back (Game, Events, LastHeld, Records)
	opList      = "list"      // Games
	opRecord    = "record"    // SetRecord
	opHeartbeat = "heartbeat" // Heartbeat
)

func newMetrics() *metrics {
	reg := prometheus.NewRegistry()
	f := promauto.With(reg)
	counter := func(name, help string) prometheus.Counter {
		return f.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	}
	gauge := func(name, help string) prometheus.Gauge {
		return f.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
	}
	histogram := func(name, help string) prometheus.Histogram {
		return f.NewHistogram(prometheus.HistogramOpts{Name: name, Help: help, Buckets: secondsBuckets})
	}
	histogramVec := func(name, help string, labels ...string) *prometheus.HistogramVec {
		return f.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: secondsBuckets}, labels)
	}
	m := &metrics{
		registry:   reg,
		gamesLive:  gauge("chaturaji_games_live", "Games live now."),
		gamesTotal: counter("chaturaji_games_total", "Games created."),
		actions:    counter("chaturaji_actions_total", "Actions accepted and saved (players, bots, forced passes, timeouts)."),
		events:     counter("chaturaji_events_total", "Events saved and broadcast."),
		botMoves:   counter("chaturaji_bot_moves_total", "Actions chosen by bots."),
		wsConns:    gauge("chaturaji_ws_connections", "WebSocket connections open now."),
		latency: histogram("chaturaji_action_latency_seconds",
			"A client's action from its arrival through its check and commit to its broadcast."),
		appendTime: histogram("chaturaji_store_append_seconds", "One commit of events to the store."),
		commitTime: histogramVec("chaturaji_store_commit_seconds",
			"One write to the store, by operation: create (a game), append (events), seat (a seat's player), finish (a game).", "op"),
		rejected: f.NewCounterVec(prometheus.CounterOpts{Name: "chaturaji_rejected_total",
			Help: "Requests and messages refused, by error code."}, []string{"code"}),
		requests: f.NewCounterVec(prometheus.CounterOpts{Name: "chaturaji_http_requests_total",
			Help: "HTTP requests answered, by route (the pattern that served it) and status code."}, []string{"route", "code"}),
		requestTime: histogramVec("chaturaji_http_request_duration_seconds",
			"HTTP requests from their arrival to their answer, by route and status code; WebSockets, which last, are left out.", "route", "code"),
		botDecisions: f.NewCounterVec(prometheus.CounterOpts{Name: "chaturaji_bot_decisions_total",
			Help: "Bot decisions taken, by bot (its kind or level)."}, []string{"bot"}),
		botTime: histogramVec("chaturaji_bot_decision_seconds",
			"One bot decision, from its start to its choice (not its wait for a worker), by bot.", "bot"),
		storeFailures: f.NewCounterVec(prometheus.CounterOpts{Name: "chaturaji_store_failures_total",
			Help: "Store operations that failed, by operation: create, append, seat, finish, record, read, list, heartbeat."}, []string{"op"}),
		gamesWaiting: gauge("chaturaji_games_waiting_store",
			"Live games whose last write or read failed, waiting to try again by themselves."),
		ready: gauge("chaturaji_ready", "1 if the database accepts writes (what GET /readyz answers), 0 if not."),

		conns: gauge("chaturaji_connections", "Connections open now, WebSockets included."),
		connsRefused: f.NewCounterVec(prometheus.CounterOpts{Name: "chaturaji_connections_refused_total",
			Help: "Connections closed as soon as accepted, over a cap: total (Config.MaxConns) or client (Config.MaxConnsPerClient)."}, []string{"cap"}),
		acceptErrors: counter("chaturaji_accept_errors_total", "Failures to accept a connection, such as running out of file descriptors."),

		renewals: f.NewCounterVec(prometheus.CounterOpts{Name: "chaturaji_lease_renewals_total",
			Help: "Renewals of a node's leases on its games (one statement for all), by outcome: ok or failed."}, []string{"outcome"}),
		ownership: f.NewCounterVec(prometheus.CounterOpts{Name: "chaturaji_games_ownership_total",
			Help: "Games that changed hands at this node, by how: adopted (a lapsed or released lease), fenced (lost to another node), released (given up on shutdown)."}, []string{"how"}),
		forwarded: f.NewCounterVec(prometheus.CounterOpts{Name: "chaturaji_forwarded_total",
			Help: "Requests and WebSocket actions forwarded to the node that drives the game, by outcome: answered, unavailable."}, []string{"outcome"}),
	}
	reg.MustRegister(
		collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(collectors.GoRuntimeMetricsRule{
			Matcher: regexp.MustCompile(`^/memory/classes/(total|heap/objects):bytes$`),
		})),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	// The store operations show from the start, at 0.
	for _, op := range []string{opCreate, opAppend, opSeat, opFinish} {
		m.commitTime.WithLabelValues(op)
	}
	for _, op := range []string{opCreate, opAppend, opSeat, opFinish, opRecord, opRead, opList, opHeartbeat} {
		m.storeFailures.WithLabelValues(op)
	}
	for _, c := range []string{"total", "client"} {
		m.connsRefused.WithLabelValues(c)
	}
	return m
}

// countClients shows how many clients' request budgets are kept, as n
// tells.
func (m *metrics) countClients(n func() int) {
	promauto.With(m.registry).NewGaugeFunc(prometheus.GaugeOpts{Name: "chaturaji_limit_clients",
		Help: "Clients whose request budgets are kept now (at most Config.MaxClients)."},
		func() float64 { return float64(n()) })
}

// countNode shows the games a node drives and the subscribers it relays
// to, as owned and relayed tell.
func (m *metrics) countNode(owned, relayed func() int) {
	f := promauto.With(m.registry)
	f.NewGaugeFunc(prometheus.GaugeOpts{Name: "chaturaji_games_owned",
		Help: "Live games this server drives (all of its live games unless it is a node of a cluster)."},
		func() float64 { return float64(owned()) })
	f.NewGaugeFunc(prometheus.GaugeOpts{Name: "chaturaji_relayed_subscribers",
		Help: "WebSocket subscribers of games another node drives, relayed by this node."},
		func() float64 { return float64(relayed()) })
}

// handler serves the metrics in the Prometheus text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{Registry: m.registry})
}

// reject counts a refused request or message.
func (m *metrics) reject(code string) {
	m.rejected.WithLabelValues(code).Inc()
}

// committed observes one write to the store, started at t0.
func (m *metrics) committed(op string, t0 time.Time) {
	d := time.Since(t0).Seconds()
	m.commitTime.WithLabelValues(op).Observe(d)
	if op == opAppend {
		m.appendTime.Observe(d)
	}
}

// decided observes one bot decision that took d.
func (m *metrics) decided(bot string, d time.Duration) {
	m.botDecisions.WithLabelValues(bot).Inc()
	m.botTime.WithLabelValues(bot).Observe(d.Seconds())
}

// instrument counts and times the requests next serves, by the route the
// front door found (requestInfo) and the status code; a WebSocket is
// counted but not timed.
func (m *metrics) instrument(next http.Handler) http.Handler {
	route := promhttp.WithLabelFromCtx("route", func(ctx context.Context) string {
		if ri, ok := ctx.Value(requestInfoKey{}).(*requestInfo); ok {
			return ri.route
		}
		return "unknown"
	})
	counted := promhttp.InstrumentHandlerCounter(m.requests, next, route)
	timed := promhttp.InstrumentHandlerDuration(m.requestTime, counted, route)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if headerHas(r.Header, "Upgrade", "websocket") {
			counted.ServeHTTP(w, r)
			return
		}
		timed.ServeHTTP(w, r)
	})
}

// botLabel names a bot spec for the metrics by its kind or level alone
// ("strong", "level:3"), never its settings, so that the labels are few
// whatever specs the tables ask for.
func botLabel(spec string) string {
	name, _, _ := strings.Cut(spec, "?")
	name = strings.TrimPrefix(name, "level:")
	if n, err := strconv.Atoi(name); err == nil && n >= 1 && n <= len(ai.Levels) {
		return "level:" + strconv.Itoa(n)
	}
	for _, k := range ai.Kinds {
		if name == k.Name {
			return name
		}
	}
	return "other"
}
