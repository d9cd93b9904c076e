package server

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	rtmetrics "runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// metrics are the server's counters, exposed at /metrics in the
// Prometheus text format.
type metrics struct {
	gamesLive  atomic.Int64
	gamesTotal atomic.Int64
	actions    atomic.Int64 // accepted actions of every kind
	events     atomic.Int64
	botMoves   atomic.Int64
	wsConns    atomic.Int64
	latency    *histogram // a client's action from its arrival to its broadcast
	appendTime *histogram // one AppendEvents call
	mu         sync.Mutex
	rejected   map[string]int64 // refused requests and messages by code
}

func newMetrics() *metrics {
	return &metrics{
		latency:    newHistogram(),
		appendTime: newHistogram(),
		rejected:   make(map[string]int64),
	}
}

func (m *metrics) reject(code string) {
	m.mu.Lock()
	m.rejected[code]++
	m.mu.Unlock()
}

// histogram counts durations in fixed buckets, in seconds.
type histogram struct {
	counts [len(histogramBounds) + 1]atomic.Int64
	sumNS  atomic.Int64
}

var histogramBounds = [...]float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5}

func newHistogram() *histogram { return new(histogram) }

func (h *histogram) observe(d time.Duration) {
	s := d.Seconds()
	i := sort.SearchFloat64s(histogramBounds[:], s)
	h.counts[i].Add(1)
	h.sumNS.Add(int64(d))
}

func (h *histogram) write(w io.Writer, name, help string) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name)
	var cum int64
	for i, b := range histogramBounds {
		cum += h.counts[i].Load()
		fmt.Fprintf(w, "%s_bucket{le=\"%s\"} %d\n", name, strconv.FormatFloat(b, 'g', -1, 64), cum)
	}
	cum += h.counts[len(histogramBounds)].Load()
	fmt.Fprintf(w, "%s_bucket{le=\"+Inf\"} %d\n", name, cum)
	fmt.Fprintf(w, "%s_sum %g\n%s_count %d\n", name, time.Duration(h.sumNS.Load()).Seconds(), name, cum)
}

// runtimeSamples are the Go runtime's figures the metrics show.
var runtimeSamples = []struct{ metric, name, help string }{
	{"/memory/classes/total:bytes", "go_memory_total_bytes", "Memory mapped by the Go runtime."},
	{"/memory/classes/heap/objects:bytes", "go_heap_objects_bytes", "Memory held by live and unswept heap objects."},
	{"/sched/goroutines:goroutines", "go_goroutines", "Goroutines that currently exist."},
}

// handleMetrics writes the metrics in the Prometheus text format.
func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	m := s.metrics
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	gauge := func(name, help string, v int64) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s gauge\n%s %d\n", name, help, name, name, v)
	}
	counter := func(name, help string, v int64) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n%s %d\n", name, help, name, name, v)
	}
	gauge("chaturaji_games_live", "Games live now.", m.gamesLive.Load())
	counter("chaturaji_games_total", "Games created.", m.gamesTotal.Load())
	counter("chaturaji_actions_total", "Actions accepted and saved (players, bots, forced passes, timeouts).", m.actions.Load())
	counter("chaturaji_events_total", "Events saved and broadcast.", m.events.Load())
	counter("chaturaji_bot_moves_total", "Actions chosen by bots.", m.botMoves.Load())
	gauge("chaturaji_ws_connections", "WebSocket connections open now.", m.wsConns.Load())
	m.latency.write(w, "chaturaji_action_latency_seconds", "A client's action from its arrival through its check and commit to its broadcast.")
	m.appendTime.write(w, "chaturaji_store_append_seconds", "One commit of events to the store.")
	m.mu.Lock()
	codes := make([]string, 0, len(m.rejected))
	for c := range m.rejected {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	fmt.Fprintf(w, "# HELP chaturaji_rejected_total Requests and messages refused, by error code.\n# TYPE chaturaji_rejected_total counter\n")
	for _, c := range codes {
		fmt.Fprintf(w, "chaturaji_rejected_total{code=%q} %d\n", c, m.rejected[c])
	}
	m.mu.Unlock()

	samples := make([]rtmetrics.Sample, len(runtimeSamples))
	for i, rs := range runtimeSamples {
		samples[i].Name = rs.metric
	}
	rtmetrics.Read(samples)
	for i, rs := range runtimeSamples {
		if samples[i].Value.Kind() == rtmetrics.KindUint64 {
			gauge(rs.name, rs.help, int64(samples[i].Value.Uint64()))
		}
	}
	if rss, ok := residentMemory(); ok {
		gauge("process_resident_memory_bytes", "Resident memory size in bytes.", rss)
	}
}

// residentMemory returns the process's resident set size, where the
// system tells it (Linux).
func residentMemory() (int64, bool) {
	if runtime.GOOS != "linux" {
		return 0, false
	}
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}
