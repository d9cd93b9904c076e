package server

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"time"

	"github.com/chaturaji/chaturaji/lobby"
	"github.com/chaturaji/chaturaji/store"
)

// The lobby's news: what a node has to tell a player whose sockets may be
// on other nodes (store.LobbyNews). A node adds news for a signed-in
// player seated, so that the account's devices on every node are told
// the seat, and for a partner served by another node: that its pair
// invitation was taken (the inviter's node then follows the pair's seek),
// that the pair's seek was withdrawn, and why, or seated, and where.
// Every node reads the news each round of its loop (listen), from a
// while before the latest it read (newsOverlap), and tells the sockets
// it holds; each piece is acted on once per node.

// The kinds of the lobby's news.
const (
	newsTaken     = "taken"     // the inviter's invitation was taken: the pair seeks (for the inviter's node)
	newsSeated    = "seated"    // the player's seek was seated
	newsWithdrawn = "withdrawn" // the player's pair's seek was withdrawn by its partner
)

// newsOverlap is how far before the latest news read a node reads again:
// news stored while the node read may come with a time a little before.
const newsOverlap = 5 * time.Second

// newsBatch is how many pieces of news a node reads at once.
const newsBatch = 1000

// lobbyNews is a piece of the lobby's news, as the store keeps it (Data).
type lobbyNews struct {
	Kind    string    `json:"kind"`              // newsTaken, newsSeated or newsWithdrawn
	Seek    string    `json:"seek"`              // the seek it is about
	Pool    string    `json:"pool"`              // the seek's pool
	Node    string    `json:"node,omitempty"`    // the inviter's node (taken); the node that told its sockets already (seated)
	Invite  []byte    `json:"invite,omitempty"`  // the invitation's code hash (taken)
	Mate    string    `json:"mate,omitempty"`    // the partner's player (taken)
	Partner string    `json:"partner,omitempty"` // the partner's name (taken, seated)
	Since   time.Time `json:"since,omitzero"`    // when the pair's seek was stored (taken)
	Game    string    `json:"game,omitempty"`    // the game (seated)
	Seat    string    `json:"seat,omitempty"`    // the player's seat in it (seated)
	Why     string    `json:"why,omitempty"`     // why the seek was withdrawn (withdrawn)
}

// heard is where a node is in the news.
type heard struct {
	since time.Time            // the latest news read
	ids   map[string]time.Time // the news acted on, until it is newsOverlap older than since
}

// announce adds news for player. The node's own sockets of the player
// were told already: the news is for the other nodes, which read it
// within a round.
func (h *hall) announce(player string, n *lobbyNews) error {
	if h.news == nil {
		return nil
	}
	data, err := json.Marshal(n)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(h.s.ctx, h.s.cfg.WriteTimeout)
	defer cancel()
	if err := h.news.AddNews(ctx, &store.News{ID: rand.Text(), Player: player, Data: data}); err != nil {
		h.s.repeats.Error("lobby: storing news failed", "kind", n.Kind, "err", err)
		return err
	}
	return nil
}

// listen reads the news since the latest read, and acts on each piece
// for a player of the node's sockets (or, taken, of its invitations).
// Only the loop calls it.
func (h *hall) listen() {
	if h.news == nil {
		return
	}
	from := h.heard.since.Add(-newsOverlap)
	for range 10 { // at most 10 batches a round: the rest next round
		ns, err := h.news.News(h.s.ctx, from, newsBatch)
		if err != nil {
			h.s.repeats.Error("lobby: reading the news failed", "err", err)
			return
		}
		var fresh []*store.News
		for _, n := range ns {
			if _, ok := h.heard.ids[n.ID]; ok {
				continue
			}
			h.heard.ids[n.ID] = n.At
			fresh = append(fresh, n)
			if n.At.After(h.heard.since) {
				h.heard.since = n.At
			}
		}
		if len(fresh) > 0 {
			h.hear(fresh)
		}
		if len(ns) < newsBatch {
			break
		}
		from = ns[len(ns)-1].At
	}
	for id, at := range h.heard.ids {
		if at.Before(h.heard.since.Add(-newsOverlap)) {
			delete(h.heard.ids, id)
		}
	}
}

// hear acts on news: each piece for a player with sockets on the node,
// or taken for an invitation of the node.
func (h *hall) hear(ns []*store.News) {
	players := make(map[string]bool)
	h.mu.Lock()
	for c := range h.conns {
		players[c.player] = true
	}
	h.mu.Unlock()
	for _, sn := range ns {
		var n lobbyNews
		if err := json.Unmarshal(sn.Data, &n); err != nil {
			h.s.repeats.Error("lobby: news not understood", "id", sn.ID, "err", err)
			continue
		}
		switch {
		case n.Kind == newsTaken && n.Node == h.node:
			h.taken(sn.Player, &n)
		case !players[sn.Player]:
		case n.Kind == newsSeated && n.Node == h.node:
			// This node told the player's sockets when it seated the
			// seek; heard now, a round or more later, it would drop the
			// seek a device has made since.
		case n.Kind == newsSeated:
			h.mu.Lock()
			ls := h.seeks[n.Seek]
			h.mu.Unlock()
			token := ""
			if ls != nil {
				token = ls.tokenOf(sn.Player)
			}
			h.tellAll(n.Game, n.Seat, token, sn.Player, ls)
			if ls != nil && ls.theirs {
				h.forget(ls)
			}
		case n.Kind == newsWithdrawn:
			h.withdrawn(sn.Player, &n)
		}
	}
}

// tellAll tells every socket of player on the node of its seat in game:
// its socket seeking ls, if ls is this node's, with its token; the
// others, its devices, with token too if the node knows it.
func (h *hall) tellAll(game, seat, token, player string, ls *localSeek) {
	var seeker *lobbyConn
	if ls != nil {
		h.mu.Lock()
		switch {
		case ls.player == player:
			seeker = ls.conn
		case ls.mate != nil && ls.mate.player == player:
			seeker = ls.mate.conn
		}
		h.mu.Unlock()
	}
	seek := ""
	if ls != nil {
		seek = ls.id
	}
	if seeker != nil {
		seeker.seated(game, seat, token, ls)
	}
	h.tellDevices(game, seat, token, player, seeker, seek)
}

// withdrawn tells player's socket whose seek was n's that its partner
// withdrew it, and why.
func (h *hall) withdrawn(player string, n *lobbyNews) {
	h.mu.Lock()
	ls := h.seeks[n.Seek]
	var c *lobbyConn
	if ls != nil {
		switch {
		case ls.player == player && !ls.away:
			c = ls.conn
		case ls.mate != nil && ls.mate.player == player && !ls.mate.away:
			c = ls.mate.conn
		}
	}
	h.mu.Unlock()
	if ls == nil {
		return
	}
	h.forget(ls)
	if c != nil {
		c.dropSeek(ls, n.Why)
	}
}

// taken follows, for the inviter player of the node's invitation, the
// pair's seek that its partner's node stored: the inviter's socket seeks
// with it, as theirs, and is told so. If the inviter has left or moved
// on meanwhile, the pair's seek is withdrawn and the partner told.
func (h *hall) taken(player string, n *lobbyNews) {
	ctx, cancel := context.WithTimeout(h.s.ctx, h.s.cfg.WriteTimeout)
	defer cancel()
	h.mu.Lock()
	inv := h.pairs[string(n.Invite)]
	h.mu.Unlock()
	pool, err := lobby.ParsePool(n.Pool)
	if err != nil {
		h.s.repeats.Error("lobby: news of a pool not understood", "pool", n.Pool, "err", err)
		return
	}
	adopted := false
	if inv != nil {
		c := inv.conn
		c.state.Lock()
		if c.invite == inv && c.seek == nil && c.table == "" {
			ls := &localSeek{
				id: n.Seek, pool: pool, player: player, name: inv.name, token: inv.token, conn: c, theirs: true, invite: inv.hash,
				mate: &localSeeker{player: n.Mate, name: n.Partner, away: true},
			}
			h.mu.Lock()
			h.seeks[ls.id] = ls
			h.mu.Unlock()
			h.forgetInvite(inv)
			c.invite, c.seek = nil, ls
			since := n.Since
			c.post(&LobbyEvent{Kind: LobbySeeking, Pool: pool.String(), Since: &since, Partner: n.Partner})
			adopted = true
		}
		c.state.Unlock()
	}
	if adopted {
		return
	}
	// The inviter left, or withdrew its invitation, or sought
	// meanwhile: so is the pair's seek, if it is still there.
	why := "your partner left the lobby"
	if inv != nil {
		why = "your partner sought alone"
	}
	gone := &localSeek{id: n.Seek, pool: pool, player: player, theirs: true, invite: n.Invite, mate: &localSeeker{player: n.Mate, away: true}}
	if ok, _ := h.withdraw(ctx, gone); ok {
		h.partnerGone(gone, nil, why)
	}
}
