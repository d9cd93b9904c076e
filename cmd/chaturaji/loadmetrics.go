package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// memoryPeak follows one server's memory and CPU through its /metrics.
type memoryPeak struct {
	base       string // the server's base URL
	rss, goMem int64
	heap       int64 // the peak of the Go heap's objects, live or not yet swept
	commits    int64
	commitSum  float64
	cpu0, cpu  float64   // the process's CPU seconds, at the first and the last scrape
	scraped    bool      // it answered at least once
	last       time.Time // when it last answered
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
	m.commits = int64(fig["chaturaji_store_append_seconds_count"])
	m.commitSum = fig["chaturaji_store_append_seconds_sum"]
	m.cpu = fig["process_cpu_seconds_total"]
	if !m.scraped {
		m.cpu0 = m.cpu
	}
	m.scraped, m.last = true, time.Now()
}

// line is the figures as a report shows them: memory, then CPU over d.
func (m *memoryPeak) line(d time.Duration) (memory, cpu string) {
	memory = fmt.Sprintf("peak RSS %s, Go memory %s", fmtMiB(m.rss), fmtMiB(m.goMem))
	if m.commits > 0 {
		memory += fmt.Sprintf("; commits %d, mean %s", m.commits, fmtMS(time.Duration(m.commitSum*float64(time.Second)/float64(m.commits))))
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
