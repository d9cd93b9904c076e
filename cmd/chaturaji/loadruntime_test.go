package main

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
)

// TestHistQuantile reads quantiles of a histogram worked out by hand.
func TestHistQuantile(t *testing.T) {
	buckets := []float64{0, 0.001, 0.002, 0.004, math.Inf(1)}
	tests := []struct {
		counts []uint64
		p      float64
		want   time.Duration
	}{
		{[]uint64{98, 1, 1, 0}, 0.99, 2 * time.Millisecond}, // the 99th of 100 is in (1ms, 2ms]
		{[]uint64{98, 1, 1, 0}, 0.98, 1 * time.Millisecond}, // the 98th is the last of the first bucket
		{[]uint64{0, 0, 0, 5}, 0.99, 4 * time.Millisecond},  // an infinite bound reads as its lower one
		{[]uint64{10, 0, 0, 0}, 0.5, 1 * time.Millisecond},
	}
	for _, tt := range tests {
		var n uint64
		for _, c := range tt.counts {
			n += c
		}
		if got := histQuantile(buckets, tt.counts, n, tt.p); got != tt.want {
			t.Errorf("histQuantile(%v, %g) = %v, want %v", tt.counts, tt.p, got, tt.want)
		}
	}
}

// TestRuntimeWindow takes a window's figures from the samples before its
// two ends, and a breakdown prints them beside the window's deliveries.
func TestRuntimeWindow(t *testing.T) {
	s := time.Second.Nanoseconds()
	r := &runtimeSampler{buckets: []float64{0, 0.001, 0.1, math.Inf(1)}}
	r.samples = []runtimeSample{
		{at: 0, gcCycles: 3, gcCPU: 1.0, runnable: []uint64{10, 0, 0}},
		{at: 5 * s, gcCycles: 4, gcCPU: 1.25, runnable: []uint64{60, 0, 1}},
		{at: 10 * s, gcCycles: 4, gcCPU: 1.25, runnable: []uint64{110, 0, 1}},
		{at: 15 * s, gcCycles: 6, gcCPU: 1.5, runnable: []uint64{200, 9, 1}},
	}
	// From 0 to 12 s: the samples at 0 and at 10 s; of 101 waits, the
	// 100th is still under 1 ms.
	w, ok := r.window(0, 12*s)
	if !ok || w.gcCycles != 1 || w.gcCPU != 250*time.Millisecond || w.runnableP99 != time.Millisecond {
		t.Errorf("window 0-12s: %+v, %v; want 1 collection, 250ms, runnable p99 1ms", w, ok)
	}
	// From 10 to 20 s: 90 runnable waits under 1 ms, 9 under 100 ms.
	w, ok = r.window(10*s, 20*s)
	if !ok || w.gcCycles != 2 || w.gcCPU != 250*time.Millisecond || w.runnableP99 != 100*time.Millisecond {
		t.Errorf("window 10-20s: %+v, %v; want 2 collections, 250ms, runnable p99 100ms", w, ok)
	}
	// Begun before the first sample: counted from it.
	w, ok = r.window(-5*s, 7*s)
	if !ok || w.gcCycles != 1 || w.gcCPU != 250*time.Millisecond {
		t.Errorf("window -5-7s: %+v, %v; want 1 collection, 250ms, from the first sample", w, ok)
	}
	// Between two samples that saw no goroutine made runnable.
	r.samples = append(r.samples, runtimeSample{at: 20 * s, gcCycles: 6, gcCPU: 1.5, runnable: []uint64{200, 9, 1}})
	if w, _ = r.window(15*s, 21*s); w.runnableP99 != -1 {
		t.Errorf("window with nothing runnable: runnable p99 %v, want -1", w.runnableP99)
	}
	if _, ok := (&runtimeSampler{}).window(0, s); ok {
		t.Error("a sampler with no samples gave a window")
	}

	probe := &syncProbe{at: []int64{1 * s, 2 * s, 11 * s}, times: []time.Duration{60 * time.Millisecond, 5 * time.Millisecond, 70 * time.Millisecond}}
	ws := []windowStats{{from: 0, n: 200, p99: 60 * time.Millisecond, max: time.Second, slow: 3}, {from: 10 * time.Second, n: 100, p99: 9 * time.Millisecond, slow: 0}}
	var out bytes.Buffer
	breakdown(&out, ws, 0, 10*time.Second, r, probe)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := [][]string{
		{"window", "deliveries", "p99", "over", "50ms", "collections", "their", "CPU", "runnable", "p99", "disk", "stalls", "longest", "sync"},
		{"0-10s", "200", "60.0ms", "3", "(1.50%)", "1", "250.0ms", "1.0ms", "60.0ms", "60.0ms"},
		{"10-20s", "100", "9.0ms", "0", "(0.00%)", "2", "250.0ms", "100.0ms", "70.0ms", "70.0ms"},
	}
	if len(lines) != len(want)+1 {
		t.Fatalf("breakdown:\n%s\nwant %d lines", out.String(), len(want)+1)
	}
	for i, w := range want {
		if got := strings.Fields(lines[i]); strings.Join(got, " ") != strings.Join(w, " ") {
			t.Errorf("line %d: %q, want %q", i, got, w)
		}
	}
	if last := "over 50ms: 3 of 300 deliveries (1.00%); a p99 under 50ms allows 3"; lines[3] != last {
		t.Errorf("last line %q, want %q", lines[3], last)
	}
}
