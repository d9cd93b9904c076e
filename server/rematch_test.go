package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/server"
)

// follower is a WebSocket that stays open after the game's end for its
// rematch (?rematch=1), with every message kept as it came.
type follower struct {
	t    *testing.T
	conn *websocket.Conn
	msgs chan []byte
	err  error
	done chan struct{}
}

// follow opens a WebSocket that stays for the rematch.
func (ts *testServer) follow(t *testing.T, id, token string) *follower {
	t.Helper()
	u := "ws" + strings.TrimPrefix(ts.URL, "http") + "/api/games/" + id + "/ws?rematch=1"
	if token != "" {
		u += "&token=" + token
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &follower{t: t, conn: conn, msgs: make(chan []byte, 4096), done: make(chan struct{})}
	t.Cleanup(func() { conn.CloseNow() })
	go func() {
		defer close(f.done)
		for {
			_, data, err := conn.Read(context.Background())
			if err != nil {
				f.err = err
				return
			}
			f.msgs <- data
		}
	}()
	return f
}

// next returns the next message, raw.
func (f *follower) next() []byte {
	f.t.Helper()
	select {
	case m := <-f.msgs:
		return m
	case <-f.done:
		f.t.Fatalf("the connection closed: %v", f.err)
	case <-time.After(10 * time.Second):
		f.t.Fatal("no message in 10s")
	}
	return nil
}

// until reads messages until one of the given kind, and returns it raw.
func (f *follower) until(kind string) []byte {
	f.t.Helper()
	for {
		m := f.next()
		var e struct{ Kind string }
		json.Unmarshal(m, &e)
		if e.Kind == kind {
			return m
		}
	}
}

// rematch reads messages until a rematch offer in the given state.
func (f *follower) rematch(status string) *server.Rematch {
	f.t.Helper()
	for {
		var m struct {
			Kind    string
			Rematch *server.Rematch
		}
		raw := f.until(server.KindRematch)
		if err := json.Unmarshal(raw, &m); err != nil || m.Rematch == nil {
			f.t.Fatalf("rematch message %s: %v", raw, err)
		}
		if m.Rematch.Token != "" || m.Rematch.You != "" || m.Rematch.Seat != "" {
			f.t.Fatalf("a rematch message every follower sees shows a player's own: %s", raw)
		}
		if m.Rematch.Status == status {
			return m.Rematch
		}
	}
}

// quiet checks that no message comes for a while and the connection
// stays open.
func (f *follower) quiet(d time.Duration) {
	f.t.Helper()
	select {
	case m := <-f.msgs:
		f.t.Fatalf("unexpected message %s", m)
	case <-f.done:
		f.t.Fatalf("the connection closed: %v", f.err)
	case <-time.After(d):
	}
}

// answer posts a rematch request with a token, and returns the status
// and the answer.
func (ts *testServer) answer(id, token, body string) (int, *server.Rematch, []byte) {
	ts.t.Helper()
	status, b := ts.request("POST", "/api/games/"+id+"/rematch", token, body)
	var r server.Rematch
	if status == http.StatusOK {
		if err := json.Unmarshal(b, &r); err != nil {
			ts.t.Fatalf("rematch answer %s: %v", b, err)
		}
	}
	return status, &r, b
}

// rematchOf reads a rematch offer as token's holder sees it.
func (ts *testServer) rematchOf(id, token string) (int, *server.Rematch) {
	ts.t.Helper()
	status, b := ts.request("GET", "/api/games/"+id+"/rematch", token, "")
	var r server.Rematch
	if status == http.StatusOK {
		json.Unmarshal(b, &r)
	}
	return status, &r
}

// abort ends a game in its first round.
func (ts *testServer) abort(id, token string) {
	ts.t.Helper()
	if status, body := ts.request("POST", "/api/games/"+id+"/actions", token, `{"kind": "abort"}`); status != http.StatusOK {
		ts.t.Fatalf("abort: %d %s", status, body)
	}
	ts.waitState(id, 5*time.Second, func(s *server.State) bool { return s.Status == "finished" })
}

// TestRematch checks a rematch between two friends as both see it, and a
// spectator: the offer and the answers come to every follower live; the
// spectator cannot offer or answer; once both accepted the new game has
// the same table and each player in their own seat, and each receives
// its new token, alone, over its own authenticated request.
func TestRematch(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(`{"seats": ["human", "human", "bot:random", "bot:greedy"], "names": ["ann", "bob", "", "gus"], "turn_ms": 60000, "takeover": "random", "help": false, "auto_pass": false}`)
	south, west := g.Seats[0].Token, ts.mustClaim(g.ID, "West", g.Seats[1].Invite)
	status, _, body := ts.answer(g.ID, south, `{"answer": "offer"}`)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
	wantMessage(t, body, "the game is not over")

	fs, fw, spec := ts.follow(t, g.ID, south), ts.follow(t, g.ID, west), ts.follow(t, g.ID, "")
	ts.abort(g.ID, south)
	for _, f := range []*follower{fs, fw, spec} {
		f.until(server.KindEnd)
		f.quiet(200 * time.Millisecond) // open after the end, and nothing offered yet
	}
	if status, _ := ts.rematchOf(g.ID, ""); status != http.StatusNotFound {
		t.Errorf("GET rematch before any offer: %d, want 404", status)
	}
	for _, c := range []struct{ token, body string }{{"", `{"answer": "offer"}`}, {"", `{"answer": "accept"}`}, {"AAAAAAAAAAAAAAAAAAAAAA", `{"answer": "offer"}`}} {
		status, _, body := ts.answer(g.ID, c.token, c.body)
		wantError(t, status, body, http.StatusUnauthorized, server.EUNAUTHORIZED)
	}
	for _, bad := range []string{`{"answer": "maybe"}`, `{"answer": "accept", "rotate": true}`, `{}`} {
		status, _, body := ts.answer(g.ID, west, bad)
		wantError(t, status, body, http.StatusBadRequest, server.EINVALID)
	}
	status, _, body = ts.answer(g.ID, west, `{"answer": "accept"}`)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)

	// West offers; everyone sees it.
	status, offer, body := ts.answer(g.ID, west, `{"answer": "offer"}`)
	if status != http.StatusOK || offer.Status != server.RematchOpen || offer.By != "West" || offer.You != "West" || offer.Expires == nil {
		t.Fatalf("offer: %d %s", status, body)
	}
	for _, f := range []*follower{fs, fw, spec} {
		r := f.rematch(server.RematchOpen)
		if r.By != "West" || len(r.Seats) != 2 || r.Seats[0] != (server.RematchSeat{Seat: "South", Answer: "waiting"}) || r.Seats[1] != (server.RematchSeat{Seat: "West", Answer: "offered"}) {
			t.Fatalf("the offer as followers see it: %+v", r)
		}
	}
	for _, c := range []struct {
		token, body, says string
	}{
		{west, `{"answer": "offer"}`, "West offered a rematch already"},
		{south, `{"answer": "start"}`, "only West, who offered the rematch, may start it"},
		{west, `{"answer": "start"}`, "nobody has accepted the rematch yet"},
		{west, `{"answer": "accept"}`, "West answered the offer already: offered"},
	} {
		status, _, body := ts.answer(g.ID, c.token, c.body)
		wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
		wantMessage(t, body, c.says)
	}

	// South accepts: the new game is created.
	status, mine, body := ts.answer(g.ID, south, `{"answer": "accept"}`)
	if status != http.StatusOK || mine.Status != server.RematchCreated || mine.New == "" || mine.You != "South" || mine.Seat != "South" || mine.Token == "" {
		t.Fatalf("South's accept: %d %s", status, body)
	}
	for _, f := range []*follower{fs, fw, spec} {
		r := f.rematch(server.RematchCreated)
		if r.New != mine.New {
			t.Fatalf("followers hear of game %s, South's answer says %s", r.New, mine.New)
		}
	}
	status, theirs := ts.rematchOf(g.ID, west)
	if status != http.StatusOK || theirs.Seat != "West" || theirs.Token == "" || theirs.Token == mine.Token || theirs.New != mine.New {
		t.Fatalf("West's view of the rematch: %d %+v", status, theirs)
	}
	if status, pub := ts.rematchOf(g.ID, ""); status != http.StatusOK || pub.Token != "" || pub.Seats[0].To != "South" || pub.Seats[1].To != "West" {
		t.Fatalf("the spectator's view of the rematch: %d %+v", status, pub)
	}
	for _, raw := range [][]byte{body} {
		if bytes.Contains(raw, []byte(theirs.Token)) {
			t.Fatalf("South's answer shows West's new token")
		}
	}

	st := ts.state(mine.New)
	want := []server.SeatInfo{{Seat: "South", Player: "human", Name: "ann"}, {Seat: "West", Player: "human", Name: "bob"}, {Seat: "North", Player: "bot:random"}, {Seat: "East", Player: "bot:greedy", Name: "gus"}}
	for i, s := range st.Seats {
		s.Online, s.Invited = nil, false
		if s != want[i] {
			t.Errorf("the rematch's seat %d: %+v, want %+v", i, s, want[i])
		}
	}
	if st.Table.TurnMS != 60000 || st.Table.Takeover != "random" || st.Table.Help || st.Table.AutoPass || st.Rules != "chaturaji" {
		t.Errorf("the rematch's table %+v (%s), want the first game's", st.Table, st.Rules)
	}
	for seat, token := range map[string]string{"South": mine.Token, "West": theirs.Token} {
		if c := ts.dial(mine.New, token, 0); c.hello.Seat != seat {
			t.Errorf("the new token of %s opens %q", seat, c.hello.Seat)
		}
	}
	status, _, body = ts.answer(g.ID, west, `{"answer": "decline"}`)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
	status, _, body = ts.answer(g.ID, west, `{"answer": "offer"}`)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
	wantMessage(t, body, "the rematch was created already: game "+mine.New)
}

// TestRematchSeats checks who plays where in a rematch: with rotate every
// player moves one seat on; a player who declines leaves the seat to the
// table's takeover bot; a player whose seat a bot took (resigned) takes
// no part; alone, a player's offer makes the game at once.
func TestRematchSeats(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(`{"seats": ["human", "human", "human", "human"], "names": ["ann", "bob", "cy", "di"], "takeover": "random", "auto_pass": false}`)
	tokens := []string{g.Seats[0].Token}
	for _, s := range g.Seats[1:] {
		tokens = append(tokens, ts.mustClaim(g.ID, s.Seat, s.Invite))
	}
	if status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", tokens[3], `{"kind": "resign"}`); status != http.StatusOK {
		t.Fatalf("East's resign: %d %s", status, body)
	}
	ts.abort(g.ID, tokens[0])
	status, _, body := ts.answer(g.ID, tokens[3], `{"answer": "offer"}`)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
	wantMessage(t, body, "seat East left the game (bot:random played it at the end)")

	if status, _, body := ts.answer(g.ID, tokens[0], `{"answer": "offer", "rotate": true}`); status != http.StatusOK {
		t.Fatalf("offer: %d %s", status, body)
	}
	if status, _, body := ts.answer(g.ID, tokens[1], `{"answer": "decline"}`); status != http.StatusOK {
		t.Fatalf("West's decline: %d %s", status, body)
	}
	status, r, body := ts.answer(g.ID, tokens[2], `{"answer": "accept"}`)
	if status != http.StatusOK || r.Status != server.RematchCreated || r.Seat != "East" {
		t.Fatalf("North's accept: %d %s", status, body)
	}
	st := ts.state(r.New)
	got := ""
	for _, s := range st.Seats {
		got += s.Seat + ":" + s.Player + ":" + s.Name + " "
	}
	// South's ann to West, West's bob (declined) leaves North to the bot,
	// North's cy to East, East's bot to South.
	if want := "South:bot:random: West:human:ann North:bot:random: East:human:cy "; got != want {
		t.Errorf("rotated rematch: %s, want %s", got, want)
	}

	// Every other player declines: no game.
	g2 := ts.create(`{"seats": ["human", "human", "bot:1", "bot:1"]}`)
	west := ts.mustClaim(g2.ID, "West", g2.Seats[1].Invite)
	ts.abort(g2.ID, west)
	ts.answer(g2.ID, west, `{"answer": "offer"}`)
	status, r, _ = ts.answer(g2.ID, g2.Seats[0].Token, `{"answer": "decline"}`)
	if status != http.StatusOK || r.Status != server.RematchDeclined || r.New != "" {
		t.Fatalf("declined by all: %d %+v", status, r)
	}
	// A new offer may follow a declined one.
	if status, r, body := ts.answer(g2.ID, g2.Seats[0].Token, `{"answer": "offer"}`); status != http.StatusOK || r.Status != server.RematchOpen {
		t.Fatalf("a new offer: %d %s", status, body)
	}

	// Alone against bots: the offer is the new game.
	g3 := ts.create(`{"seats": ["human", "bot:1", "bot:1", "bot:1"]}`)
	ts.abort(g3.ID, g3.Seats[0].Token)
	status, r, body = ts.answer(g3.ID, g3.Seats[0].Token, `{"answer": "offer"}`)
	if status != http.StatusOK || r.Status != server.RematchCreated || r.Token == "" || r.Seat != "South" {
		t.Fatalf("a lone player's offer: %d %s", status, body)
	}
}

// TestRematchSeatTaken claims the seats held from the start, of a game
// and of its rematch: each refusal names who holds the seat, the creator
// of the first, the returning player of the rematch (whom no creator
// made).
func TestRematchSeatTaken(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(`{"seats": ["human", "bot:1", "bot:1", "bot:1"], "auto_pass": false}`)
	status, body := ts.request("POST", "/api/games/"+g.ID+"/claim", "", `{"seat": "South", "invite": "x"}`)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
	wantMessage(t, body, "seat South is taken: the game's creator holds it")

	ts.abort(g.ID, g.Seats[0].Token)
	status, r, body := ts.answer(g.ID, g.Seats[0].Token, `{"answer": "offer"}`)
	if status != http.StatusOK || r.Status != server.RematchCreated {
		t.Fatalf("the offer: %d %s", status, body)
	}
	status, body = ts.request("POST", "/api/games/"+r.New+"/claim", "", `{"seat": "South", "invite": "x"}`)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
	wantMessage(t, body, "seat South is taken: this game is the rematch of game "+g.ID+", and its player there, who came back, holds it")
}

// TestRematchExpires checks that an offer nobody settles lapses for every
// follower, that a follower who comes after the end hears of the offer as
// it stands, and that the followers are closed, to reconnect, when the
// server stops.
func TestRematchExpires(t *testing.T) {
	cfg := testConfig()
	cfg.RematchWait = 2 * time.Second // long enough for the late follower to come in time on a loaded machine
	ts := newTestServer(t, cfg, nil)
	g := ts.create(`{"seats": ["human", "human", "bot:1", "bot:1"]}`)
	west := ts.mustClaim(g.ID, "West", g.Seats[1].Invite)
	ts.abort(g.ID, west)
	ts.answer(g.ID, west, `{"answer": "offer"}`)
	late := ts.follow(t, g.ID, "")
	late.until(server.KindEnd)
	if r := late.rematch(server.RematchOpen); r.By != "West" {
		t.Fatalf("a late follower hears %+v", r)
	}
	late.rematch(server.RematchExpired)
	status, _, body := ts.answer(g.ID, g.Seats[0].Token, `{"answer": "accept"}`)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)

	// Without ?rematch=1 the WebSocket of a finished game closes, as ever.
	c := ts.dial(g.ID, "", 0)
	if s := c.closed(); s != websocket.StatusNormalClosure {
		t.Fatalf("a plain WebSocket of a finished game closed with %v, want 1000", s)
	}
	ts.stop()
	select {
	case <-late.done:
		if websocket.CloseStatus(late.err) != websocket.StatusGoingAway {
			t.Fatalf("a follower closed with %v at the server's stop, want 1001", late.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a follower still open after the server stopped")
	}
}
