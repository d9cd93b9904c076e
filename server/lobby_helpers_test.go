package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/server"
)

// lobbyClient is a client of the lobby's WebSocket.
type lobbyClient struct {
	t     testing.TB
	conn  *websocket.Conn
	msgs  chan server.LobbyEvent
	err   error
	hello server.LobbyEvent
}

// lobbyConfig is testConfig with the lobby's rounds and views frequent.
func lobbyConfig() server.Config {
	cfg := testConfig()
	cfg.LobbyRound = 50 * time.Millisecond
	cfg.LobbyView = 50 * time.Millisecond
	cfg.MaxLobbyConnsPerClient = 100
	return cfg
}

// lobbyDial opens the lobby's WebSocket and reads its hello.
func (ts *testServer) lobbyDial() *lobbyClient {
	ts.t.Helper()
	c, err := ts.tryLobbyDial(nil)
	if err != nil {
		ts.t.Fatal(err)
	}
	return c
}

func (ts *testServer) tryLobbyDial(header http.Header) (*lobbyClient, error) {
	u := "ws" + strings.TrimPrefix(ts.URL, "http") + "/api/lobby/ws"
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		if resp != nil {
			return nil, &dialError{resp.StatusCode, err}
		}
		return nil, err
	}
	conn.SetReadLimit(1 << 20)
	c := &lobbyClient{t: ts.t, conn: conn, msgs: make(chan server.LobbyEvent, 4096)}
	go c.read()
	ts.t.Cleanup(func() { conn.CloseNow() })
	c.hello = c.next()
	if c.hello.Kind != server.LobbyHello {
		ts.t.Fatalf("first lobby message %+v, want hello", c.hello)
	}
	return c, nil
}

func (c *lobbyClient) read() {
	defer close(c.msgs)
	for {
		_, data, err := c.conn.Read(context.Background())
		if err != nil {
			c.err = err
			return
		}
		var e server.LobbyEvent
		if err := json.Unmarshal(data, &e); err != nil {
			c.t.Errorf("lobby message %q: %v", data, err)
			continue
		}
		c.msgs <- e
	}
}

// next returns the next message; it fails the test if none comes within
// 10 s.
func (c *lobbyClient) next() server.LobbyEvent {
	c.t.Helper()
	e, err := c.recv(10 * time.Second)
	if err != nil {
		c.t.Fatal(err)
	}
	return e
}

func (c *lobbyClient) recv(wait time.Duration) (server.LobbyEvent, error) {
	select {
	case e, ok := <-c.msgs:
		if !ok {
			return e, fmt.Errorf("lobby connection closed: %w", c.err)
		}
		return e, nil
	case <-time.After(wait):
		return server.LobbyEvent{}, errors.New("no lobby message in time")
	}
}

// until returns the first message of one of the kinds given, skipping
// the lobby's views and any other; it fails the test on an error message
// unless "error" is one of the kinds.
func (c *lobbyClient) until(kinds ...string) server.LobbyEvent {
	c.t.Helper()
	for {
		e := c.next()
		for _, k := range kinds {
			if e.Kind == k {
				return e
			}
		}
		if e.Kind == server.LobbyError {
			c.t.Fatalf("lobby error %+v, waiting for %v", e.Error, kinds)
		}
	}
}

// send sends a message.
func (c *lobbyClient) send(v any) {
	c.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.conn.Write(context.Background(), websocket.MessageText, data); err != nil {
		c.t.Fatal(err)
	}
}

// wantError reads up to the next error message and fails the test unless
// it has the code given and echoes kind.
func (c *lobbyClient) wantError(code, kind, saying string) {
	c.t.Helper()
	e := c.until(server.LobbyError)
	if e.Error == nil || e.Error.Code != code || e.Echo != kind || !strings.Contains(e.Error.Message, saying) {
		c.t.Fatalf("lobby error %+v (echo %q), want %s echoing %q saying %q", e.Error, e.Echo, code, kind, saying)
	}
}

// lobbyView reads GET /api/lobby.
func (ts *testServer) lobbyView() *server.LobbyView {
	ts.t.Helper()
	status, body := ts.request("GET", "/api/lobby", "", "")
	if status != http.StatusOK {
		ts.t.Fatalf("GET /api/lobby: %d %s", status, body)
	}
	var v server.LobbyView
	if err := json.Unmarshal(body, &v); err != nil {
		ts.t.Fatal(err)
	}
	return &v
}

// waitLobby waits until the lobby's view satisfies ok, for up to 10 s.
func (ts *testServer) waitLobby(what string, ok func(*server.LobbyView) bool) *server.LobbyView {
	ts.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		v := ts.lobbyView()
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			ts.t.Fatalf("the lobby never showed %s: %+v", what, v)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// seekersIn returns the names of the seekers the view lists in pool.
func seekersIn(v *server.LobbyView, pool string) []string {
	var names []string
	for _, p := range v.Pools {
		if p.Pool == pool {
			for _, s := range p.Seekers {
				names = append(names, s.Name)
			}
		}
	}
	return names
}
