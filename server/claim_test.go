package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/chaturaji/chaturaji/server"
)

// claim posts a claim and returns the status and body.
func (ts *testServer) claim(id, seat, invite string) (int, []byte) {
	ts.t.Helper()
	b, _ := json.Marshal(server.Claim{Seat: seat, Invite: invite})
	return ts.request("POST", "/api/games/"+id+"/claim", "", string(b))
}

// mustClaim claims a seat and returns its token.
func (ts *testServer) mustClaim(id, seat, invite string) string {
	ts.t.Helper()
	status, body := ts.claim(id, seat, invite)
	if status != http.StatusOK {
		ts.t.Fatalf("claim of %s: %d %s", seat, status, body)
	}
	var c server.Claimed
	if err := json.Unmarshal(body, &c); err != nil || c.Token == "" || c.Seat != seat || c.Game != id {
		ts.t.Fatalf("claim of %s answers %s (%v)", seat, body, err)
	}
	return c.Token
}

// wantMessage checks that an error's message says what it should.
func wantMessage(t testing.TB, body []byte, want string) {
	t.Helper()
	var e struct {
		Error server.Error `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil || !strings.Contains(e.Error.Message, want) {
		t.Errorf("error %s, want one saying %q", body, want)
	}
}

// TestSeatsBelongToPeople checks that the creator of a game gets the token
// of its own seat alone and an invite for every other human seat; that
// neither the creator's token nor the invite acts for the friend's seat;
// that the invite's claim gives the token to the claimer, once; and that
// the claim survives a restart.
func TestSeatsBelongToPeople(t *testing.T) {
	path := t.TempDir() + "/games.db"
	ts := newTestServer(t, testConfig(), openStore(t, path))
	g := ts.create(`{"seats": ["human", "human", "bot:greedy", "bot:greedy"], "names": ["ann", "bob"], "turn_ms": 2000, "auto_pass": false}`)
	south, west := g.Seats[0], g.Seats[1]
	if south.Token == "" || south.Invite != "" || west.Token != "" || west.Invite == "" {
		t.Fatalf("the creator got South %+v and West %+v; want South's token and West's invite only", south, west)
	}
	st := ts.state(g.ID)
	if st.Seats[0].Invited || !st.Seats[1].Invited {
		t.Fatalf("state seats %+v: want West waiting for its invite, South not", st.Seats)
	}

	// The invite opens no seat: it is not a token.
	status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", west.Invite, `{"action": "pass"}`)
	wantError(t, status, body, http.StatusUnauthorized, server.EUNAUTHORIZED)
	if _, err := ts.tryDial(g.ID, west.Invite, 0, nil); err == nil {
		t.Fatal("a WebSocket opened with the invite as a token")
	}

	// South moves (its clock waits for West's player: no deadline): the
	// turn is West's, and South's holder cannot play it.
	host := ts.dial(g.ID, south.Token, 0)
	first := host.until(func(e server.Event) bool { return e.ToAct == "South" && len(e.Actions) > 0 })
	if first.Deadline != nil {
		t.Fatalf("South's first decision has a deadline (%v) while West's player is still expected", first.Deadline)
	}
	if status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", south.Token, `{"action": "`+first.Actions[0]+`"}`); status != http.StatusOK {
		t.Fatalf("South's move: %d %s", status, body)
	}
	turn := host.until(func(e server.Event) bool { return e.ToAct == "West" && len(e.Actions) > 0 })
	status, body = ts.request("POST", "/api/games/"+g.ID+"/actions", south.Token, `{"action": "`+turn.Actions[0]+`"}`)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
	wantMessage(t, body, "not your turn: West is to act")

	// Claims that are refused change nothing.
	for _, c := range []struct {
		seat, invite string
		status       int
		code, says   string
	}{
		{"West", "AAAAAAAAAAAAAAAAAAAAAA", 401, server.EUNAUTHORIZED, "does not open seat West"},
		{"West", "", 401, server.EUNAUTHORIZED, "needs the seat's invite"},
		{"Nowhere", west.Invite, 400, server.EINVALID, `seat "Nowhere"`},
		{"South", west.Invite, 409, server.ECONFLICT, "seat South is taken: the game's creator holds it"},
		{"North", west.Invite, 409, server.ECONFLICT, "seat North is played by bot:greedy"},
	} {
		status, body := ts.claim(g.ID, c.seat, c.invite)
		wantError(t, status, body, c.status, c.code)
		wantMessage(t, body, c.says)
	}
	status, body = ts.claim("nosuchgame", "West", west.Invite)
	wantError(t, status, body, http.StatusNotFound, server.ENOTFOUND)

	// Two friends claim the seat at once: one gets it.
	tokens := make(chan string, 2)
	refusals := make(chan []byte, 2)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			status, body := ts.claim(g.ID, "West", west.Invite)
			if status == http.StatusOK {
				var c server.Claimed
				json.Unmarshal(body, &c)
				tokens <- c.Token
				return
			}
			wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
			refusals <- body
		})
	}
	wg.Wait()
	if len(tokens) != 1 || len(refusals) != 1 {
		t.Fatalf("%d claims of one invite succeeded, %d were refused; want one of each", len(tokens), len(refusals))
	}
	wantMessage(t, <-refusals, "seat West is taken: its invite was claimed already")
	friend := <-tokens
	if st := ts.state(g.ID); st.Seats[1].Invited {
		t.Errorf("West still waits for its invite after the claim")
	}
	c := ts.dial(g.ID, friend, 0)
	if c.hello.Seat != "West" {
		t.Fatalf("the claimed token opens %q, want West", c.hello.Seat)
	}
	c.conn.CloseNow()
	host.conn.CloseNow()

	// After a restart the claim holds: the token acts, the invite is spent.
	ts.stop()
	ts2 := newTestServer(t, testConfig(), openStore(t, path))
	status, body = ts2.claim(g.ID, "West", west.Invite)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
	if c := ts2.dial(g.ID, friend, 0); c.hello.Seat != "West" {
		t.Fatalf("after a restart the claimed token opens %q, want West", c.hello.Seat)
	}
}

// TestNewInvite checks that the creator, and only the creator, issues a
// new invite for a seat nobody claimed, and that the old one then opens
// nothing.
func TestNewInvite(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(`{"seats": ["human", "human", "human", "bot:greedy"], "host_seats": ["West"]}`)
	host, south, north := g.Seats[1].Token, g.Seats[0].Invite, g.Seats[2].Invite
	if host == "" || south == "" || north == "" || g.Seats[0].Token != "" {
		t.Fatalf("seats %+v: want West's token, South's and North's invites", g.Seats)
	}
	friend := ts.mustClaim(g.ID, "North", north)

	reissue := func(token, seat string) (int, []byte) {
		return ts.request("POST", "/api/games/"+g.ID+"/invites", token, `{"seat": "`+seat+`"}`)
	}
	for _, c := range []struct {
		token, seat string
		status      int
		code, says  string
	}{
		{"", "South", 401, server.EUNAUTHORIZED, "needs the token of a seat the game's creator holds"},
		{friend, "South", 401, server.EUNAUTHORIZED, "only the game's creator issues invites"},
		{south, "South", 401, server.EUNAUTHORIZED, "only the game's creator issues invites"},
		{host, "North", 409, server.ECONFLICT, "seat North is taken: its invite was claimed already"},
		{host, "East", 409, server.ECONFLICT, "played by bot:greedy"},
		{host, "Up", 400, server.EINVALID, `seat "Up"`},
	} {
		status, body := reissue(c.token, c.seat)
		wantError(t, status, body, c.status, c.code)
		wantMessage(t, body, c.says)
	}
	status, body := reissue(host, "South")
	if status != http.StatusOK {
		t.Fatalf("new invite: %d %s", status, body)
	}
	var inv server.Invited
	if err := json.Unmarshal(body, &inv); err != nil || inv.Invite == "" || inv.Invite == south || inv.Seat != "South" {
		t.Fatalf("new invite answers %s (%v)", body, err)
	}
	status, body = ts.claim(g.ID, "South", south)
	wantError(t, status, body, http.StatusUnauthorized, server.EUNAUTHORIZED)
	wantMessage(t, body, "the creator issued a new one")
	token := ts.mustClaim(g.ID, "South", inv.Invite)
	if c := ts.dial(g.ID, token, 0); c.hello.Seat != "South" {
		t.Fatalf("the token of the new invite opens %q, want South", c.hello.Seat)
	}
}

// TestHostSeats checks the creator's choice of seats: by default the
// first human one; every human seat (pass and play); none; and the
// choices refused.
func TestHostSeats(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	for _, c := range []struct {
		body   string
		tokens string // per seat: t a token, i an invite, - neither
	}{
		{`{"seats": ["bot:greedy", "human", "human", "human"]}`, "-tii"},
		{`{"seats": ["human", "human", "human", "human"], "host_seats": ["East", "South", "North", "West"]}`, "tttt"},
		{`{"seats": ["human", "human", "human", "human"], "host_seats": []}`, "iiii"},
		{`{"seats": ["human", "bot:1", "bot:1", "bot:1"]}`, "t---"},
		{`{"rules": "chaturanga-2p", "seats": ["human", "human"], "host_seats": ["North"]}`, "it"},
	} {
		g := ts.create(c.body)
		got := ""
		for _, s := range g.Seats {
			switch {
			case s.Token != "" && s.Invite == "":
				got += "t"
			case s.Invite != "" && s.Token == "":
				got += "i"
			case s.Invite == "" && s.Token == "":
				got += "-"
			default:
				got += "?"
			}
		}
		if got != c.tokens {
			t.Errorf("%s: seats %s, want %s", c.body, got, c.tokens)
		}
	}
	for _, c := range []struct{ body, says string }{
		{`{"seats": ["human", "human", "bot:1", "bot:1"], "host_seats": ["Up"]}`, `host_seats: no seat "Up"`},
		{`{"seats": ["human", "human", "bot:1", "bot:1"], "host_seats": ["North"]}`, "host_seats: North is played by bot:1"},
		{`{"seats": ["human", "human", "bot:1", "bot:1"], "host_seats": ["West", "West"]}`, "host_seats: West named twice"},
		{`{"seats": ["human", "human", "bot:1", "bot:1"], "host_seats": "South"}`, "host_seats"},
	} {
		status, body := ts.request("POST", "/api/games", "", c.body)
		wantError(t, status, body, http.StatusBadRequest, server.EINVALID)
		wantMessage(t, body, c.says)
	}
	if games := ts.list("?limit=500"); len(games) != 5 {
		t.Errorf("%d games, want the 5 created: a refused creation made one", len(games))
	}
}

// list lists games.
func (ts *testServer) list(query string) []server.Summary {
	ts.t.Helper()
	status, body := ts.request("GET", "/api/games"+query, "", "")
	var l server.List
	if status != http.StatusOK || json.Unmarshal(body, &l) != nil {
		ts.t.Fatalf("list: %d %s", status, body)
	}
	return l.Games
}
