package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
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

// quotaExpiryConfig is a server where tables nobody comes to expire after
// 300 ms, and where few games of bots alone may be live: two a client,
// three in all.
func quotaExpiryConfig() server.Config {
	cfg := testConfig()
	cfg.Expiry = 300 * time.Millisecond
	cfg.MaxGrace = time.Hour
	cfg.MaxBotGamesPerClient, cfg.MaxBotGames = 2, 3
	// The bots hold every game taken over live: an hour per action.
	cfg.MaxBotDelay = time.Hour
	return cfg
}

// unattended is a table of four humans whose bots, once they take it
// over, play an action an hour.
const unattended = `{"seats": ["human", "human", "human", "human"], "abandon_ms": 3600000, "takeover": "random", "bot_delay_ms": 3600000}`

// TestExpiryWithinQuotas creates tables of four humans that nobody comes
// to, from two client addresses, more than the limits on games of bots
// alone allow: as they expire, bots take the seats of as many as the
// creators' quotas and the server's leave room for, and the others are
// aborted (no result, a record that verifies) rather than pushing the
// counts past the limits; the limits then refuse new games of bots alone
// as they would without the expired ones.
func TestExpiryWithinQuotas(t *testing.T) {
	cfg := quotaExpiryConfig()
	ts := newTestServer(t, cfg, nil)
	creators := map[string]string{} // game id to its creator's address
	for _, ip := range []string{"127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.2", "127.0.0.2"} {
		creators[createFrom(t, ts, ip, unattended).ID] = ip
	}

	alone := map[string]int{} // games of bots alone, by creator
	total, aborted := 0, 0
	for id, ip := range creators {
		st := ts.waitState(id, 20*time.Second, func(s *server.State) bool {
			for _, seat := range s.Seats {
				if seat.Player == server.Human {
					return s.Status != "live"
				}
			}
			return true
		})
		if st.Status == "live" {
			alone[ip]++
			total++
			continue
		}
		aborted++
		if st.End != server.EndAborted || st.Result != "*" {
			t.Errorf("game %s of %s: %s, end %q, result %q; want it aborted with no result", id, ip, st.Status, st.End, st.Result)
		}
		r := ts.record(id)
		if term, _ := r.Tags.Get("Termination"); term != "aborted" {
			t.Errorf("game %s: Termination %q, want \"aborted\"\n%s", id, term, r)
		}
		if _, err := r.Verify(nil); err != nil {
			t.Errorf("game %s: the aborted game's record: %v", id, err)
		}
	}
	for ip, n := range alone {
		if n > cfg.MaxBotGamesPerClient {
			t.Errorf("%s has %d games of bots alone after expiry, over its quota of %d", ip, n, cfg.MaxBotGamesPerClient)
		}
	}
	if total != cfg.MaxBotGames || aborted != len(creators)-cfg.MaxBotGames {
		t.Errorf("after expiry: %d games of bots alone (%v) and %d aborted; want %d and %d", total, alone, aborted, cfg.MaxBotGames, len(creators)-cfg.MaxBotGames)
	}
	const bots = `{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"], "bot_delay_ms": 3600000}`
	wantStatus(t, ts, "127.0.0.3", bots, http.StatusServiceUnavailable, "the server has 3 live games without a human seat, its limit")
}

// heldLastSeat is a store that stores a game's last seat (East) only once
// the test lets it (closes release): until then the game has become one
// of bots alone but its last seat is not yet stored.
type heldLastSeat struct {
	store.Store
	release chan struct{}
}

func (s heldLastSeat) UpdateSeat(ctx context.Context, id string, i int, seat store.Seat) error {
	if i == 3 {
		<-s.release
	}
	return s.Store.UpdateSeat(ctx, id, i, seat)
}

// TestExpiryCountsOnce lets two tables of one client expire, and while
// bots are still being given their last seats, two tables of another:
// a game being given to bots counts once against the server's limit of
// games of bots alone, not once as being given and once as given, so the
// second client's first table is taken over and its second aborted.
func TestExpiryCountsOnce(t *testing.T) {
	cfg := quotaExpiryConfig()
	held := heldLastSeat{openStore(t, ""), make(chan struct{})}
	ts := newTestServer(t, cfg, held)
	t.Cleanup(func() { close(held.release) }) // before the server stops
	first := []string{createFrom(t, ts, "127.0.0.1", unattended).ID, createFrom(t, ts, "127.0.0.1", unattended).ID}
	// Wait for the first client's games to be of bots alone, their last
	// seats held before the store.
	for _, id := range first {
		ts.waitState(id, 10*time.Second, func(s *server.State) bool { return s.Seats[3].Player != server.Human })
	}
	second := []string{createFrom(t, ts, "127.0.0.2", unattended).ID, createFrom(t, ts, "127.0.0.2", unattended).ID}
	alone := 0
	for _, id := range second {
		st := ts.waitState(id, 20*time.Second, func(s *server.State) bool { return s.Status != "live" || s.Seats[0].Player != server.Human })
		if st.Status == "live" {
			alone++
		}
	}
	if alone != 1 {
		t.Errorf("the second client has %d games of bots alone after expiry, want 1: the server's limit is %d and the first client has 2", alone, cfg.MaxBotGames)
	}
}

// TestTakeoverBound checks the server's bound on the bot a table names to
// take over its seats (MaxTakeoverLevel): stronger ones are refused, with
// the limit named.
func TestTakeoverBound(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	for _, tc := range []struct {
		takeover string
		status   int
	}{
		{"random", http.StatusCreated},
		{"greedy", http.StatusCreated},
		{"level:4", http.StatusCreated},
		{"2", http.StatusCreated},
		{"level:5", http.StatusBadRequest},
		{"strong", http.StatusBadRequest},
		{"mcts", http.StatusBadRequest},
		{"3?nodes=1000000", http.StatusBadRequest},
	} {
		body := `{"seats": ["human", "bot:random", "bot:random", "bot:random"], "takeover": "` + tc.takeover + `"}`
		status, data := ts.request("POST", "/api/games", "", body)
		if status != tc.status {
			t.Errorf("takeover %q: %d %s, want %d", tc.takeover, status, data, tc.status)
			continue
		}
		if status != http.StatusCreated && !strings.Contains(string(data), "a level from 1 to 4") {
			t.Errorf("takeover %q: refused with %s, want the limit named", tc.takeover, data)
		}
	}
}
