package server_test

import (
	"crypto/ed25519"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
)

// invitedTable is a timed game whose creator holds South and whose West
// waits for a friend's claim; North and East are bots.
const invitedTable = `{"seats": ["human", "human", "bot:random", "bot:random"], "turn_ms": 300, "auto_pass": false}`

// TestStartWait checks that a timed game's clocks wait for its players:
// while West's invite is unclaimed, South's decision has no deadline and
// the state names West as expected, across a restart (on SQLite and on
// PostgreSQL) with the same end of the wait; West's claim starts South's
// clock with a clock event.
func TestStartWait(t *testing.T) {
	for _, c := range []struct {
		name string
		open func(t *testing.T) func() store.Store
	}{
		{"sqlite", func(t *testing.T) func() store.Store {
			path := t.TempDir() + "/games.db"
			return func() store.Store { return openStore(t, path) }
		}},
		{"postgres", func(t *testing.T) func() store.Store {
			url := pgtest.Schema(t)
			return func() store.Store {
				st, err := store.Open(t.Context(), url)
				if err != nil {
					t.Fatal(err)
				}
				return st
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			open := c.open(t)
			cfg := testConfig()
			cfg.StartWait = time.Minute
			ts := newTestServer(t, cfg, open())
			g := ts.create(invitedTable)
			st := ts.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return s.ToAct == "South" && len(s.Actions) > 0 })
			if st.Deadline != nil || !slices.Equal(st.Expected, []string{"West"}) || st.WaitUntil == nil {
				t.Fatalf("before West's claim: deadline %v, expected %v until %v; want no deadline, West expected", st.Deadline, st.Expected, st.WaitUntil)
			}
			if w := st.WaitUntil.Sub(st.Created); w < time.Minute-time.Second || w > time.Minute+5*time.Second {
				t.Fatalf("the wait ends %v after the game's creation, want about a minute", w)
			}
			south := ts.dial(g.ID, g.Seats[0].Token, 0)
			if south.hello.Deadline != nil || !slices.Equal(south.hello.Expected, []string{"West"}) {
				t.Fatalf("hello %+v: want no deadline and West expected", south.hello)
			}

			// A restart keeps the wait, and its end.
			waitUntil := *st.WaitUntil
			ts.stop()
			ts = newTestServer(t, cfg, open())
			st = ts.state(g.ID)
			if st.Deadline != nil || !slices.Equal(st.Expected, []string{"West"}) || st.WaitUntil == nil || !st.WaitUntil.Equal(waitUntil) {
				t.Fatalf("after a restart: deadline %v, expected %v until %v; want no deadline, West expected until %v", st.Deadline, st.Expected, st.WaitUntil, waitUntil)
			}

			south = ts.dial(g.ID, g.Seats[0].Token, st.Seq)
			ts.mustClaim(g.ID, "West", g.Seats[1].Invite)
			e := south.next()
			if e.Kind != server.KindClock || e.Reason != server.ReasonStart || e.Seat != "South" || e.Deadline == nil {
				t.Fatalf("after West's claim: %+v, want a clock event starting South's clock", e)
			}
			if d := e.Deadline.Sub(e.At); d != 300*time.Millisecond {
				t.Fatalf("South's clock starts with %v, want the table's 300ms", d)
			}
			if st := ts.state(g.ID); st.Expected != nil || st.WaitUntil != nil || st.Deadline == nil {
				t.Fatalf("after West's claim: state expects %v until %v, deadline %v", st.Expected, st.WaitUntil, st.Deadline)
			}
			// Now the clock runs: South is out of time.
			out := south.until(func(e server.Event) bool { return e.Kind == server.KindAction })
			if out.Seat != "South" || out.By != server.ByTimeout || out.UsedMS == nil || *out.UsedMS != 300 {
				t.Fatalf("%+v: want South's action by timeout after its 300ms", out)
			}
		})
	}
}

// TestStartWaitLapses checks that a seat nobody claims within the start
// wait goes to a bot, saying why, and that the clocks then start.
func TestStartWaitLapses(t *testing.T) {
	cfg := testConfig()
	cfg.StartWait = 300 * time.Millisecond
	ts := newTestServer(t, cfg, nil)
	g := ts.create(`{"seats": ["human", "human", "bot:random", "bot:random"], "turn_ms": 5000, "auto_pass": false, "takeover": "random"}`)
	south := ts.dial(g.ID, g.Seats[0].Token, 0)
	e := south.until(func(e server.Event) bool { return e.Kind == server.KindSeat })
	if e.Seat != "West" || e.Reason != server.ReasonUnclaimed || e.Player != "bot:random" {
		t.Fatalf("%+v: want West given to the takeover bot, unclaimed", e)
	}
	start := south.events[0]
	if start.WaitUntil == nil || e.At.Before(*start.WaitUntil) {
		t.Fatalf("West given at %v, before the wait's end %v", e.At, start.WaitUntil)
	}
	// South's first decision, open through the wait, has its clock now.
	if e.ToAct != "South" || e.Deadline == nil || e.Deadline.Sub(e.At) != 5*time.Second {
		t.Fatalf("after the wait: %+v; want South's decision with its 5s", e)
	}
	if st := ts.state(g.ID); st.Expected != nil || st.WaitUntil != nil || st.Seats[1].Player != "bot:random" || st.Deadline == nil {
		t.Fatalf("state after the wait: expected %v until %v, West %s, deadline %v", st.Expected, st.WaitUntil, st.Seats[1].Player, st.Deadline)
	}
}

// TestBank checks a bank with an increment and one with a delay against
// hand computations: each decision's deadline is its opening plus the
// bank (and the delay), and after it the bank is what the decision left
// plus the increment, or less only the time past the delay.
func TestBank(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	for _, c := range []struct {
		name       string
		body       string
		bank, plus int64 // the bank, and the increment or delay, in ms
		delay      bool
	}{
		{"increment", `{"seats": ["human", "bot:random", "bot:random", "bot:random"], "bank_ms": 60000, "increment_ms": 2000, "auto_pass": false}`, 60000, 2000, false},
		{"delay", `{"seats": ["human", "bot:random", "bot:random", "bot:random"], "bank_ms": 60000, "delay_ms": 2000, "auto_pass": false}`, 60000, 2000, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := ts.create(c.body)
			if g.Table.BankMS != c.bank || (c.delay && g.Table.DelayMS != c.plus) || (!c.delay && g.Table.IncrementMS != c.plus) {
				t.Fatalf("table %+v", g.Table)
			}
			south := ts.dial(g.ID, g.Seats[0].Token, 0)
			bank := c.bank
			// Up to three of South's decisions: the random bots may take
			// its king sooner, which ends a game of one person (not
			// before South's first decision, which is checked always).
			for move := range 3 {
				open := south.until(func(e server.Event) bool {
					return e.ToAct == "South" && len(e.Actions) > 0 || e.Kind == server.KindEnd
				})
				if open.Kind == server.KindEnd {
					if move == 0 {
						t.Fatal("the game ended before South's first decision")
					}
					break
				}
				if !slices.Equal(open.Banks, []int64{bank, c.bank, c.bank, c.bank}) {
					t.Fatalf("move %d: banks %v, want South's %d and the bots' untouched %d", move, open.Banks, bank, c.bank)
				}
				want := time.Duration(bank) * time.Millisecond
				if c.delay {
					want += time.Duration(c.plus) * time.Millisecond
				}
				if open.Deadline == nil || open.Deadline.Sub(open.At) != want {
					t.Fatalf("move %d: deadline %v after the decision opened, want %v", move, open.Deadline, want)
				}
				south.send(server.Message{Kind: "action", Action: open.Actions[0], Seq: open.Seq})
				act := south.until(func(e server.Event) bool { return e.Kind == server.KindAction && e.Seat == "South" })
				if act.UsedMS == nil || *act.UsedMS < 0 || act.At.Sub(open.At) != time.Duration(*act.UsedMS)*time.Millisecond {
					t.Fatalf("move %d: used %v, want the %v from the decision's opening to the action", move, act.UsedMS, act.At.Sub(open.At))
				}
				used := *act.UsedMS
				if c.delay {
					bank -= max(used-c.plus, 0)
				} else {
					bank = bank - used + c.plus
				}
				if act.Banks[0] != bank {
					t.Fatalf("move %d: %d ms used, bank %d, want %d", move, used, act.Banks[0], bank)
				}
			}
		})
	}
}

// TestBankRunsOut checks that a seat whose bank runs out gets what the
// table says: the server plays for it and its bank is then the
// increment alone, or a bot takes the seat.
func TestBankRunsOut(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	t.Run("pass", func(t *testing.T) {
		g := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "bank_ms": 300, "increment_ms": 100, "auto_pass": false}`)
		south := ts.dial(g.ID, g.Seats[0].Token, 0)
		out := south.until(func(e server.Event) bool { return e.Kind == server.KindAction && e.Seat == "South" })
		if out.By != server.ByTimeout || out.UsedMS == nil || *out.UsedMS != 300 || out.Banks[0] != 100 {
			t.Fatalf("%+v (used %v): want South's action by timeout after 300ms, its bank then the 100ms increment", out, out.UsedMS)
		}
		next := south.until(func(e server.Event) bool { return e.ToAct == "South" && len(e.Actions) > 0 })
		if next.Deadline == nil || next.Deadline.Sub(next.At) != 100*time.Millisecond {
			t.Fatalf("South's next decision may take %v, want its 100ms bank", next.Deadline.Sub(next.At))
		}
	})
	t.Run("bot", func(t *testing.T) {
		g := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "bank_ms": 300, "delay_ms": 100, "on_timeout": "bot", "takeover": "random", "auto_pass": false}`)
		south := ts.dial(g.ID, g.Seats[0].Token, 0)
		e := south.until(func(e server.Event) bool { return e.Kind == server.KindSeat })
		if e.Seat != "South" || e.Reason != server.ReasonTimeout || e.Banks[0] != 0 {
			t.Fatalf("%+v: want South given to a bot for its timeout, its bank spent", e)
		}
		if got := e.At.Sub(south.events[0].At); got < 400*time.Millisecond {
			t.Fatalf("South out of time %v after the start, before its bank and delay of 400ms", got)
		}
	})
}

// TestBadClock checks that a table's clock settings that cannot be are
// refused, naming what is wrong.
func TestBadClock(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	seats := `"seats": ["human", "bot:random", "bot:random", "bot:random"], `
	for _, c := range []struct{ body, says string }{
		{`"turn_ms": 1000, "bank_ms": 60000`, "not both"},
		{`"increment_ms": 1000`, "need a bank"},
		{`"bank_ms": 60000, "increment_ms": 1000, "delay_ms": 1000`, "an increment or a delay, not both"},
		{`"bank_ms": 1`, "bank_ms 1: want 0 (no bank) or 10 to"},
		{`"bank_ms": 60000, "delay_ms": -5`, "delay_ms -5"},
		{`"bank_ms": 60000, "increment_ms": 604800001`, "increment_ms 604800001"},
	} {
		status, body := ts.request("POST", "/api/games", "", "{"+seats+c.body+"}")
		wantError(t, status, body, http.StatusBadRequest, server.EINVALID)
		wantMessage(t, body, c.says)
	}
}

// TestBankRecord checks that the record of a finished game with a bank
// has its time control and each decision's time, that it is signed and
// verifies, and that its banks replay to those the events said.
func TestBankRecord(t *testing.T) {
	cfg := testConfig()
	_, cfg.SigningKey, _ = ed25519.GenerateKey(nil)
	ts := newTestServer(t, cfg, nil)
	g := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "bank_ms": 60000, "delay_ms": 1500, "auto_pass": false}`)
	south := ts.dial(g.ID, g.Seats[0].Token, 0)
	// Up to three of South's decisions (the random bots may take its
	// king sooner, which ends a game of one person), then its
	// resignation.
	over := false
	for i := 0; i < 3 && !over; i++ {
		open := south.until(func(e server.Event) bool {
			return e.ToAct == "South" && len(e.Actions) > 0 || e.Kind == server.KindEnd
		})
		if over = open.Kind == server.KindEnd; over {
			break
		}
		south.send(server.Message{Kind: "action", Action: open.Actions[len(open.Actions)-1], Seq: open.Seq})
		over = south.until(func(e server.Event) bool {
			return e.Kind == server.KindAction && e.Seat == "South" || e.Kind == server.KindEnd
		}).Kind == server.KindEnd
	}
	if !over {
		south.send(server.Message{Kind: server.KindResign})
		south.until(func(e server.Event) bool { return e.Kind == server.KindEnd })
	}

	r := checkRecord(t, ts, g.ID, nil)
	if _, err := r.Verify(cfg.SigningKey.Public().(ed25519.PublicKey)); err != nil {
		t.Fatalf("the signed record with times does not verify: %v", err)
	}
	if tc, _ := r.Tags.Get("TimeControl"); tc != "bank=60;delay=1.5" {
		t.Fatalf("TimeControl %q", tc)
	}
	// Every action's time, in order, as the events gave them.
	var used []int64
	var banks [][]int64
	for _, e := range south.events {
		if e.Kind == server.KindAction {
			used = append(used, *e.UsedMS)
			banks = append(banks, e.Banks)
		}
	}
	var got []int64
	for i, turn := range r.Turns {
		if len(r.Times[i]) != len(turn.Actions) {
			t.Fatalf("turn %d: %d actions, %d times", i+1, len(turn.Actions), len(r.Times[i]))
		}
		for _, d := range r.Times[i] {
			got = append(got, d.Milliseconds())
		}
	}
	if !slices.Equal(got, used) {
		t.Fatalf("record's times %v, the events' %v", got, used)
	}
	replayed, err := r.Banks()
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	for i, turn := range r.Turns {
		k += len(turn.Actions)
		for j, b := range replayed[i] {
			if b.Milliseconds() != banks[k-1][j] {
				t.Fatalf("after turn %d the record replays banks %v, the events said %v", i+1, replayed[i], banks[k-1])
			}
		}
	}
}

// TestBankOutageCredit checks that the time no server ran a game with a
// bank is given back: South's deadline passes while the server is down,
// and after the restart South still has its bank, less only the time the
// servers ran its decision.
func TestBankOutageCredit(t *testing.T) {
	path := t.TempDir() + "/games.db"
	cfg := testConfig()
	cfg.Heartbeat = 100 * time.Millisecond
	ts := newTestServer(t, cfg, openStore(t, path))
	g := ts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "bank_ms": 1000, "increment_ms": 500, "auto_pass": false}`)
	st := ts.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return s.ToAct == "South" && s.Deadline != nil })
	deadline := *st.Deadline
	ts.stop()
	time.Sleep(time.Until(deadline) + 200*time.Millisecond) // the deadline passes with no server
	ts = newTestServer(t, cfg, openStore(t, path))
	st = ts.state(g.ID)
	if st.Seq != 0 && st.Deadline == nil || !st.Deadline.After(deadline) {
		t.Fatalf("after the restart: deadline %v, before %v: want it moved on", st.Deadline, deadline)
	}
	status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[0].Token, `{"action": "`+st.Actions[0]+`"}`)
	if status != http.StatusOK {
		t.Fatalf("South acts after the restart: %d %s", status, body)
	}
	south := ts.dial(g.ID, g.Seats[0].Token, 0)
	act := south.until(func(e server.Event) bool { return e.Kind == server.KindAction && e.Seat == "South" })
	if act.By != server.ByPlayer || *act.UsedMS >= 1000 || act.Banks[0] != 1000-*act.UsedMS+500 {
		t.Fatalf("%+v, used %d ms: want South's own action, the downtime not counted, its bank 1000-used+500", act, *act.UsedMS)
	}
}
