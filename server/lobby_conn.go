package server

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chaturaji/chaturaji/internal/strictjson"
	"github.com/chaturaji/chaturaji/lobby"
	"github.com/chaturaji/chaturaji/store"
	"github.com/coder/websocket"
	"golang.org/x/time/rate"
)

// lobbyOutbox is how many messages may wait for a lobby WebSocket's
// client before it is closed as too slow; the lobby's view is not one of
// them (the latest is sent when the client is ready).
const lobbyOutbox = 32

// The kinds of the lobby's messages.
const (
	LobbySeek     = "seek"     // a client asks to be seated in a pool
	LobbyWithdraw = "withdraw" // a client withdraws its seek
	LobbyOpen     = "open"     // a client opens a table
	LobbyJoin     = "join"     // a client takes a seat at an open table
	LobbyLeave    = "leave"    // a client leaves its open table's seat (its opener closes it)
	LobbyStart    = "start"    // an open table's opener starts it, bots in the seats still empty
	LobbyPair     = "pair"     // a client invites a partner to seek with it in a team pool
	LobbyPartner  = "partner"  // a client takes a pair invitation by its code: the pair seeks

	LobbyHello   = "hello"   // who the client is, first
	LobbyState   = "lobby"   // the pools, their seekers and the open tables
	LobbySeeking = "seeking" // the client's seek is stored: it waits
	LobbyGone    = "withdrawn"
	LobbySeated  = "seated"  // the client's seat in its new game
	LobbyAtTable = "table"   // the client's seat at an open table
	LobbyInvited = "invited" // the client's pair invitation, with the code to give its partner
	LobbyError   = "error"
)

// LobbyMessage is a client's message on the lobby's WebSocket.
type LobbyMessage struct {
	Kind string `json:"kind"` // LobbySeek, LobbyWithdraw, LobbyOpen, LobbyJoin, LobbyLeave, LobbyStart, LobbyPair or LobbyPartner

	// Pool is the pool a seek waits in, "RULES/TURN/rated|casual" such as
	// "chaturaji/15s/casual" (seek; pair, a pool of team rules).
	Pool string `json:"pool,omitempty"`
	// Bots: once BotWaitMS has passed with no table of people, bots of
	// about the seeker's strength fill the seats left (seek, pair); else
	// the seek waits for people only.
	Bots bool `json:"bots,omitempty"`
	// BotWaitMS is the wait before bots, in milliseconds (seek, pair; 0
	// for the default, 20 s).
	BotWaitMS int64 `json:"bot_wait_ms,omitempty"`
	// Name is a guest's name, shown to others (seek, open, join, pair,
	// partner);
	// "Guest" if empty. A signed-in player is shown by the account's.
	Name string `json:"name,omitempty"`

	// Rules, TurnMS and Rated are an open table's ruleset, time per
	// decision (TURN of a pool) and kind (open).
	Rules  string `json:"rules,omitempty"`
	TurnMS int64  `json:"turn_ms,omitempty"` // in milliseconds, from 1 s to a week
	Rated  bool   `json:"rated,omitempty"`   // for signed-in players only
	// MinRating and MaxRating bound the ratings of those who may take an
	// open table's seats (open; 0 for no bound).
	MinRating float64 `json:"min_rating,omitempty"`
	MaxRating float64 `json:"max_rating,omitempty"` // as MinRating
	// Seat is the opener's seat (open) or the seat taken (join), such as
	// "South".
	Seat string `json:"seat,omitempty"`
	// Open are the seats open to people besides the opener's (open); the
	// others are bots'.
	Open []string `json:"open,omitempty"`
	// Table is the open table joined (join).
	Table string `json:"table,omitempty"`
	// Code is the pair invitation taken (partner), as the inviter was
	// given it (invited).
	Code string `json:"code,omitempty"`
}

// LobbyEvent is a message of the server on the lobby's WebSocket.
type LobbyEvent struct {
	Kind string `json:"kind"` // LobbyHello, LobbyState, LobbySeeking, LobbyGone, LobbySeated, LobbyAtTable, LobbyInvited or LobbyError

	// Name, Rating and Guest say who the client is (hello).
	Name   string  `json:"name,omitempty"`
	Rating float64 `json:"rating,omitempty"` // in the main rules, on the 1,500 scale
	Guest  bool    `json:"guest,omitempty"`  // not signed in

	Pool  string     `json:"pool,omitempty"`  // the pool sought (seeking, withdrawn, seated, invited)
	Since *time.Time `json:"since,omitempty"` // when the seek was made (seeking)

	Code    string `json:"code,omitempty"`    // the pair invitation's code, for the partner's "partner" message (invited)
	Partner string `json:"partner,omitempty"` // the partner's name, for a pair's seek (seeking, seated)
	Why     string `json:"why,omitempty"`     // why a seek was withdrawn other than by the client's message (withdrawn)

	Game  string `json:"game,omitempty"`  // the new game (seated)
	Seat  string `json:"seat,omitempty"`  // the client's seat (seated, table)
	Token string `json:"token,omitempty"` // the seat's token, to act with (seated)

	Table *TableView `json:"table,omitempty"` // the client's open table (table)

	*LobbyView // the lobby (lobby)

	Error *Error `json:"error,omitempty"` // why a message was refused (error)
	Echo  string `json:"echo,omitempty"`  // the kind of message refused (error)
}

// lobbyConn is one lobby WebSocket: a seeker, an open table's player, or
// a watcher of the lobby.
type lobbyConn struct {
	h      *hall
	conn   *websocket.Conn
	nc     net.Conn
	wmu    sync.Mutex
	client client
	out    chan []byte   // messages to send, in order
	viewed chan struct{} // a new view to send
	cancel context.CancelFunc

	// Who the client is: an account (signed in) or a guest, one per
	// socket.
	player            string
	account           string
	name              string
	mu, sigma, rating float64

	order uint64 // the order of the sockets, to lock two at once (a pair's)

	state  sync.Mutex
	seek   *localSeek  // the open seek, if any: its own, or a pair's
	table  string      // the open table it sits at, if any
	invite *pairInvite // its open pair invitation, if any
	told   string      // the game it was last told it is seated in
}

// handleLobbyWS is GET /api/lobby/ws: the lobby's WebSocket.
func (s *Server) handleLobbyWS(w http.ResponseWriter, r *http.Request) {
	h := s.hall
	if h == nil {
		s.fail(w, r, Errorf(ENOTFOUND, "this server's store keeps no lobby"))
		return
	}
	if !s.originAllowed(r) {
		s.fail(w, r, Errorf(EFORBIDDEN, "WebSocket from origin %q refused: only the server's own pages and allowed origins may connect", r.Header.Get("Origin")))
		return
	}
	if err := checkUpgrade(r); err != nil {
		s.fail(w, r, err)
		return
	}
	cl := infoOf(r).client
	if err := h.admit(cl); err != nil {
		s.fail(w, r, err)
		return
	}
	defer h.leave(cl)
	if !s.conns.open(cl) {
		s.fail(w, r, Errorf(ETOOMANY, "too many WebSockets open from your address: the limit is %d", s.cfg.MaxConnsPerAddr))
		return
	}
	defer s.conns.close(cl)
	if !s.track() {
		s.fail(w, r, Errorf(EUNAVAILABLE, "the server is shutting down"))
		return
	}
	defer s.wg.Done()
	c := &lobbyConn{h: h, nc: connOf(r), client: cl, out: make(chan []byte, lobbyOutbox), viewed: make(chan struct{}, 1), order: lobbyConns.Add(1)}
	if a := s.signedIn(r); a != nil {
		c.account, c.player, c.name = a.ID, lobbyPlayer(a.ID), a.Name
		c.mu, c.sigma = s.seekerRating(r.Context(), a.ID, "chaturaji")
	} else {
		c.player, c.name = "guest:"+newID(), "Guest"
		c.mu, c.sigma = s.seekerRating(r.Context(), "", "chaturaji")
	}
	c.rating = shownRating(c.mu, c.sigma)
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		InsecureSkipVerify: true, // the origin is checked above
		CompressionMode:    websocket.CompressionDisabled,
	})
	if err != nil {
		return
	}
	conn.SetReadLimit(s.cfg.MaxMessage * hardLimitFactor)
	c.conn = conn
	s.metrics.wsConns.Inc()
	defer s.metrics.wsConns.Dec()
	c.serve(r.Context())
}

// lobbyConns numbers the lobby WebSockets (lobbyConn.order).
var lobbyConns atomic.Uint64

// admit counts a lobby WebSocket of client cl, within MaxLobbyConns and
// MaxLobbyConnsPerClient; leave uncounts it.
func (h *hall) admit(cl client) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	total := 0
	for _, n := range h.per {
		total += n
	}
	switch {
	case h.per[cl] >= h.s.cfg.MaxLobbyConnsPerClient:
		return Errorf(ETOOMANY, "too many lobby WebSockets open from your address: the limit is %d", h.s.cfg.MaxLobbyConnsPerClient)
	case total >= h.s.cfg.MaxLobbyConns:
		return Errorf(EUNAVAILABLE, "the lobby has %d WebSockets open, its limit; try again later", total)
	}
	h.per[cl]++
	return nil
}

func (h *hall) leave(cl client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.per[cl]--; h.per[cl] <= 0 {
		delete(h.per, cl)
	}
}

// serve sends the hello and the lobby's view, then what comes, while a
// reader takes the client's messages; when the client goes, its open
// seek is withdrawn and its open table's seat left.
func (c *lobbyConn) serve(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	c.cancel = cancel
	defer cancel()
	defer c.conn.CloseNow()
	h := c.h
	h.mu.Lock()
	h.conns[c] = true
	h.mu.Unlock()
	defer c.gone()
	hello, _ := json.Marshal(&LobbyEvent{Kind: LobbyHello, Name: c.name, Rating: c.rating, Guest: c.account == ""})
	if c.write(ctx, hello) != nil {
		return
	}
	h.refreshView(time.Now(), true)
	select {
	case c.viewed <- struct{}{}:
	default:
	}
	go c.read(ctx)
	wctx := &wsConn{srv: h.s, conn: c.conn, nc: c.nc}
	wctx.ck, _ = c.nc.(corker)
	defer wctx.ping(ctx, cancel)()
	for {
		select {
		case m := <-c.out:
			if c.write(ctx, m) != nil {
				return
			}
		case <-c.viewed:
			if v := h.currentView(); v != nil && c.write(ctx, v) != nil {
				return
			}
		case <-ctx.Done():
			if h.s.ctx.Err() != nil {
				c.conn.Close(websocket.StatusGoingAway, "server shutting down: reconnect")
			}
			return
		}
	}
}

// gone withdraws what the client left behind: its open seek (a claimed
// one stays: its game is being made) and its seat at an open table.
func (c *lobbyConn) gone() {
	h := c.h
	h.mu.Lock()
	delete(h.conns, c)
	h.mu.Unlock()
	c.state.Lock()
	ls, table, inv := c.seek, c.table, c.invite
	c.seek, c.table, c.invite = nil, "", nil
	c.state.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), h.s.cfg.WriteTimeout)
	defer cancel()
	if inv != nil {
		h.dropInvite(inv)
	}
	if ls != nil {
		h.mu.Lock()
		other := ls.leftBy(c) // the loop withdraws it if this fails
		h.mu.Unlock()
		if gone, _ := h.withdraw(ctx, ls); gone {
			h.partnerGone(ls, other, "your partner left the lobby")
		}
	}
	if table != "" {
		h.leaveTable(ctx, c, table)
	}
}

// post queues a message to the client; a client too slow to take
// lobbyOutbox of them is closed.
func (c *lobbyConn) post(e *LobbyEvent) {
	data, err := json.Marshal(e)
	if err != nil {
		return
	}
	select {
	case c.out <- data:
	default:
		c.cancel()
	}
}

// write writes one message within Config.WriteTimeout.
func (c *lobbyConn) write(ctx context.Context, data []byte) error {
	ctx, cancel := context.WithTimeout(ctx, c.h.s.cfg.WriteTimeout)
	defer cancel()
	return c.conn.Write(ctx, websocket.MessageText, data)
}

// read takes the client's messages, as a game's WebSocket does: text, at
// most Config.MaxMessage bytes, within the connection's rate.
func (c *lobbyConn) read(ctx context.Context) {
	defer c.cancel()
	cfg := c.h.s.cfg
	lim := rate.NewLimiter(rate.Limit(cfg.MessageRate), cfg.MessageBurst)
	strikes := 0
	for {
		typ, rd, err := c.conn.Reader(ctx)
		if err != nil {
			return
		}
		data, err := io.ReadAll(io.LimitReader(rd, cfg.MaxMessage+1))
		if err != nil {
			return
		}
		if int64(len(data)) > cfg.MaxMessage {
			c.fail(Errorf(ETOOLARGE, "message over the limit of %d bytes", cfg.MaxMessage), "")
			c.conn.Close(websocket.StatusMessageTooBig, fmt.Sprintf("message over %d bytes", cfg.MaxMessage))
			return
		}
		if !lim.Allow() {
			if strikes++; strikes > maxStrikes {
				c.fail(Errorf(ETOOMANY, "too many messages: closing"), "")
				c.conn.Close(websocket.StatusPolicyViolation, "too many messages")
				return
			}
			c.fail(Errorf(ETOOMANY, "over the limit of %g messages a second: message ignored", cfg.MessageRate), "")
			continue
		}
		if typ != websocket.MessageText {
			c.fail(Errorf(EINVALID, "binary message: send JSON text"), "")
			continue
		}
		var m LobbyMessage
		if err := strictjson.Decode(data, &m); err != nil {
			c.fail(Errorf(EINVALID, "malformed JSON message: %v", err), "")
			continue
		}
		if err := c.handle(ctx, &m); err != nil {
			c.fail(err, m.Kind)
		}
	}
}

// fail tells the client why its message was refused.
func (c *lobbyConn) fail(err error, echo string) {
	code := ErrorCode(err)
	if code == EINTERNAL {
		c.h.s.log.Error("lobby message failed", "err", err)
	}
	c.h.s.metrics.reject(code)
	c.post(&LobbyEvent{Kind: LobbyError, Error: &Error{Code: code, Message: ErrorMessage(err)}, Echo: echo})
}

// handle acts on one message.
func (c *lobbyConn) handle(ctx context.Context, m *LobbyMessage) error {
	if err := m.check(); err != nil {
		return err
	}
	switch m.Kind {
	case LobbySeek:
		return c.seekPool(ctx, m)
	case LobbyWithdraw:
		return c.withdraw(ctx)
	case LobbyOpen:
		return c.h.openTable(ctx, c, m)
	case LobbyJoin:
		return c.h.joinTable(ctx, c, m)
	case LobbyLeave:
		c.state.Lock()
		table := c.table
		c.state.Unlock()
		if table == "" {
			return Errorf(ENOTFOUND, "you sit at no open table")
		}
		return c.h.leaveTable(ctx, c, table)
	case LobbyStart:
		return c.h.startTable(ctx, c)
	case LobbyPair:
		return c.pair(ctx, m)
	case LobbyPartner:
		return c.partner(ctx, m)
	}
	return nil
}

// check refuses a message no lobby could take, naming what is wrong.
func (m *LobbyMessage) check() error {
	switch m.Kind {
	case LobbySeek, LobbyWithdraw, LobbyOpen, LobbyJoin, LobbyLeave, LobbyStart, LobbyPair, LobbyPartner:
	default:
		return Errorf(EINVALID, "unknown message kind %q: want seek, withdraw, open, join, leave, start, pair or partner", m.Kind)
	}
	if err := checkName(m.Name); err != nil {
		return Errorf(EINVALID, "name: %v", err)
	}
	if m.BotWaitMS < 0 || m.BotWaitMS > lobby.MaxBotWait.Milliseconds() {
		return Errorf(EINVALID, "bot_wait_ms %d: want 0 (the default, %d) to %d", m.BotWaitMS, lobby.DefaultBotWait.Milliseconds(), lobby.MaxBotWait.Milliseconds())
	}
	return nil
}

// seekPool stores the client's seek in a pool, replacing its open one
// (a pair's too, whose partner is told) and its pair invitation.
func (c *lobbyConn) seekPool(ctx context.Context, m *LobbyMessage) error {
	pool, err := lobby.ParsePool(m.Pool)
	if err != nil {
		return lobbyError(err, "")
	}
	if pool.Rated && c.account == "" {
		return Errorf(EUNAUTHORIZED, "pool %q is rated: sign in to play rated games", pool.String())
	}
	if err := c.h.s.correspondenceRoom(pool); err != nil {
		return err
	}
	c.state.Lock()
	old, err := c.seekLocked(ctx, pool, m)
	c.state.Unlock()
	if old != nil {
		c.h.partnerGone(old.seek, old.conn, "your partner sought alone")
	}
	return err
}

// left is a pair's seek that its partner's new seek replaced, to tell
// the other partner of: its socket on the node, if any.
type left struct {
	conn *lobbyConn
	seek *localSeek
}

// seekLocked is seekPool with c.state held; it returns the partner of a
// pair's seek replaced, to be told once c.state is released.
func (c *lobbyConn) seekLocked(ctx context.Context, pool lobby.Pool, m *LobbyMessage) (*left, error) {
	h := c.h
	if c.table != "" {
		return nil, Errorf(ECONFLICT, "you sit at open table %s: leave it before you seek", c.table)
	}
	mu, sigma := c.mu, c.sigma
	if c.account != "" {
		mu, sigma = h.s.seekerRating(ctx, c.account, pool.Rules)
	}
	token, hash := newToken()
	sk := &lobby.Seek{
		Pool: pool, Bots: m.Bots, BotWait: time.Duration(m.BotWaitMS) * time.Millisecond,
		Seekers: []lobby.Seeker{{Player: c.player, Name: c.shownName(m.Name), Guest: c.account == "", Rating: shownRating(mu, sigma), Mu: mu, Sigma: sigma, TokenHash: hash}},
	}
	// Known to the loop before the store has it, so that a round of
	// another node cannot seat it before this node knows its token.
	sk.ID = rand.Text()
	ls := &localSeek{id: sk.ID, pool: pool, player: c.player, token: token, conn: c}
	if err := h.addSeek(ctx, ls, sk, "you are seated at a table already: wait for its game"); err != nil {
		return nil, err
	}
	var out *left
	if old := c.seek; old != nil {
		h.forget(old) // replaced in the store by Add, a pair's whole
		h.mu.Lock()
		if old.mate != nil {
			out = &left{old.other(c), old}
		}
		h.mu.Unlock()
	}
	if c.invite != nil {
		h.dropInvite(c.invite)
		c.invite = nil
	}
	c.seek = ls
	since := sk.Since
	c.post(&LobbyEvent{Kind: LobbySeeking, Pool: pool.String(), Since: &since})
	h.poke()
	return out, nil
}

// withdraw withdraws the client's open seek, a pair's whole (its
// partner is told), or its open pair invitation.
func (c *lobbyConn) withdraw(ctx context.Context) error {
	h := c.h
	c.state.Lock()
	ls, inv := c.seek, c.invite
	if ls == nil {
		c.invite = nil
		c.state.Unlock()
		if inv == nil {
			return Errorf(ENOTFOUND, "you have no open seek")
		}
		h.dropInvite(inv)
		c.post(&LobbyEvent{Kind: LobbyGone, Pool: inv.pool.String()})
		return nil
	}
	err := h.pr.Withdraw(ctx, c.player)
	switch {
	case errors.Is(err, store.ErrConflict):
		c.state.Unlock()
		return Errorf(ECONFLICT, "your seek is seated at a table already: its game is being made")
	case err != nil && !errors.Is(err, store.ErrNotFound):
		c.state.Unlock()
		return lobbyError(err, "")
	}
	h.forget(ls)
	c.seek = nil
	c.post(&LobbyEvent{Kind: LobbyGone, Pool: ls.pool.String()})
	h.mu.Lock()
	other := ls.other(c)
	h.mu.Unlock()
	c.state.Unlock()
	h.partnerGone(ls, other, "your partner withdrew")
	h.poke()
	return nil
}

// dropSeek tells the client that its seek ls, a pair's, was withdrawn by
// its partner, for the reason why; nothing if its seek is another now.
func (c *lobbyConn) dropSeek(ls *localSeek, why string) {
	c.state.Lock()
	defer c.state.Unlock()
	if c.seek != ls {
		return
	}
	c.seek = nil
	c.post(&LobbyEvent{Kind: LobbyGone, Pool: ls.pool.String(), Why: why})
}

// seated tells the client of its seat in game, with the seat's token
// ("" if the node does not know it: the account's session opens the
// seat), once: ls, if it is the client's seek, is over. A client told of
// the game already is not told again.
func (c *lobbyConn) seated(game, seat, token string, ls *localSeek) {
	c.state.Lock()
	if c.told == game {
		c.state.Unlock()
		return
	}
	c.told = game
	pool, partner := "", ""
	if ls != nil && c.seek == ls {
		pool = ls.pool.String()
		partner = ls.partnerOf(c.player)
		c.seek = nil
	}
	c.state.Unlock()
	c.post(&LobbyEvent{Kind: LobbySeated, Game: game, Seat: seat, Token: token, Pool: pool, Partner: partner})
}
