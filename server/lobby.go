package server

import (
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/chaturaji/chaturaji/lobby"
	"github.com/chaturaji/chaturaji/store"
)

// DefaultLobbyPools are the pools the lobby's view lists by default
// (Config.LobbyPools): the main rules at a brisk pace, rated and casual,
// at a minute and by correspondence, for four, for two and in teams.
var DefaultLobbyPools = []string{
	"chaturaji/15s/casual", "chaturaji/15s/rated",
	"chaturaji/1m0s/casual", "chaturaji/1m0s/rated",
	"chaturaji/1d/casual", "chaturaji/1d/rated",
	"chaturaji-teams/15s/casual", "chaturaji-teams/15s/rated",
	"chaturanga-2p/15s/casual", "chaturanga-2p/15s/rated",
}

// hall is the node's lobby: its seekers and their seeks (package lobby's
// Pairer, in the store), the lobby WebSockets open on it, and the loop
// that pairs its pools, makes the games of the tables it claims, and
// tells its seekers of theirs, whichever node made them.
//
// A table's id is its game's (gameOf), so that however many nodes try to
// make it, from a round's claim or after LobbyClaimWait, the store keeps
// one. A seeker's seat token is made by its node when it seeks, and the
// store keeps only its hash, with the seek: the game's seat is held by
// that hash, and the node that knows the token tells its seeker.
type hall struct {
	s      *Server
	pr     *lobby.Pairer
	st     store.Lobby
	tables store.OpenTables  // nil if the store keeps no open tables
	pi     store.PairInvites // nil if the store keeps no pair invitations
	news   store.LobbyNews   // nil if the store keeps no news
	node   string            // this process, as the store knows its seeks
	kick   chan struct{}     // a round now
	makers chan struct{}     // a token per game being made (LobbyMakers)

	mu     sync.Mutex
	seeks  map[string]*localSeek  // this node's seeks, open or claimed, until their seekers are told
	conns  map[*lobbyConn]bool    // the lobby WebSockets open
	per    map[client]int         // the lobby WebSockets open by client
	making map[string]bool        // the tables whose games this node is making
	opened map[client]int         // the open tables by the client that opened them through this node
	seats  map[string]*localSeat  // this node's seats at open tables, by player, until told
	pairs  map[string]*pairInvite // the open pair invitations of the node's sockets, by their code's hash

	heard heard // the news read, by the loop alone

	viewMu   sync.Mutex
	view     []byte     // the lobby's view, as the "lobby" message sends it
	viewJSON *LobbyView // the same, for GET /api/lobby
	viewAt   time.Time  // when it was read
}

// localSeek is one of the node's seeks: what only its node knows (the
// token) and where its seeker is (the socket, nil once it closed); for a
// pair's seek, the same of the partner who took the invitation (mate).
// Its sockets are guarded by hall.mu.
//
// Partners whose sockets reach two nodes share a seek that the partner's
// node stored: there the inviter is away (its token's hash alone is
// known), and the inviter's node follows the seek as theirs, the partner
// away. Each node tells the other's seeker, through the news, what
// became of the seek.
type localSeek struct {
	id     string
	pool   lobby.Pool
	player string
	name   string
	token  string
	conn   *lobbyConn
	mate   *localSeeker // nil for a seek of one

	away   bool   // the first seeker is served by another node: token is "", hash its token's hash
	hash   []byte // the first seeker's token hash, if away
	theirs bool   // the seek is another node's, which refreshes it and forgets it once seated
	invite []byte // the code's hash of the pair invitation it came of, if any
}

// localSeeker is the second seeker of a pair's seek.
type localSeeker struct {
	player string
	name   string
	token  string
	conn   *lobbyConn // nil once its socket closed
	away   bool       // served by another node: token is ""
}

// orphan reports whether a seeker of the seek served here left. The
// caller holds hall.mu.
func (ls *localSeek) orphan() bool {
	return !ls.away && ls.conn == nil || ls.mate != nil && !ls.mate.away && ls.mate.conn == nil
}

// here reports whether a seeker of the seek is connected to the node.
// The caller holds hall.mu.
func (ls *localSeek) here() bool {
	return ls.conn != nil || ls.mate != nil && ls.mate.conn != nil
}

// awayPlayer returns the player of the seek served by another node, ""
// if none.
func (ls *localSeek) awayPlayer() string {
	switch {
	case ls.away:
		return ls.player
	case ls.mate != nil && ls.mate.away:
		return ls.mate.player
	}
	return ""
}

// tokenOf returns the token of player's seat, "" if its node is another
// or player is none of the seek's.
func (ls *localSeek) tokenOf(player string) string {
	switch {
	case ls.player == player:
		return ls.token
	case ls.mate != nil && ls.mate.player == player:
		return ls.mate.token
	}
	return ""
}

// other returns the socket of c's partner in the seek, nil if the seek
// is not a pair's or the partner left. The caller holds hall.mu.
func (ls *localSeek) other(c *lobbyConn) *lobbyConn {
	switch {
	case ls.mate == nil:
		return nil
	case ls.conn == c:
		return ls.mate.conn
	case ls.mate.conn == c:
		return ls.conn
	}
	return nil
}

// leftBy marks c's place in the seek as left, and returns its partner's
// socket, if any. The caller holds hall.mu.
func (ls *localSeek) leftBy(c *lobbyConn) *lobbyConn {
	other := ls.other(c)
	if ls.mate != nil && ls.mate.conn == c {
		ls.mate.conn = nil
	} else if ls.conn == c {
		ls.conn = nil
	}
	return other
}

// partnerOf returns the name of the partner of player in the seek, ""
// for a seek of one.
func (ls *localSeek) partnerOf(player string) string {
	switch {
	case ls.mate == nil:
		return ""
	case ls.player == player:
		return ls.mate.name
	}
	return ls.name
}

// newHall returns the lobby of s, nil if its store keeps none.
func newHall(s *Server) *hall {
	st := store.LobbyOf(s.store)
	if st == nil {
		return nil
	}
	node := "node-" + rand.Text() // a restart's seeks are another node's, to expire
	p := lobby.DefaultParams(botLevels(s.cfg.LobbyBotLevel))
	p.SeekLife = s.cfg.LobbySeekLife
	pr, err := lobby.NewPairer(st, node, p)
	if err != nil {
		s.log.Error("the lobby's parameters", "err", err)
		return nil
	}
	h := &hall{
		s: s, pr: pr, st: st, tables: store.OpenTablesOf(s.store), node: node,
		pi: store.PairInvitesOf(s.store), news: store.LobbyNewsOf(s.store),
		kick:   make(chan struct{}, 1),
		makers: make(chan struct{}, s.cfg.LobbyMakers),
		seeks:  make(map[string]*localSeek),
		conns:  make(map[*lobbyConn]bool),
		per:    make(map[client]int),
		making: make(map[string]bool),
		opened: make(map[client]int),
		seats:  make(map[string]*localSeat),
		pairs:  make(map[string]*pairInvite),
		heard:  heard{since: time.Now().Add(-newsOverlap), ids: make(map[string]time.Time)},
	}
	return h
}

// gameOf returns the id of the game of the lobby's table id: the table's
// id in lower case, which validID takes.
func gameOf(table string) string {
	b := []byte(table)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// run is the node's lobby loop, until the server stops: a round of each
// pool with seekers of the node every LobbyRound or at once when kicked,
// then the tables that seat the node's seekers, the news for its sockets
// (listen), and now and then the refresh of its seeks and invitations and
// the expiry of everyone's stale ones.
func (h *hall) run() {
	defer h.s.wg.Done()
	cfg := h.s.cfg
	t := time.NewTicker(cfg.LobbyRound)
	defer t.Stop()
	var refreshed time.Time
	for {
		select {
		case <-h.s.ctx.Done():
			return
		case <-h.kick: // a seek: its pool's round, at once
			h.rounds(time.Now())
			continue
		case <-t.C:
		}
		now := time.Now()
		h.rounds(now)
		h.told(now)
		h.listen()
		h.startedTables(now)
		if now.Sub(refreshed) >= cfg.LobbySeekLife/4 {
			refreshed = now
			h.refresh(now)
		}
		h.refreshView(now, false)
	}
}

// poke asks the loop for a round now.
func (h *hall) poke() {
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

// rounds runs a pairing round of each pool in which the node has open
// seeks, the pools at once, and makes the game of each table won.
func (h *hall) rounds(now time.Time) {
	h.mu.Lock()
	pools := make(map[lobby.Pool]bool)
	for _, ls := range h.seeks {
		if ls.here() {
			pools[ls.pool] = true
		}
	}
	h.mu.Unlock()
	var wg sync.WaitGroup
	for pool := range pools {
		wg.Go(func() {
			tables, err := h.pr.Round(h.s.ctx, pool, now)
			if err != nil {
				h.s.repeats.Error("lobby round failed", "pool", pool.String(), "err", err)
			}
			for _, t := range tables {
				h.makeGame(t, pool)
			}
		})
	}
	wg.Wait()
}

// told looks for the node's seeks claimed into tables: those whose game
// is made are told to their seekers and forgotten; a table whose game
// is still not made LobbyClaimWait after its claim has it made here.
func (h *hall) told(now time.Time) {
	claims, err := h.pr.Claimed(h.s.ctx)
	if err != nil {
		h.s.repeats.Error("lobby: reading the claimed seeks failed", "err", err)
		return
	}
	for _, c := range claims {
		h.mu.Lock()
		busy := h.making[c.Table]
		h.mu.Unlock()
		if busy {
			continue
		}
		g, err := h.s.madeGame(h.s.ctx, gameOf(c.Table))
		switch {
		case err == nil:
			ids := make([]string, len(c.Seeks))
			for i, sk := range c.Seeks {
				ids[i] = sk.ID
			}
			h.tell(g, c.Table, ids, true)
		case !errors.Is(err, store.ErrNotFound):
			h.s.repeats.Error("lobby: reading a table's game failed", "table", c.Table, "err", err)
		case now.Sub(c.At) >= h.s.cfg.LobbyClaimWait:
			t, pool, err := h.pr.Layout(h.s.ctx, c.Table)
			if err != nil {
				h.s.repeats.Error("lobby: laying out a table left without its game failed", "table", c.Table, "err", err)
				continue
			}
			h.s.log.Info("lobby: making the game of a table its node left", "table", c.Table)
			h.makeGame(t, pool)
		}
	}
}

// tell tells the node's seekers of the seeks named, of table, of their
// seats in game g, and forgets their seeks: they may seek again. The
// seeks named are all the node's if ours, else those the node knows (a
// table's seeks are of several nodes); a table all of whose seeks are
// known to be the node's (seeks are the table's, not ours) is forgotten
// at once. A seek that is another node's (theirs) is forgotten here
// alone: its node tells its other seeker and forgets it in the store.
// A seeker served by another node (away) of a seek of the node's is told
// through the news, as are a signed-in seeker's devices on other nodes.
func (h *hall) tell(g *made, table string, seeks []string, ours bool) {
	var mine []*localSeek
	h.mu.Lock()
	for _, id := range seeks {
		ls := h.seeks[id]
		if ls == nil && ours {
			ls = &localSeek{id: id} // its socket is gone: forget it all the same
		}
		if ls != nil {
			mine = append(mine, ls)
		}
	}
	h.mu.Unlock()
	own := 0
	for _, ls := range mine {
		if !ls.theirs {
			own++
		}
		h.mu.Lock()
		conn := ls.conn
		var mate *lobbyConn
		if ls.mate != nil {
			mate = ls.mate.conn
		}
		h.mu.Unlock()
		h.tellSeat(g, ls, ls.player, ls.away, ls.token, ls.hash, conn)
		if ls.mate != nil {
			h.tellSeat(g, ls, ls.mate.player, ls.mate.away, ls.mate.token, nil, mate)
		}
	}
	if !ours && own == len(seeks) {
		if err := h.pr.Forget(h.s.ctx, table); err != nil {
			h.s.repeats.Error("lobby: forgetting a seated table failed", "table", table, "err", err)
			return
		}
		for _, ls := range mine {
			h.forget(ls)
		}
		return
	}
	for _, ls := range mine {
		if !ls.theirs {
			if err := h.pr.Seated(h.s.ctx, ls.id); err != nil && !errors.Is(err, store.ErrNotFound) {
				h.s.repeats.Error("lobby: forgetting a seated seek failed", "seek", ls.id, "err", err)
				continue
			}
		}
		h.forget(ls)
	}
}

// tellSeat tells one seeker of seek ls of its seat in game g: the
// socket conn, if it is still open, and the player's other devices, with
// token. A seeker away is told through the news, if the seek is the
// node's (theirs, the other node tells it); so are a signed-in seeker's
// devices on other nodes.
func (h *hall) tellSeat(g *made, ls *localSeek, player string, away bool, token string, hash []byte, conn *lobbyConn) {
	var seat int
	switch {
	case away && ls.theirs:
		return
	case away:
		seat = seatOfHash(g.hashes, hash)
	default:
		seat = seatOfToken(g.hashes, token)
	}
	if seat < 0 {
		return
	}
	name := g.pr.Seats()[seat].String()
	if !away {
		if conn != nil {
			conn.seated(g.id, name, token, ls)
		}
		h.tellDevices(g.id, name, token, player, conn, ls.id)
	}
	if away || strings.HasPrefix(player, "account:") {
		n := &lobbyNews{Kind: newsSeated, Seek: ls.id, Pool: ls.pool.String(), Partner: ls.partnerOf(player), Game: g.id, Seat: name}
		if !away {
			n.Node = h.node // told here already: the node hears its own news late, when the player may seek again
		}
		h.announce(player, n)
	}
}

// tellDevices tells the other lobby WebSockets of a signed-in player
// on the node, besides told, of its seat in game: the seek was its
// account's, whichever device made it, and so is the seat. A device's
// own seek that the seated one replaced (one seek per account) is
// forgotten. A guest's seek is its one socket's: nobody else is told.
// token is "" if the node does not know it: the account's session opens
// the seat.
func (h *hall) tellDevices(game, seat, token, player string, told *lobbyConn, seek string) {
	if !strings.HasPrefix(player, "account:") {
		return
	}
	var devices []*lobbyConn
	h.mu.Lock()
	for c := range h.conns {
		if c != told && c.player == player {
			devices = append(devices, c)
		}
	}
	h.mu.Unlock()
	for _, c := range devices {
		c.state.Lock()
		if ls := c.seek; ls != nil && ls.id != seek && (ls.player == player || ls.mate != nil && ls.mate.player == player) {
			// Replaced in the store by the seek seated: gone but here.
			h.forget(ls)
			c.seek = nil
			h.mu.Lock()
			partner := ls.other(c)
			h.mu.Unlock()
			defer h.partnerGone(ls, partner, "your partner sought alone")
		}
		c.state.Unlock()
		c.seated(game, seat, token, nil)
	}
}

// partnerGone tells the partner of a pair's seek ls, withdrawn, why: its
// socket other on the node, if any, or through the news if it is served
// by another node. The invitation the seek came of, kept taken, goes with
// it: its code is no more. Nothing for a seek of one.
func (h *hall) partnerGone(ls *localSeek, other *lobbyConn, why string) {
	if other != nil {
		other.dropSeek(ls, why)
	}
	if p := ls.awayPlayer(); p != "" {
		h.announce(p, &lobbyNews{Kind: newsWithdrawn, Seek: ls.id, Pool: ls.pool.String(), Why: why})
	}
	if ls.invite != nil && h.pi != nil {
		ctx, cancel := context.WithTimeout(h.s.ctx, h.s.cfg.WriteTimeout)
		defer cancel()
		if err := h.pi.DropInvite(ctx, ls.invite); err != nil && !errors.Is(err, store.ErrNotFound) {
			h.s.repeats.Error("lobby: dropping a pair invitation failed", "err", err)
		}
	}
}

// refresh keeps the node's open seeks, tables and pair invitations
// alive, withdraws the seeks whose sockets closed (a withdrawal that
// failed then), and expires everyone's stale seeks, tables, invitations
// and news.
func (h *hall) refresh(now time.Time) {
	ctx := h.s.ctx
	h.mu.Lock()
	var orphans, theirs []*localSeek
	for _, ls := range h.seeks {
		switch {
		case ls.orphan():
			orphans = append(orphans, ls)
		case ls.theirs:
			theirs = append(theirs, ls)
		}
	}
	h.mu.Unlock()
	for _, ls := range orphans {
		if gone, _ := h.withdraw(ctx, ls); !gone {
			continue
		}
		h.mu.Lock()
		other := ls.leftBy(nil) // the partner still there, if a pair's
		h.mu.Unlock()
		h.partnerGone(ls, other, "your partner left the lobby")
	}
	for _, ls := range theirs {
		h.lost(ctx, ls)
	}
	if _, err := h.pr.Refresh(ctx, now); err != nil {
		h.s.repeats.Error("lobby: refreshing the seeks failed", "err", err)
	}
	if _, err := h.pr.Expire(ctx, now); err != nil {
		h.s.repeats.Error("lobby: expiring the seeks failed", "err", err)
	}
	if h.pi != nil {
		if _, err := h.pi.RefreshInvites(ctx, h.node, now); err != nil {
			h.s.repeats.Error("lobby: refreshing the pair invitations failed", "err", err)
		}
		if _, err := h.pi.ExpireInvites(ctx, now.Add(-h.s.cfg.LobbySeekLife)); err != nil {
			h.s.repeats.Error("lobby: expiring the pair invitations failed", "err", err)
		}
	}
	if h.news != nil {
		if _, err := h.news.ExpireNews(ctx, now.Add(-h.s.cfg.LobbySeekLife)); err != nil {
			h.s.repeats.Error("lobby: expiring the news failed", "err", err)
		}
	}
	if h.tables != nil {
		if _, err := h.tables.RefreshTables(ctx, h.node, now); err != nil {
			h.s.repeats.Error("lobby: refreshing the open tables failed", "err", err)
		}
		if _, err := h.tables.ExpireTables(ctx, now.Add(-h.s.cfg.LobbySeekLife)); err != nil {
			h.s.repeats.Error("lobby: expiring the open tables failed", "err", err)
		}
	}
}

// lost ends a seek of another node's (theirs) that is no longer in the
// store, its node having stopped (it expired) with no news of it: its
// seeker here is told its partner left. Only the loop calls it.
func (h *hall) lost(ctx context.Context, ls *localSeek) {
	cur, err := h.st.SeekOf(ctx, ls.player)
	switch {
	case err == nil && cur.ID == ls.id:
		return
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return
	}
	// Its node adds the news of its end before it removes it: heard now,
	// the news forgets it.
	h.listen()
	h.mu.Lock()
	still := h.seeks[ls.id] == ls
	c := ls.conn
	h.mu.Unlock()
	if !still {
		return
	}
	h.forget(ls)
	if c != nil {
		c.dropSeek(ls, "your partner left the lobby")
	}
}

// withdraw withdraws a seek of the node whose seeker left, if it is
// still open and still the player's (another device of the player's
// account may have replaced it); a claimed one stays, to be told. It
// reports whether the seek is gone from the store.
func (h *hall) withdraw(ctx context.Context, ls *localSeek) (bool, error) {
	cur, err := h.st.SeekOf(ctx, ls.player)
	switch {
	case errors.Is(err, store.ErrNotFound):
		h.forget(ls)
		return true, nil
	case err != nil:
		return false, err
	case cur.ID != ls.id:
		h.forget(ls)
		return true, nil
	case cur.Table != "":
		return false, nil
	}
	err = h.pr.Withdraw(ctx, ls.player)
	if err == nil || errors.Is(err, store.ErrNotFound) {
		h.forget(ls)
		return true, nil
	}
	return false, err
}

// addSeek stores seek sk, known to the loop first as ls, so that a round
// of another node cannot seat it before this node knows its tokens; if the
// store refuses it, the loop forgets it, and a seeker seated already is
// told seated (ECONFLICT).
func (h *hall) addSeek(ctx context.Context, ls *localSeek, sk *lobby.Seek, seated string) error {
	h.mu.Lock()
	h.seeks[ls.id] = ls
	h.mu.Unlock()
	if err := h.pr.Add(ctx, sk, time.Now()); err != nil {
		h.forget(ls)
		if errors.Is(err, store.ErrConflict) {
			return Errorf(ECONFLICT, "%s", seated)
		}
		return lobbyError(err, "")
	}
	return nil
}

// forget drops a seek of the node that is no longer in the store.
func (h *hall) forget(ls *localSeek) {
	h.mu.Lock()
	if h.seeks[ls.id] == ls {
		delete(h.seeks, ls.id)
	}
	h.mu.Unlock()
}

// lobbyError turns an error of package lobby or of the store's lobby
// into the API's.
func lobbyError(err error, conflict string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, lobby.ErrInvalid):
		return Errorf(EINVALID, "%s", strings.TrimPrefix(err.Error(), "lobby: "))
	case errors.Is(err, store.ErrConflict):
		return Errorf(ECONFLICT, "%s", conflict)
	case errors.Is(err, store.ErrNotFound):
		return Errorf(ENOTFOUND, "%s", conflict)
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return unavailable(storeRetryAfter, "the lobby could not be reached in the database; try again")
}
