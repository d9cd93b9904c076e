package server

import (
	"testing"
	"time"
)

// TestPingWait draws many waits before a ping: each within
// [interval/2, interval), and together spread over that range (the
// connections opened at once ping at different times), not all at one
// value.
func TestPingWait(t *testing.T) {
	for _, interval := range []time.Duration{20 * time.Second, 200 * time.Millisecond, 3} {
		lo, hi := interval, time.Duration(0)
		for range 2000 {
			w := pingWait(interval)
			if w < interval/2 || w >= interval {
				t.Fatalf("interval %v: a wait of %v, want within [%v, %v)", interval, w, interval/2, interval)
			}
			lo, hi = min(lo, w), max(hi, w)
		}
		if interval >= time.Millisecond && hi-lo < interval*4/10 {
			t.Errorf("interval %v: 2,000 waits span %v to %v, want them spread over the half of the interval", interval, lo, hi)
		}
	}
}
