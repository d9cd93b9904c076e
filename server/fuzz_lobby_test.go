package server_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/server"
)

// FuzzLobbyMessage sends any message on a lobby WebSocket: the server
// answers with what the message's kind asks for (a seek stored, a seek
// withdrawn, a table, a pair invitation) or with an error of a client's
// code and a message, and serves on.
func FuzzLobbyMessage(f *testing.F) {
	for _, s := range []string{
		`{"kind":"seek","pool":"chaturaji/15s/casual","bots":true,"bot_wait_ms":20000}`,
		`{"kind":"seek","pool":"chaturaji-teams/1d/rated"}`, `{"kind":"seek","pool":"chaturanga-2p/1m30s/casual","name":"Ñandú"}`,
		`{"kind":"seek","pool":"chaturaji/0s/casual"}`, `{"kind":"seek","pool":"chaturaji+ranks/15s/casual","bot_wait_ms":-5}`,
		`{"kind":"withdraw"}`, `{"kind":"leave"}`, `{"kind":"start"}`, `{"kind":"join","table":"abc","seat":"North"}`,
		`{"kind":"open","rules":"chaturaji","turn_ms":15000,"seat":"South","open":["West","North"],"min_rating":1000,"max_rating":2000}`,
		`{"kind":"open","turn_ms":15000,"seat":"South","open":["South"]}`, `{"kind":"open","turn_ms":1e300,"seat":"South","open":["West"]}`,
		`{"kind":"pair","pool":"chaturaji-teams/15s/casual","bots":true,"bot_wait_ms":1000,"name":"Ana"}`,
		`{"kind":"pair","pool":"chaturaji/15s/casual"}`, `{"kind":"partner","code":"ABC"}`, `{"kind":"partner"}`,
		`{"kind":"partner","code":"` + string(make([]byte, 300)) + `"}`,
		`{"kind":"seek","pool":"` + string(make([]byte, 300)) + `"}`, `{"kind":"seek","kind":"open"}`, `[]`, `null`, ``, "\xff",
	} {
		f.Add([]byte(s))
	}
	cfg := lobbyConfig()
	cfg.MessageRate, cfg.MessageBurst = 1e6, 1e6
	fts := newTestServer(f, cfg, nil)
	answers := []string{server.LobbySeeking, server.LobbyGone, server.LobbyAtTable, server.LobbySeated, server.LobbyInvited}
	f.Fuzz(func(t *testing.T, msg []byte) {
		ts := fts.with(t)
		c := ts.lobbyDial()
		defer c.conn.CloseNow()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := c.conn.Write(ctx, websocket.MessageText, msg); err != nil {
			t.Fatal(err)
		}
		for {
			e := c.next()
			if e.Kind == server.LobbyState {
				continue
			}
			if e.Kind == server.LobbyError {
				if e.Error == nil || e.Error.Message == "" || server.StatusCode(e.Error.Code) >= 500 && e.Error.Code != server.EUNAVAILABLE {
					t.Fatalf("message %q: error %+v, want a client's error with a message", msg, e.Error)
				}
				return
			}
			if slices.Contains(answers, e.Kind) {
				return
			}
			t.Fatalf("message %q: answer %+v", msg, e)
		}
	})
}
