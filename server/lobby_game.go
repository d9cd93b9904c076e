package server

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/lobby"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// made is a game the lobby made, as a seeker's node needs it to tell the
// seeker its seat: which seat each token hash holds.
type made struct {
	id     string
	pr     *rules.Preset
	hashes [][]byte // per seat
}

// madeGame returns the lobby's game id as the store holds it; the
// store's ErrNotFound if it is not made yet.
func (s *Server) madeGame(ctx context.Context, id string) (*made, error) {
	info, err := s.store.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	pr, err := rules.Lookup(info.Rules)
	if err != nil {
		return nil, err
	}
	return &made{id: info.ID, pr: pr, hashes: tokenHashes(info.Seats)}, nil
}

// lobbyPlayer is the player id of a seeker: its account's, or a guest's
// (one per lobby WebSocket).
func lobbyPlayer(accountID string) string { return "account:" + accountID }

// accountOf returns the account id of a seeker, "" for a guest.
func accountOf(k lobby.Seeker) string {
	if k.Guest {
		return ""
	}
	return strings.TrimPrefix(k.Player, "account:")
}

// lobbyGame returns the request for the game of a lobby's table of pool
// with the players and names given: the pool's time per decision, rated
// in a rated pool, the engine's help off in rated games, and for a long
// time control a grace for absent players as long as the server allows
// (Config.MaxGrace). A game by correspondence (correspondence) gives a
// player out of time's seat to a bot.
func lobbyGame(cfg Config, pool lobby.Pool, players, names []string) *NewGame {
	help := !pool.Rated
	ng := &NewGame{Rules: pool.Rules, Seats: players, Names: names, TurnMS: pool.Turn.Milliseconds(), Help: &help, Rated: pool.Rated}
	if grace := min(pool.Turn, cfg.MaxGrace); grace > cfg.Grace {
		ng.AbandonMS = grace.Milliseconds()
	}
	if correspondence(cfg, pool) {
		ng.OnTimeout = TimeoutBot
	}
	return ng
}

// correspondence reports whether the games of pool are played by
// correspondence (Config.CorrespondenceTurn).
func correspondence(cfg Config, pool lobby.Pool) bool {
	return pool.Turn >= cfg.CorrespondenceTurn
}

// correspondenceRoom refuses a seek in a correspondence pool while the
// node has Config.MaxCorrespondence live games by correspondence.
func (s *Server) correspondenceRoom(pool lobby.Pool) error {
	if !correspondence(s.cfg, pool) {
		return nil
	}
	n := 0
	s.mu.Lock()
	for _, l := range s.games {
		if l.table.Correspondence && l.state.Load().Status == string(store.Live) {
			n++
		}
	}
	s.mu.Unlock()
	if n >= s.cfg.MaxCorrespondence {
		return Errorf(EUNAVAILABLE, "the server has %d live games by correspondence, its limit; try again later, or seek in a faster pool", n)
	}
	return nil
}

// makeGame makes the game of a table of pool, unless the node is making
// it already, and tells the node's seekers at it of their seats. Past
// LobbyMakers games being made, it waits for a maker. A failure leaves
// the table claimed: a node of its seekers makes it after
// LobbyClaimWait.
func (h *hall) makeGame(t lobby.Table, pool lobby.Pool) {
	h.mu.Lock()
	if h.making[t.ID] {
		h.mu.Unlock()
		return
	}
	h.making[t.ID] = true
	h.mu.Unlock()
	done := func() {
		h.mu.Lock()
		delete(h.making, t.ID)
		h.mu.Unlock()
	}
	if !h.s.track() {
		done()
		return
	}
	go func() {
		defer h.s.wg.Done()
		defer done()
		select {
		case h.makers <- struct{}{}:
		case <-h.s.ctx.Done():
			return
		}
		defer func() { <-h.makers }()
		g, err := h.create(t, pool)
		if errors.Is(err, errGameTaken) {
			g, err = h.s.madeGame(h.s.ctx, gameOf(t.ID))
		}
		if err != nil {
			h.s.repeats.Error("lobby: making a table's game failed", "table", t.ID, "err", err)
			return
		}
		h.tell(g, t.ID, t.Seeks, false)
	}()
}

// create makes the game of table t of pool through the server's own
// path (open): the seekers' seats held by their token hashes and
// accounts, bots of the level the pairing chose in the others. Its id is
// the table's (gameOf): errGameTaken if it was made already.
func (h *hall) create(t lobby.Table, pool lobby.Pool) (*made, error) {
	seats := make([]lobby.Seat, len(t.Seats))
	copy(seats, t.Seats)
	return h.createGame(gameOf(t.ID), pool, seats)
}

// createGame makes game id of pool with the seats given, in seat order:
// a person's held by its token hash and account, a bot's of its level.
// errGameTaken if the id is taken: the game was made already.
func (h *hall) createGame(id string, pool lobby.Pool, seats []lobby.Seat) (*made, error) {
	pr, err := rules.Lookup(pool.Rules)
	if err != nil {
		return nil, err
	}
	n := len(seats)
	players, names := make([]string, n), make([]string, n)
	held, accounts := make([][]byte, n), make([]string, n)
	var hosts []int
	for i, seat := range seats {
		if seat.Bot != 0 {
			players[i] = botPrefix + strconv.Itoa(seat.Bot)
			continue
		}
		players[i], names[i] = Human, seat.Name
		held[i], accounts[i] = seat.TokenHash, accountOf(seat.Seeker)
		hosts = append(hosts, i)
	}
	ng := lobbyGame(h.s.cfg, pool, players, names)
	_, table, err := ng.check(h.s.cfg)
	if err != nil {
		return nil, err
	}
	table.Help = *ng.Help
	table.Correspondence = correspondence(h.s.cfg, pool)
	ctx, cancel := context.WithTimeout(h.s.ctx, time.Minute)
	defer cancel()
	c, err := h.s.open(ctx, &opening{
		pr: pr, table: table, players: players, names: names, hosts: hosts,
		id: id, held: held, holders: accounts, lobby: true,
	}, "")
	if err != nil {
		return nil, err
	}
	return &made{id: c.ID, pr: pr, hashes: held}, nil
}
