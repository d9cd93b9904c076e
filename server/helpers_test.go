package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
	_ "github.com/chaturaji/chaturaji/store/sqlite"
)

// testConfig is a server configuration for tests: short times, fast bots.
func testConfig() server.Config {
	return server.Config{
		BotTime: 20 * time.Millisecond,
		// The tests play many games of bots and want them over soon.
		BotDelay:     server.NoBotDelay,
		MessageRate:  1000,
		MessageBurst: 1000,
		RequestRate:  10000,
		RequestBurst: 10000,
		CostlyRate:   10000,
		CostlyBurst:  10000,
		MinTime:      10 * time.Millisecond,
		PingInterval: 5 * time.Second,
		// Every test client is 127.0.0.1, and some make a game of each
		// kind of bot.
		MaxBotGamesPerClient: 100,
		MaxGamesPerClient:    1000,
	}
}

// openStore opens a new SQLite store in a file of the test's temporary
// directory.
func openStore(t testing.TB, path string) store.Store {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "games.db")
	}
	st, err := store.Open(context.Background(), "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// testServer is a server on a real HTTP listener, with its store.
type testServer struct {
	t     testing.TB
	srv   *server.Server
	http  *httptest.Server
	store store.Store
	URL   string
}

// newTestServer starts a server on st (a new store if nil) and stops it at
// the end of the test.
func newTestServer(t testing.TB, cfg server.Config, st store.Store) *testServer {
	t.Helper()
	return newTestServerLogged(t, cfg, st, nil)
}

// newTestServerLogged is newTestServer with a logger.
func newTestServerLogged(t testing.TB, cfg server.Config, st store.Store, logger *slog.Logger) *testServer {
	t.Helper()
	if st == nil {
		st = openStore(t, "")
	}
	srv := server.New(cfg, st, logger)
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Served as chaturaji serve serves it: its http.Server, on its
	// Listener.
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = srv.HTTPServer(srv.Handler())
	hs.Listener = srv.Listener(hs.Listener)
	hs.Start()
	ts := &testServer{t: t, srv: srv, http: hs, store: st, URL: hs.URL}
	t.Cleanup(ts.stop)
	return ts
}

// stop shuts the server down and closes its store; calling it again does
// nothing.
func (ts *testServer) stop() {
	if ts.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ts.srv.Shutdown(ctx); err != nil {
		ts.t.Errorf("shutdown: %v", err)
	}
	ts.http.Close()
	ts.store.Close()
	ts.srv = nil
}

// request sends an HTTP request and returns the status and body.
func (ts *testServer) request(method, path, token string, body string, header ...string) (int, []byte) {
	ts.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	if err != nil {
		ts.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		ts.t.Fatal(err)
	}
	return resp.StatusCode, b
}

// create creates a game and fails the test if it cannot.
func (ts *testServer) create(body string) *server.Created {
	ts.t.Helper()
	status, b := ts.request("POST", "/api/games", "", body)
	if status != http.StatusCreated {
		ts.t.Fatalf("POST /api/games %s: %d %s", body, status, b)
	}
	var c server.Created
	if err := json.Unmarshal(b, &c); err != nil {
		ts.t.Fatal(err)
	}
	return &c
}

// state returns a game's state.
func (ts *testServer) state(id string) *server.State {
	ts.t.Helper()
	status, b := ts.request("GET", "/api/games/"+id, "", "")
	if status != http.StatusOK {
		ts.t.Fatalf("GET /api/games/%s: %d %s", id, status, b)
	}
	var st server.State
	if err := json.Unmarshal(b, &st); err != nil {
		ts.t.Fatal(err)
	}
	return &st
}

// record returns a game's record, parsed.
func (ts *testServer) record(id string) *record.Record {
	ts.t.Helper()
	status, body := ts.request("GET", "/api/games/"+id+"/record", "", "")
	if status != http.StatusOK {
		ts.t.Fatalf("GET /api/games/%s/record: %d %s", id, status, body)
	}
	recs, err := record.ParseString(string(body))
	if err != nil {
		ts.t.Fatalf("record: %v\n%s", err, body)
	}
	return recs[0]
}

// waitState polls a game's state until ok accepts it.
func (ts *testServer) waitState(id string, timeout time.Duration, ok func(*server.State) bool) *server.State {
	ts.t.Helper()
	end := time.Now().Add(timeout)
	for {
		st := ts.state(id)
		if ok(st) {
			return st
		}
		if time.Now().After(end) {
			ts.t.Fatalf("game %s: state not reached in %v; last: seq %d %s to act %s", id, timeout, st.Seq, st.Status, st.ToAct)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// wantError checks an HTTP error answer: its status and code.
func wantError(t testing.TB, status int, body []byte, wantStatus int, wantCode string) {
	t.Helper()
	var e struct {
		Error server.Error `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("error body %q: %v", body, err)
	}
	if status != wantStatus || e.Error.Code != wantCode || e.Error.Message == "" {
		t.Fatalf("got %d %s %q, want %d %s with a message", status, e.Error.Code, e.Error.Message, wantStatus, wantCode)
	}
}

// client is a real WebSocket client of a game.
type client struct {
	t      testing.TB
	conn   *websocket.Conn
	msgs   chan server.Event
	done   chan struct{} // closed when the connection is closed
	err    error         // why, once done
	hello  server.Event
	events []server.Event // the numbered events received, in order
}

// dial connects to a game's WebSocket with a seat's token ("" for a
// spectator), asking for the events after event after.
func (ts *testServer) dial(id, token string, after int64) *client {
	ts.t.Helper()
	c, err := ts.tryDial(id, token, after, nil)
	if err != nil {
		ts.t.Fatal(err)
	}
	return c
}

func (ts *testServer) tryDial(id, token string, after int64, header http.Header) (*client, error) {
	u := "ws" + strings.TrimPrefix(ts.URL, "http") + "/api/games/" + id + "/ws?after=" + itoa(after)
	if token != "" {
		u += "&token=" + token
	}
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
	c := &client{t: ts.t, conn: conn, msgs: make(chan server.Event, 4096), done: make(chan struct{})}
	go c.read()
	ts.t.Cleanup(func() { conn.CloseNow() })
	c.hello = c.next()
	if c.hello.Kind != server.KindHello {
		ts.t.Fatalf("first message %+v, want hello", c.hello)
	}
	return c, nil
}

type dialError struct {
	status int
	err    error
}

func (e *dialError) Error() string { return e.err.Error() }

func (c *client) read() {
	defer close(c.msgs)
	for {
		_, data, err := c.conn.Read(context.Background())
		if err != nil {
			c.err = err
			close(c.done)
			return
		}
		var e server.Event
		if err := json.Unmarshal(data, &e); err != nil {
			c.t.Errorf("message %q: %v", data, err)
			continue
		}
		c.msgs <- e
	}
}

// next returns the next message; it fails the test if none comes in time.
func (c *client) next() server.Event {
	c.t.Helper()
	e, err := c.recv()
	if err != nil {
		c.t.Fatal(err)
	}
	return e
}

// recv returns the next message, checking that events come in order
// without gaps; it may be called from any goroutine.
func (c *client) recv() (server.Event, error) {
	select {
	case e, ok := <-c.msgs:
		if !ok {
			return e, fmt.Errorf("connection closed: %w", c.err)
		}
		if e.Seq > 0 {
			if n := len(c.events); n > 0 && e.Seq != c.events[n-1].Seq+1 {
				return e, fmt.Errorf("event %d after event %d", e.Seq, c.events[n-1].Seq)
			}
			c.events = append(c.events, e)
		}
		return e, nil
	case <-time.After(10 * time.Second):
		return server.Event{}, errors.New("no message in 10s")
	}
}

// playUntilOver plays for the client's seat until the game is over:
// whenever the seat is to act it sends a random legal action (after the
// event it saw). It may be called from any goroutine.
func (c *client) playUntilOver(rng *rand.Rand) error {
	return c.playWith(func(e server.Event) string { return e.Actions[rng.IntN(len(e.Actions))] })
}

// playWith plays for the client's seat until the game is over, sending
// the action choose picks among an event's legal actions whenever the seat
// is to act. It may be called from any goroutine.
func (c *client) playWith(choose func(server.Event) string) error {
	for {
		e, err := c.recv()
		if err != nil {
			return err
		}
		switch {
		case e.Kind == server.KindEnd:
			return nil
		case e.Kind == server.KindError:
			return fmt.Errorf("error: %+v", e.Error)
		case e.Seq > 0 && e.ToAct == c.hello.Seat && len(e.Actions) > 0 && c.caughtUp():
			a := choose(e)
			b, _ := json.Marshal(server.Message{Kind: "action", Action: a, Seq: e.Seq})
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			err := c.conn.Write(ctx, websocket.MessageText, b)
			cancel()
			if err != nil {
				return err
			}
		}
	}
}

// caughtUp reports whether no message waits to be read.
func (c *client) caughtUp() bool { return len(c.msgs) == 0 }

// until reads messages until one satisfies ok, and returns it.
func (c *client) until(ok func(server.Event) bool) server.Event {
	c.t.Helper()
	for {
		if e := c.next(); ok(e) {
			return e
		}
	}
}

// last returns the number of the last event received, or the hello's
// last if none came yet.
func (c *client) lastSeq() int64 {
	if n := len(c.events); n > 0 {
		return c.events[n-1].Seq
	}
	return 0
}

// send sends a message as JSON.
func (c *client) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendRaw(b)
}

func (c *client) sendRaw(b []byte) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.conn.Write(ctx, websocket.MessageText, b); err != nil {
		c.t.Fatal(err)
	}
}

// closed waits for the connection to close and returns its status.
func (c *client) closed() websocket.StatusCode {
	c.t.Helper()
	select {
	case <-c.done:
		return websocket.CloseStatus(c.err)
	case <-time.After(10 * time.Second):
		c.t.Fatalf("connection not closed in 10s")
	}
	return 0
}

// wantErrorMsg reads messages until an error message, and checks its code.
func (c *client) wantErrorMsg(code string) server.Event {
	c.t.Helper()
	e := c.until(func(e server.Event) bool { return e.Kind == server.KindError })
	if e.Error == nil || e.Error.Code != code || e.Error.Message == "" {
		c.t.Fatalf("error message %+v, want code %s with a message", e.Error, code)
	}
	return e
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// sameState checks that a game did not change.
func sameState(t testing.TB, before, after *server.State) {
	t.Helper()
	if before.Seq != after.Seq || before.Position != after.Position || before.ToAct != after.ToAct ||
		before.Status != after.Status || !slicesEqual(before.Actions, after.Actions) {
		t.Fatalf("state changed:\nbefore %d %s %s\nafter  %d %s %s", before.Seq, before.Position, before.ToAct, after.Seq, after.Position, after.ToAct)
	}
}

func slicesEqual[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// eventsEqual checks two runs of events are the same, byte for byte of
// their JSON.
func eventsEqual(t testing.TB, got, want []server.Event) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d", len(got), len(want))
	}
	for i := range got {
		g, _ := json.Marshal(got[i])
		w, _ := json.Marshal(want[i])
		if !bytes.Equal(g, w) {
			t.Fatalf("event %d:\n got %s\nwant %s", i, g, w)
		}
	}
}
