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
// lobby WebSocket, on any node, and the pair's seek is stored for both,
// as partners, each with a token of its own. Either leaving the lobby or
// withdrawing withdraws the pair's seek, and the other is told.
//
// An invitation is a row of the store (store.PairInvites), kept by its
// code's hash, with its inviter as it will seek: its name, rating and
// the hash of the seat token its node made and keeps. It lives while
// its socket is open, one per socket, at most MaxPairInvites open per
// player. The partner's node takes it, once, and stores the pair's seek.
// A taken invitation stays until it expires (LobbySeekLife), so that a
// second partner with its code is told it is taken. If the inviter's
// socket is on the partner's node too, both are told at once;
// else the inviter's node learns it from the news (lobby_news.go) and
// follows the pair's seek, and each node tells the other's partner,
// through the news, when the seek is withdrawn or seated.

// pairInvite is an open invitation of one of the node's sockets: what
// only its node knows (the code and the inviter's token), until its
// partner comes with the code.
type pairInvite struct {
	code  string
	hash  []byte // the code's, as the store keeps it
	pool  lobby.Pool
	name  string // the inviter's, as shown
	token string // the inviter's seat token, whose hash the invitation holds
	conn  *lobbyConn
}

// pair opens a pair invitation for the client (LobbyPair), replacing its
// open one.
func (c *lobbyConn) pair(ctx context.Context, m *LobbyMessage) error {
	h := c.h
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
	if h.pi == nil {
		return Errorf(ENOTFOUND, "this server's store keeps no pair invitations")
	}
	if err := h.s.correspondenceRoom(pool); err != nil {
		return err
	}
	mu, sigma := c.mu, c.sigma
	if c.account != "" {
		mu, sigma = h.s.seekerRating(ctx, c.account, pool.Rules)
	}
	code := rand.Text()
	token, tokenHash := newToken()
	inv := &pairInvite{code: code, hash: hashToken(code), pool: pool, name: c.shownName(m.Name), token: token, conn: c}
	row := &store.PairInvite{
		Hash: inv.hash, Pool: pool.String(), Bots: m.Bots, BotWait: time.Duration(m.BotWaitMS) * time.Millisecond,
		Inviter: store.Seeker{Player: c.player, Name: inv.name, Guest: c.account == "", Rating: shownRating(mu, sigma), Mu: mu, Sigma: sigma, TokenHash: tokenHash},
		Node:    h.node,
	}
	c.state.Lock()
	defer c.state.Unlock()
	switch {
	case c.table != "":
		return Errorf(ECONFLICT, "you sit at open table %s: leave it before you invite a partner", c.table)
	case c.seek != nil:
		return Errorf(ECONFLICT, "you have an open seek in pool %q: withdraw it before you invite a partner", c.seek.pool.String())
	}
	if c.invite != nil {
		h.dropInvite(c.invite)
		c.invite = nil
	}
	if err := h.pi.OpenInvite(ctx, row, h.s.cfg.MaxPairInvites); err != nil {
		if errors.Is(err, store.ErrTooMany) {
			return Errorf(ETOOMANY, "you have %d pair invitations open, the limit: withdraw one (on another device) before you invite again", h.s.cfg.MaxPairInvites)
		}
		return lobbyError(err, "")
	}
	h.mu.Lock()
	h.pairs[string(inv.hash)] = inv
	h.mu.Unlock()
	c.invite = inv
	c.post(&LobbyEvent{Kind: LobbyInvited, Pool: pool.String(), Code: inv.code})
	return nil
}

// forgetInvite forgets a pair invitation of the node, taken: the store
// keeps it until it expires, so that a second partner who comes with its
// code is told it is taken.
func (h *hall) forgetInvite(inv *pairInvite) {
	h.mu.Lock()
	if h.pairs[string(inv.hash)] == inv {
		delete(h.pairs, string(inv.hash))
	}
	h.mu.Unlock()
}

// dropInvite forgets a pair invitation of the node, and removes it from
// the store (if that fails, it expires).
func (h *hall) dropInvite(inv *pairInvite) {
	h.forgetInvite(inv)
	ctx, cancel := context.WithTimeout(h.s.ctx, h.s.cfg.WriteTimeout)
	defer cancel()
	if err := h.pi.DropInvite(ctx, inv.hash); err != nil && !errors.Is(err, store.ErrNotFound) {
		h.s.repeats.Error("lobby: dropping a pair invitation failed", "err", err)
	}
}

// release opens again the invitation of hash that seek took, when the
// pair's seek was not stored.
func (h *hall) release(hash []byte, seek string) {
	ctx, cancel := context.WithTimeout(h.s.ctx, h.s.cfg.WriteTimeout)
	defer cancel()
	if err := h.pi.ReleaseInvite(ctx, hash, seek); err != nil && !errors.Is(err, store.ErrNotFound) {
		h.s.repeats.Error("lobby: releasing a pair invitation failed", "err", err)
	}
}

// partner takes the pair invitation of the code given (LobbyPartner),
// made through any node: the pair's seek is stored, the inviter's and
// the client's, and both are told.
func (c *lobbyConn) partner(ctx context.Context, m *LobbyMessage) error {
	h := c.h
	if m.Code == "" {
		return Errorf(EINVALID, "partner: no code: give the code of your partner's pair invitation")
	}
	if h.pi == nil {
		return Errorf(ENOTFOUND, "this server's store keeps no pair invitations")
	}
	// The client's own state changes only by its messages, one at a
	// time, and by news that ends it: checked before the taking, and
	// again after.
	if err := c.free(); err != nil {
		return err
	}
	hash := hashToken(m.Code)
	id := rand.Text()
	row, err := h.pi.TakeInvite(ctx, hash, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return Errorf(ENOTFOUND, "no pair invitation %q: it was withdrawn or expired, or its inviter left", m.Code)
	case errors.Is(err, store.ErrConflict):
		return Errorf(ECONFLICT, "the pair invitation %q is taken already: another partner came with its code first", m.Code)
	case err != nil:
		return lobbyError(err, "")
	}
	h.mu.Lock()
	host := h.pairs[string(hash)]
	h.mu.Unlock()
	pool, err := lobby.ParsePool(row.Pool)
	switch {
	case err != nil:
		err = lobbyError(err, "")
	case host != nil && host.conn == c:
		err = Errorf(EINVALID, "the pair invitation is your own: give its code to your partner")
	case row.Inviter.Player == c.player:
		err = Errorf(EINVALID, "the pair invitation is your own account's, from another device: a partner is another player")
	case pool.Rated && c.account == "":
		err = Errorf(EUNAUTHORIZED, "pool %q is rated: sign in to play rated games", pool.String())
	}
	if err == nil {
		if host != nil {
			err = c.partnerHere(ctx, host, row, pool, id, m)
		} else {
			err = c.partnerAway(ctx, row, pool, id, m)
		}
	}
	if err != nil {
		h.release(hash, id)
	}
	return err
}

// free is nil if the client may seek: it has no open seek and sits at no
// open table.
func (c *lobbyConn) free() error {
	c.state.Lock()
	defer c.state.Unlock()
	return c.freeLocked()
}

// freeLocked is free, c.state held.
func (c *lobbyConn) freeLocked() error {
	switch {
	case c.table != "":
		return Errorf(ECONFLICT, "you sit at open table %s: leave it before you seek", c.table)
	case c.seek != nil:
		return Errorf(ECONFLICT, "you have an open seek in pool %q: withdraw it before you join a partner", c.seek.pool.String())
	}
	return nil
}

// seeker returns the client as a seeker of pool, with a new token, named
// name if a guest.
func (c *lobbyConn) seeker(ctx context.Context, pool lobby.Pool, name string) (lobby.Seeker, string) {
	mu, sigma := c.mu, c.sigma
	if c.account != "" {
		mu, sigma = c.h.s.seekerRating(ctx, c.account, pool.Rules)
	}
	token, hash := newToken()
	return lobby.Seeker{Player: c.player, Name: c.shownName(name), Guest: c.account == "", Rating: shownRating(mu, sigma), Mu: mu, Sigma: sigma, TokenHash: hash}, token
}

// inviter returns the inviter of an invitation as a seeker.
func inviter(row *store.PairInvite) lobby.Seeker {
	p := row.Inviter
	return lobby.Seeker{Player: p.Player, Name: p.Name, Guest: p.Guest, Rating: p.Rating, Mu: p.Mu, Sigma: p.Sigma, TokenHash: p.TokenHash}
}

// partnerHere stores the pair's seek of an invitation whose inviter's
// socket is on the node, host, and tells both.
func (c *lobbyConn) partnerHere(ctx context.Context, inv *pairInvite, row *store.PairInvite, pool lobby.Pool, id string, m *LobbyMessage) error {
	h := c.h
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
	if host.invite != inv || host.seek != nil || host.table != "" {
		return Errorf(ENOTFOUND, "no pair invitation %q: it was withdrawn or expired, or its inviter left", m.Code)
	}
	if err := c.freeLocked(); err != nil {
		return err
	}
	mate, token := c.seeker(ctx, pool, m.Name)
	sk := &lobby.Seek{ID: id, Pool: pool, Bots: row.Bots, BotWait: row.BotWait, Seekers: []lobby.Seeker{inviter(row), mate}}
	ls := &localSeek{
		id: id, pool: pool, player: host.player, name: inv.name, token: inv.token, conn: host, invite: inv.hash,
		mate: &localSeeker{player: c.player, name: mate.Name, token: token, conn: c},
	}
	if err := h.addSeek(ctx, ls, sk, "you or your partner are seated at a table already: wait for its game"); err != nil {
		return err
	}
	h.forgetInvite(inv)
	host.invite = nil
	if c.invite != nil { // the partner's own invitation, now moot
		h.dropInvite(c.invite)
		c.invite = nil
	}
	host.seek, c.seek = ls, ls
	since := sk.Since
	host.post(&LobbyEvent{Kind: LobbySeeking, Pool: pool.String(), Since: &since, Partner: mate.Name})
	c.post(&LobbyEvent{Kind: LobbySeeking, Pool: pool.String(), Since: &since, Partner: inv.name})
	h.poke()
	return nil
}

// partnerAway stores the pair's seek of an invitation made through
// another node, whose inviter is away: the client is told, and the
// inviter's node learns it from the news.
func (c *lobbyConn) partnerAway(ctx context.Context, row *store.PairInvite, pool lobby.Pool, id string, m *LobbyMessage) error {
	h := c.h
	c.state.Lock()
	defer c.state.Unlock()
	if err := c.freeLocked(); err != nil {
		return err
	}
	host := inviter(row)
	mate, token := c.seeker(ctx, pool, m.Name)
	sk := &lobby.Seek{ID: id, Pool: pool, Bots: row.Bots, BotWait: row.BotWait, Seekers: []lobby.Seeker{host, mate}}
	ls := &localSeek{
		id: id, pool: pool, player: host.Player, name: host.Name, away: true, hash: host.TokenHash, invite: row.Hash,
		mate: &localSeeker{player: c.player, name: mate.Name, token: token, conn: c},
	}
	if err := h.addSeek(ctx, ls, sk, "you or your partner are seated at a table already: wait for its game"); err != nil {
		return err
	}
	news := &lobbyNews{Kind: newsTaken, Seek: id, Pool: pool.String(), Node: row.Node, Invite: row.Hash, Mate: c.player, Partner: mate.Name, Since: sk.Since}
	if err := h.announce(host.Player, news); err != nil {
		// The inviter would never learn of it: no pair.
		if err := h.pr.Withdraw(ctx, c.player); err != nil && !errors.Is(err, store.ErrNotFound) {
			h.s.repeats.Error("lobby: withdrawing a pair's seek whose inviter was not told failed", "err", err)
		}
		h.forget(ls)
		return unavailable(storeRetryAfter, "the lobby could not tell your partner in the database; try again")
	}
	if c.invite != nil { // the partner's own invitation, now moot
		h.dropInvite(c.invite)
		c.invite = nil
	}
	c.seek = ls
	since := sk.Since
	c.post(&LobbyEvent{Kind: LobbySeeking, Pool: pool.String(), Since: &since, Partner: host.Name})
	h.poke()
	return nil
}
