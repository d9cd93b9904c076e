package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/server"
)

// TestDowntimeNotCharged kills the real binary with SIGKILL while a
// human's timed decision is open, its deadline a couple of seconds away,
// keeps it down for 3s and starts it again: the seat is not timed out at
// once, no bot takes it, the deadline has moved on by the time the server
// was down (which the seat's holder hears of, in a clock event and the
// hello), and the holder's action is taken.
func TestDowntimeNotCharged(t *testing.T) {
	bin := buildBinary(t)
	db := "sqlite:" + filepath.Join(t.TempDir(), "games.db")
	addr := freeAddr(t)
	base := "http://" + addr
	srv := startBinary(t, bin, addr, db)
	g := createFor(t, base, `{"seats": ["human", "bot:random", "bot:random", "bot:random"], "turn_ms": 5000, "on_timeout": "bot"}`)
	st := waitFor(t, base, g.ID, func(s *server.State) bool { return s.ToAct == "South" && s.Deadline != nil })
	before := *st.Deadline
	time.Sleep(time.Until(before) - 2500*time.Millisecond)
	killed := time.Now()
	srv.kill(t)
	left := before.Sub(killed)
	time.Sleep(3 * time.Second)
	restarted := time.Now()
	srv = startBinary(t, bin, addr, db)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	u := "ws://" + addr + "/api/games/" + g.ID + "/ws?after=" + strconv.FormatInt(st.Seq, 10) + "&token=" + g.Seats[0].Token
	conn, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	read := func() server.Event {
		t.Helper()
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var e server.Event
		if err := json.Unmarshal(data, &e); err != nil {
			t.Fatal(err)
		}
		return e
	}
	hello := read()
	if hello.Kind != server.KindHello || hello.ToAct != "South" || hello.Deadline == nil || len(hello.Actions) == 0 {
		t.Fatalf("after the restart: %+v; want South still to act, with a deadline", hello)
	}
	// The time from the last heartbeat (at most a second before the kill)
	// to the game's resumption is given back.
	given := hello.Deadline.Sub(before)
	if down := restarted.Sub(killed); given < down || given > time.Since(killed)+time.Second {
		t.Errorf("the deadline moved on by %v; the server was down %v, and South had %v left", given, down, left)
	}
	clock := read()
	if clock.Kind != server.KindClock || clock.Seat != "South" || clock.Deadline == nil || !clock.Deadline.Equal(*hello.Deadline) || clock.Seq != st.Seq+1 {
		t.Fatalf("the event after the restart: %+v; want a clock event with South's new deadline %v", clock, hello.Deadline)
	}
	msg, _ := json.Marshal(server.Message{Kind: "action", Action: hello.Actions[0], Seq: clock.Seq})
	if err := conn.Write(ctx, websocket.MessageText, msg); err != nil {
		t.Fatal(err)
	}
	e := read()
	if e.Kind != server.KindAction || e.Seat != "South" || e.By != server.ByPlayer || e.Action != hello.Actions[0] {
		t.Fatalf("South's action after the restart: %+v", e)
	}
	if s := getState(t, base, g.ID); s.Seats[0].Player != server.Human {
		t.Errorf("South is played by %s", s.Seats[0].Player)
	}
}
