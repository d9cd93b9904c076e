package server_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestMetrics checks what /metrics adds to the game's own figures: the Go
// and process collectors, requests by route and status code, WebSockets,
// bot decisions by kind or level, store writes by operation.
func TestMetrics(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(fourHumans)
	ts.dial(g.ID, "", 0)
	gone := ts.dial(g.ID, "", 0) // a WebSocket is counted when it ends
	gone.conn.Close(websocket.StatusNormalClosure, "")
	gone.closed()
	// Bots alone play a game to its end whatever the dice do: each kind
	// decides at least once.
	bots := ts.create(`{"seats": ["bot:level:2?blunder=0.5", "bot:greedy", "bot:level:2?blunder=0.5", "bot:greedy"]}`)
	ts.request("GET", "/api/games/"+g.ID, "", "")
	ts.request("GET", "/api/games/nosuchgame", "", "")
	ts.request("GET", "/healthz", "", "")
	decided := regexp.MustCompile(`(?m)^chaturaji_bot_decisions_total\{bot="level:2"\} [1-9]`)
	decidedGreedy := regexp.MustCompile(`(?m)^chaturaji_bot_decisions_total\{bot="greedy"\} [1-9]`)
	var page string
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, body := ts.request("GET", "/metrics", "", "")
		page = string(body)
		// A decision is counted, then timed: wait for both.
		timed := strings.Contains(page, `chaturaji_bot_decision_seconds_count{bot="level:2"} `) && strings.Contains(page, `chaturaji_bot_decision_seconds_count{bot="greedy"} `)
		if decided.MatchString(page) && decidedGreedy.MatchString(page) && timed && strings.Contains(page, `code="101"`) || time.Now().After(end) {
			break
		}
	}
	if !decided.MatchString(page) || !decidedGreedy.MatchString(page) {
		t.Errorf("/metrics counts no decision of a level 2 bot or of a greedy one")
	}
	for _, want := range []string{
		`chaturaji_http_requests_total{code="201",route="POST /api/games"} 2`,
		`chaturaji_http_requests_total{code="200",route="GET /api/games/{id}"} 1`,
		`chaturaji_http_requests_total{code="404",route="GET /api/games/{id}"} 1`,
		`chaturaji_http_requests_total{code="200",route="GET /healthz"} 1`,
		`chaturaji_http_requests_total{code="101",route="GET /api/games/{id}/ws"} 1`,
		`chaturaji_http_request_duration_seconds_count{code="201",route="POST /api/games"} 2`,
		`chaturaji_http_request_duration_seconds_bucket{code="200",route="GET /healthz",le="+Inf"} 1`,
		`chaturaji_ws_connections 1`,
		`chaturaji_bot_decision_seconds_count{bot="level:2"} `,
		`chaturaji_bot_decision_seconds_bucket{bot="greedy",le="+Inf"} `,
		`chaturaji_store_commit_seconds_count{op="create"} 2`,
		`chaturaji_store_commit_seconds_bucket{op="append",le="+Inf"} `,
		`chaturaji_store_append_seconds_count `,
		`chaturaji_rejected_total{code="ENOTFOUND"} 1`,
		"go_goroutines ",
		"go_memory_classes_heap_objects_bytes ",
		"go_gc_duration_seconds_count ",
		"process_cpu_seconds_total ",
		"process_open_fds ",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("/metrics has no %q", want)
		}
	}
	// A WebSocket lasts: its time is not a request's.
	if strings.Contains(page, `chaturaji_http_request_duration_seconds_count{code="101"`) {
		t.Errorf("/metrics times WebSockets as requests")
	}
	// Labels stay few: a bot's settings and a game's id are never one.
	for _, never := range []string{"blunder", g.ID, bots.ID} {
		if strings.Contains(page, never) {
			t.Errorf("/metrics has %q in a label", never)
		}
	}
	if h := regexp.MustCompile(`(?m)^# TYPE chaturaji_action_latency_seconds histogram$`); !h.MatchString(page) {
		t.Errorf("chaturaji_action_latency_seconds is not a histogram")
	}
}

// TestMetricsPerServer checks that two servers in one process keep their
// own figures.
func TestMetricsPerServer(t *testing.T) {
	a := newTestServer(t, testConfig(), nil)
	b := newTestServer(t, testConfig(), nil)
	a.create(fourHumans)
	a.create(fourHumans)
	b.create(fourHumans)
	for _, c := range []struct {
		ts   *testServer
		want string
	}{{a, "chaturaji_games_total 2\n"}, {b, "chaturaji_games_total 1\n"}} {
		status, body := c.ts.request("GET", "/metrics", "", "")
		if status != http.StatusOK || !strings.Contains(string(body), c.want) {
			t.Errorf("GET /metrics: %d, want %q", status, c.want)
		}
	}
}
