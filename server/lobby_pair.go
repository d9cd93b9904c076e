package server

import (
	"context"
	"crypto/rand"
	"errors"
	"time"

	"github.com/chaturaji/chaturaji/lobby"
	"github.com/chaturaji/chaturaji/store"
)

// Pairs of partners. In a team pool two people may seek as one: the
// first sends "pair" and is given a code (an invitation), which it gives
// its partner; the partner sends "partner" with the code over its own
// lobby WebSocket, and the pair's seek is stored for both, as partners,
// each with a token of its own. Either leaving the lobby or withdrawing
// withdraws the pair's seek, and the other is told. An invitation lives
// in the memory of the node that made it, while its socket is open, one
// per socket: its partner's socket must reach that node.

// pairInvite is an open invitation to seek as partners: what its inviter
// asked for, until its partner comes with the code.
type pairInvite struct {
	code    string
	pool    lobby.Pool
	bots    bool
	botWait time.Duration
	name    string // the inviter's, as shown
	conn    *lobbyConn
}

// pair opens a pair invitation for the client (LobbyPair), replacing its
// open one.
func (c *lobbyConn) pair(ctx context.Context, m *LobbyMessage) error {
	pool, err := lobby.ParsePool(m.Pool)
	if err != nil {
		return lobbyError(err, "")
	}
	if sh, _ := pool.Shape(); !sh.Teams {
		return Errorf(EINVALID, "pool %q: its rules are not played in teams; partners seek together only in a team pool, such as chaturaji-teams/15s/casual", pool.String())
	}
	if pool.Rated && c.account == "" {
		return Errorf(EUNAUTHORIZED, "pool %q is rated: sign in to play rated games", pool.String())
	}
	if err := c.h.s.correspondenceRoom(pool); err != nil {
		return err
	}
	h := c.h
	c.state.Lock()
	defer c.state.Unlock()
	switch {
	case c.table != "":
		return Errorf(ECONFLICT, "you sit at open table %s: leave it before you invite a partner", c.table)
	case c.seek != nil:
		return Errorf(ECONFLICT, "you have an open seek in pool %q: withdraw it before you invite a partner", c.seek.pool.String())
	}
	inv := &pairInvite{
		code: rand.Text(), pool: pool, bots: m.Bots, botWait: time.Duration(m.BotWaitMS) * time.Millisecond,
		name: c.shownName(m.Name), conn: c,
	}
	if c.invite != nil {
		h.dropInvite(c.invite)
	}
	h.mu.Lock()
	h.pairs[inv.code] = inv
	h.mu.Unlock()
	c.invite = inv
	c.post(&LobbyEvent{Kind: LobbyInvited, Pool: pool.String(), Code: inv.code})
	return nil
}

// dropInvite forgets a pair invitation.
func (h *hall) dropInvite(inv *pairInvite) {
	h.mu.Lock()
	if h.pairs[inv.code] == inv {
		delete(h.pairs, inv.code)
	}
	h.mu.Unlock()
}

// partner takes the pair invitation of the code given (LobbyPartner):
// the pair's seek is stored, the inviter's and the client's, and both
// are told.
func (c *lobbyConn) partner(ctx context.Context, m *LobbyMessage) error {
	h := c.h
	if m.Code == "" {
		return Errorf(EINVALID, "partner: no code: give the code of your partner's pair invitation")
	}
	h.mu.Lock()
	inv := h.pairs[m.Code]
	h.mu.Unlock()
	switch {
	case inv == nil:
		return Errorf(ENOTFOUND, "no pair invitation %q on this server: it was withdrawn or taken, or its inviter left", m.Code)
	case inv.conn == c:
		return Errorf(EINVALID, "the pair invitation is your own: give its code to your partner")
	case inv.conn.player == c.player:
		return Errorf(EINVALID, "the pair invitation is your own account's, from another device: a partner is another player")
	case inv.pool.Rated && c.account == "":
		return Errorf(EUNAUTHORIZED, "pool %q is rated: sign in to play rated games", inv.pool.String())
	}
	host := inv.conn
	// Two sockets' states, always locked in the order of the sockets.
	first, second := c, host
	if host.order < c.order {
		first, second = host, c
	}
	first.state.Lock()
	defer first.state.Unlock()
	second.state.Lock()
	defer second.state.Unlock()
	switch {
	case host.invite != inv || host.seek != nil || host.table != "":
		return Errorf(ENOTFOUND, "no pair invitation %q on this server: it was withdrawn or taken, or its inviter left", m.Code)
	case c.table != "":
		return Errorf(ECONFLICT, "you sit at open table %s: leave it before you seek", c.table)
	case c.seek != nil:
		return Errorf(ECONFLICT, "you have an open seek in pool %q: withdraw it before you join a partner", c.seek.pool.String())
	}
	seekers := make([]lobby.Seeker, 2)
	tokens := make([]string, 2)
	for i, sc := range []*lobbyConn{host, c} {
		mu, sigma := sc.mu, sc.sigma
		if sc.account != "" {
			mu, sigma = h.s.seekerRating(ctx, sc.account, inv.pool.Rules)
		}
		name := inv.name
		if sc == c {
			name = c.shownName(m.Name)
		}
		var hash []byte
		tokens[i], hash = newToken()
		seekers[i] = lobby.Seeker{Player: sc.player, Name: name, Guest: sc.account == "", Rating: shownRating(mu, sigma), Mu: mu, Sigma: sigma, TokenHash: hash}
	}
	sk := &lobby.Seek{ID: rand.Text(), Pool: inv.pool, Bots: inv.bots, BotWait: inv.botWait, Seekers: seekers}
	ls := &localSeek{
		id: sk.ID, pool: inv.pool, player: host.player, name: seekers[0].Name, token: tokens[0], conn: host,
		mate: &localSeeker{player: c.player, name: seekers[1].Name, token: tokens[1], conn: c},
	}
	h.mu.Lock()
	h.seeks[ls.id] = ls
	h.mu.Unlock()
	if err := h.pr.Add(ctx, sk, time.Now()); err != nil {
		h.forget(ls)
		if errors.Is(err, store.ErrConflict) {
			return Errorf(ECONFLICT, "you or your partner are seated at a table already: wait for its game")
		}
		return lobbyError(err, "")
	}
	h.dropInvite(inv)
	host.invite = nil
	if c.invite != nil { // the partner's own invitation, now moot
		h.dropInvite(c.invite)
		c.invite = nil
	}
	host.seek, c.seek = ls, ls
	since := sk.Since
	host.post(&LobbyEvent{Kind: LobbySeeking, Pool: inv.pool.String(), Since: &since, Partner: seekers[1].Name})
	c.post(&LobbyEvent{Kind: LobbySeeking, Pool: inv.pool.String(), Since: &since, Partner: seekers[0].Name})
	h.poke()
	return nil
}
