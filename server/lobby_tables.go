package server

import (
	"context"
	"errors"
	"math"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/lobby"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// Open tables: a player opens a table (store.OpenTables) with some seats
// open to people; others take them; the opener starts it, or it starts
// itself once every open seat is taken, bots in the seats left. The
// table's id is its game's, so that if the node starting it stops before
// making the game, a node of its players makes it after LobbyClaimWait,
// and only one is ever made. Each player's seat token is made by its
// node, as a seeker's.

// localSeat is a seat at an open table held by a client of the node.
type localSeat struct {
	table  string
	token  string
	conn   *lobbyConn // nil once its socket closed
	opener bool       // the client opened the table (counted in hall.opened)
}

// seatByName returns the index of the seat named in pr (any case), or
// -1.
func seatByName(pr *rules.Preset, name string) int {
	for i, s := range pr.Seats() {
		if strings.EqualFold(s.String(), name) {
			return i
		}
	}
	return -1
}

// sitting returns the open table the client sits at, "" if none: a
// table since closed by its opener, or expired, is forgotten.
func (c *lobbyConn) sitting(ctx context.Context) string {
	if c.table == "" {
		return ""
	}
	t, err := c.h.tables.FindTable(ctx, c.table)
	if err == nil {
		for _, st := range t.Seats {
			if st.Player == c.player {
				return c.table
			}
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return c.table // cannot tell: as it was
	}
	c.h.dropSeat(c.player)
	c.table = ""
	return ""
}

// dropSeat forgets the node's seat of player.
func (h *hall) dropSeat(player string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ls := h.seats[player]
	if ls == nil {
		return
	}
	delete(h.seats, player)
	if ls.opener && ls.conn != nil {
		if h.opened[ls.conn.client]--; h.opened[ls.conn.client] <= 0 {
			delete(h.opened, ls.conn.client)
		}
	}
}

// openTable opens a table for the client (LobbyOpen).
func (h *hall) openTable(ctx context.Context, c *lobbyConn, m *LobbyMessage) error {
	if h.tables == nil {
		return Errorf(ENOTFOUND, "this server's store keeps no open tables")
	}
	name := m.Rules
	if name == "" {
		name = "chaturaji"
	}
	kind := "casual"
	if m.Rated {
		kind = "rated"
	}
	pool, err := lobby.ParsePool(name + "/" + (time.Duration(m.TurnMS) * time.Millisecond).String() + "/" + kind)
	if err != nil {
		return lobbyError(err, "")
	}
	if pool.Rated && c.account == "" {
		return Errorf(EUNAUTHORIZED, "a rated table is for signed-in players: sign in to open one")
	}
	if err := h.s.correspondenceRoom(pool); err != nil {
		return err
	}
	if err := checkRange(m.MinRating, m.MaxRating); err != nil {
		return err
	}
	pr, _ := rules.Lookup(pool.Rules)
	mine := seatByName(pr, m.Seat)
	if mine < 0 {
		return Errorf(EINVALID, "seat %q: want one of the rules' seats (%s)", m.Seat, seatNames(pr))
	}
	seats := make([]store.TableSeat, pr.NumSeats())
	for _, o := range m.Open {
		i := seatByName(pr, o)
		switch {
		case i < 0:
			return Errorf(EINVALID, "open seat %q: want one of the rules' seats (%s)", o, seatNames(pr))
		case i == mine:
			return Errorf(EINVALID, "open seat %q is your own", o)
		case seats[i].Open:
			return Errorf(EINVALID, "open seat %q is named twice", o)
		}
		seats[i].Open = true
	}
	if len(m.Open) == 0 {
		return Errorf(EINVALID, "a table opens at least one seat to others (open): for a game with bots alone, create one")
	}
	c.state.Lock()
	defer c.state.Unlock()
	if c.seek != nil {
		return Errorf(ECONFLICT, "you have an open seek in pool %q: withdraw it before you open a table", c.seek.pool.String())
	}
	if c.invite != nil {
		return Errorf(ECONFLICT, "you have an open pair invitation: withdraw it before you open a table")
	}
	if t := c.sitting(ctx); t != "" {
		return Errorf(ECONFLICT, "you sit at open table %s already: leave it first", t)
	}
	mu, sigma := c.mu, c.sigma
	if c.account != "" {
		mu, sigma = h.s.seekerRating(ctx, c.account, pool.Rules)
	}
	rating := shownRating(mu, sigma)
	if !inRange(rating, m.MinRating, m.MaxRating) {
		return Errorf(EINVALID, "your rating, %v, is outside the range you set (%v to %v)", rating, m.MinRating, m.MaxRating)
	}
	h.mu.Lock()
	n := h.opened[c.client]
	h.mu.Unlock()
	if n >= h.s.cfg.MaxOpenTablesPerClient {
		return Errorf(ETOOMANY, "too many open tables from your address: the limit is %d", h.s.cfg.MaxOpenTablesPerClient)
	}
	token, hash := newToken()
	seats[mine] = store.TableSeat{Open: true, Node: h.node, Seeker: store.Seeker{
		Player: c.player, Name: c.shownName(m.Name), Guest: c.account == "", Rating: rating, Mu: mu, Sigma: sigma, TokenHash: hash,
	}}
	t := &store.OpenTable{
		ID: newID(), Rules: pool.Rules, Turn: pool.Turn, Rated: pool.Rated, MinRating: m.MinRating, MaxRating: m.MaxRating,
		Opener: c.player, Node: h.node, Seats: seats,
	}
	h.mu.Lock()
	h.seats[c.player] = &localSeat{table: t.ID, token: token, conn: c, opener: true}
	h.opened[c.client]++
	h.mu.Unlock()
	if err := h.tables.OpenTable(ctx, t, h.s.cfg.MaxOpenTables); err != nil {
		h.dropSeat(c.player)
		switch {
		case errors.Is(err, store.ErrTooMany):
			return Errorf(EUNAVAILABLE, "the lobby has %d open tables, its limit: join one, or try again later", h.s.cfg.MaxOpenTables)
		case errors.Is(err, store.ErrConflict):
			return Errorf(ECONFLICT, "you sit at another open table (from another device?): leave it first")
		}
		return lobbyError(err, "")
	}
	c.table = t.ID
	c.tableEvent(t, mine)
	h.viewChanged()
	return nil
}

// shownName returns the name the client is shown by: its account's, or
// the name a guest gives, "Guest" if none.
func (c *lobbyConn) shownName(given string) string {
	if c.account == "" && given != "" {
		return given
	}
	return c.name
}

// checkRange checks a table's rating range: 0 for no bound, else
// positive, the lowest below the highest.
func checkRange(lo, hi float64) error {
	switch {
	case math.IsNaN(lo) || math.IsInf(lo, 0) || lo < 0:
		return Errorf(EINVALID, "min_rating %v: want 0 (none) or a rating", lo)
	case math.IsNaN(hi) || math.IsInf(hi, 0) || hi < 0:
		return Errorf(EINVALID, "max_rating %v: want 0 (none) or a rating", hi)
	case hi > 0 && lo > hi:
		return Errorf(EINVALID, "min_rating %v is above max_rating %v", lo, hi)
	}
	return nil
}

// inRange reports whether rating is within lo and hi (0 for no bound).
func inRange(rating, lo, hi float64) bool {
	return (lo == 0 || rating >= lo) && (hi == 0 || rating <= hi)
}

// tableEvent tells the client of the open table it sits at, in seat i.
func (c *lobbyConn) tableEvent(t *store.OpenTable, i int) {
	tv, err := tableView(t)
	if err != nil {
		return
	}
	c.post(&LobbyEvent{Kind: LobbyAtTable, Table: tv, Seat: tv.Seats[i].Seat})
}

// viewChanged has the next view read at once, not LobbyView after the
// last.
func (h *hall) viewChanged() {
	h.viewMu.Lock()
	h.viewAt = time.Time{}
	h.viewMu.Unlock()
	h.poke()
}

// joinTable seats the client at an open table (LobbyJoin); the table
// starts once its last open seat is taken.
func (h *hall) joinTable(ctx context.Context, c *lobbyConn, m *LobbyMessage) error {
	if h.tables == nil {
		return Errorf(ENOTFOUND, "this server's store keeps no open tables")
	}
	t, err := h.tables.FindTable(ctx, m.Table)
	if errors.Is(err, store.ErrNotFound) {
		return Errorf(ENOTFOUND, "no open table %q", m.Table)
	} else if err != nil {
		return lobbyError(err, "")
	}
	if !t.Started.IsZero() {
		return Errorf(ECONFLICT, "table %s has started", t.ID)
	}
	if t.Rated && c.account == "" {
		return Errorf(EUNAUTHORIZED, "table %s is rated: sign in to play rated games", t.ID)
	}
	pr, err := rules.Lookup(t.Rules)
	if err != nil {
		return lobbyError(err, "")
	}
	i := -1
	if m.Seat == "" {
		for j, st := range t.Seats {
			if st.Open && st.Player == "" {
				i = j
				break
			}
		}
		if i < 0 {
			return Errorf(ECONFLICT, "table %s has no open seat left", t.ID)
		}
	} else if i = seatByName(pr, m.Seat); i < 0 || i >= len(t.Seats) {
		return Errorf(EINVALID, "seat %q: want one of the rules' seats (%s)", m.Seat, seatNames(pr))
	}
	switch {
	case !t.Seats[i].Open:
		return Errorf(ECONFLICT, "seat %s of table %s is a bot's, not open", pr.Seats()[i], t.ID)
	case t.Seats[i].Player != "":
		return Errorf(ECONFLICT, "seat %s of table %s is taken", pr.Seats()[i], t.ID)
	}
	mu, sigma := c.mu, c.sigma
	if c.account != "" {
		mu, sigma = h.s.seekerRating(ctx, c.account, t.Rules)
	}
	rating := shownRating(mu, sigma)
	if !inRange(rating, t.MinRating, t.MaxRating) {
		return Errorf(ECONFLICT, "your rating, %v, is outside table %s's range (%v to %v)", rating, t.ID, t.MinRating, t.MaxRating)
	}
	c.state.Lock()
	defer c.state.Unlock()
	if c.seek != nil {
		return Errorf(ECONFLICT, "you have an open seek in pool %q: withdraw it before you join a table", c.seek.pool.String())
	}
	if c.invite != nil {
		return Errorf(ECONFLICT, "you have an open pair invitation: withdraw it before you join a table")
	}
	if cur := c.sitting(ctx); cur != "" {
		return Errorf(ECONFLICT, "you sit at open table %s already: leave it first", cur)
	}
	token, hash := newToken()
	p := store.Seeker{Player: c.player, Name: c.shownName(m.Name), Guest: c.account == "", Rating: rating, Mu: mu, Sigma: sigma, TokenHash: hash}
	h.mu.Lock()
	h.seats[c.player] = &localSeat{table: t.ID, token: token, conn: c}
	h.mu.Unlock()
	if err := h.tables.JoinTable(ctx, t.ID, i, p, h.node); err != nil {
		h.dropSeat(c.player)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return Errorf(ENOTFOUND, "no open table %q", t.ID)
		case errors.Is(err, store.ErrConflict):
			return Errorf(ECONFLICT, "seat %s of table %s was taken, or the table started, meanwhile; or you sit at another table", pr.Seats()[i], t.ID)
		}
		return lobbyError(err, "")
	}
	c.table = t.ID
	t.Seats[i] = store.TableSeat{Open: true, Seeker: p, Node: h.node}
	c.tableEvent(t, i)
	h.viewChanged()
	full := true
	for _, st := range t.Seats {
		full = full && (!st.Open || st.Player != "")
	}
	if full {
		h.start(t.ID)
	}
	return nil
}

// leaveTable takes the client from its open table's seat; the opener's
// leaving closes the table.
func (h *hall) leaveTable(ctx context.Context, c *lobbyConn, table string) error {
	err := h.tables.LeaveTable(ctx, c.player)
	switch {
	case errors.Is(err, store.ErrConflict):
		return Errorf(ECONFLICT, "table %s has started: its game is being made", table)
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return lobbyError(err, "")
	}
	h.dropSeat(c.player)
	c.state.Lock()
	c.table = ""
	c.state.Unlock()
	c.post(&LobbyEvent{Kind: LobbyAtTable}) // at no table
	h.viewChanged()
	return nil
}

// startTable starts the client's open table, which it opened (LobbyStart).
func (h *hall) startTable(ctx context.Context, c *lobbyConn) error {
	c.state.Lock()
	table := c.sitting(ctx)
	c.state.Unlock()
	if table == "" {
		return Errorf(ENOTFOUND, "you sit at no open table")
	}
	t, err := h.tables.FindTable(ctx, table)
	if err != nil {
		return lobbyError(err, "table "+table+" is gone")
	}
	if t.Opener != c.player {
		return Errorf(ECONFLICT, "only the opener of table %s starts it", table)
	}
	return h.start(table)
}

// start starts open table id and makes its game.
func (h *hall) start(id string) error {
	t, err := h.tables.StartTable(h.s.ctx, id)
	switch {
	case errors.Is(err, store.ErrConflict):
		return Errorf(ECONFLICT, "table %s has started already", id)
	case err != nil:
		return lobbyError(err, "table "+id+" is gone")
	}
	h.makeTableGame(t)
	h.viewChanged()
	return nil
}

// tableSeats returns the seats of a started table's game: its holders,
// and bots in the others of the level closest to the people's mean
// rating.
func (h *hall) tableSeats(t *store.OpenTable) []lobby.Seat {
	seats := make([]lobby.Seat, len(t.Seats))
	var sum float64
	var people int
	for i, st := range t.Seats {
		if st.Player != "" {
			seats[i] = lobby.Seat{Seeker: lobby.Seeker(st.Seeker)}
			sum += st.Rating
			people++
		}
	}
	level := closestLevel(botLevels(h.s.cfg.LobbyBotLevel), sum/float64(max(people, 1)))
	for i := range seats {
		if seats[i].Player == "" {
			seats[i] = lobby.Seat{Bot: level}
		}
	}
	return seats
}

// closestLevel returns the level rated closest to rating, the lower of
// two as close.
func closestLevel(levels []lobby.Level, rating float64) int {
	best, bd := levels[0].Level, math.Inf(1)
	for _, l := range levels {
		if d := math.Abs(l.Rating - rating); d < bd {
			best, bd = l.Level, d
		}
	}
	return best
}

// makeTableGame makes the game of a started table, unless the node is
// making it already, and tells the node's players at it of their seats.
func (h *hall) makeTableGame(t *store.OpenTable) {
	key := "table " + t.ID
	h.mu.Lock()
	if h.making[key] {
		h.mu.Unlock()
		return
	}
	h.making[key] = true
	h.mu.Unlock()
	if !h.s.track() {
		h.unmake(key)
		return
	}
	go func() {
		defer h.s.wg.Done()
		defer h.unmake(key)
		pool := lobby.Pool{Rules: t.Rules, Turn: t.Turn, Rated: t.Rated}
		g, err := h.createGame(t.ID, pool, h.tableSeats(t))
		if errors.Is(err, errGameTaken) {
			g, err = h.s.madeGame(h.s.ctx, t.ID)
		}
		if err != nil {
			h.s.repeats.Error("lobby: making an open table's game failed", "table", t.ID, "err", err)
			return
		}
		h.tellTable(g, t)
	}()
}

// unmake marks a game as no longer being made by the node.
func (h *hall) unmake(key string) {
	h.mu.Lock()
	delete(h.making, key)
	h.mu.Unlock()
}

// tellTable tells the node's players at started table t of their seats
// in its game g, and forgets their seats.
func (h *hall) tellTable(g *made, t *store.OpenTable) {
	for _, st := range t.Seats {
		if st.Player == "" || st.Node != h.node {
			continue
		}
		h.mu.Lock()
		ls := h.seats[st.Player]
		var conn *lobbyConn
		if ls != nil && ls.table == t.ID {
			conn = ls.conn
		}
		h.mu.Unlock()
		if conn != nil {
			if seat := seatOfToken(g.hashes, ls.token); seat >= 0 {
				conn.seatedAtTable(g, seat, ls.token)
			}
		}
		if err := h.tables.ForgetTableSeat(h.s.ctx, st.Player); err != nil && !errors.Is(err, store.ErrNotFound) {
			h.s.repeats.Error("lobby: forgetting a seat of a started table failed", "table", t.ID, "err", err)
			continue
		}
		h.dropSeat(st.Player)
	}
}

// seatedAtTable tells the client of its seat in its open table's game.
func (c *lobbyConn) seatedAtTable(g *made, seat int, token string) {
	c.state.Lock()
	c.table = ""
	c.state.Unlock()
	c.post(&LobbyEvent{Kind: LobbySeated, Game: g.id, Seat: g.pr.Seats()[seat].String(), Token: token})
}

// startedTables looks for the started tables with seats of the node's
// players: a table whose game is made is told to them; one whose game is
// still not made LobbyClaimWait after its start has it made here.
func (h *hall) startedTables(now time.Time) {
	if h.tables == nil {
		return
	}
	ts, err := h.tables.Started(h.s.ctx, h.node)
	if err != nil {
		h.s.repeats.Error("lobby: reading the started tables failed", "err", err)
		return
	}
	for _, t := range ts {
		h.mu.Lock()
		busy := h.making["table "+t.ID]
		h.mu.Unlock()
		if busy {
			continue
		}
		g, err := h.s.madeGame(h.s.ctx, t.ID)
		switch {
		case err == nil:
			h.tellTable(g, t)
		case !errors.Is(err, store.ErrNotFound):
			h.s.repeats.Error("lobby: reading a table's game failed", "table", t.ID, "err", err)
		case now.Sub(t.Started) >= h.s.cfg.LobbyClaimWait:
			h.s.log.Info("lobby: making the game of a started table its node left", "table", t.ID)
			h.makeTableGame(t)
		}
	}
}
