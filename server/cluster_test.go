package server_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
)

// clusterKey is the key the tests' nodes share, as they would share their
// key file.
var clusterKey = []byte(rand.Text() + rand.Text())

// newNode starts a server as a node of the cluster on the PostgreSQL
// database dsn, with the given lease, logging to log.
func newNode(t *testing.T, dsn string, lease time.Duration, log *lockedBuffer) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return nodeOn(t, dsn, lease, log, ln, "http://"+ln.Addr().String())
}

// nodeOn starts a node as newNode does, listening on ln, which the other
// nodes reach at advertise.
func nodeOn(t *testing.T, dsn string, lease time.Duration, log *lockedBuffer, ln net.Listener, advertise string) *testServer {
	t.Helper()
	return nodeWith(t, testConfig(), dsn, lease, log, ln, advertise)
}

// nodeWith starts a node as nodeOn does, with cfg.
func nodeWith(t *testing.T, cfg server.Config, dsn string, lease time.Duration, log *lockedBuffer, ln net.Listener, advertise string) *testServer {
	t.Helper()
	cfg.Cluster, cfg.Lease, cfg.Advertise, cfg.ClusterKey = true, lease, advertise, clusterKey
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(cfg, st, slog.New(slog.NewTextHandler(log, nil)))
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = srv.HTTPServer(srv.Handler())
	hs.Listener = srv.Listener(ln)
	hs.Start()
	ts := &testServer{t: t, srv: srv, http: hs, store: st, URL: hs.URL}
	t.Cleanup(ts.stop)
	return ts
}

// until reads a client's messages until the game's end event, and
// returns its numbered events; it fails the test if they skip or repeat
// a number.
func untilEnd(t *testing.T, c *client) []server.Event {
	t.Helper()
	c.until(func(e server.Event) bool { return e.Kind == server.KindEnd })
	for i, e := range c.events {
		if e.Seq != c.events[0].Seq+int64(i) {
			t.Fatalf("event %d is numbered %d after %d", i, e.Seq, c.events[0].Seq)
		}
	}
	return c.events
}

// TestClusterRelay checks that a node relays the events of a game
// another node drives to its own WebSocket clients exactly as the driving
// node sends them, and shows the same state.
func TestClusterRelay(t *testing.T) {
	dsn := pgtest.Schema(t)
	var la, lb lockedBuffer
	a, b := newNode(t, dsn, time.Hour, &la), newNode(t, dsn, time.Hour, &lb)
	g := a.create(`{"seats": ["bot:random", "bot:greedy", "bot:random", "bot:random"], "bot_delay_ms": 20}`)
	onA, onB := a.dial(g.ID, "", 0), b.dial(g.ID, "", 0)
	evA, evB := untilEnd(t, onA), untilEnd(t, onB)
	if evB[0].Seq != onB.hello.Last+1 && evB[0].Seq != 1 {
		t.Fatalf("the relayed stream starts at %d", evB[0].Seq)
	}
	eventsEqual(t, evB, evA[len(evA)-len(evB):])
	sa, sb := a.state(g.ID), b.state(g.ID)
	ja, _ := json.Marshal(sa)
	jb, _ := json.Marshal(sb)
	if string(ja) != string(jb) {
		t.Fatalf("states differ:\nA %s\nB %s", ja, jb)
	}
	// A client that comes late to B catches up from event 5 as on A.
	lateA, lateB := a.dial(g.ID, "", 5), b.dial(g.ID, "", 5)
	if lateA.hello.Last != lateB.hello.Last {
		t.Fatalf("hello after the end: A says %d, B %d", lateA.hello.Last, lateB.hello.Last)
	}
}

// TestClusterJoinWhileRelaying checks that a client joining a game that
// another node drives, while its events come, is served: the follower
// started for it must not stop, for want of subscribers, on an event that
// arrives before the client has subscribed (which closed the client's
// WebSocket at once with "server shutting down").
func TestClusterJoinWhileRelaying(t *testing.T) {
	dsn := pgtest.Schema(t)
	var la, lb lockedBuffer
	a, b := newNode(t, dsn, time.Hour, &la), newNode(t, dsn, time.Hour, &lb)
	g := a.create(`{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"], "bot_delay_ms": 5}`)
	for i := 0; a.state(g.ID).Result == "" && i < 200; i++ {
		c, err := b.tryDial(g.ID, "", 0, nil)
		if err != nil {
			t.Fatalf("join %d: %v", i, err)
		}
		c.conn.CloseNow()
		<-c.done
	}
}

// TestClusterForward checks that the actions sent to a node that does
// not drive the game, over HTTP and over a WebSocket, are applied by the
// node that does, and answered as it answers, errors included.
func TestClusterForward(t *testing.T) {
	dsn := pgtest.Schema(t)
	var la, lb lockedBuffer
	a, b := newNode(t, dsn, time.Hour, &la), newNode(t, dsn, time.Hour, &lb)
	g := a.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"]}`)
	token := map[string]string{}
	for _, s := range g.Seats {
		token[s.Seat] = s.Token
	}
	st := a.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return len(s.Actions) > 0 })

	// An illegal action: the same error from either node.
	body := `{"action": "a1a1", "seq": ` + itoa(st.Seq) + `}`
	codeA, errA := a.request("POST", "/api/games/"+g.ID+"/actions", token[st.ToAct], body)
	codeB, errB := b.request("POST", "/api/games/"+g.ID+"/actions", token[st.ToAct], body)
	if codeA != codeB || string(errA) != string(errB) || codeA != http.StatusBadRequest {
		t.Fatalf("illegal action: A answered %d %s, B %d %s", codeA, errA, codeB, errB)
	}

	// A legal one through B: applied once, by A.
	body = `{"action": "` + st.Actions[0] + `", "seq": ` + itoa(st.Seq) + `}`
	code, ans := b.request("POST", "/api/games/"+g.ID+"/actions", token[st.ToAct], body)
	var after server.State
	if json.Unmarshal(ans, &after); code != http.StatusOK || after.Seq <= st.Seq {
		t.Fatalf("action through B: %d %s", code, ans)
	}
	if got := a.state(g.ID); got.Seq != after.Seq || got.Position != after.Position {
		t.Fatalf("A has event %d at %s, B answered %d at %s", got.Seq, got.Position, after.Seq, after.Position)
	}
	// Sent again, it is refused: the game moved on.
	if code, ans := b.request("POST", "/api/games/"+g.ID+"/actions", token[st.ToAct], body); code != http.StatusConflict {
		t.Fatalf("the same action again through B: %d %s", code, ans)
	}

	// Over a WebSocket to B: the seat to act plays, and the event comes
	// back relayed.
	st = a.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return len(s.Actions) > 0 })
	c := b.dial(g.ID, token[st.ToAct], st.Seq)
	c.send(server.Message{Kind: "action", Action: st.Actions[0], Seq: st.Seq})
	e := c.until(func(e server.Event) bool { return e.Kind == server.KindAction })
	if e.Seq != st.Seq+1 || e.Action != st.Actions[0] || e.Seat != st.ToAct {
		t.Fatalf("relayed %+v after the WebSocket action %s of %s at %d", e, st.Actions[0], st.ToAct, st.Seq)
	}
	// An error over B's WebSocket is the driving node's.
	c.send(server.Message{Kind: "action", Action: "a1a1", Seq: e.Seq})
	if m := c.wantErrorMsg(server.ECONFLICT); !strings.Contains(m.Error.Message, "not your turn") && !strings.Contains(m.Error.Message, "moved on") {
		t.Fatalf("error %+v", m.Error)
	}
}

// TestClusterFencedOut takes a game's lease from the node that drives it
// behind its back, as an adopter would while it was paused: its next
// write is fenced, it stops driving the game and logs it, its WebSocket
// client stays and goes on hearing the game from whichever node adopts
// it, and the events have no gap and no repeat.
func TestClusterFencedOut(t *testing.T) {
	dsn := pgtest.Schema(t)
	var la, lb lockedBuffer
	a, b := newNode(t, dsn, 500*time.Millisecond, &la), newNode(t, dsn, 500*time.Millisecond, &lb)
	_ = b
	g := a.create(`{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"], "bot_delay_ms": 30}`)
	onA := a.dial(g.ID, "", 0)
	onA.until(func(e server.Event) bool { return e.Seq >= 5 })
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), `UPDATE games SET owner = 'thief', epoch = epoch + 1,
		lease_until = now() + interval '300 milliseconds' WHERE id = $1`, g.ID); err != nil {
		t.Fatal(err)
	}
	evs := untilEnd(t, onA)
	if evs[0].Seq != 1 {
		t.Fatalf("first event %d", evs[0].Seq)
	}
	if !strings.Contains(la.String(), "game lost") {
		t.Fatalf("A did not log the game lost:\n%s", la.String())
	}
	if !strings.Contains(la.String()+lb.String(), "game adopted") {
		t.Fatalf("no node adopted the game:\nA:\n%s\nB:\n%s", la.String(), lb.String())
	}
	stored, err := a.store.Events(context.Background(), g.ID, 0)
	if err != nil || len(stored) != len(evs) {
		t.Fatalf("%d events stored (%v), the client saw %d", len(stored), err, len(evs))
	}
	for i, e := range stored {
		got, _ := json.Marshal(evs[i])
		var want server.Event
		json.Unmarshal(e.Data, &want)
		w, _ := json.Marshal(want)
		if string(got) != string(w) || e.Seq != int64(i+1) {
			t.Fatalf("event %d:\n seen %s\nstored %s", i+1, got, w)
		}
	}
}

// TestClusterPresence connects a seat's holder to a node that relays the
// game, not to the node that drives it: the driving node counts the
// holder as present, so its grace does not give the seat to a bot; once
// the holder leaves, it does.
func TestClusterPresence(t *testing.T) {
	dsn := pgtest.Schema(t)
	var la, lb lockedBuffer
	// Leases long enough that no report lapses while the test waits.
	a, b := newNode(t, dsn, 2*time.Second, &la), newNode(t, dsn, 2*time.Second, &lb)
	g := a.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "host_seats": ["South"], "abandon_ms": 1000, "takeover": "random"}`)
	holder := b.dial(g.ID, g.Seats[0].Token, 0)
	a.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return s.Seats[0].Online != nil && *s.Seats[0].Online })
	st := a.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return s.ToAct == "South" && len(s.Actions) > 0 })
	// Three graces and more, and three presence reports: the seat stays
	// the holder's. (A grace of a second, not less: South decides first,
	// so the holder's first report through B must come within one grace
	// of the game's creation, on a loaded machine too.)
	time.Sleep(3500 * time.Millisecond)
	if now := a.state(g.ID); now.Seats[0].Player != "human" || now.Seq != st.Seq {
		t.Fatalf("South, connected through B, lost the seat: %s at event %d (was %d)", now.Seats[0].Player, now.Seq, st.Seq)
	}
	holder.conn.CloseNow()
	a.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return s.Seats[0].Player != "human" })
}

// TestClusterRematch checks a rematch between two players on two nodes
// of a cluster, as in a site behind a load balancer: each player's
// requests and WebSocket reach either node, and the offer, the answers
// and the new game are the same whichever node each one reaches; the
// node that did not drive the game forwards the requests to the one
// that did, and passes its offer on to its own followers.
func TestClusterRematch(t *testing.T) {
	dsn := pgtest.Schema(t)
	var la, lb lockedBuffer
	a, b := newNode(t, dsn, time.Hour, &la), newNode(t, dsn, time.Hour, &lb)
	g := a.create(`{"seats": ["human", "human", "bot:random", "bot:greedy"], "turn_ms": 60000, "help": false}`)
	south, west := g.Seats[0].Token, b.mustClaim(g.ID, "West", g.Seats[1].Invite)
	fs, fw, spec := b.follow(t, g.ID, south), a.follow(t, g.ID, west), b.follow(t, g.ID, "")
	b.abort(g.ID, south)
	for _, f := range []*follower{fs, fw, spec} {
		f.until(server.KindEnd)
	}

	// West offers through node b; the followers of both nodes see it.
	status, offer, body := b.answer(g.ID, west, `{"answer": "offer", "rotate": true}`)
	if status != http.StatusOK || offer.Status != server.RematchOpen || offer.By != "West" || offer.You != "West" {
		t.Fatalf("West's offer through node b: %d %s", status, body)
	}
	for _, f := range []*follower{fs, fw, spec} {
		if r := f.rematch(server.RematchOpen); r.By != "West" || !r.Rotate || len(r.Seats) != 2 {
			t.Fatalf("the offer as a follower sees it: %+v", r)
		}
	}
	for _, n := range []*testServer{a, b} {
		if status, r := n.rematchOf(g.ID, ""); status != http.StatusOK || r.Status != server.RematchOpen || r.By != "West" {
			t.Fatalf("GET rematch from %s: %d %+v", n.URL, status, r)
		}
	}
	status, _, body = a.answer(g.ID, south, `{"answer": "offer"}`)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
	wantMessage(t, body, "West offered a rematch already")

	// South accepts through node a: one new game, seats one on.
	status, mine, body := a.answer(g.ID, south, `{"answer": "accept"}`)
	if status != http.StatusOK || mine.Status != server.RematchCreated || mine.Seat != "West" || mine.Token == "" {
		t.Fatalf("South's accept through node a: %d %s", status, body)
	}
	for _, f := range []*follower{fs, fw, spec} {
		if r := f.rematch(server.RematchCreated); r.New != mine.New {
			t.Fatalf("a follower hears of game %s, South's answer says %s", r.New, mine.New)
		}
	}
	status, theirs := b.rematchOf(g.ID, west)
	if status != http.StatusOK || theirs.New != mine.New || theirs.Seat != "North" || theirs.Token == "" {
		t.Fatalf("West's view through node b: %d %+v", status, theirs)
	}
	for seat, c := range map[string]struct {
		n     *testServer
		token string
	}{"West": {b, mine.Token}, "North": {a, theirs.Token}} {
		if hello := c.n.dial(mine.New, c.token, 0).hello; hello.Seat != seat {
			t.Errorf("the new token for %s opens %q", seat, hello.Seat)
		}
	}
	if !strings.Contains(la.String(), "rematch created") || strings.Contains(lb.String(), "rematch created") {
		t.Errorf("the rematch was not created by node a alone, which drove the game:\n--- a ---\n%s--- b ---\n%s", la.String(), lb.String())
	}
}
