package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
	"github.com/coder/websocket"
	"golang.org/x/time/rate"
)

// maxStrikes is how many messages over its rate a connection may send
// before it is closed.
const maxStrikes = 10

// hardLimitFactor sets the WebSocket library's own read limit, past which
// it closes the connection at once (status 1009), as a multiple of
// Config.MaxMessage; below it the server answers an oversized message with
// an error first.
const hardLimitFactor = 16

// wsConn is one WebSocket client of a game: a player holding a seat's
// token, or a spectator.
type wsConn struct {
	srv  *Server
	conn *websocket.Conn
	nc   net.Conn   // its connection, if HTTPServer serves it (connOf); else nil
	ck   corker     // nc, if it can hold its writes; else nil
	wmu  sync.Mutex // a write and its deadline on nc
	id   string
	pr   *rules.Preset
	live *live // nil once the game is over
	seat int   // the seat held, -1 for a spectator
	// holders are the accounts that hold the seats, by seat ("" for
	// none), whose current names the start event shows (namedStart).
	holders []string
	// cred and client: the seat's token or its account's session, and the
	// client's address, for the actions forwarded to the node that drives
	// the game (forward.go).
	cred   credential
	client client
	// rematch: the connection stays open after the game's end, to carry
	// its rematch offers (?rematch=1; rematch.go).
	rematch bool
}

// handleWS is GET /api/games/{id}/ws[?after=N][&token=TOKEN][&seat=SEAT][&rematch=1]:
// a WebSocket that sends the game's events after event N, then each new
// one as it happens, and with rematch=1, once the game is over, its
// rematch offers; a seat's holder (token in the Authorization header or
// the token parameter, or the session of the account that holds the seat,
// naming it with seat if it holds several: holder.go) may send actions on
// it.
func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	after, err := afterParam(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	stay := r.URL.Query().Get("rematch")
	if stay != "" && stay != "1" {
		s.fail(w, r, Errorf(EINVALID, "rematch %q: want 1 (stay after the end, for the rematch offers) or none", stay))
		return
	}
	l, info, err := s.lookup(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if l == nil && s.node != nil && info.Status == store.Live {
		// A game another node drives: this node follows it for its
		// clients (cluster.go), the seats' tokens as the store has them.
		if l, err = s.follower(r.Context(), info.ID); err != nil {
			s.fail(w, r, s.storeError(info.ID, err))
			return
		}
		defer l.joined()
	} else if l != nil && !l.owned.Load() {
		if info, err = s.store.Game(r.Context(), l.id); err != nil {
			s.fail(w, r, s.storeError(l.id, err))
			return
		}
	}
	var id string
	var pr *rules.Preset
	var hashes [][]byte
	var holders []string
	if l != nil && info != nil {
		id, pr, hashes, holders = l.id, l.pr, tokenHashes(info.Seats), seatHolders(info.Seats)
	} else if l != nil {
		id, pr, hashes, holders = l.id, l.pr, l.tokenHashes(), l.holders()
	} else {
		id, hashes, holders = info.ID, tokenHashes(info.Seats), seatHolders(info.Seats)
		if pr, err = rules.Lookup(info.Rules); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	token := bearer(r)
	if token == "" {
		token = r.URL.Query().Get("token")
	}
	seat, cred, err := s.holder(r, id, pr, hashes, holders, token)
	if err != nil {
		s.fail(w, r, err)
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
	client := infoOf(r).client
	if !s.conns.open(client) {
		s.fail(w, r, Errorf(ETOOMANY, "too many WebSockets open from your address: the limit is %d", s.cfg.MaxConnsPerAddr))
		return
	}
	defer s.conns.close(client)
	if !s.track() {
		s.fail(w, r, Errorf(EUNAVAILABLE, "the server is shutting down"))
		return
	}
	defer s.wg.Done()
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		InsecureSkipVerify: true, // the origin is checked above
		CompressionMode:    websocket.CompressionDisabled,
	})
	if err != nil {
		return // Accept has answered
	}
	conn.SetReadLimit(s.cfg.MaxMessage * hardLimitFactor)
	s.metrics.wsConns.Inc()
	defer s.metrics.wsConns.Dec()
	c := &wsConn{srv: s, conn: conn, nc: connOf(r), id: id, pr: pr, live: l, seat: seat, holders: holders, rematch: stay == "1", client: client, cred: cred}
	c.ck, _ = c.nc.(corker)
	c.serve(r.Context(), after)
}

// checkUpgrade checks that a request asks for a WebSocket (RFC 6455,
// section 4.2.1), so that a plain GET gets a JSON error rather than the
// WebSocket library's text.
func checkUpgrade(r *http.Request) error {
	switch {
	case !headerHas(r.Header, "Connection", "upgrade") || !headerHas(r.Header, "Upgrade", "websocket"):
		return Errorf(EINVALID, "this endpoint is a WebSocket: the request must have Connection: Upgrade and Upgrade: websocket")
	case r.Header.Get("Sec-WebSocket-Version") != "13":
		return Errorf(EINVALID, "WebSocket version %q: want 13", r.Header.Get("Sec-WebSocket-Version"))
	case r.Header.Get("Sec-WebSocket-Key") == "":
		return Errorf(EINVALID, "WebSocket request without a Sec-WebSocket-Key")
	}
	return nil
}

// headerHas reports whether one of the comma-separated tokens of header
// name is token, ignoring case.
func headerHas(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for t := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// serve sends the hello, the events the client missed and then the live
// ones, while a reader goroutine takes the client's messages.
func (c *wsConn) serve(ctx context.Context, after int64) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer c.conn.CloseNow()

	var sub *subscriber
	var last int64
	var now *State // the game at event last
	for try := 0; c.live != nil; try++ {
		err := c.live.call(ctx, func() {
			sub, last = c.live.subscribe(c.seat)
			now = c.live.state.Load()
		})
		if err == nil {
			l := c.live
			defer l.post(context.Background(), func() { l.unsubscribe(sub) })
			break
		}
		if c.srv.node == nil && !c.srv.shuttingDown() {
			c.live = nil // over: serve it from the store
			break
		}
		// A follower may have stopped as the client came (its last
		// subscriber had gone): a new one follows the game, unless the
		// game is over (then it is served from the store) or the server
		// is stopping (then the client reconnects).
		<-c.live.done
		if c.srv.shuttingDown() || try == 3 {
			c.close(reasonShutdown)
			return
		}
		info, err := c.srv.store.Game(ctx, c.id)
		if err == nil && info.Status != store.Live {
			c.live = nil
			break
		}
		l, err := c.srv.follower(ctx, c.id)
		if err != nil {
			c.close(reasonShutdown)
			return
		}
		defer l.joined()
		c.live = l
	}
	var missed []store.Event // the events after after, up to last
	var info *store.Game     // the finished game's row
	if c.live == nil {
		var err error
		info, err = c.srv.store.Game(ctx, c.id)
		if err != nil {
			c.conn.Close(websocket.StatusInternalError, "the game could not be read")
			return
		}
		last = info.LastEvent
		if after <= last && last > 0 {
			// The last event, for the hello, and those the client missed.
			missed, err = c.srv.store.Events(ctx, c.id, min(after, last-1))
			if err != nil || len(missed) == 0 {
				c.conn.Close(websocket.StatusInternalError, "the game's events could not be read")
				return
			}
			var e Event
			if err := json.Unmarshal(missed[len(missed)-1].Data, &e); err != nil {
				c.conn.Close(websocket.StatusInternalError, "the game's events could not be read")
				return
			}
			now = &State{Position: e.Position, ToAct: e.ToAct, Dice: e.Dice, Scores: e.Scores, Actions: e.Actions, Deadline: e.Deadline, Banks: e.Banks, Status: e.Status}
			if missed[0].Seq <= after {
				missed = missed[1:]
			}
		}
	}
	if after > last {
		c.sendError(ctx, Errorf(EINVALID, "after=%d is past the game's last event, %d", after, last), "")
		c.conn.Close(websocket.StatusPolicyViolation, "after is past the last event")
		return
	}
	hello := &Event{Kind: KindHello, Game: c.id, Last: last}
	if now != nil {
		// The game at event last: the decision open now, for a client that
		// missed nothing.
		hello.Position, hello.ToAct, hello.Dice, hello.Scores = now.Position, now.ToAct, now.Dice, now.Scores
		hello.Actions, hello.Deadline, hello.Status = now.Actions, now.Deadline, now.Status
		hello.Banks, hello.Expected, hello.WaitUntil = now.Banks, now.Expected, now.WaitUntil
	}
	if c.seat >= 0 {
		hello.Seat = c.pr.Seats()[c.seat].String()
	}
	if err := c.send(ctx, hello); err != nil {
		return
	}
	// The events the client missed come from the store: every event up to
	// last is saved, and the subscription holds every one after it.
	if c.live != nil && after < last {
		var err error
		if missed, err = c.srv.store.Events(ctx, c.id, after); err != nil {
			c.conn.Close(websocket.StatusInternalError, "the game's events could not be read")
			return
		}
	}
	for _, e := range missed {
		if e.Seq > last {
			break
		}
		if err := c.write(ctx, c.srv.namedStart(ctx, e.Data, c.holders)); err != nil {
			return
		}
	}
	if sub == nil && !c.rematch {
		c.conn.Close(websocket.StatusNormalClosure, "game over")
		return
	}
	go c.read(ctx, cancel)
	defer c.ping(ctx, cancel)()
	if sub != nil {
		if !c.follow(ctx, sub) {
			return
		}
		var err error
		if info, err = c.srv.store.Game(ctx, c.id); err != nil {
			c.conn.Close(websocket.StatusInternalError, "the game could not be read")
			return
		}
	}
	c.afterEnd(ctx, info)
}

// follow sends the live events of a subscription until it ends, and
// reports whether the game ended with the connection staying for its
// rematch; if not, the connection is closed.
func (c *wsConn) follow(ctx context.Context, sub *subscriber) bool {
	for {
		select {
		case <-sub.ready:
			evs, ended, why := sub.take()
			if err := c.writeAll(ctx, evs); err != nil {
				return false
			}
			if ended {
				if why == reasonOver && c.rematch {
					return true
				}
				c.close(why)
				return false
			}
		case <-ctx.Done():
			return false
		}
	}
}

// afterEnd keeps the connection of a finished game open to carry its
// rematch offer (rematch.go): the offer as it stands, if there is one,
// then each change of it, until the client leaves or the server stops.
func (c *wsConn) afterEnd(ctx context.Context, info *store.Game) {
	sub, now := c.srv.rematches.follow(c.srv, info)
	if sub == nil {
		c.conn.Close(websocket.StatusNormalClosure, "game over")
		return
	}
	defer c.srv.rematches.unfollow(c.srv, c.id, sub)
	if now != nil {
		if err := c.write(ctx, now); err != nil {
			return
		}
	}
	if c.follow(ctx, sub) {
		c.conn.Close(websocket.StatusNormalClosure, "game over")
	}
}

// close closes the connection for the reason its subscription ended.
func (c *wsConn) close(why closeReason) {
	switch why {
	case reasonOver:
		c.conn.Close(websocket.StatusNormalClosure, "game over")
	case reasonSlow:
		c.conn.Close(websocket.StatusTryAgainLater, "too slow: reconnect with after= your last event")
	default:
		c.conn.Close(websocket.StatusGoingAway, "server shutting down: reconnect with after= your last event")
	}
}

// read takes the client's messages: each must be text, at most
// Config.MaxMessage bytes (else an error and close status 1009), within the
// connection's rate (else an error; close status 1008 if it goes on), and
// JSON of a Message.
func (c *wsConn) read(ctx context.Context, cancel context.CancelFunc) {
	defer cancel()
	cfg := c.srv.cfg
	lim := rate.NewLimiter(rate.Limit(cfg.MessageRate), cfg.MessageBurst)
	strikes := 0
	for {
		// Not ctx: the library would register with it for every
		// message. serve closes the connection when ctx is done, which
		// ends the read.
		typ, rd, err := c.conn.Reader(context.Background())
		if err != nil {
			return
		}
		data, err := io.ReadAll(io.LimitReader(rd, cfg.MaxMessage+1))
		if err != nil {
			return
		}
		if int64(len(data)) > cfg.MaxMessage {
			c.sendError(ctx, Errorf(ETOOLARGE, "message over the limit of %d bytes", cfg.MaxMessage), "")
			c.conn.Close(websocket.StatusMessageTooBig, fmt.Sprintf("message over %d bytes", cfg.MaxMessage))
			return
		}
		if !lim.Allow() {
			strikes++
			if strikes > maxStrikes {
				c.sendError(ctx, Errorf(ETOOMANY, "too many messages: closing"), "")
				c.conn.Close(websocket.StatusPolicyViolation, "too many messages")
				return
			}
			c.sendError(ctx, Errorf(ETOOMANY, "over the limit of %g messages a second: message ignored", cfg.MessageRate), "")
			continue
		}
		if typ != websocket.MessageText {
			c.sendError(ctx, Errorf(EINVALID, "binary message: send JSON text"), "")
			continue
		}
		c.handle(ctx, data)
	}
}

// handle acts on one message.
func (c *wsConn) handle(ctx context.Context, data []byte) {
	start := time.Now()
	var m Message
	if err := decodeMessage(data, &m); err != nil {
		c.sendError(ctx, Errorf(EINVALID, "malformed JSON message: %v", err), "")
		return
	}
	if err := m.check(); err != nil {
		c.sendError(ctx, err, m.Action)
		return
	}
	if c.seat < 0 {
		c.sendError(ctx, Errorf(EUNAUTHORIZED, "spectators cannot act: connect with a seat's token"), m.Action)
		return
	}
	if c.live == nil {
		c.sendError(ctx, Errorf(ECONFLICT, "the game is over"), m.Action)
		return
	}
	err := c.srv.act(ctx, c.live, c.seat, &m)
	if errors.Is(err, errNotOwner) {
		var ans *answer
		var local bool
		ans, local, err = c.srv.forwardMessage(ctx, c.id, c.cred, &m, c.client)
		switch {
		case local:
			err = c.srv.act(ctx, c.live, c.seat, &m)
		case err == nil:
			err = ans.err()
		}
	}
	if err != nil {
		c.sendError(ctx, err, m.Action)
		return
	}
	c.srv.metrics.latency.Observe(time.Since(start).Seconds())
}

// ping keeps the connection alive and notices a dead peer: a ping at
// least every Config.PingInterval, answered within the next, or the
// connection is cancelled. No goroutine waits between two pings (a
// timer's runs each), so that an idle connection costs one stack less. It
// returns the function that stops the pings.
//
// Each wait is drawn between half the interval and the whole
// (pingWait): connections opened together, as after a restart or at the
// start of a load, would otherwise ping together every interval for as
// long as they stay open, thousands of pings and pongs in a burst that
// holds up the moves delivered in it.
func (c *wsConn) ping(ctx context.Context, cancel context.CancelFunc) (stop func() bool) {
	interval := c.srv.cfg.PingInterval
	var t *time.Timer
	t = time.AfterFunc(time.Duration(math.MaxInt64), func() {
		pctx, pcancel := context.WithTimeout(ctx, interval)
		err := c.conn.Ping(pctx)
		pcancel()
		if err != nil {
			cancel()
			return
		}
		if ctx.Err() == nil {
			t.Reset(pingWait(interval))
		}
	})
	t.Reset(pingWait(interval))
	return t.Stop
}

// pingWait is a wait before a ping of a connection pinged every interval
// at most: drawn at random from [interval/2, interval).
func pingWait(interval time.Duration) time.Duration {
	half := interval / 2
	if half <= 0 {
		return interval
	}
	return interval - half + rand.N(half)
}

// sendError tells the client why its message was refused; echo is the
// refused action, if any.
func (c *wsConn) sendError(ctx context.Context, err error, echo string) {
	code := ErrorCode(err)
	if code == EINTERNAL {
		c.srv.log.Error("websocket message failed", "game", c.id, "err", err)
	}
	c.srv.metrics.reject(code)
	c.send(ctx, &Event{Kind: KindError, Error: &Error{Code: code, Message: ErrorMessage(err)}, Echo: echo})
}

// send writes a message that is not a stored event.
func (c *wsConn) send(ctx context.Context, e *Event) error {
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return c.write(ctx, data)
}

// corker is a connection that can hold its writes and send them in one
// (capped).
type corker interface {
	cork()
	uncork() error
}

// writeAll writes messages one after the other, within
// Config.WriteTimeout; on a connection that can hold its writes, in one
// system call and one packet.
func (c *wsConn) writeAll(ctx context.Context, msgs [][]byte) error {
	if c.ck == nil || len(msgs) < 2 {
		for _, m := range msgs {
			if err := c.write(ctx, m); err != nil {
				return err
			}
		}
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.nc.SetWriteDeadline(time.Now().Add(c.srv.cfg.WriteTimeout))
	defer c.nc.SetWriteDeadline(time.Time{})
	c.ck.cork()
	for _, m := range msgs {
		if err := c.conn.Write(context.Background(), websocket.MessageText, m); err != nil {
			c.ck.uncork()
			return err
		}
	}
	return c.ck.uncork()
}

// write writes one message, within Config.WriteTimeout: a deadline on the
// connection, lifted after the write so that the library's own writes
// (pings, the closing handshake) are not cut by a stale one. A context
// with a timeout for each message, the connection's only bound when
// HTTPServer does not serve it, cost every message a timer and the
// library's registration with the context: a fifth of the server's
// allocations under load.
func (c *wsConn) write(ctx context.Context, data []byte) error {
	if c.nc == nil {
		ctx, cancel := context.WithTimeout(ctx, c.srv.cfg.WriteTimeout)
		defer cancel()
		return c.conn.Write(ctx, websocket.MessageText, data)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.nc.SetWriteDeadline(time.Now().Add(c.srv.cfg.WriteTimeout))
	err := c.conn.Write(context.Background(), websocket.MessageText, data)
	c.nc.SetWriteDeadline(time.Time{})
	return err
}
