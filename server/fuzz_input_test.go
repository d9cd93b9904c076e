package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/internal/strictjson"
	"github.com/chaturaji/chaturaji/server"
)

// tokenToAct returns the token of the seat to act in a game, "" if none.
func tokenToAct(g *server.Created, st *server.State) string {
	for _, s := range g.Seats {
		if s.Seat == st.ToAct {
			return s.Token
		}
	}
	return ""
}

// legalAction reports whether a body that was accepted named, as its
// action, one of the actions legal before it.
func legalAction(body []byte, before *server.State) bool {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return false
	}
	a, ok := m["action"].(string)
	return ok && slices.Contains(before.Actions, a)
}

// leaves reports whether a message is a resign, an abort or a leave the
// server would take: the fuzz tests leave those to TestResign, TestAbort
// and TestLeave, so that the game they share goes on.
func leaves(body []byte) bool {
	var m server.Message
	return strictjson.Decode(body, &m) == nil && (m.Kind == server.KindResign || m.Kind == server.KindAbort || m.Kind == server.KindLeave) && m.Action == "" && m.Seq == 0
}

// chats reports whether a message is of kind chat: FuzzChatMessage's.
func chats(body []byte) bool {
	var m server.Message
	return strictjson.Decode(body, &m) == nil && m.Kind == server.KindChat
}

// FuzzActionBody sends any body to POST .../actions for the seat to act:
// the server either plays the legal action the body names, or refuses
// with a JSON error and leaves the game as it was.
func FuzzActionBody(f *testing.F) {
	for _, s := range []string{
		`{"action": "pass"}`, `{"kind": "action", "action": "d1e1", "seq": 2}`, `{"action": "d2d3", "seq": -1}`,
		`{"ACTION": "pass"}`, `{"action": "h8h1", "action": "pass"}`, "{\"action\": \"pass\xff\"}", `{"action": "\ud800"}`,
		`{"action": null}`, `{"action": 5}`, `[]`, `{} {}`, `{"kind": "resign", "action": "pass"}`, `{"kind": "surrender"}`, `{"seq": 1e400}`, ``,
		`{"kind": "leave", "seq": 1}`, `{"kind": "leave", "action": "pass"}`, `{"kind": "Leave"}`,
	} {
		f.Add(s)
	}
	fts := newTestServer(f, testConfig(), nil)
	g := fts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "auto_pass": false}`)
	f.Fuzz(func(t *testing.T, body string) {
		ts := fts.with(t)
		before := ts.state(g.ID)
		if before.Status != "live" {
			t.Skip("the game is over")
		}
		if leaves([]byte(body)) {
			t.Skip("a resign, an abort or a leave: TestResign, TestAbort and TestLeave")
		}
		if chats([]byte(body)) {
			t.Skip("a chat message: FuzzChatMessage")
		}
		status, b := ts.request("POST", "/api/games/"+g.ID+"/actions", tokenToAct(g, before), body)
		after := ts.state(g.ID)
		if status == http.StatusOK {
			if !legalAction([]byte(body), before) || after.Seq <= before.Seq {
				t.Fatalf("body %q accepted (actions were %v); the game went from event %d to %d", body, before.Actions, before.Seq, after.Seq)
			}
			return
		}
		checkRefusal(t, status, b)
		sameState(t, before, after)
	})
}

// FuzzWebSocketMessage sends any message on the WebSocket of the seat to
// act: the server either plays the legal action it names, or answers with
// an error message and leaves the game as it was.
func FuzzWebSocketMessage(f *testing.F) {
	for _, s := range []string{
		`{"kind": "action", "action": "pass"}`, `{"kind": "action", "action": "d1e1", "seq": 2}`,
		`{"kind": "action", "action": "d2d3", "seq": -1}`, `{"Kind": "action", "action": "pass"}`,
		`{"kind": "action", "kind": "resign", "action": "pass"}`, `{"kind": "abort", "seq": 3}`, "{\"kind\": \"action\", \"action\": \"\xc3\"}",
		`{"action": "pass"}`, `{"kind": "hello"}`, `[]`, `null`, ``, `{"kind": "action", "action": "pass"} {}`,
		`{"kind": "leave", "seq": 4}`, `{"kind": "leave", "action": "d2d3"}`,
	} {
		f.Add([]byte(s))
	}
	fts := newTestServer(f, testConfig(), nil)
	g := fts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "auto_pass": false}`)
	f.Fuzz(func(t *testing.T, msg []byte) {
		ts := fts.with(t)
		before := ts.state(g.ID)
		if before.Status != "live" {
			t.Skip("the game is over")
		}
		if leaves(msg) {
			t.Skip("a resign, an abort or a leave: TestResign, TestAbort and TestLeave")
		}
		if chats(msg) {
			t.Skip("a chat message: FuzzChatMessage")
		}
		c := ts.dial(g.ID, tokenToAct(g, before), before.Seq)
		defer c.conn.CloseNow()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := c.conn.Write(ctx, websocket.MessageText, msg); err != nil {
			t.Fatal(err)
		}
		e := c.until(func(e server.Event) bool { return e.Kind == server.KindError || e.Seq > before.Seq })
		after := ts.state(g.ID)
		if e.Kind != server.KindError {
			if !legalAction(msg, before) || after.Seq <= before.Seq {
				t.Fatalf("message %q accepted (actions were %v): %+v", msg, before.Actions, e)
			}
			return
		}
		if e.Error == nil || e.Error.Code == "" || e.Error.Message == "" {
			t.Fatalf("message %q: error %+v without a code and a message", msg, e.Error)
		}
		sameState(t, before, after)
	})
}

// FuzzQuery sends any query string to the endpoints that read one: each
// answers or refuses with a JSON error, never fails.
func FuzzQuery(f *testing.F) {
	for _, q := range []string{
		"status=live", "status=finished&limit=500", "limit=0", "limit=501", "limit=-1", "limit=1e3", "status=LIVE",
		"after=0", "after=-1", "after=99999999999999999999", "after=3&after=4", "rules=chaturaji", "rules=chess",
		"status=%ff", "%zz", "", "limit=1&limit=2",
	} {
		for i := range 5 {
			f.Add(uint8(i), q)
		}
	}
	fts := newTestServer(f, testConfig(), nil)
	g := fts.create(`{"seats": ["human", "bot:random", "human", "bot:greedy"], "host_seats": ["South", "North"]}`)
	paths := []string{"/api/games", "/api/records", "/api/games/" + g.ID + "/events", "/api/games/" + g.ID + "/record", "/api/games/" + g.ID}
	f.Fuzz(func(t *testing.T, which uint8, query string) {
		ts := fts.with(t)
		if strings.ContainsFunc(query, func(r rune) bool { return r <= ' ' || r >= 0x7f || r == '#' }) {
			t.Skip("not a query a client could send: net/http refuses the request line")
		}
		u := ts.URL + paths[int(which)%len(paths)] + "?" + query
		if _, err := url.Parse(u); err != nil {
			t.Skip("not a URL a client could send")
		}
		req, err := http.NewRequest("GET", u, nil)
		if err != nil {
			t.Skip("not a URL a client could send")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Skip("not a URL a client could send")
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			checkRefusal(t, resp.StatusCode, b)
		}
	})
}
