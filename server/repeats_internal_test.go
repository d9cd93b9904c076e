package server

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a buffer safe for the timers' goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines(t *testing.T) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for line := range strings.Lines(s.b.String()) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out
}

// TestRepeats checks the logging of failures that repeat: the first of a
// kind at once, the rest of its interval counted in one line when the
// interval ends, a kind quiet for an interval logged at once again, and
// what is counted when the server stops said then.
func TestRepeats(t *testing.T) {
	var buf syncBuffer
	r := newRepeats(slog.New(slog.NewJSONHandler(&buf, nil)), 200*time.Millisecond)
	for i := range 50 {
		r.Error("saving events", "game", "g"+string(rune('a'+i%26)))
	}
	r.Info("games saved again", "game", "ga")
	if got := buf.lines(t); len(got) != 2 || got[0]["msg"] != "saving events" || got[0]["game"] != "ga" || got[1]["level"] != "INFO" {
		t.Fatalf("at once: %v, want the first of each kind", got)
	}
	waitFor(t, func() bool { return len(buf.lines(t)) == 3 }) // the interval ends
	got := buf.lines(t)
	if len(got) != 3 || got[2]["msg"] != "saving events" || got[2]["repeated"] != 49.0 || got[2]["within"] != "200ms" || got[2]["game"] != "gx" {
		t.Fatalf("after the interval: %v, want one line counting the 49 others, with the last one's attributes", got)
	}
	// An interval without any: the kind is forgotten.
	waitFor(t, func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.pending["saving events"] == nil
	})
	r.Error("saving events", "game", "gz")
	r.Error("saving events", "game", "gz")
	r.stop()
	got = buf.lines(t)
	if len(got) != 5 || got[3]["repeated"] != nil || got[4]["repeated"] != 1.0 {
		t.Fatalf("after a quiet interval and the stop: %v, want the next logged at once and the count at the stop", got[3:])
	}
	r.Error("saving events")
	if got := buf.lines(t); len(got) != 6 {
		t.Fatalf("after the stop: %d lines, want every failure logged", len(got))
	}
}

// waitFor waits until ok, for 10s at most.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("not reached in 10s")
		}
	}
}

// TestBackoff checks the waits between tries: from the least, doubling,
// up to the most, each in the upper half of its span.
func TestBackoff(t *testing.T) {
	lo, hi := 100*time.Millisecond, 2*time.Second
	for _, tc := range []struct {
		failures int
		span     time.Duration
	}{
		{1, 100 * time.Millisecond},
		{2, 200 * time.Millisecond},
		{3, 400 * time.Millisecond},
		{5, 1600 * time.Millisecond},
		{6, 2 * time.Second},
		{60, 2 * time.Second},
	} {
		seen := map[time.Duration]bool{}
		for range 100 {
			d := backoff(tc.failures, lo, hi)
			if d < tc.span/2 || d > tc.span {
				t.Fatalf("after %d failures: %v, want %v to %v", tc.failures, d, tc.span/2, tc.span)
			}
			seen[d] = true
		}
		if len(seen) < 50 {
			t.Errorf("after %d failures: %d different waits of 100, want them drawn at random", tc.failures, len(seen))
		}
	}
}
