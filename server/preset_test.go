package server_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/server"
)

// TestEveryPresetPlays plays whole games of every preset, and of house
// rules, through the API: human seats played by WebSocket clients that
// choose among the actions the server lists, preferring captures of kings,
// then decisions and drops, then captures, so that every kind of action a
// preset has (drops, team decisions, two dice, roll-offs) goes through the
// server's parse and check. Each record then replays and proves its dice.
func TestEveryPresetPlays(t *testing.T) {
	names := append(rules.Names(), "chaturaji+ranks+dice=2cube", "chaturaji+clock=20+triumph=off")
	// The presets are looked up before any game runs: the first lookup of
	// house rules prepares a derived preset whose seats share the base
	// preset's backing array (rules.Preset.prepare), a write the race
	// detector sees against the live games reading the base preset. That
	// is the rules package's to fix; here it would fail every run under
	// -race for a reason that is not the server's.
	for _, name := range names {
		if _, err := rules.Lookup(name); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ts := newTestServer(t, testConfig(), nil)
			pr, err := rules.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			seats := make([]string, pr.NumSeats())
			hosts := make([]string, pr.NumSeats())
			for i, s := range pr.Seats() {
				seats[i], hosts[i] = `"human"`, `"`+s.String()+`"`
			}
			kinds := map[string]int{}
			var mu sync.Mutex
			for game := range 3 {
				g := ts.create(`{"rules": "` + name + `", "seats": [` + strings.Join(seats, ",") + `], "host_seats": [` + strings.Join(hosts, ",") + `]}`)
				clients := make([]*client, len(g.Seats))
				for i, s := range g.Seats {
					clients[i] = ts.dial(g.ID, s.Token, 0)
				}
				errs := make(chan error, len(clients))
				for i, c := range clients {
					rng := rand.New(rand.NewPCG(uint64(i), uint64(game)))
					go func() {
						errs <- c.playWith(func(e server.Event) string {
							a, kind := hunt(t, pr, e, rng)
							mu.Lock()
							kinds[kind]++
							mu.Unlock()
							return a
						})
					}()
				}
				for range clients {
					if err := <-errs; err != nil {
						t.Fatal(err)
					}
				}
				r := ts.record(g.ID)
				if _, err := r.Replay(); err != nil {
					t.Fatal(err)
				}
				if err := r.VerifyDice(); err != nil {
					t.Fatal(err)
				}
			}
			b, _ := json.Marshal(kinds)
			t.Logf("%s: actions played %s", name, b)
		})
	}
}

// hunt chooses an action among an event's: a capture of a king, else a
// decision or a drop, else a capture, else any; it also names the kind of
// the action chosen.
func hunt(t *testing.T, pr *rules.Preset, e server.Event, rng *rand.Rand) (string, string) {
	p, err := rules.ParsePosition(pr, e.Position)
	if err != nil {
		t.Errorf("event %d: position %q: %v", e.Seq, e.Position, err)
		return e.Actions[0], "?"
	}
	var best []string
	bestRank := -1
	kindOf := map[string]string{}
	for _, text := range e.Actions {
		a, err := rules.ParseAction(pr, text)
		if err != nil {
			t.Errorf("event %d: action %q: %v", e.Seq, text, err)
			continue
		}
		rank, kind := 0, "move"
		switch {
		case a.Type() == rules.Drop || strings.Contains(text, "@"):
			rank, kind = 2, "drop"
		case len(text) >= 4 && text[0] >= 'a' && text[0] <= 'h' && text[1] >= '1' && text[1] <= '8':
			if victim := p.At(a.To()); victim != rules.NoPiece && victim.Seat() != p.Decider() {
				rank, kind = 1, "capture"
				if victim.Kind() == rules.King {
					rank, kind = 3, "king capture"
				}
			}
		case text == "pass":
			kind = "pass"
		case text == "retire":
			kind = "retire"
		default:
			rank, kind = 2, text
		}
		kindOf[text] = kind
		if rank > bestRank {
			best, bestRank = best[:0], rank
		}
		if rank == bestRank {
			best = append(best, text)
		}
	}
	if len(best) == 0 || rng.IntN(4) == 0 {
		a := e.Actions[rng.IntN(len(e.Actions))]
		return a, kindOf[a]
	}
	a := best[rng.IntN(len(best))]
	return a, kindOf[a]
}

// TestRollOff checks martian's roll-off: the game starts with nobody to
// act, the first roll is nobody's and draws the team that starts (1:
// South's, 2: West's), and the next roll is that team's first seat's.
func TestRollOff(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	for range 4 {
		g := ts.create(`{"rules": "martian", "seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"]}`)
		c := ts.dial(g.ID, "", 0)
		start, rollOff, first := c.next(), c.next(), c.next()
		if start.Kind != server.KindStart || start.ToAct != "" || start.Actions != nil {
			t.Fatalf("start %+v: want nobody to act before the roll-off", start)
		}
		want := map[string]string{"1": "South", "2": "West"}[rollOff.Roll]
		if rollOff.Kind != server.KindRoll || rollOff.Seat != "" || want == "" || rollOff.ToAct != want {
			t.Fatalf("roll-off %+v: want a roll of no seat, 1 or 2, after which the team it draws is to act", rollOff)
		}
		if first.Kind != server.KindRoll || first.Seat != want || first.ToAct != want || len(first.Actions) == 0 {
			t.Fatalf("roll-off %s, then %+v: want %s's roll and its actions", rollOff.Roll, first, want)
		}
	}
}

// TestBotsPlayEveryPreset plays a game of server bots to the end in every
// preset, and checks that no bot ever failed to choose (the server would
// log it and play at random in its place).
func TestBotsPlayEveryPreset(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game of every preset")
	}
	for _, name := range rules.Names() {
		if _, err := rules.Lookup(name); err != nil {
			t.Fatal(err)
		}
	}
	specs := []string{"bot:greedy", "bot:1", "bot:random", "bot:strong?nodes=300"}
	for _, name := range rules.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			logs := &errorLog{}
			ts := newTestServerLogged(t, testConfig(), nil, slog.New(logs))
			pr, _ := rules.Lookup(name)
			seats := make([]string, pr.NumSeats())
			for i := range seats {
				seats[i] = `"` + specs[i%len(specs)] + `"`
			}
			g := ts.create(`{"rules": "` + name + `", "seats": [` + strings.Join(seats, ",") + `]}`)
			st := ts.waitState(g.ID, 2*time.Minute, func(s *server.State) bool { return s.Status == "finished" })
			checkRecord(t, ts, g.ID, st)
			t.Logf("%s: %d events, %s", name, st.Seq, st.End)
			if msgs := logs.errors(); len(msgs) > 0 {
				t.Fatalf("errors logged: %s", strings.Join(msgs, "\n"))
			}
		})
	}
}

// errorLog is a slog handler that keeps the errors logged.
type errorLog struct {
	mu   sync.Mutex
	msgs []string
}

func (h *errorLog) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelError }
func (h *errorLog) WithAttrs([]slog.Attr) slog.Handler           { return h }
func (h *errorLog) WithGroup(string) slog.Handler                { return h }
func (h *errorLog) Handle(_ context.Context, r slog.Record) error {
	msg := r.Message
	r.Attrs(func(a slog.Attr) bool {
		msg += " " + a.String()
		return true
	})
	h.mu.Lock()
	h.msgs = append(h.msgs, msg)
	h.mu.Unlock()
	return nil
}

func (h *errorLog) errors() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.msgs...)
}

// TestEveryBotLevel checks that a server bot of every kind and level plays
// its seats, each without failing.
func TestEveryBotLevel(t *testing.T) {
	logs := &errorLog{}
	ts := newTestServerLogged(t, testConfig(), nil, slog.New(logs))
	specs := []string{"random", "greedy", "strong", "1", "2", "3", "4", "5", "6", "7", "8", "level:3", "brs", "paranoid", "mcts", "strong?nodes=500"}
	for _, spec := range specs {
		g := ts.create(`{"seats": ["bot:` + spec + `", "bot:` + spec + `", "bot:` + spec + `", "bot:` + spec + `"]}`)
		c := ts.dial(g.ID, "", 0)
		moved := map[string]bool{}
		for len(moved) < 4 {
			e := c.next()
			if e.Kind == server.KindEnd {
				break
			}
			if e.Kind == server.KindAction && e.By == server.ByBot {
				moved[e.Seat] = true
			}
		}
		if len(moved) == 0 {
			t.Errorf("bot:%s: no move", spec)
		}
	}
	if msgs := logs.errors(); len(msgs) > 0 {
		t.Fatalf("errors logged: %s", strings.Join(msgs, "\n"))
	}
}
