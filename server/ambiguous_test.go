package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/internal/faultproxy"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
)

// through returns dsn with its host and port replaced by addr.
func through(t *testing.T, dsn, addr string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = addr
	return u.String()
}

// spectator watches a game over a WebSocket until its end event or until
// quit is closed, keeping every numbered event and the first gap or
// repeat it saw.
type spectator struct {
	where string
	c     *client
	quit  chan struct{}
	done  chan struct{}

	mu   sync.Mutex
	err  error
	last int64 // the last event seen
}

// watch starts a spectator of game id on ts.
func watch(ts *testServer, where, id string) *spectator {
	s := &spectator{where: where, c: ts.dial(id, "", 0), quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for {
			if len(s.c.msgs) == 0 {
				select {
				case <-s.quit:
					return
				case <-s.c.done:
					if len(s.c.msgs) == 0 {
						s.fail(fmt.Errorf("connection closed: %w", s.c.err))
						return
					}
				case <-time.After(10 * time.Millisecond):
				}
				continue
			}
			e, err := s.c.recv()
			if err != nil {
				s.fail(err)
				return
			}
			if e.Seq > 0 {
				s.mu.Lock()
				s.last = e.Seq
				s.mu.Unlock()
			}
			if e.Kind == server.KindEnd {
				return
			}
		}
	}()
	return s
}

// fail keeps the spectator's first error.
func (s *spectator) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = err
	}
}

// seen returns the last event the spectator saw and its error.
func (s *spectator) seen() (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last, s.err
}

// stored returns game id's events as the events table holds them.
func stored(t *testing.T, conn *pgx.Conn, id string) []server.Event {
	t.Helper()
	rows, err := conn.Query(t.Context(), `SELECT seq, data::text FROM events WHERE game_id = $1 ORDER BY seq`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var evs []server.Event
	for rows.Next() {
		var seq int64
		var data string
		if err := rows.Scan(&seq, &data); err != nil {
			t.Fatal(err)
		}
		var e server.Event
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			t.Fatal(err)
		}
		if e.Seq != seq {
			t.Fatalf("game %s: row %d holds event %d", id, seq, e.Seq)
		}
		evs = append(evs, e)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return evs
}

// post sends an action to a node and returns its answer; it is safe to
// call from any goroutine.
func postAction(base, id, token, body string) (int, string, error) {
	req, err := http.NewRequest("POST", base+"/api/games/"+id+"/actions", strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// getState returns a game's state from a node; safe from any goroutine.
func getState(base, id string) (*server.State, error) {
	resp, err := http.Get(base + "/api/games/" + id)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /api/games/%s: %d %s", id, resp.StatusCode, b)
	}
	var st server.State
	return &st, json.Unmarshal(b, &st)
}

// answered is an action sent and what a node answered.
type answered struct {
	node   string
	seq    int64 // the event it was sent after
	action string
	seat   string
	status int
	body   string
}

// TestAmbiguousCommit puts a proxy between node A and PostgreSQL that
// drops the database's replies for a second, four times, and then cuts
// the connections that lost one: the database has committed what A sent,
// but A never hears so. Meanwhile A drives three games of bots and a game
// of four people whose actions come through both nodes in turn, and a
// WebSocket spectator on each node watches each game. Every spectator
// must see every event the events table holds, in order, with no gap;
// every action answered 200 is in the table; no answer says that nothing
// changed unless the table agrees.
func TestAmbiguousCommit(t *testing.T) {
	dsn := pgtest.Schema(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	proxy, err := faultproxy.New(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	var la, lb lockedBuffer
	a := newNode(t, through(t, dsn, proxy.Addr()), 10*time.Second, &la)
	b := newNode(t, dsn, 10*time.Second, &lb)
	nodes := map[string]*testServer{"a": a, "b": b}

	var games []*server.Created
	for range 3 {
		games = append(games, a.create(`{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"], "bot_delay_ms": 40}`))
	}
	people := a.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"]}`)
	games = append(games, people)

	stop := make(chan struct{})
	var specs []*spectator
	for _, g := range games {
		specs = append(specs, watch(a, "a", g.ID), watch(b, "b", g.ID))
	}

	// The people play random legal actions, through a and b in turn,
	// until told to stop.
	var answers []answered
	played := make(chan struct{})
	go func() {
		defer close(played)
		tokens := tokensOf(people)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			name := []string{"a", "b"}[i%2]
			st, err := getState(nodes[name].URL, people.ID)
			if err != nil || st.Status != "live" || len(st.Actions) == 0 {
				time.Sleep(10 * time.Millisecond)
				if st != nil && st.Status != "live" {
					return
				}
				continue
			}
			act := st.Actions[rng.IntN(len(st.Actions))]
			body := fmt.Sprintf(`{"action": %q, "seq": %d}`, act, st.Seq)
			status, resp, err := postAction(nodes[name].URL, people.ID, tokens[st.ToAct], body)
			if err != nil {
				continue
			}
			answers = append(answers, answered{name, st.Seq, act, st.ToAct, status, resp})
		}
	}()

	for range 4 {
		time.Sleep(1500 * time.Millisecond)
		proxy.DropReplies()
		time.Sleep(time.Second)
		proxy.Restore()
	}
	time.Sleep(time.Second)
	close(stop)
	<-played

	conn, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	tables := make(map[string][]server.Event)
	for _, g := range games {
		tables[g.ID] = stored(t, conn, g.ID)
	}
	// Every spectator catches up with the table: what was stored is
	// published, even what its node never heard was stored.
	for i, s := range specs {
		want := tables[games[i/2].ID]
		last := want[len(want)-1].Seq
		for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if seen, err := s.seen(); seen >= last || err != nil {
				break
			}
		}
	}
	for _, s := range specs {
		close(s.quit)
		<-s.done
	}
	targets := tables
	tables = make(map[string][]server.Event) // read again: the bots play on
	for _, g := range games {
		tables[g.ID] = stored(t, conn, g.ID)
	}
	for i, s := range specs {
		id := games[i/2].ID
		want, target := tables[id], targets[id]
		last := target[len(target)-1].Seq
		if _, err := s.seen(); err != nil {
			t.Errorf("game %s, spectator on node %s: %v", id, s.where, err)
			continue
		}
		seen := s.c.events
		if len(seen) == 0 || seen[len(seen)-1].Seq < last {
			t.Errorf("game %s, spectator on node %s: saw up to event %d, the table holds %d", id, s.where, s.c.lastSeq(), last)
			continue
		}
		for _, e := range seen {
			if e.Seq > int64(len(want)) {
				t.Errorf("game %s, spectator on node %s: saw event %d, the table holds %d", id, s.where, e.Seq, len(want))
				break
			}
			g, _ := json.Marshal(e)
			w, _ := json.Marshal(want[e.Seq-1])
			if !bytes.Equal(g, w) {
				t.Errorf("game %s, spectator on node %s, event %d:\n saw %s\n the table %s", id, s.where, e.Seq, g, w)
				break
			}
		}
	}

	// What each answer said is what the table holds.
	table := tables[people.ID]
	applied := func(a answered) bool {
		if int(a.seq) >= len(table) {
			return false
		}
		e := table[a.seq]
		return e.Kind == server.KindAction && e.Seat == a.seat && e.Action == a.action && e.By == server.ByPlayer
	}
	for _, x := range answers {
		switch {
		case x.status == http.StatusOK && !applied(x):
			t.Errorf("node %s answered 200 to %s's %s after event %d, which the table does not hold", x.node, x.seat, x.action, x.seq)
		case strings.Contains(x.body, "nothing changed") && applied(x):
			t.Errorf("node %s answered %d %s to %s's %s after event %d, which the table holds", x.node, x.status, x.body, x.seat, x.action, x.seq)
		}
	}
	found := strings.Count(la.String(), "the store holds events past the write that failed")
	t.Logf("%d actions answered; node a found its write done after all %d times", len(answers), found)
	if found == 0 {
		t.Errorf("no write of node a failed after the database committed it: the faults hit nothing\n%s", la.String())
	}
}
