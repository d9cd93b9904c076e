package server_test

import (
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
	"github.com/coder/websocket"
)

// TestIdleLimit connects a seat holder to an untimed game and never acts:
// after the server's idle limit the seat goes to the table's takeover bot,
// as an abandoned seat does, and the game goes on.
func TestIdleLimit(t *testing.T) {
	cfg := testConfig()
	cfg.IdleLimit = 300 * time.Millisecond
	ts := newTestServer(t, cfg, nil)
	g := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "takeover": "random"}`)
	south := ts.dial(g.ID, g.Seats[0].Token, 0)
	e := south.until(func(e server.Event) bool { return e.Kind == server.KindSeat })
	if e.Seat != "South" || e.Reason != server.ReasonIdle || e.Player != "bot:random" {
		t.Fatalf("seat event %+v, want South to bot:random, idle", e)
	}
	// Events are stamped to the millisecond.
	opened := south.events[len(south.events)-2]
	if idle := e.At.Sub(opened.At); opened.ToAct != "South" || idle < cfg.IdleLimit-time.Millisecond {
		t.Fatalf("the seat was taken %v after event %d opened %s's decision; the idle limit is %v", idle, opened.Seq, opened.ToAct, cfg.IdleLimit)
	}
	// The bot plays South's next action, unless South can only pass (a
	// forced pass is the server's, by auto) or loses its king first, and
	// the random bots end the game before South moves again.
	south.until(func(e server.Event) bool {
		return e.Kind == server.KindAction && e.Seat == "South" && e.By == server.ByBot || e.Kind == server.KindEnd
	})
	if st := ts.state(g.ID); st.Seats[0].Player != "bot:random" {
		t.Fatalf("South is played by %s", st.Seats[0].Player)
	}
	if _, ok := ts.record(g.ID).Tags.Get("Takeover"); !ok {
		t.Errorf("the record has no Takeover tag:\n%s", ts.record(g.ID))
	}

	// A timed table goes by its turn time: a connected holder who does
	// not act runs out of time, and the idle limit takes no seat.
	timed := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "turn_ms": 2000, "on_timeout": "pass"}`)
	holder := ts.dial(timed.ID, timed.Seats[0].Token, 0)
	e = holder.until(func(e server.Event) bool { return e.Kind == server.KindSeat || e.By == server.ByTimeout })
	if e.Kind != server.KindAction || e.Seat != "South" {
		t.Fatalf("event %+v, want South out of time", e)
	}
}

// TestIdleLimitFromReturn disconnects a seat holder at its decision in an
// untimed game and reconnects once the decision has been open longer than
// the idle limit, within the table's grace: the idle limit counts from the
// return, so the holder has all of it to act before a bot takes the seat.
func TestIdleLimitFromReturn(t *testing.T) {
	cfg := testConfig()
	cfg.IdleLimit = time.Second
	ts := newTestServer(t, cfg, nil)
	g := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "abandon_ms": 10000, "takeover": "random"}`)
	south := ts.dial(g.ID, g.Seats[0].Token, 0)
	opened := south.until(func(e server.Event) bool { return e.ToAct == "South" && len(e.Actions) > 0 })
	south.conn.Close(websocket.StatusNormalClosure, "away")
	ts.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return s.Seats[0].Online != nil && !*s.Seats[0].Online })

	// Away for longer than the idle limit, well within the grace.
	time.Sleep(time.Until(opened.At.Add(cfg.IdleLimit + 100*time.Millisecond)))
	back := time.Now()
	south = ts.dial(g.ID, g.Seats[0].Token, opened.Seq)
	e := south.until(func(e server.Event) bool {
		return e.Kind == server.KindSeat || e.Kind == server.KindAction && e.Seat == "South"
	})
	if e.Kind != server.KindSeat || e.Seat != "South" || e.Reason != server.ReasonIdle {
		t.Fatalf("event %+v, want a bot to take South's seat as idle", e)
	}
	// Events are stamped to the millisecond.
	if idle := e.At.Sub(back); idle < cfg.IdleLimit-time.Millisecond {
		t.Fatalf("the seat was taken %v after South came back to its decision (open for %v); the idle limit is %v", idle, back.Sub(opened.At), cfg.IdleLimit)
	}
}
