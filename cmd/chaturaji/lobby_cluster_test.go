package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
)

// lobbySeeker is a client of a node's lobby WebSocket that seeks once
// and waits to be seated.
type lobbySeeker struct {
	name   string
	node   int
	conn   *websocket.Conn
	seated chan server.LobbyEvent // the seated message, once
	errs   chan error
}

// seekOn opens node addr's lobby and seeks in pool as name, waiting for
// the server to say it seeks.
func seekOn(t *testing.T, addr string, node int, name, pool string) *lobbySeeker {
	t.Helper()
	s, err := trySeekOn(t, addr, node, name, pool)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// trySeekOn is seekOn, returning its error.
func trySeekOn(t *testing.T, addr string, node int, name, pool string) (*lobbySeeker, error) {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws://"+addr+"/api/lobby/ws", nil)
	if err != nil {
		return nil, fmt.Errorf("%s: dialling the lobby of node %d: %v", name, node, err)
	}
	conn.SetReadLimit(1 << 20)
	t.Cleanup(func() { conn.CloseNow() })
	s := &lobbySeeker{name: name, node: node, conn: conn, seated: make(chan server.LobbyEvent, 1), errs: make(chan error, 1)}
	msg, _ := json.Marshal(map[string]string{"kind": "seek", "pool": pool, "name": name})
	if err := conn.Write(ctx, websocket.MessageText, msg); err != nil {
		return nil, err
	}
	seeking := make(chan struct{})
	go func() {
		said := false
		for {
			_, data, err := conn.Read(context.Background())
			if err != nil {
				s.errs <- err
				return
			}
			var e server.LobbyEvent
			if err := json.Unmarshal(data, &e); err != nil {
				s.errs <- err
				return
			}
			switch e.Kind {
			case server.LobbySeeking:
				if !said {
					said = true
					close(seeking)
				}
			case server.LobbySeated:
				s.seated <- e
			case server.LobbyError:
				s.errs <- fmt.Errorf("%s: %+v", name, e.Error)
				return
			}
		}
	}()
	select {
	case <-seeking:
	case err := <-s.errs:
		return nil, fmt.Errorf("%s: %v", name, err)
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: no answer to the seek of node %d", name, node)
	}
	return s, nil
}

// lobbyCluster is n `chaturaji serve` processes on one PostgreSQL
// database, for the lobby.
type lobbyCluster struct {
	t     *testing.T
	db    string
	addrs []string
	procs []*serverProcess
}

func newLobbyCluster(t *testing.T, n int) *lobbyCluster {
	bin := buildBinary(t)
	c := &lobbyCluster{t: t, db: pgtest.Schema(t)}
	keys := filepath.Join(t.TempDir(), "server.key")
	keygen(t, bin, keys)
	for range n {
		addr := freeAddr(t)
		c.addrs = append(c.addrs, addr)
		// Every seeker of the test comes from one address.
		c.procs = append(c.procs, startBinary(t, bin, addr, c.db, "--key-file", keys, "--lease", clusterLease,
			"--request-rate", "2000", "--max-lobby-conns-per-client", "500", "--lobby-claim-wait", "1s", "--lobby-round", "100ms"))
	}
	return c
}

// seatsByName returns, for each seat's name in the database's games, the
// games that seat it.
func (c *lobbyCluster) seatsByName() map[string][]string {
	conn, err := pgx.Connect(context.Background(), c.db)
	if err != nil {
		c.t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(context.Background(), `SELECT name, game_id FROM seats WHERE player = 'human'`)
	if err != nil {
		c.t.Fatal(err)
	}
	out := map[string][]string{}
	for rows.Next() {
		var name, game string
		if err := rows.Scan(&name, &game); err != nil {
			c.t.Fatal(err)
		}
		out[name] = append(out[name], game)
	}
	if err := rows.Err(); err != nil {
		c.t.Fatal(err)
	}
	return out
}

// waiting reports whether the database holds an open seek of name.
func (c *lobbyCluster) waiting(name string) bool {
	conn, err := pgx.Connect(context.Background(), c.db)
	if err != nil {
		c.t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM lobby_seekers k JOIN lobby_seeks s ON s.id = k.seek
		WHERE k.name = $1 AND s.tbl IS NULL`, name).Scan(&n); err != nil {
		c.t.Fatal(err)
	}
	return n > 0
}

// TestLobbyCluster: seekers spread over two nodes, seeking in turn, are
// seated together: each in one game, the games mixing both nodes'.
func TestLobbyCluster(t *testing.T) {
	c := newLobbyCluster(t, 2)
	const pool = "chaturaji/15s/casual"
	var seekers []*lobbySeeker
	for i := range 8 {
		seekers = append(seekers, seekOn(t, c.addrs[i%2], i%2, fmt.Sprintf("s%d", i), pool))
	}
	nodes := map[string]map[int]bool{} // by game, the nodes of its seekers
	for _, s := range seekers {
		select {
		case e := <-s.seated:
			if nodes[e.Game] == nil {
				nodes[e.Game] = map[int]bool{}
			}
			nodes[e.Game][s.node] = true
		case err := <-s.errs:
			t.Fatal(err)
		case <-time.After(15 * time.Second):
			t.Fatalf("%s of node %d was not seated\n%s", s.name, s.node, c.procs[0].log.String()+c.procs[1].log.String())
		}
	}
	if len(nodes) != 2 {
		t.Fatalf("seated in %d games, want 2", len(nodes))
	}
	for g, ns := range nodes {
		if len(ns) != 2 {
			t.Errorf("game %s seats the seekers of nodes %v, want both nodes'", g, ns)
		}
	}
	for name, games := range c.seatsByName() {
		if len(games) != 1 {
			t.Errorf("%s sits in games %v, want one", name, games)
		}
	}
}

// TestLobbyClusterKill: seekers spread over two nodes, and one node is
// killed (SIGKILL) as they are paired: every seeker ends in exactly one
// game or is still waiting, never in two, by the database; the survivor's
// seekers at tables the dead node claimed are seated by the survivor.
func TestLobbyClusterKill(t *testing.T) {
	c := newLobbyCluster(t, 2)
	const pool = "chaturaji/15s/casual"
	const n = 120
	var seekers []*lobbySeeker
	var mu sync.Mutex
	var wg sync.WaitGroup
	killed := make(chan struct{})
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 2 {
				s, err := trySeekOn(t, c.addrs[i%2], i%2, fmt.Sprintf("s%03d", i), pool)
				if err != nil {
					select {
					case <-killed:
						if i%2 == 0 {
							continue // the dead node's
						}
					default:
					}
					t.Error(err)
					return
				}
				mu.Lock()
				seekers = append(seekers, s)
				mu.Unlock()
			}
		}()
	}
	// In the middle of the seeks and their rounds.
	for {
		mu.Lock()
		k := len(seekers)
		mu.Unlock()
		if k >= n/2 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(killed)
	c.procs[0].kill(t)
	wg.Wait()
	if t.Failed() {
		return
	}
	// The survivor's seekers at tables the dead node claimed are seated
	// after --lobby-claim-wait; give them that and more.
	seatedIn := map[string]string{}
	deadline := time.Now().Add(10 * time.Second)
	for _, s := range seekers {
		if s.node != 1 {
			continue
		}
		select {
		case e := <-s.seated:
			seatedIn[s.name] = e.Game
		case <-time.After(time.Until(deadline)):
		}
	}
	byName := c.seatsByName()
	for name, games := range byName {
		if len(games) != 1 {
			t.Errorf("%s sits in games %v, want one", name, games)
		}
	}
	waiting := 0
	for _, s := range seekers {
		if s.node != 1 {
			continue
		}
		games := byName[s.name]
		switch g, ok := seatedIn[s.name]; {
		case ok && (len(games) != 1 || games[0] != g):
			t.Errorf("%s was seated in game %s, and sits in games %v by the database", s.name, g, games)
		case !ok && len(games) != 0:
			t.Errorf("%s sits in games %v by the database, and was never told", s.name, games)
		case !ok && !c.waiting(s.name):
			t.Errorf("%s of the surviving node is in no game and not waiting", s.name)
		case !ok:
			waiting++
		}
	}
	recovered := strings.Count(c.procs[1].log.String(), "making the game of a table its node left")
	t.Logf("%d seekers; of the survivor's, %d seated, %d waiting; %d tables claimed by the dead node made by the survivor; %d seekers in games",
		len(seekers), len(seatedIn), waiting, recovered, len(byName))
	if len(seatedIn) == 0 {
		t.Errorf("none of the survivor's seekers was seated")
	}
}
