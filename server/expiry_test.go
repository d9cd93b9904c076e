package server_test

import (
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// TestExpiry creates a table of four humans that nobody comes to, with the
// longest grace a table may ask for: after the server's expiry bots take
// every human seat at once, and the game plays to its end, freeing its
// place. A table where one holder is connected does not expire.
func TestExpiry(t *testing.T) {
	cfg := testConfig()
	cfg.Expiry = 300 * time.Millisecond
	cfg.MaxGrace = time.Hour
	ts := newTestServer(t, cfg, nil)
	g := ts.create(`{"seats": ["human", "human", "human", "human"], "abandon_ms": 3600000, "takeover": "random"}`)
	watcher := ts.dial(g.ID, "", 0)
	var taken []string
	watcher.until(func(e server.Event) bool {
		if e.Kind == server.KindSeat {
			if e.Reason != server.ReasonExpired || e.Player != "bot:random" {
				t.Fatalf("seat event %+v, want a bot to take the seat as the game expired", e)
			}
			taken = append(taken, e.Seat)
		}
		return e.Kind == server.KindEnd
	})
	if len(taken) != 4 {
		t.Fatalf("bots took %v, want every seat", taken)
	}
	for _, s := range ts.state(g.ID).Seats {
		if s.Player != "bot:random" {
			t.Errorf("%s is played by %s after the game expired", s.Seat, s.Player)
		}
	}

	kept := ts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["East"], "abandon_ms": 3600000}`)
	ts.dial(kept.ID, kept.Seats[3].Token, 0) // East stays at the table
	time.Sleep(4 * cfg.Expiry)
	for _, s := range ts.state(kept.ID).Seats {
		if s.Player != server.Human {
			t.Errorf("%s is played by %s while East is at the table", s.Seat, s.Player)
		}
	}
}
