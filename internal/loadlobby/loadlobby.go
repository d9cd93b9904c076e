// Package loadlobby drives a server's lobby as many people at once: each
// seeker opens the lobby's WebSocket, seeks in one of several pools (for
// people only), and waits to be seated. It measures, for each game the
// lobby makes, the time from its table's last seeker asking to be seated
// to the last of its players being told of its seat, and checks that
// every seeker is seated exactly once, in a game with the seekers its
// pool's tables hold. `chaturaji loadtest --lobby` calls it.
package loadlobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/lobby"
	"github.com/chaturaji/chaturaji/server"
)

// DefaultPools are the pools a run spreads its seekers over: tables of
// four at two paces and by correspondence, of two, and of two teams.
var DefaultPools = []string{
	"chaturaji/15s/casual", "chaturaji/1m0s/casual", "chaturaji/1d/casual",
	"chaturaji-teams/15s/casual", "chaturanga-2p/15s/casual",
}

// Config is a run.
type Config struct {
	WSBase  string   // the server's base for WebSockets, such as ws://127.0.0.1:8080
	Seekers int      // how many seekers, at once
	Pools   []string // the pools, DefaultPools if none; each gets a whole number of tables
	// Rate is how many seekers seek a second, in a steady stream once
	// every one is connected (0 for all at once).
	Rate float64
	// Client returns the HTTP client of the i-th seeker, so that a caller
	// may spread them over addresses within the server's limits per
	// client; http.DefaultClient if nil.
	Client func(i int) *http.Client
}

// Result is what a run measured.
type Result struct {
	Seekers int             // the seekers that sought
	Seated  int             // those told of a seat
	Games   int             // the games they were seated in
	Tables  []time.Duration // per game: from its last seeker's seek to its last player told, sorted
	Errors  []string        // what went wrong, at most a few
}

// Percentile returns the p-th percentile (0 to 1) of the tables' times.
func (r *Result) Percentile(p float64) time.Duration {
	if len(r.Tables) == 0 {
		return 0
	}
	i := min(int(float64(len(r.Tables))*p), len(r.Tables)-1)
	return r.Tables[i]
}

// seeker is one client of the lobby.
type seeker struct {
	name   string
	pool   string
	conn   *websocket.Conn
	sent   time.Time // when it sent its seek
	seated time.Time // when it was told of its seat
	game   string
	seat   string
	twice  bool // told of a second seat
}

// Run connects cfg.Seekers clients to the lobby, has them seek, and waits
// until every one is seated or ctx is done. A seeker seated twice, or not
// at all, a game with seekers of several pools or too many, fails it.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	pools := cfg.Pools
	if len(pools) == 0 {
		pools = DefaultPools
	}
	seats := make([]int, len(pools))
	for i, key := range pools {
		p, err := lobby.ParsePool(key)
		if err != nil {
			return nil, err
		}
		sh, err := p.Shape()
		if err != nil {
			return nil, err
		}
		seats[i] = sh.Seats
	}
	// Each pool a whole number of tables: the share of each, rounded
	// down to its seats.
	var plan []int // the pool of each seeker
	for i := range pools {
		share := cfg.Seekers / len(pools)
		share -= share % seats[i]
		for range share {
			plan = append(plan, i)
		}
	}
	if len(plan) == 0 {
		return nil, fmt.Errorf("loadlobby: %d seekers make no table in %d pools", cfg.Seekers, len(pools))
	}
	// Interleaved, so that every pool fills at once.
	order := interleave(plan, len(pools))

	client := cfg.Client
	if client == nil {
		client = func(int) *http.Client { return http.DefaultClient }
	}
	ss := make([]*seeker, len(order))
	var wg sync.WaitGroup
	errs := make(chan error, len(order))
	for i, p := range order {
		s := &seeker{name: fmt.Sprintf("load%05d", i), pool: pools[p]}
		ss[i] = s
		conn, err := dial(ctx, cfg.WSBase, client(i))
		if err != nil {
			closeAll(ss)
			return nil, fmt.Errorf("loadlobby: seeker %d: %w", i+1, err)
		}
		s.conn = conn
	}
	defer closeAll(ss)
	var mu sync.Mutex
	done := make(chan struct{}, len(ss))
	for _, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.listen(ctx, &mu, done); err != nil && ctx.Err() == nil {
				errs <- err
			}
		}()
	}
	var tick <-chan time.Time
	if cfg.Rate > 0 {
		t := time.NewTicker(time.Duration(float64(time.Second) / cfg.Rate))
		defer t.Stop()
		tick = t.C
	}
	for _, s := range ss {
		if tick != nil {
			select {
			case <-tick:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		msg, _ := json.Marshal(map[string]string{"kind": server.LobbySeek, "pool": s.pool, "name": s.name})
		mu.Lock()
		s.sent = time.Now()
		mu.Unlock()
		if err := s.conn.Write(ctx, websocket.MessageText, msg); err != nil {
			return nil, fmt.Errorf("loadlobby: %s seeking: %w", s.name, err)
		}
	}
	res := &Result{Seekers: len(ss)}
	for range ss {
		select {
		case <-done:
			res.Seated++
		case err := <-errs:
			res.Errors = append(res.Errors, err.Error())
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	for _, s := range ss {
		s.conn.CloseNow()
	}
	wg.Wait()
	return res, res.check(ss, seats, pools)
}

// interleave orders the seekers of plan so that the pools take turns.
func interleave(plan []int, pools int) []int {
	byPool := make([][]int, pools)
	for _, p := range plan {
		byPool[p] = append(byPool[p], p)
	}
	var out []int
	for len(out) < len(plan) {
		for p := range byPool {
			if len(byPool[p]) > 0 {
				out = append(out, p)
				byPool[p] = byPool[p][1:]
			}
		}
	}
	return out
}

// dial opens the lobby's WebSocket and reads its hello.
func dial(ctx context.Context, base string, client *http.Client) (*websocket.Conn, error) {
	for attempt := 0; ; attempt++ {
		c, resp, err := websocket.Dial(ctx, base+"/api/lobby/ws", &websocket.DialOptions{HTTPClient: client})
		if err == nil {
			c.SetReadLimit(1 << 22)
			return c, nil
		}
		// The server's limits of requests: try again a little later.
		if resp == nil || resp.StatusCode != http.StatusTooManyRequests || attempt == 20 {
			return nil, err
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func closeAll(ss []*seeker) {
	for _, s := range ss {
		if s != nil && s.conn != nil {
			s.conn.CloseNow()
		}
	}
}

// listen reads the seeker's messages: the lobby's views, its seek
// stored, and its seat, which it notes and signals on done.
func (s *seeker) listen(ctx context.Context, mu *sync.Mutex, done chan<- struct{}) error {
	for {
		_, data, err := s.conn.Read(ctx)
		if err != nil {
			mu.Lock()
			seated := s.game != ""
			mu.Unlock()
			if seated {
				return nil
			}
			return fmt.Errorf("%s: %w", s.name, err)
		}
		var e server.LobbyEvent
		if err := json.Unmarshal(data, &e); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		switch e.Kind {
		case server.LobbySeated:
			now := time.Now()
			mu.Lock()
			first := s.game == ""
			if first {
				s.seated, s.game, s.seat = now, e.Game, e.Seat
			} else {
				s.twice = true
			}
			mu.Unlock()
			if first {
				done <- struct{}{}
			}
		case server.LobbyError:
			return fmt.Errorf("%s: %s: %s", s.name, e.Error.Code, e.Error.Message)
		}
	}
}

// check fills in the games and their times, and returns an error if a
// seeker was seated twice or not at all, or a game does not hold a
// table's seekers of one pool in seats of their own.
func (r *Result) check(ss []*seeker, seats []int, pools []string) error {
	byGame := map[string][]*seeker{}
	var problems []string
	for _, s := range ss {
		switch {
		case s.twice:
			problems = append(problems, fmt.Sprintf("%s was seated twice", s.name))
		case s.game == "":
			problems = append(problems, fmt.Sprintf("%s was never seated", s.name))
		default:
			byGame[s.game] = append(byGame[s.game], s)
		}
	}
	for id, g := range byGame {
		want := seats[slices.Index(pools, g[0].pool)]
		var last, told time.Time
		var taken []string
		for _, s := range g {
			if s.pool != g[0].pool {
				problems = append(problems, fmt.Sprintf("game %s seats seekers of pools %s and %s", id, g[0].pool, s.pool))
			}
			if slices.Contains(taken, s.seat) {
				problems = append(problems, fmt.Sprintf("game %s gave seat %s twice", id, s.seat))
			}
			taken = append(taken, s.seat)
			if s.sent.After(last) {
				last = s.sent
			}
			if s.seated.After(told) {
				told = s.seated
			}
		}
		if len(g) != want {
			problems = append(problems, fmt.Sprintf("game %s seats %d seekers, want %d", id, len(g), want))
		}
		r.Tables = append(r.Tables, told.Sub(last))
	}
	r.Games = len(byGame)
	slices.Sort(r.Tables)
	problems = append(problems, r.Errors...)
	if len(problems) > 0 {
		if len(problems) > 5 {
			problems = append(problems[:5], fmt.Sprintf("and %d more", len(problems)-5))
		}
		return errors.New("loadlobby: " + fmt.Sprint(problems))
	}
	return nil
}
