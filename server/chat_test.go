package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/internal/strictjson"
	"github.com/chaturaji/chaturaji/server"
)

// chatTable is a game of two people, each holding a seat the creator
// took, and two bots that wait for them.
const chatTable = `{"seats": ["human", "human", "bot:random", "bot:random"], "host_seats": ["South", "West"], "auto_pass": false%s}`

// TestQuickMessages checks that a player's quick message reaches the other
// player and the spectators, naming its seat, that it is no event (not
// stored, not in the record) and that free text is refused at a table
// without chat.
func TestQuickMessages(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(strings.Replace(chatTable, "%s", "", 1))
	south := ts.dial(g.ID, g.Seats[0].Token, 0)
	west := ts.dial(g.ID, g.Seats[1].Token, 0)
	watcher := ts.dial(g.ID, "", 0)
	before := ts.state(g.ID)

	south.send(server.Message{Kind: server.KindChat, Say: "good-luck"})
	for _, c := range []*client{west, watcher, south} {
		e := c.until(func(e server.Event) bool { return e.Kind == server.KindChat })
		if e.Seq != 0 || e.Seat != "South" || e.Say != "good-luck" || e.Text != "Good luck" || e.At.IsZero() {
			t.Fatalf("chat message %+v: want South's good-luck, unnumbered", e)
		}
	}
	// Over HTTP too.
	status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[1].Token, `{"kind": "chat", "say": "thanks"}`)
	if status != http.StatusOK {
		t.Fatalf("chat over HTTP: %d %s", status, body)
	}
	if e := south.until(func(e server.Event) bool { return e.Kind == server.KindChat }); e.Seat != "West" || e.Say != "thanks" {
		t.Fatalf("%+v: want West's thanks", e)
	}
	sameState(t, before, ts.state(g.ID))
	status, body = ts.request("GET", "/api/games/"+g.ID+"/events", "", "")
	if status != http.StatusOK || strings.Contains(string(body), `"chat"`) {
		t.Fatalf("the stored events hold a chat message: %d %s", status, body)
	}

	for _, c := range []struct {
		name, msg, code string
	}{
		{"free text without chat", `{"kind": "chat", "text": "hello"}`, server.EFORBIDDEN},
		{"no such quick message", `{"kind": "chat", "say": "you-lose"}`, server.EINVALID},
		{"both say and text", `{"kind": "chat", "say": "thanks", "text": "hi"}`, server.EINVALID},
		{"neither", `{"kind": "chat"}`, server.EINVALID},
		{"with an action", `{"kind": "chat", "say": "thanks", "action": "pass"}`, server.EINVALID},
		{"say in an action", `{"kind": "action", "action": "pass", "say": "thanks"}`, server.EINVALID},
	} {
		south.sendRaw([]byte(c.msg))
		if e := south.wantErrorMsg(c.code); e.Error == nil {
			t.Fatalf("%s: no error", c.name)
		}
	}
	watcher.send(server.Message{Kind: server.KindChat, Say: "good-game"})
	watcher.wantErrorMsg(server.EUNAUTHORIZED)
	sameState(t, before, ts.state(g.ID))
	if r := ts.record(g.ID); strings.Contains(r.String(), "Good luck") {
		t.Fatalf("the record holds a chat message:\n%s", r)
	}
}

// TestChat checks free text at a table with chat on: it reaches the other
// player, bounded in length and printable, and every seat's messages go
// through the seat's rate.
func TestChat(t *testing.T) {
	cfg := testConfig()
	cfg.ChatEvery = time.Hour // no message comes back into the bucket during the test
	cfg.ChatBurst = 3
	cfg.MaxChatText = 20
	ts := newTestServer(t, cfg, nil)
	g := ts.create(strings.Replace(chatTable, "%s", `, "chat": true`, 1))
	if !g.Table.Chat {
		t.Fatalf("table %+v: want chat on", g.Table)
	}
	south := ts.dial(g.ID, g.Seats[0].Token, 0)
	west := ts.dial(g.ID, g.Seats[1].Token, 0)

	south.send(server.Message{Kind: server.KindChat, Text: "shall we?"})
	if e := west.until(func(e server.Event) bool { return e.Kind == server.KindChat }); e.Seat != "South" || e.Text != "shall we?" || e.Say != "" {
		t.Fatalf("%+v: want South's text", e)
	}
	for _, c := range []struct{ text, code string }{
		{strings.Repeat("x", 21), server.ETOOLARGE},
		{"bell\a", server.EINVALID},
		{"   ", server.EINVALID},
	} {
		south.send(server.Message{Kind: server.KindChat, Text: c.text})
		south.wantErrorMsg(c.code)
	}
	// South has sent one message of its three; refusals cost nothing.
	south.send(server.Message{Kind: server.KindChat, Say: "good-luck"})
	south.send(server.Message{Kind: server.KindChat, Say: "thanks"})
	south.send(server.Message{Kind: server.KindChat, Say: "good-game"})
	e := south.until(func(e server.Event) bool {
		return e.Kind == server.KindError || e.Kind == server.KindChat && e.Say == "good-game"
	})
	if e.Kind != server.KindError || e.Error.Code != server.ETOOMANY {
		t.Fatalf("South's fourth message: %+v, want refused as too many", e)
	}
	// West's bucket is its own.
	west.send(server.Message{Kind: server.KindChat, Say: "well-played"})
	if e := south.until(func(e server.Event) bool { return e.Kind == server.KindChat && e.Seat == "West" }); e.Say != "well-played" {
		t.Fatalf("%+v", e)
	}
}

// FuzzChatMessage sends any chat message on a player's WebSocket at a
// table with chat on: the server broadcasts what it says, a quick
// message or free text, or answers with an error; the game never moves.
func FuzzChatMessage(f *testing.F) {
	for _, s := range []string{
		`{"kind": "chat", "say": "good-luck"}`, `{"kind": "chat", "text": "hi"}`, `{"kind": "chat", "say": "x"}`,
		`{"kind": "chat", "text": "` + strings.Repeat("y", 300) + `"}`, "{\"kind\": \"chat\", \"text\": \"\xff\"}",
		`{"kind": "chat", "text": "\u0000"}`, `{"kind": "chat", "say": "thanks", "seq": 3}`, `{"kind": "chat", "text": ""}`,
	} {
		f.Add([]byte(s))
	}
	cfg := testConfig()
	cfg.ChatEvery = time.Millisecond
	cfg.ChatBurst = 1000000
	fts := newTestServer(f, cfg, nil)
	g := fts.create(strings.Replace(chatTable, "%s", `, "chat": true`, 1))
	f.Fuzz(func(t *testing.T, msg []byte) {
		ts := fts.with(t)
		var m server.Message
		if strictjson.Decode(msg, &m) != nil || m.Kind != server.KindChat {
			t.Skip("not a chat message: FuzzWebSocketMessage")
		}
		before := ts.state(g.ID)
		c := ts.dial(g.ID, g.Seats[0].Token, before.Seq)
		defer c.conn.CloseNow()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := c.conn.Write(ctx, websocket.MessageText, msg); err != nil {
			t.Fatal(err)
		}
		e := c.until(func(e server.Event) bool {
			return e.Kind == server.KindError || e.Kind == server.KindChat || e.Seq > before.Seq
		})
		switch e.Kind {
		case server.KindChat:
			want := m.Text
			if m.Say != "" {
				want = server.QuickMessages[m.Say]
			}
			if e.Seat != "South" || e.Say != m.Say || e.Text != want || want == "" || len(m.Text) > 200 {
				b, _ := json.Marshal(e)
				t.Fatalf("message %q broadcast as %s", msg, b)
			}
		case server.KindError:
			if e.Error == nil || e.Error.Code == "" || e.Error.Message == "" {
				t.Fatalf("message %q: error %+v without a code and a message", msg, e.Error)
			}
		default:
			t.Fatalf("message %q moved the game: %+v", msg, e)
		}
		sameState(t, before, ts.state(g.ID))
	})
}
