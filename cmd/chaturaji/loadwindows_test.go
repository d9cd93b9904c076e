package main

import (
	"testing"
	"time"
)

// TestWindows splits deliveries worked out by hand: the window with the
// most deliveries and the one with the highest p99 are not the same.
func TestWindows(t *testing.T) {
	t0 := time.Unix(1000, 0)
	ms := time.Millisecond
	var at []int64
	var lat []time.Duration
	add := func(after time.Duration, d time.Duration) {
		at = append(at, t0.Add(after).UnixNano())
		lat = append(lat, d)
	}
	// 0-10 s: three deliveries, one slow.
	add(0, 5*ms)
	add(3*time.Second, 7*ms)
	add(9*time.Second, 900*ms)
	// 10-20 s: nothing. 20-30 s: six deliveries, out of order, one slow.
	add(25*time.Second, 4*ms)
	add(21*time.Second, 2*ms)
	add(29*time.Second, 3*ms)
	add(20*time.Second, 1*ms)
	add(22*time.Second, 50*ms) // the floor itself is not slow
	add(23*time.Second, 51*ms)
	ws := windows(at, lat, 10*time.Second)
	want := []windowStats{
		{from: 0, n: 3, p99: 900 * ms, max: 900 * ms, slow: 1},
		{from: 20 * time.Second, n: 6, p99: 51 * ms, max: 51 * ms, slow: 1},
	}
	if len(ws) != len(want) {
		t.Fatalf("windows %+v, want %+v", ws, want)
	}
	for i := range want {
		if ws[i] != want[i] {
			t.Errorf("window %d: %+v, want %+v", i, ws[i], want[i])
		}
	}
	got := busiest(ws, 10*time.Second)
	if w := "busiest 20-30s p99 51.0ms (6 deliveries); highest p99 900.0ms at 0-10s (3 deliveries, max 900.0ms)"; got != w {
		t.Errorf("busiest:\n got %s\nwant %s", got, w)
	}
	if got := busiest(nil, time.Second); got != "-" {
		t.Errorf("busiest of no window: %q, want -", got)
	}
}
