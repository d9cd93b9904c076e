package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/server"
)

// loadGame is one game of a load test: its four players and when each of
// its actions was sent, by the number of the event it answered.
type loadGame struct {
	id     string
	client *http.Client   // its players' HTTP client; nil for the load test's
	ready  sync.WaitGroup // done when all four players are connected
	mu     sync.Mutex
	sent   map[int64]time.Time

	// owner: with --nodes, the index of the node that drives the game,
	// moved on when another adopts it (loadnodes.go).
	owner atomic.Int32
	// firsts: when the load test kills a node, the time each event was
	// first delivered to any of the game's clients, by number (the
	// failover's figures, loadfailover.go); over: a client saw the end.
	firsts []time.Time
	over   bool
	// orphaned: the game was driven by the node killed, and live, at the
	// kill; adoptedAt: when another node adopted it, by that node's log.
	orphaned  bool
	adoptedAt time.Time
}

func (g *loadGame) markSent(seq int64, t time.Time) {
	g.mu.Lock()
	g.sent[seq] = t
	g.mu.Unlock()
}

func (g *loadGame) sentAt(seq int64) (time.Time, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	t, ok := g.sent[seq]
	return t, ok
}

// delivered notes that event seq reached a client at t; end says it
// was the game's last.
func (g *loadGame) delivered(seq int64, t time.Time, end bool, timeline bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if end {
		g.over = true
	}
	if !timeline {
		return
	}
	for int64(len(g.firsts)) < seq {
		g.firsts = append(g.firsts, time.Time{})
	}
	if g.firsts[seq-1].IsZero() {
		g.firsts[seq-1] = t
	}
}

// loadPlayer holds one seat of a load-test game over a WebSocket: it acts
// at random when its seat is to act, checks that the events it receives
// are numbered 1, 2, 3... without gap or repeat, and reconnects with its
// last event number if it is dropped.
type loadPlayer struct {
	lt    *loadTest
	game  *loadGame
	seat  string
	token string
	rng   *rand.Rand
	count bool // count the game's actions (one player of each game does)
	// node: with --nodes, the index in lt.nodes of the node it connects
	// to; it moves on to the next when a dial fails (the node is gone).
	node int

	last       int64 // the last event received
	lost, dups int64
	over       bool
	connected  bool // it has been connected once

	// pending: the last action sent, for the event numbered pendingSeq,
	// until the game moves on; sent again as it was when a reconnection
	// shows the decision still open (a client that keeps its choice; a
	// second try of an action sent with its seq is never applied twice).
	pending    []byte
	pendingSeq int64

	// onEvent, if set, sees every numbered event received, in order; data
	// is the player's until onEvent returns.
	onEvent func(data []byte, e *loadEvent)
}

// loadEvent is what a load-test player reads of a server message
// (server.Event): the fields it acts on and checks, so that decoding some
// thousands of them a second costs the measuring side, which shares the
// machine and perhaps the process with the server, as little as it can.
type loadEvent struct {
	Seq     int64         `json:"seq"`
	Kind    string        `json:"kind"`
	By      string        `json:"by"`
	ToAct   string        `json:"to_act"`
	Actions []string      `json:"actions"`
	Last    int64         `json:"last"`
	Error   *server.Error `json:"error"`

	// seen: the strings read so far, by their text (decodeLoadEvent),
	// kept while the loadEvent is reused.
	seen map[string]string
}

// maxReconnects bounds how often a player reconnects before it gives up.
const maxReconnects = 20

// play plays until the game is over, the context is done or the
// connection keeps failing.
func (p *loadPlayer) play(ctx context.Context) error {
	var err error
	for attempt := 0; attempt <= maxReconnects; attempt++ {
		if attempt > 0 {
			select {
			case <-time.After(time.Duration(attempt) * 50 * time.Millisecond):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		var dialed bool
		dialed, err = p.follow(ctx)
		if err == nil || ctx.Err() != nil {
			return err
		}
		if dialed {
			p.lt.reconnects.Add(1)
		} else {
			p.lt.dialRetries.Add(1)
			if len(p.lt.nodes) > 0 {
				p.node = (p.node + 1) % len(p.lt.nodes) // any node serves any client
			}
		}
	}
	return fmt.Errorf("game %s, %s: gave up after %d tries: %w", p.game.id, p.seat, maxReconnects, err)
}

// follow connects and follows the game until it is over or the connection
// fails; dialed says whether it got connected.
func (p *loadPlayer) follow(ctx context.Context) (dialed bool, err error) {
	// A context of the connection's own: the WebSocket library registers
	// with the context of every Write, and thousands of connections
	// registering with one shared context queue on its lock, which the
	// times would measure.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	base := p.lt.wsBase
	if len(p.lt.nodes) > 0 {
		base = "ws" + strings.TrimPrefix(p.lt.nodes[p.node], "http")
	}
	u := base + "/api/games/" + p.game.id + "/ws?after=" + strconv.FormatInt(p.last, 10)
	h := http.Header{}
	if p.token != "" {
		h.Set("Authorization", "Bearer "+p.token)
	}
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h, HTTPClient: p.game.client})
	if err != nil {
		return false, err
	}
	defer conn.CloseNow()
	// Reads watch no context (the library would register with it for
	// every message): closing the connection ends them.
	defer context.AfterFunc(ctx, func() { conn.CloseNow() })()
	conn.SetReadLimit(1 << 20)
	if !p.connected {
		// Play starts when the game's four players are there, so that the
		// times measure broadcasts, not connections.
		p.connected = true
		p.game.ready.Done()
		p.game.ready.Wait()
	}
	var (
		buf bytes.Buffer
		e   loadEvent // reused: its Actions keep their array
	)
	for {
		_, rd, err := conn.Reader(context.Background())
		if err == nil {
			buf.Reset()
			_, err = buf.ReadFrom(rd)
		}
		if err != nil {
			if ctx.Err() != nil {
				return true, ctx.Err()
			}
			return true, err
		}
		data := buf.Bytes()
		now := time.Now()
		if err := decodeLoadEvent(data, p.seat, &e); err != nil {
			return true, fmt.Errorf("message %q: %w", data, err)
		}
		hello := false
		switch {
		case e.Kind == server.KindError:
			p.lt.countError(e.Error.Code)
			if p.pending != nil && (e.Error.Code == server.ETOOMANY || e.Error.Code == server.EUNAVAILABLE) {
				time.Sleep(100 * time.Millisecond) // the game waits for this player: try again
				if err := conn.Write(ctx, websocket.MessageText, p.pending); err != nil {
					return true, err
				}
			}
			continue
		case e.Kind == server.KindHello:
			if e.Last != p.last {
				continue // the missed events follow
			}
			// Nothing was missed: the hello shows the decision open now (an
			// action sent before a reconnection may have been lost).
			hello, e.Seq = true, e.Last
			if p.pending != nil && p.pendingSeq == e.Last && e.ToAct == p.seat {
				if err := conn.Write(ctx, websocket.MessageText, p.pending); err != nil {
					return true, err
				}
				continue
			}
		case e.Seq == 0:
			continue
		case e.Seq <= p.last:
			p.dups++
			continue
		case e.Seq > p.last+1:
			p.lost += e.Seq - p.last - 1
		}
		p.pending = nil
		if !hello {
			p.last = e.Seq
			p.lt.events.Add(1)
			p.game.delivered(e.Seq, now, e.Kind == server.KindEnd, p.lt.timeline)
			if p.onEvent != nil {
				p.onEvent(data, &e)
			}
			if e.Kind == server.KindAction {
				if p.count {
					p.lt.actions.Add(1)
				}
				if e.By == server.ByPlayer {
					if t, ok := p.game.sentAt(e.Seq - 1); ok {
						p.lt.observe(p.game, t, now, len(p.lt.nodes) > 0 && p.node != int(p.game.owner.Load()))
					}
				}
			}
			if e.Kind == server.KindEnd {
				p.over = true
				conn.Close(websocket.StatusNormalClosure, "")
				return true, nil
			}
		}
		if e.ToAct == p.seat && len(e.Actions) > 0 {
			if p.lt.think > 0 {
				time.Sleep(time.Duration(p.rng.Int64N(int64(p.lt.think))))
			}
			a := e.Actions[p.rng.IntN(len(e.Actions))]
			msg, _ := json.Marshal(server.Message{Kind: "action", Action: a, Seq: e.Seq})
			p.game.markSent(e.Seq, time.Now())
			p.pending, p.pendingSeq = msg, e.Seq
			if err := conn.Write(ctx, websocket.MessageText, msg); err != nil {
				return true, err
			}
		}
	}
}

// createGame creates a game of four human seats with client, trying again
// while the server says it is too busy.
func (lt *loadTest) createGame(ctx context.Context, client *http.Client, base string) (*server.Created, error) {
	body := []byte(`{"rules": "chaturaji", "seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "bot_delay_ms": 0}`)
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, "POST", base+"/api/games", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		switch {
		case resp.StatusCode == http.StatusCreated:
			var c server.Created
			return &c, json.Unmarshal(b, &c)
		case resp.StatusCode == http.StatusTooManyRequests && attempt < 100:
			select {
			case <-time.After(100 * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		default:
			return nil, fmt.Errorf("POST /api/games: %s: %s", resp.Status, bytes.TrimSpace(b))
		}
	}
}

// createTried counts a game whose creation was tried; once all have been,
// the load test's HTTP clients close their idle connections: the players
// need no more than their WebSockets, and a thousand connections idle to
// the end, on both sides of them, were 3,000 goroutines of the process for
// its garbage collector to scan.
func (lt *loadTest) createTried() {
	if lt.opened.Add(1) != int64(lt.want) {
		return
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	for _, c := range lt.clients {
		c.CloseIdleConnections()
	}
	lt.http.CloseIdleConnections()
}

// playGame creates a game and plays it with four players.
func (lt *loadTest) playGame(ctx context.Context, n int) error {
	client := lt.clientOf(n / gamesPerAddress)
	base, owner := lt.base, 0
	if len(lt.nodes) > 0 {
		// Spread over the nodes: the game is driven by the node that
		// creates it, and its players connect to it and to the others.
		owner = n % len(lt.nodes)
		base = lt.nodes[owner]
	}
	c, err := lt.createGame(ctx, client, base)
	if err != nil {
		lt.createTried()
		return err
	}
	g := &loadGame{id: c.ID, client: client, sent: make(map[int64]time.Time)}
	g.owner.Store(int32(owner))
	lt.addGame(g)
	lt.createTried() // after addGame: a node is killed once all are in lt.games
	g.ready.Add(len(c.Seats))
	players := make([]*loadPlayer, len(c.Seats))
	errs := make(chan error, len(players))
	for i, s := range c.Seats {
		players[i] = &loadPlayer{
			lt: lt, game: g, seat: s.Seat, token: s.Token, count: i == 0,
			rng: rand.New(rand.NewPCG(lt.seed, uint64(n*4+i))),
		}
		if len(lt.nodes) > 0 {
			players[i].node = (owner + i) % len(lt.nodes)
		}
		go func() { errs <- players[i].play(ctx) }()
	}
	var all []error
	for range players {
		if err := <-errs; err != nil {
			all = append(all, err)
		}
	}
	for _, p := range players {
		lt.lost.Add(p.lost)
		lt.dups.Add(p.dups)
		if !p.over {
			all = append(all, fmt.Errorf("game %s: %s did not see the end", g.id, p.seat))
		}
	}
	return errors.Join(all...)
}
