package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
)

// clusterLease is the nodes' lease in these tests: short, so that a dead
// node's games are adopted within about a second.
const clusterLease = "1s"

// testCluster is three `chaturaji serve` processes on one PostgreSQL
// database.
type testCluster struct {
	t         *testing.T
	bin, db   string
	keys      string
	addrs     []string
	procs     []*serverProcess
	lts       []*loadTest // a load test's client of each node
	mu        sync.Mutex
	watchers  []*watchedGame
	actors    []*httpActor
	players   []*loadPlayer
	done      chan error
	ctx       context.Context
	maxPauses []time.Duration
}

// watchedGame is a game and every event a spectator saw of it.
type watchedGame struct {
	id   string
	mu   sync.Mutex
	seen [][]byte
	ats  []time.Time // when each arrived
}

// newTestCluster starts n nodes.
func newTestCluster(t *testing.T, n int) *testCluster {
	dir := t.TempDir()
	c := &testCluster{t: t, bin: buildBinary(t), db: pgtest.Schema(t), keys: filepath.Join(dir, "server.key"), done: make(chan error, 100)}
	keygen(t, c.bin, c.keys)
	for i := range n {
		addr := freeAddr(t)
		c.addrs = append(c.addrs, addr)
		c.procs = append(c.procs, nil)
		c.lts = append(c.lts, &loadTest{base: "http://" + addr, wsBase: "ws://" + addr, http: http.DefaultClient,
			think: 10 * time.Millisecond, seed: uint64(i), errors: map[string]int{}})
		c.start(i)
	}
	return c
}

// start starts node i (again). Every client of the test, a dozen players
// and the checks' reads, comes from one address: its request rate is
// raised from a person's to theirs together (server's
// TestCheapRoutesLimited tests the limit itself).
func (c *testCluster) start(i int) {
	c.procs[i] = startBinary(c.t, c.bin, c.addrs[i], c.db, "--key-file", c.keys, "--lease", clusterLease, "--request-rate", "2000")
}

func (c *testCluster) base(i int) string { return "http://" + c.addrs[i] }

// startGames starts, on each node, a game of four humans whose players
// connect to different nodes, a game of bots watched from another node,
// and a game of humans played over HTTP through another node.
func (c *testCluster) startGames(ctx context.Context) {
	t := c.t
	c.ctx = ctx
	n := len(c.addrs)
	for i := range n {
		g := createFor(t, c.base(i), `{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "bot_delay_ms": 30}`)
		game := &loadGame{id: g.ID, sent: map[int64]time.Time{}}
		game.ready.Add(5)
		for k, s := range g.Seats {
			p := &loadPlayer{lt: c.lts[(i+k)%n], game: game, seat: s.Seat, token: s.Token, rng: rand.New(rand.NewPCG(uint64(i), uint64(k)))}
			c.players = append(c.players, p)
			go func() { c.done <- p.play(ctx) }()
		}
		c.watch(game, c.lts[(i+1)%n])

		b := createFor(t, c.base(i), `{"seats": ["bot:greedy", "bot:random", "bot:2", "bot:random"], "bot_delay_ms": 40}`)
		bots := &loadGame{id: b.ID, sent: map[int64]time.Time{}}
		bots.ready.Add(1)
		c.watch(bots, c.lts[(i+2)%n])

		h := createFor(t, c.base(i), `{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"]}`)
		actor := &httpActor{base: c.base((i + 1) % n), id: h.ID, tokens: map[string]string{}, rng: rand.New(rand.NewPCG(uint64(i), 9))}
		for _, s := range h.Seats {
			actor.tokens[s.Seat] = s.Token
		}
		c.actors = append(c.actors, actor)
		go func() { c.done <- actor.run(ctx) }()
	}
}

// watch follows game with a spectator of lt's node, keeping every event.
func (c *testCluster) watch(game *loadGame, lt *loadTest) {
	w := &watchedGame{id: game.id}
	c.watchers = append(c.watchers, w)
	p := &loadPlayer{lt: lt, game: game, onEvent: func(data []byte, e *loadEvent) {
		w.mu.Lock()
		w.seen = append(w.seen, bytes.Clone(data))
		w.ats = append(w.ats, time.Now())
		w.mu.Unlock()
	}}
	c.players = append(c.players, p)
	go func() { c.done <- p.play(c.ctx) }()
}

// seen counts the events the spectators saw, over all games.
func (c *testCluster) seen() int {
	n := 0
	for _, w := range c.watchers {
		w.mu.Lock()
		n += len(w.seen)
		w.mu.Unlock()
	}
	return n
}

// waitSeen waits until the spectators have seen n events more than now.
func (c *testCluster) waitSeen(more int) {
	c.t.Helper()
	want := c.seen() + more
	for end := time.Now().Add(60 * time.Second); c.seen() < want; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			c.t.Fatalf("the games did not go on: %d events seen, want %d", c.seen(), want)
		}
	}
}

// nodeID returns the id node i's process joined as, from its log.
func (c *testCluster) nodeID(i int) string {
	_, rest, ok := strings.Cut(c.procs[i].log.String(), `msg="joined the cluster" node=`)
	id, _, _ := strings.Cut(rest, " ")
	if !ok || id == "" {
		c.t.Fatalf("node %d did not log its id\n%s", i, c.procs[i].log.String())
	}
	return id
}

// unadopted counts the live games that node holds or no node holds a
// lease on, by the database.
func (c *testCluster) unadopted(node string) int {
	conn, err := pgx.Connect(context.Background(), c.db)
	if err != nil {
		c.t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM games
		WHERE status = 'live' AND (owner IS NULL OR owner = $1 OR lease_until <= now())`, node).Scan(&n); err != nil {
		c.t.Fatal(err)
	}
	return n
}

// check waits for every game to finish and checks what every client saw
// against the store: no event lost or repeated in any client's stream,
// every spectator's events byte for byte the stored ones, every action
// acknowledged over HTTP in the store as its answer showed it, every
// game's events numbered 1, 2, 3... and every record proved by verify.
// live is a node up, to read from.
func (c *testCluster) check(live int) {
	t := c.t
	for range len(c.players) + len(c.actors) {
		if err := <-c.done; err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range c.players {
		if p.lost != 0 || p.dups != 0 || !p.over {
			t.Fatalf("game %s, %q: lost %d, duplicated %d, over %v", p.game.id, p.seat, p.lost, p.dups, p.over)
		}
	}
	base := c.base(live)
	var maxPause time.Duration
	for _, w := range c.watchers {
		stored := getEvents(t, base, w.id)
		if len(stored) != len(w.seen) {
			t.Fatalf("game %s: %d events stored, the spectator saw %d", w.id, len(stored), len(w.seen))
		}
		for i := range stored {
			if !bytes.Equal(stored[i], w.seen[i]) {
				t.Fatalf("game %s, event %d:\nstored %s\n  seen %s", w.id, i+1, stored[i], w.seen[i])
			}
		}
		for i := 1; i < len(w.ats); i++ {
			maxPause = max(maxPause, w.ats[i].Sub(w.ats[i-1]))
		}
	}
	c.maxPauses = append(c.maxPauses, maxPause)
	for _, a := range c.actors {
		stored := getEvents(t, base, a.id)
		var prev int64
		for i, ack := range a.acks {
			if ack.Seq <= prev || ack.Seq > int64(len(stored)) {
				t.Fatalf("game %s, answer %d: event %d, after %d; %d events stored", a.id, i, ack.Seq, prev, len(stored))
			}
			prev = ack.Seq
			var e server.Event
			json.Unmarshal(stored[ack.Seq-1], &e)
			if e.Position != ack.Position || e.ToAct != ack.ToAct {
				t.Fatalf("game %s, acknowledged event %d: %s to act in %s; stored: %s to act in %s", a.id, ack.Seq, ack.ToAct, ack.Position, e.ToAct, e.Position)
			}
		}
		if len(a.acks) == 0 {
			t.Fatalf("game %s: no action acknowledged", a.id)
		}
	}
	ids := []string{}
	for _, w := range c.watchers {
		ids = append(ids, w.id)
	}
	for _, a := range c.actors {
		ids = append(ids, a.id)
	}
	for _, id := range ids {
		evs := getEvents(t, base, id)
		for i, data := range evs {
			var e server.Event
			if json.Unmarshal(data, &e); e.Seq != int64(i+1) {
				t.Fatalf("game %s: event %d is numbered %d", id, i+1, e.Seq)
			}
		}
		if st := getState(t, base, id); st.Status != "finished" {
			t.Fatalf("game %s is %s", id, st.Status)
		}
		resp, err := http.Get(base + "/api/games/" + id + "/record")
		if err != nil {
			t.Fatal(err)
		}
		var text bytes.Buffer
		text.ReadFrom(resp.Body)
		resp.Body.Close()
		path := filepath.Join(t.TempDir(), id+".cgn")
		os.WriteFile(path, text.Bytes(), 0o644)
		out, err := exec.Command(c.bin, "verify", "--key", c.procs[live].key, path).CombinedOutput()
		if err != nil || !strings.Contains(string(out), ": proved: dice fair") {
			t.Fatalf("verify game %s: %v\n%s", id, err, out)
		}
	}
	t.Logf("%d games finished and verified; the longest wait between two events a spectator saw: %v", len(ids), maxPause)
}

// logs returns every node's log.
func (c *testCluster) logs() string {
	var b strings.Builder
	for i, p := range c.procs {
		fmt.Fprintf(&b, "--- node %d ---\n%s", i, p.log.String())
	}
	return b.String()
}

// TestClusterKill runs three nodes on one database, with games of bots
// and of humans spread over them and clients on every node, and kills one
// node with SIGKILL in the middle: the other nodes adopt its games, every
// game finishes, no client misses or repeats an event, every action
// acknowledged is stored, and every record verifies.
func TestClusterKill(t *testing.T) {
	c := newTestCluster(t, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c.startGames(ctx)
	c.waitSeen(60)
	dead := c.nodeID(0)
	c.procs[0].kill(t)
	// The survivors adopt the dead node's games once its leases lapse;
	// then it comes back (its clients reconnect to it) as a new node.
	for end := time.Now().Add(30 * time.Second); c.unadopted(dead) > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the dead node's games were not adopted\n%s", c.logs())
		}
	}
	if !strings.Contains(c.procs[1].log.String()+c.procs[2].log.String(), "its lease lapsed") {
		t.Errorf("no node logged an adoption after a lapse\n%s", c.logs())
	}
	c.start(0)
	c.check(1)
}

// TestClusterRollingRestart stops each of three nodes in turn with
// SIGTERM and starts it again, under live games: each hands its games
// over at once, and the same checks as TestClusterKill hold.
func TestClusterRollingRestart(t *testing.T) {
	c := newTestCluster(t, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c.startGames(ctx)
	for i := range c.procs {
		c.waitSeen(30)
		c.procs[i].cmd.Process.Signal(syscall.SIGTERM)
		if err := c.procs[i].wait(); err != nil {
			t.Fatalf("node %d after SIGTERM: %v\n%s", i, err, c.procs[i].log.String())
		}
		if !strings.Contains(c.procs[i].log.String(), "released the games on shutdown") {
			t.Errorf("node %d did not release its games\n%s", i, c.procs[i].log.String())
		}
		c.start(i)
	}
	c.check(0)
}

// TestClusterFenced stops a node (SIGSTOP) past its lease, lets another
// adopt its game, and lets it go on (SIGCONT): its next write is fenced,
// it drops the game, and the game's events have no gap and no repeat.
func TestClusterFenced(t *testing.T) {
	c := newTestCluster(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b := createFor(t, c.base(0), `{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"], "bot_delay_ms": 100}`)
	bots := &loadGame{id: b.ID, sent: map[int64]time.Time{}}
	bots.ready.Add(1)
	c.ctx = ctx
	c.watch(bots, c.lts[1])
	c.waitSeen(5)
	c.procs[0].cmd.Process.Signal(syscall.SIGSTOP)
	for end := time.Now().Add(30 * time.Second); !strings.Contains(c.procs[1].log.String(), "game adopted"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			c.procs[0].cmd.Process.Signal(syscall.SIGCONT)
			t.Fatalf("the stopped node's game was not adopted\n%s", c.logs())
		}
	}
	c.waitSeen(3) // the adopter drives it
	c.procs[0].cmd.Process.Signal(syscall.SIGCONT)
	for end := time.Now().Add(30 * time.Second); !strings.Contains(c.procs[0].log.String(), "game lost"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the node that came back did not drop the game\n%s", c.logs())
		}
	}
	c.check(1)
}

// TestLoadtestFailover runs `chaturaji loadtest --start-nodes 3
// --kill-after`: three nodes on a schema of the run's own, the last
// killed with SIGKILL two seconds in. Every game finishes, nothing is lost
// or repeated, the dead node's live games are all adopted, the report
// times their failover and gives a line for each node, and the run's
// schema is dropped at the end.
func TestLoadtestFailover(t *testing.T) {
	bin := buildBinary(t)
	db := pgtest.Server(t)
	cmd := exec.Command(bin, "loadtest", "--start-nodes", "3", "--db", db, "--lease", "1s", "--kill-after", "2s",
		"--games", "6", "--think", "120ms", "--timeout", "50s")
	out, err := cmd.CombinedOutput()
	report := string(out)
	if err != nil {
		t.Fatalf("loadtest: %v\n%s", err, report)
	}
	t.Logf("\n%s", report)
	for _, want := range []string{
		`(?m)^games finished: +6 of 6 in `,
		`(?m)^action->broadcast, clients of the driving node: p50 [0-9.]+ms`,
		`(?m)^action->broadcast, clients of a relaying node: p50 [0-9.]+ms`,
		`(?m)^events lost: +0$`,
		`(?m)^events duplicated: +0$`,
		`(?m)^failover: +node 3 killed \(SIGKILL\) at [0-9.]+s, lease 1s; games moved ([1-9]) of the ([1-9]) live it drove \(adopted by node [12]: `,
		`(?m)^  kill->adoption: +p50 [0-9.]+ms  p99 [0-9.]+ms  max [0-9.]+ms  \([1-9]\)$`,
		`(?m)^  kill->next event at a client: p50 [0-9.]+ms  p99 [0-9.]+ms  max [0-9.]+ms  \([1-9]\)$`,
		`(?m)^node 1 http://127\.0\.0\.1:\d+: peak RSS [0-9.]+ MiB, Go memory [0-9.]+ MiB; .*CPU [0-9.]+s, [0-9.]+ cores$`,
		`(?m)^node 2 http://127\.0\.0\.1:\d+: peak RSS [0-9.]+ MiB`,
		`(?m)^node 3 http://127\.0\.0\.1:\d+: peak RSS [0-9.]+ MiB, .* \(killed at [0-9.]+s: until then\)$`,
	} {
		if !regexp.MustCompile(want).MatchString(report) {
			t.Errorf("the report has no line matching %s", want)
		}
	}
	m := regexp.MustCompile(`games moved (\d+) of the (\d+) live`).FindStringSubmatch(report)
	if m == nil || m[1] != m[2] {
		t.Errorf("not every live game of the dead node was adopted: %v", m)
	}
	m = regexp.MustCompile(`\(schema (loadtest_[0-9a-f_]+)\)`).FindStringSubmatch(report)
	if m == nil {
		t.Fatal("the report does not name the run's schema")
	}
	conn, err := pgx.Connect(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var left int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM pg_namespace WHERE nspname = $1`, m[1]).Scan(&left); err != nil || left != 0 {
		t.Errorf("the run's schema %s: %d left, %v", m[1], left, err)
	}
}
