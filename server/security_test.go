package server_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/server"
)

// table is a fresh game of four human seats with South to act, and a
// client for South, West and a spectator.
type table struct {
	ts                     *testServer
	game                   *server.Created
	tokens                 map[string]string
	south, west, spectator *client
}

func newTable(t *testing.T, ts *testServer) *table {
	t.Helper()
	g := ts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "auto_pass": false}`)
	tb := &table{ts: ts, game: g, tokens: map[string]string{}}
	for _, s := range g.Seats {
		tb.tokens[s.Seat] = s.Token
	}
	tb.south = ts.dial(g.ID, tb.tokens["South"], 0)
	tb.west = ts.dial(g.ID, tb.tokens["West"], 0)
	tb.spectator = ts.dial(g.ID, "", 0)
	st := ts.state(g.ID)
	if st.ToAct != "South" || len(st.Actions) == 0 {
		t.Fatalf("new game: %+v", st)
	}
	return tb
}

// TestRejected checks that every bad request or message is refused with a
// clear error and changes nothing.
func TestRejected(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	other := ts.create(fourHumans)
	for _, c := range []struct {
		name string
		try  func(t *testing.T, tb *table)
	}{
		{"move out of turn over WebSocket", func(t *testing.T, tb *table) {
			st := ts.state(tb.game.ID)
			tb.west.send(server.Message{Kind: "action", Action: st.Actions[0]})
			tb.west.wantErrorMsg(server.ECONFLICT)
		}},
		{"move out of turn over HTTP", func(t *testing.T, tb *table) {
			st := ts.state(tb.game.ID)
			status, body := ts.request("POST", "/api/games/"+tb.game.ID+"/actions", tb.tokens["West"], `{"action": "`+st.Actions[0]+`"}`)
			wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
		}},
		{"illegal move over WebSocket", func(t *testing.T, tb *table) {
			tb.south.send(server.Message{Kind: "action", Action: "a1a5"})
			e := tb.south.wantErrorMsg(server.EINVALID)
			if e.Echo != "a1a5" || !strings.Contains(e.Error.Message, "illegal action a1a5") {
				t.Fatalf("error %+v", e)
			}
		}},
		{"illegal move over HTTP", func(t *testing.T, tb *table) {
			status, body := ts.request("POST", "/api/games/"+tb.game.ID+"/actions", tb.tokens["South"], `{"action": "h8h1"}`)
			wantError(t, status, body, http.StatusBadRequest, server.EINVALID)
		}},
		{"malformed action", func(t *testing.T, tb *table) {
			tb.south.send(server.Message{Kind: "action", Action: "zz9"})
			tb.south.wantErrorMsg(server.EINVALID)
		}},
		{"stale event number", func(t *testing.T, tb *table) {
			st := ts.state(tb.game.ID)
			tb.south.send(server.Message{Kind: "action", Action: st.Actions[0], Seq: st.Seq - 1})
			tb.south.wantErrorMsg(server.ECONFLICT)
		}},
		{"event number from the future", func(t *testing.T, tb *table) {
			st := ts.state(tb.game.ID)
			status, body := ts.request("POST", "/api/games/"+tb.game.ID+"/actions", tb.tokens["South"], `{"action": "`+st.Actions[0]+`", "seq": `+itoa(st.Seq+5)+`}`)
			wantError(t, status, body, http.StatusBadRequest, server.EINVALID)
		}},
		{"spectator cannot act", func(t *testing.T, tb *table) {
			st := ts.state(tb.game.ID)
			tb.spectator.send(server.Message{Kind: "action", Action: st.Actions[0]})
			tb.spectator.wantErrorMsg(server.EUNAUTHORIZED)
		}},
		{"forged token over HTTP", func(t *testing.T, tb *table) {
			st := ts.state(tb.game.ID)
			status, body := ts.request("POST", "/api/games/"+tb.game.ID+"/actions", "AAAAAAAAAAAAAAAAAAAAAA", `{"action": "`+st.Actions[0]+`"}`)
			wantError(t, status, body, http.StatusUnauthorized, server.EUNAUTHORIZED)
		}},
		{"token of another game", func(t *testing.T, tb *table) {
			st := ts.state(tb.game.ID)
			status, body := ts.request("POST", "/api/games/"+tb.game.ID+"/actions", other.Seats[0].Token, `{"action": "`+st.Actions[0]+`"}`)
			wantError(t, status, body, http.StatusUnauthorized, server.EUNAUTHORIZED)
		}},
		{"no token over HTTP", func(t *testing.T, tb *table) {
			st := ts.state(tb.game.ID)
			status, body := ts.request("POST", "/api/games/"+tb.game.ID+"/actions", "", `{"action": "`+st.Actions[0]+`"}`)
			wantError(t, status, body, http.StatusUnauthorized, server.EUNAUTHORIZED)
		}},
		{"forged token on a WebSocket", func(t *testing.T, tb *table) {
			_, err := ts.tryDial(tb.game.ID, "AAAAAAAAAAAAAAAAAAAAAA", 0, nil)
			if de := (*dialError)(nil); !errors.As(err, &de) || de.status != http.StatusUnauthorized {
				t.Fatalf("dial with a forged token: %v, want status 401", err)
			}
		}},
		{"oversized message", func(t *testing.T, tb *table) {
			c := ts.dial(tb.game.ID, tb.tokens["South"], 0)
			c.sendRaw([]byte(`{"kind": "action", "action": "` + strings.Repeat("x", 5000) + `"}`))
			c.wantErrorMsg(server.ETOOLARGE)
			if s := c.closed(); s != websocket.StatusMessageTooBig {
				t.Fatalf("closed with %v, want %v", s, websocket.StatusMessageTooBig)
			}
		}},
		{"message over the library's hard limit", func(t *testing.T, tb *table) {
			c := ts.dial(tb.game.ID, tb.tokens["South"], 0)
			c.sendRaw([]byte(strings.Repeat("x", 1<<20)))
			if s := c.closed(); s != websocket.StatusMessageTooBig {
				t.Fatalf("closed with %v, want %v", s, websocket.StatusMessageTooBig)
			}
		}},
		{"malformed JSON message", func(t *testing.T, tb *table) {
			tb.south.sendRaw([]byte(`{"kind": "action", "action": `))
			tb.south.wantErrorMsg(server.EINVALID)
		}},
		{"unknown message kind", func(t *testing.T, tb *table) {
			tb.south.send(map[string]string{"kind": "surrender"})
			tb.south.wantErrorMsg(server.EINVALID)
		}},
		{"wrong content type", func(t *testing.T, tb *table) {
			st := ts.state(tb.game.ID)
			status, body := ts.request("POST", "/api/games/"+tb.game.ID+"/actions", tb.tokens["South"], `{"action": "`+st.Actions[0]+`"}`,
				"Content-Type", "text/plain")
			wantError(t, status, body, http.StatusBadRequest, server.EINVALID)
		}},
		{"body too large", func(t *testing.T, tb *table) {
			status, body := ts.request("POST", "/api/games/"+tb.game.ID+"/actions", tb.tokens["South"], `{"action": "`+strings.Repeat("x", 10000)+`"}`)
			wantError(t, status, body, http.StatusRequestEntityTooLarge, server.ETOOLARGE)
		}},
		{"body too large and not JSON", func(t *testing.T, tb *table) {
			status, body := ts.request("POST", "/api/games/"+tb.game.ID+"/actions", tb.tokens["South"], strings.Repeat("x", 10000))
			wantError(t, status, body, http.StatusRequestEntityTooLarge, server.ETOOLARGE)
		}},
		{"game creation too large", func(t *testing.T, tb *table) {
			status, body := ts.request("POST", "/api/games", "", `{"seats": [`+strings.Repeat(`"human", `, 2000)+`"human"]}`)
			wantError(t, status, body, http.StatusRequestEntityTooLarge, server.ETOOLARGE)
		}},
		{"unknown field in a WebSocket message", func(t *testing.T, tb *table) {
			st := ts.state(tb.game.ID)
			tb.south.sendRaw([]byte(`{"kind": "action", "action": "` + st.Actions[0] + `", "seat": "West"}`))
			tb.south.wantErrorMsg(server.EINVALID)
		}},
		{"two JSON values in a WebSocket message", func(t *testing.T, tb *table) {
			st := ts.state(tb.game.ID)
			tb.south.sendRaw([]byte(`{"kind": "action", "action": "` + st.Actions[0] + `"} {}`))
			tb.south.wantErrorMsg(server.EINVALID)
		}},
		{"unknown field", func(t *testing.T, tb *table) {
			status, body := ts.request("POST", "/api/games/"+tb.game.ID+"/actions", tb.tokens["South"], `{"move": "d2d3"}`)
			wantError(t, status, body, http.StatusBadRequest, server.EINVALID)
		}},
		{"cross-origin action from a browser", func(t *testing.T, tb *table) {
			st := ts.state(tb.game.ID)
			status, body := ts.request("POST", "/api/games/"+tb.game.ID+"/actions", tb.tokens["South"], `{"action": "`+st.Actions[0]+`"}`,
				"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
			wantError(t, status, body, http.StatusForbidden, server.EFORBIDDEN)
		}},
		{"cross-origin game creation from a browser", func(t *testing.T, tb *table) {
			status, body := ts.request("POST", "/api/games", "", fourHumans, "Origin", "https://evil.example")
			wantError(t, status, body, http.StatusForbidden, server.EFORBIDDEN)
		}},
		{"cross-origin WebSocket", func(t *testing.T, tb *table) {
			_, err := ts.tryDial(tb.game.ID, tb.tokens["South"], 0, http.Header{"Origin": {"https://evil.example"}})
			if de := (*dialError)(nil); !errors.As(err, &de) || de.status != http.StatusForbidden {
				t.Fatalf("dial from another origin: %v, want status 403", err)
			}
		}},
		{"events after the last", func(t *testing.T, tb *table) {
			u := "ws" + strings.TrimPrefix(ts.URL, "http") + "/api/games/" + tb.game.ID + "/ws?after=1000"
			conn, _, err := websocket.Dial(t.Context(), u, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.CloseNow()
			_, data, err := conn.Read(t.Context())
			if err != nil || !strings.Contains(string(data), `"code":"EINVALID"`) {
				t.Fatalf("first message %s, %v; want an EINVALID error", data, err)
			}
			if _, _, err := conn.Read(t.Context()); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
				t.Fatalf("then %v, want close status 1008", err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t, ts)
			before := ts.state(tb.game.ID)
			c.try(t, tb)
			sameState(t, before, ts.state(tb.game.ID))
		})
	}
}

// TestBadRequests checks the answers to requests that name no game or ask
// for an impossible one.
func TestBadRequests(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	live := ts.create(fourHumans)
	for _, c := range []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"GET", "/api/games/nosuchgame", "", 404, server.ENOTFOUND},
		{"GET", "/api/games/BAD%20ID", "", 404, server.ENOTFOUND},
		{"GET", "/api/games/nosuchgame/record", "", 404, server.ENOTFOUND},
		{"GET", "/api/games/nosuchgame/ws", "", 404, server.ENOTFOUND},
		{"GET", "/api/nothing", "", 404, server.ENOTFOUND},
		{"GET", "/api/games/" + live.ID + "/ws", "", 400, server.EINVALID},
		{"GET", "/api/games/x/events?after=-1", "", 400, server.EINVALID},
		{"POST", "/api/games", `{"seats": ["human", "human", "human"]}`, 400, server.EINVALID},
		{"POST", "/api/games", `{"rules": "chess", "seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"]}`, 400, server.EINVALID},
		{"POST", "/api/games", `{"seats": ["human", "bot:genius", "human", "human"]}`, 400, server.EINVALID},
		{"POST", "/api/games", `{"seats": ["human", "robot", "human", "human"]}`, 400, server.EINVALID},
		{"POST", "/api/games", `{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "turn_ms": 1}`, 400, server.EINVALID},
		{"POST", "/api/games", `{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "on_timeout": "resign"}`, 400, server.EINVALID},
		{"POST", "/api/games", `{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "names": ["a\u0007"]}`, 400, server.EINVALID},
		{"POST", "/api/games", `{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"]} {}`, 400, server.EINVALID},
		{"POST", "/api/games", `[]`, 400, server.EINVALID},
	} {
		status, body := ts.request(c.method, c.path, "", c.body)
		t.Run(c.method+" "+c.path+" "+c.body, func(t *testing.T) {
			wantError(t, status, body, c.status, c.code)
		})
	}
}

// TestFlood checks that a client sending too many messages gets errors,
// then is disconnected, and that nothing changes.
func TestFlood(t *testing.T) {
	cfg := testConfig()
	cfg.MessageRate, cfg.MessageBurst = 5, 5
	ts := newTestServer(t, cfg, nil)
	tb := newTable(t, ts)
	before := ts.state(tb.game.ID)
	c := ts.dial(tb.game.ID, tb.tokens["West"], 0)
	for range 100 {
		if err := c.conn.Write(t.Context(), websocket.MessageText, []byte(`{"kind": "action", "action": "`+before.Actions[0]+`"}`)); err != nil {
			break
		}
	}
	c.until(func(e server.Event) bool { return e.Error != nil && e.Error.Code == server.ETOOMANY })
	if s := c.closed(); s != websocket.StatusPolicyViolation {
		t.Fatalf("closed with %v, want %v", s, websocket.StatusPolicyViolation)
	}
	sameState(t, before, ts.state(tb.game.ID))
}

// TestRequestFlood checks the per-address limit of HTTP requests.
func TestRequestFlood(t *testing.T) {
	cfg := testConfig()
	cfg.RequestRate, cfg.RequestBurst = 1, 10
	ts := newTestServer(t, cfg, nil)
	limited := 0
	for range 30 {
		status, body := ts.request("GET", "/api/games", "", "")
		if status == http.StatusTooManyRequests {
			wantError(t, status, body, http.StatusTooManyRequests, server.ETOOMANY)
			limited++
		}
	}
	if limited < 15 {
		t.Fatalf("%d of 30 requests limited, want at least 15", limited)
	}
}

// TestConnectionLimit checks the cap on WebSockets open from one address:
// one over it is refused with a JSON ETOOMANY, and a connection closed
// makes room.
func TestConnectionLimit(t *testing.T) {
	cfg := testConfig()
	cfg.MaxConnsPerAddr = 3
	ts := newTestServer(t, cfg, nil)
	g := ts.create(fourHumans)
	var open []*client
	for range 3 {
		open = append(open, ts.dial(g.ID, "", 0))
	}
	_, err := ts.tryDial(g.ID, "", 0, nil)
	if de := (*dialError)(nil); !errors.As(err, &de) || de.status != http.StatusTooManyRequests {
		t.Fatalf("a fourth WebSocket: %v, want status 429", err)
	}
	status, body := ts.request("GET", "/api/games/"+g.ID+"/ws", "", "",
		"Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Version", "13", "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	wantError(t, status, body, http.StatusTooManyRequests, server.ETOOMANY)
	open[0].conn.Close(websocket.StatusNormalClosure, "")
	open[0].closed()
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		c, err := ts.tryDial(g.ID, "", 0, nil)
		if err == nil {
			c.conn.CloseNow()
			break
		}
		if time.Now().After(end) {
			t.Fatalf("no room after a connection closed: %v", err)
		}
	}
}
