package server

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSchedulerOrder queues decisions, one worker busy, and checks the
// order in which the worker then serves them: games with a human first
// (but not forever), one decision per game per turn, and a decision whose
// game moved on taken out of the queue.
func TestSchedulerOrder(t *testing.T) {
	for _, tc := range []struct {
		name string
		// queued, in order: "game:tier:label" with tier h (a human sits
		// at the game) or b (bots alone); a label starting with x is
		// cancelled before the worker is released.
		queued []string
		want   []string // the labels in the order served
	}{
		{"games with a human go before games of bots",
			[]string{"A:b:a1", "B:b:b1", "H:h:h1", "C:b:c1"},
			[]string{"h1", "a1", "b1", "c1"}},
		{"one decision per game per turn",
			[]string{"A:b:a1", "A:b:a2", "A:b:a3", "B:b:b1", "C:b:c1", "C:b:c2"},
			[]string{"a1", "b1", "c1", "a2", "c2", "a3"}},
		{"games of bots are served one in five while humans' wait",
			[]string{"B:b:b1", "B:b:b2", "H1:h:h1", "H2:h:h2", "H3:h:h3", "H4:h:h4", "H5:h:h5", "H6:h:h6", "H7:h:h7", "H8:h:h8", "H9:h:h9"},
			[]string{"h1", "h2", "h3", "h4", "b1", "h5", "h6", "h7", "h8", "b2", "h9"}},
		{"a human game takes turns with other human games",
			[]string{"H:h:h1", "H:h:h2", "G:h:g1", "B:b:b1"},
			[]string{"h1", "g1", "h2", "b1"}},
		{"a cancelled decision leaves the queue, its game keeps its turn",
			[]string{"A:b:xa", "B:b:b1", "H:h:xh", "A:b:a2", "C:b:xc"},
			[]string{"a2", "b1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newScheduler(1)
			if !s.acquire(context.Background(), "busy", tierBots) {
				t.Fatal("the idle worker was not granted")
			}
			served := make(chan string)
			var cancels []context.CancelFunc
			for _, q := range tc.queued {
				f := strings.Split(q, ":")
				tier := tierBots
				if f[1] == "h" {
					tier = tierHuman
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if strings.HasPrefix(f[2], "x") {
					cancels = append(cancels, cancel)
				}
				n := s.waiting()
				go func() {
					if s.acquire(ctx, f[0], tier) {
						served <- f[2]
					}
				}()
				waitUntil(t, func() bool { return s.waiting() == n+1 })
			}
			for _, cancel := range cancels {
				n := s.waiting()
				cancel()
				waitUntil(t, func() bool { return s.waiting() == n-1 })
			}
			var got []string
			for range tc.want {
				s.release()
				got = append(got, <-served)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("served %v, want %v", got, tc.want)
			}
			s.release()
			if s.idle != 1 || s.waiting() != 0 {
				t.Errorf("at the end: %d idle, %d waiting; want 1, 0", s.idle, s.waiting())
			}
		})
	}
}

// waitUntil polls cond until it holds, for at most ten seconds.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for start := time.Now(); !cond(); time.Sleep(time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatal("timed out waiting")
		}
	}
}
