package main

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// memoryPeak follows one server's memory and CPU through its /metrics.
type memoryPeak struct {
	base       string // the server's base URL
	rss, goMem int64
	heap       int64              // the peak of the Go heap's objects, live or not yet swept
	cpu0, cpu  float64            // the process's CPU seconds, at the first and the last scrape
	scraped    bool               // it answered at least once
	last       time.Time          // when it last answered
	fig        map[string]float64 // the figures of the last scrape
}

// watch scrapes the metrics every half second until ctx is done.
func (m *memoryPeak) watch(ctx context.Context, lt *loadTest) {
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		m.scrape(ctx, lt)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// scrape reads the metrics once, keeping the peaks. A server that does
// not answer (a node killed) keeps its figures of the last time it did.
func (m *memoryPeak) scrape(ctx context.Context, lt *loadTest) {
	fig, err := lt.metrics(ctx, m.base)
	if err != nil {
		return
	}
	m.rss = max(m.rss, int64(fig["process_resident_memory_bytes"]))
	m.goMem = max(m.goMem, int64(fig["go_memory_classes_total_bytes"]))
	m.heap = max(m.heap, int64(fig["go_memory_classes_heap_objects_bytes"]))
	m.cpu = fig["process_cpu_seconds_total"]
	if !m.scraped {
		m.cpu0 = m.cpu
	}
	m.scraped, m.last, m.fig = true, time.Now(), fig
}

// within is the server's own part of the times a histogram of its
// metrics counts (name, without "_bucket"): its p50 and p99, estimated
// from the buckets, and the share of the observations within 50 ms, so
// that a client's figure can be read against the server's share of it.
func (m *memoryPeak) within(name string) string {
	type bucket struct{ le, n float64 }
	var bs []bucket
	prefix := name + `_bucket{le="`
	for k, v := range m.fig {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			le, err := strconv.ParseFloat(strings.TrimSuffix(rest, `"}`), 64)
			if err == nil {
				bs = append(bs, bucket{le, v})
			}
		}
	}
	slices.SortFunc(bs, func(a, b bucket) int { return cmp.Compare(a.le, b.le) })
	if len(bs) == 0 || bs[len(bs)-1].n == 0 {
		return "-"
	}
	total := bs[len(bs)-1].n
	// q is the p-quantile, interpolated linearly inside its bucket, as
	// Prometheus's histogram_quantile does.
	q := func(p float64) string {
		rank, lo, below := p*total, 0.0, 0.0
		for _, b := range bs {
			if b.n >= rank {
				if math.IsInf(b.le, 1) {
					return fmt.Sprintf("over %s", fmtMS(time.Duration(lo*float64(time.Second))))
				}
				at := lo + (b.le-lo)*(rank-below)/max(b.n-below, 1)
				return fmtMS(time.Duration(at * float64(time.Second)))
			}
			lo, below = b.le, b.n
		}
		return "-"
	}
	share := "-"
	for _, b := range bs {
		if b.le == 0.05 {
			share = fmt.Sprintf("%.2f%%", 100*b.n/total)
		}
	}
	return fmt.Sprintf("p50 %s  p99 %s  within 50ms %s  (%.0f)", q(0.5), q(0.99), share, total)
}

// line is the figures as a report shows them: memory, then CPU over d.
func (m *memoryPeak) line(d time.Duration) (memory, cpu string) {
	memory = fmt.Sprintf("peak RSS %s, Go memory %s", fmtMiB(m.rss), fmtMiB(m.goMem))
	if commits := m.fig["chaturaji_store_append_seconds_count"]; commits > 0 {
		mean := m.fig["chaturaji_store_append_seconds_sum"] / commits
		memory += fmt.Sprintf("; commits %.0f, mean %s", commits, fmtMS(time.Duration(mean*float64(time.Second))))
	}
	used := m.cpu - m.cpu0
	if d <= 0 {
		return memory, fmt.Sprintf("%.1fs", used)
	}
	return memory, fmt.Sprintf("%.1fs, %.2f cores", used, used/d.Seconds())
}

// metrics reads the /metrics of the server at base: each figure by its
// name, labels included as written (`name{label="value"}`).
func (lt *loadTest) metrics(ctx context.Context, base string) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := lt.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics: %s", resp.Status)
	}
	fig := make(map[string]float64)
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			fig[line[:i]] = v
		}
	}
	return fig, sc.Err()
}
