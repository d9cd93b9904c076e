package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// firstAction is one of the actions open to the seat to act in a state,
// other than retiring (which would leave the game) where it can.
func firstAction(t *testing.T, st *server.State) string {
	t.Helper()
	for _, a := range st.Actions {
		if a != "retire" {
			return a
		}
	}
	t.Fatalf("no action but retiring open to %s in %+v", st.ToAct, st)
	return ""
}

func TestAccountSeats(t *testing.T) {
	accountStores(t, testConfig(), func(t *testing.T, ts *testServer) {
		phone, laptop, bala := newDevice(ts), newDevice(ts), newDevice(ts)
		phone.signUp("Asha", "correct horse")
		laptop.signIn("Asha", "correct horse")
		bala.signUp("Bala", "correct horse")

		// Asha creates a game of four people; Bala claims West with its invite.
		var g server.Created
		json.Unmarshal(phone.want(http.StatusCreated, "POST", "/api/games", `{"seats": ["human", "human", "bot:random", "bot:random"], "auto_pass": true}`), &g)
		if g.Seats[0].Token == "" {
			t.Fatalf("a signed-in creator gets no token: %+v", g.Seats[0])
		}
		bala.want(http.StatusOK, "POST", "/api/games/"+g.ID+"/claim", `{"seat": "West", "invite": "`+g.Seats[1].Invite+`"}`)
		st := ts.state(g.ID)
		if st.Seats[0].Name != "Asha" || !st.Seats[0].Account || st.Seats[1].Name != "Bala" || !st.Seats[1].Account || st.Seats[2].Account {
			t.Fatalf("seats %+v: want South Asha's and West Bala's, as accounts", st.Seats)
		}
		if b := ts.mustGet("/api/games/" + g.ID); json.Valid(b) && containsAny(string(b), phone.accountID(), bala.accountID()) {
			t.Fatalf("the game's state shows an account's id: %s", b)
		}

		// Asha's laptop acts for South without the token; a guest cannot;
		// Bala's account cannot act for South.
		holders := map[string]*device{"South": laptop, "West": bala}
		st = awaitTurn(t, ts, g.ID, "South", holders)
		act := `{"action": "` + firstAction(t, st) + `"}`
		resp, b := newDevice(ts).do("POST", "/api/games/"+g.ID+"/actions", act)
		wantCode(t, "a guest's action without a token", resp.StatusCode, b, http.StatusUnauthorized, server.EUNAUTHORIZED)
		resp, b = bala.do("POST", "/api/games/"+g.ID+"/actions?seat=South", act)
		wantCode(t, "another account's seat", resp.StatusCode, b, http.StatusUnauthorized, server.EUNAUTHORIZED)
		resp, b = bala.do("POST", "/api/games/"+g.ID+"/actions", act)
		wantCode(t, "out of turn", resp.StatusCode, b, http.StatusConflict, server.ECONFLICT)
		laptop.want(http.StatusOK, "POST", "/api/games/"+g.ID+"/actions", act)

		// Bala acts for West over a WebSocket opened with the cookie alone.
		h := http.Header{"Cookie": {server.SessionCookie + "=" + bala.session()}}
		ws, err := ts.tryDial(g.ID, "", 0, h)
		if err != nil {
			t.Fatal(err)
		}
		if ws.hello.Seat != "West" {
			t.Fatalf("Bala's WebSocket holds seat %q, want West", ws.hello.Seat)
		}
		st = awaitTurn(t, ts, g.ID, "West", holders)
		ws.send(server.Message{Kind: "action", Action: firstAction(t, st), Seq: st.Seq})
		ws.until(func(e server.Event) bool {
			return e.Kind == server.KindAction && e.Seat == "West" && e.By == server.ByPlayer
		})

		// The seat's token works as always, signed in or not.
		st = awaitTurn(t, ts, g.ID, "South", holders)
		status, b := ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[0].Token, `{"action": "`+firstAction(t, st)+`"}`)
		if status != http.StatusOK {
			t.Fatalf("South's token: %d %s", status, b)
		}

		// A guest's game: the token, as ever.
		// Without auto_pass the first decision is always South's: with it,
		// South may pass by the server until the bots take its king.
		guest := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "auto_pass": false}`)
		if s := ts.state(guest.ID).Seats[0]; s.Account || s.Name != "" {
			t.Fatalf("a guest's seat: %+v", s)
		}
		st = ts.waitState(guest.ID, waitLong, func(s *server.State) bool { return s.ToAct == "South" })
		if status, b := ts.request("POST", "/api/games/"+guest.ID+"/actions", guest.Seats[0].Token, `{"action": "`+firstAction(t, st)+`"}`); status != http.StatusOK {
			t.Fatalf("a guest's token: %d %s", status, b)
		}
		resp, b = phone.do("POST", "/api/games/"+guest.ID+"/actions", `{"action": "pass"}`)
		wantCode(t, "an account acting in a guest's game", resp.StatusCode, b, http.StatusUnauthorized, server.EUNAUTHORIZED)
	})
}

func TestAccountSeveralSeats(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	d := newDevice(ts)
	d.signUp("Asha", "correct horse")
	var g server.Created
	json.Unmarshal(d.want(http.StatusCreated, "POST", "/api/games", `{"seats": ["human", "bot:random", "human", "bot:random"], "host_seats": ["South", "North"], "auto_pass": false}`), &g)
	st := ts.waitState(g.ID, waitLong, func(s *server.State) bool { return s.ToAct == "South" })
	act := `{"action": "` + firstAction(t, st) + `"}`
	for _, c := range []struct {
		query  string
		status int
		code   string
	}{
		{"", http.StatusBadRequest, server.EINVALID},
		{"?seat=West", http.StatusUnauthorized, server.EUNAUTHORIZED},
		{"?seat=Nowhere", http.StatusBadRequest, server.EINVALID},
		{"?seat=North", http.StatusConflict, server.ECONFLICT},
	} {
		resp, b := d.do("POST", "/api/games/"+g.ID+"/actions"+c.query, act)
		wantCode(t, "acting with "+c.query, resp.StatusCode, b, c.status, c.code)
	}
	d.want(http.StatusOK, "POST", "/api/games/"+g.ID+"/actions?seat=South", act)
	status, b := ts.request("POST", "/api/games/"+g.ID+"/actions?seat=South", "", act)
	wantCode(t, "?seat= without a session", status, b, http.StatusUnauthorized, server.EUNAUTHORIZED)
}

// awaitTurn waits until seat is to act in game id, the other seats of
// people playing their turns by their holders' devices (with the account's
// session, no token), and returns the state.
func awaitTurn(t *testing.T, ts *testServer, id, seat string, holders map[string]*device) *server.State {
	t.Helper()
	for {
		st := ts.waitState(id, waitLong, func(s *server.State) bool { return s.ToAct == seat || holders[s.ToAct] != nil })
		if st.ToAct == seat {
			return st
		}
		// Answered 200, or 409 if the server played a forced pass first.
		resp, b := holders[st.ToAct].do("POST", "/api/games/"+id+"/actions", `{"action": "`+firstAction(t, st)+`", "seq": `+itoa(st.Seq)+`}`)
		if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusConflict {
			t.Fatalf("%s's holder acting: %d %s", st.ToAct, resp.StatusCode, b)
		}
	}
}

// waitLong bounds a wait for the bots' moves, on a loaded machine.
const waitLong = 30 * time.Second

// containsAny reports whether s holds one of the words.
func containsAny(s string, words ...string) bool {
	for _, w := range words {
		if w != "" && strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// accountID is the id of the device's account, from its export.
func (d *device) accountID() string {
	d.t.Helper()
	var data struct{ Account struct{ ID string } }
	if err := json.Unmarshal(d.want(http.StatusOK, "GET", "/api/account/export", ""), &data); err != nil || data.Account.ID == "" {
		d.t.Fatalf("no account id in the export (%v)", err)
	}
	return data.Account.ID
}
