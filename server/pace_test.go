package server_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// TestBotDelaySetting checks the bot delay a new table gets: the server's
// default when the request leaves it out, the request's own (0 for none)
// up to the server's maximum, and a clear refusal beyond.
func TestBotDelaySetting(t *testing.T) {
	seats := `"seats": ["human", "bot:random", "bot:random", "bot:random"]`
	tests := []struct {
		name     string
		delay    time.Duration // Config.BotDelay
		field    string        // the request's bot_delay_ms, "" for none
		want     int64
		wantCode string
	}{
		{"the default of the default", 0, "", 800, ""},
		{"the server's own default", 1500 * time.Millisecond, "", 1500, ""},
		{"no delay by default", server.NoBotDelay, "", 0, ""},
		{"0 asked for is none, not the default", 0, "0", 0, ""},
		{"a delay asked for", server.NoBotDelay, "2500", 2500, ""},
		{"the maximum", 0, "10000", 10000, ""},
		{"over the maximum", 0, "10001", 0, server.EINVALID},
		{"negative", 0, "-1", 0, server.EINVALID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.BotDelay = tt.delay
			ts := newTestServer(t, cfg, nil)
			body := "{" + seats
			if tt.field != "" {
				body += `, "bot_delay_ms": ` + tt.field
			}
			body += "}"
			if tt.wantCode != "" {
				status, b := ts.request("POST", "/api/games", "", body)
				wantError(t, status, b, http.StatusBadRequest, tt.wantCode)
				if !strings.Contains(string(b), "bot_delay_ms") {
					t.Errorf("the refusal %s does not name bot_delay_ms", b)
				}
				return
			}
			c := ts.create(body)
			if c.Table.BotDelayMS != tt.want {
				t.Errorf("created with bot_delay_ms %d, want %d", c.Table.BotDelayMS, tt.want)
			}
			if st := ts.state(c.ID); st.Table.BotDelayMS != tt.want {
				t.Errorf("state's bot_delay_ms %d, want %d", st.Table.BotDelayMS, tt.want)
			}
		})
	}
}

// TestBotDelayPaces watches a game of bots alone whose table asks for a
// bot delay: every bot action, and every forced pass of a bot's seat, comes
// at least the delay after the event that opened its decision (the events'
// times say so), the rolls that follow an action come with it, and after a
// restart the table keeps its delay and the bots keep to it.
func TestBotDelayPaces(t *testing.T) {
	const delay = 120 * time.Millisecond
	path := t.TempDir() + "/games.db"
	ts := newTestServer(t, testConfig(), openStore(t, path))
	g := ts.create(`{"seats": ["bot:random", "bot:greedy", "bot:random", "bot:greedy"], "bot_delay_ms": 120}`)
	watch := func(ts *testServer, bots int) {
		t.Helper()
		c := ts.dial(g.ID, "", 0)
		seen := 0
		for seen < bots {
			e := c.next()
			if e.Kind == server.KindEnd {
				break
			}
			if e.Kind == server.KindAction {
				seen++
			}
		}
		for i, e := range c.events[1:] {
			prev := c.events[i]
			switch {
			case e.Kind == server.KindAction:
				if gap := e.At.Sub(prev.At); gap < delay {
					t.Errorf("event %d, %s's %s by %s, came %v after event %d, which opened its decision: want %v or more", e.Seq, e.Seat, e.Action, e.By, gap, prev.Seq, delay)
				}
			case e.Kind == server.KindRoll:
				if !e.At.Equal(prev.At) {
					t.Errorf("event %d (%s %s) came %v after event %d: want it with the action before it", e.Seq, e.Kind, e.Roll+e.Action, e.At.Sub(prev.At), prev.Seq)
				}
			}
		}
	}
	watch(ts, 10)
	ts.stop()

	ts2 := newTestServer(t, testConfig(), openStore(t, path))
	st := ts2.state(g.ID)
	if st.Table.BotDelayMS != 120 {
		t.Fatalf("after a restart the table's bot_delay_ms is %d, want 120", st.Table.BotDelayMS)
	}
	watch(ts2, 20) // the ten seen before, and ten more

}

// TestBotDelayFreesTheLoop gives a bot a delay of an hour: while it waits
// the game's loop goes on serving (its record, read through the loop,
// answers), the bot has not played, and the server shuts down at once.
func TestBotDelayFreesTheLoop(t *testing.T) {
	cfg := testConfig()
	cfg.MaxBotDelay = time.Hour
	ts := newTestServer(t, cfg, nil)
	g := ts.create(`{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"], "bot_delay_ms": 3600000}`)
	before := ts.state(g.ID)
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/games/"+g.ID+"/record", nil)
		resp, err := http.DefaultClient.Do(req)
		cancel()
		if err != nil {
			t.Fatalf("the record, read through the game's loop, does not answer while its bot waits: %v", err)
		}
		resp.Body.Close()
	}
	if st := ts.state(g.ID); st.Seq != before.Seq || st.ToAct == "" {
		t.Fatalf("the bot played before its hour: seq %d, was %d; %q to act", st.Seq, before.Seq, st.ToAct)
	}
}

// TestBotTimeOfAGame plays games of one scripted human, who answers at
// once, against three level-3 bots, and accounts for the wall time of the
// bots' turns: each of them (a bot's action, or its seat's forced pass)
// comes the table's bot delay or more after its decision opened, so the
// bots' part of a game is at least their turns times the delay. It plays
// one game with a short delay, to stay fast; with CHATURAJI_PACE_GAMES=N
// it plays N games at once at the server's default delay and bot time, in
// real time (a minute or more each), and reports what they took: the
// figures of docs/performance.md, "The pace of a game against bots".
func TestBotTimeOfAGame(t *testing.T) {
	cfg := testConfig()
	cfg.BotDelay = 5 * time.Millisecond
	games := 1
	if n, _ := strconv.Atoi(os.Getenv("CHATURAJI_PACE_GAMES")); n > 0 {
		cfg.BotDelay, cfg.BotTime, games = 0, 0, n // the defaults: 800ms, 300ms
	}
	delay := 800 * time.Millisecond
	if cfg.BotDelay > 0 {
		delay = cfg.BotDelay
	}
	ts := newTestServer(t, cfg, nil)
	type result struct {
		turns       int           // the bots' paced turns
		bots, whole time.Duration // their wall time, and the game's
	}
	results := make(chan result, games)
	errs := make(chan error, games)
	for i := range games {
		g := ts.create(`{"seats": ["human", "bot:3", "bot:3", "bot:3"]}`)
		if g.Table.BotDelayMS != delay.Milliseconds() {
			t.Fatalf("the game's bot delay is %dms, want the server's %v", g.Table.BotDelayMS, delay)
		}
		c := ts.dial(g.ID, g.Seats[0].Token, 0)
		go func() {
			if err := c.playUntilOver(rand.New(rand.NewPCG(uint64(i), 11))); err != nil {
				errs <- err
				return
			}
			var r result
			for j := 1; j < len(c.events); j++ {
				e, prev := c.events[j], c.events[j-1]
				if slices.Contains(prev.OutOfPlay, "South") {
					break // nobody plays on: the bots finish at full speed
				}
				if e.Kind != server.KindAction || e.Seat == "South" {
					continue
				}
				gap := e.At.Sub(prev.At)
				if gap < delay {
					errs <- fmt.Errorf("event %d, %s's %s by %s, came %v after the decision opened: want %v or more", e.Seq, e.Seat, e.Action, e.By, gap, delay)
					return
				}
				r.turns++
				r.bots += gap
			}
			r.whole = c.events[len(c.events)-1].At.Sub(c.events[0].At)
			results <- r
		}()
	}
	var bots []time.Duration
	for range games {
		select {
		case err := <-errs:
			t.Fatal(err)
		case r := <-results:
			if r.bots < time.Duration(r.turns)*delay {
				t.Fatalf("%d bot turns took %v, under %d times the delay of %v", r.turns, r.bots, r.turns, delay)
			}
			bots = append(bots, r.bots)
			t.Logf("%d bot turns took %.1fs of the game's %.1fs (%.2fs a turn; at the default 800ms, at least %.1fs)",
				r.turns, r.bots.Seconds(), r.whole.Seconds(), r.bots.Seconds()/float64(r.turns), 0.8*float64(r.turns))
		}
	}
	slices.Sort(bots)
	t.Logf("bots' wall time of %d games: shortest %.1fs, median %.1fs, longest %.1fs", games, bots[0].Seconds(), bots[len(bots)/2].Seconds(), bots[len(bots)-1].Seconds())
}
