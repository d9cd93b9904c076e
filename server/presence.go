package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/netip"
	"time"
)

// Presence across nodes. Whether a seat's holder is connected drives the
// abandonment timers (grace, expiry), which only the driving node runs;
// but a holder may be connected to another node, which relays the game to
// it. So a relaying node reports to the driving node, through the same
// signed forwarding as actions, how many of each seat's holders it has
// connected: at once when the number changes, and again every Lease/2,
// so that a new driver learns it after an adoption. A report is the
// whole count of the node's holders, numbered, so that one overtaken by
// a later report changes nothing; a node's report not renewed within
// three leases (the node died) is forgotten.

// presenceRoute is the pattern of the reports; only nodes of the cluster
// may send them, and the front door charges them to no client's budget.
const presenceRoute = "POST /api/games/{id}/presence"

// Presence is a report of one node's holders connected to a game.
type Presence struct {
	Node  string `json:"node"`  // the reporting node
	N     int64  `json:"n"`     // its reports, numbered: a lower one is stale
	Seats []int  `json:"seats"` // the holders connected of each seat
}

// remote is a node's last presence report, as the driving node keeps it.
type remote struct {
	n     int64
	seats []int
	at    time.Time
}

// present counts seat i's holders connected, to this node or, as their
// nodes last reported, to others; reports too old are forgotten.
func (l *live) present(i int) int {
	n := l.online[i]
	now := time.Now()
	for node, r := range l.remotes {
		if now.Sub(r.at) > 3*l.srv.cfg.Lease {
			delete(l.remotes, node)
			continue
		}
		if i < len(r.seats) {
			n += r.seats[i]
		}
	}
	return n
}

// remoteExpiry returns when the oldest presence report lapses, zero if
// there is none: the timers look again then.
func (l *live) remoteExpiry() time.Time {
	var t time.Time
	for _, r := range l.remotes {
		if x := r.at.Add(3 * l.srv.cfg.Lease); t.IsZero() || x.Before(t) {
			t = x
		}
	}
	return t
}

// setPresence takes in a node's report on the driving node.
func (l *live) setPresence(p *Presence) {
	if !l.owned.Load() || len(p.Seats) != len(l.online) {
		return
	}
	if r, ok := l.remotes[p.Node]; ok && r.n >= p.N {
		return // overtaken
	}
	now := time.Now()
	before := make([]int, len(l.online))
	for i := range before {
		before[i] = l.present(i)
	}
	if l.remotes == nil {
		l.remotes = make(map[string]remote)
	}
	l.remotes[p.Node] = remote{n: p.N, seats: p.Seats, at: now}
	for i := range before {
		switch after := l.present(i); {
		case before[i] > 0 && after == 0:
			l.idleSince[i], l.active = now, now
		case before[i] == 0 && after > 0:
			l.idleSince[i], l.active = now, now // back, through another node (idleEnd)
		}
	}
	l.snapshot()
	l.setTimer(now)
}

// reportPresence sends, from a relaying node, its count of each seat's
// holders connected to the game's driving node, in the background.
func (l *live) reportPresence() {
	if l.owned.Load() || l.srv.node == nil {
		return
	}
	l.presenceN++
	p := &Presence{Node: l.srv.node.id, N: l.presenceN, Seats: append([]int(nil), l.online...)}
	go l.srv.sendPresence(l.id, p)
}

// sendPresence sends a presence report to the node that drives game id.
func (s *Server) sendPresence(id string, p *Presence) {
	body, err := json.Marshal(p)
	if err != nil {
		return
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	ctx, cancel := context.WithTimeout(s.ctx, 2*s.cfg.Lease+2*time.Second)
	defer cancel()
	// The client of a report is the node itself (its loopback stands
	// for it); the front door charges reports to no budget.
	self := netip.PrefixFrom(netip.IPv6Loopback(), 128)
	if _, _, err := s.forward(ctx, id, http.MethodPost, "/api/games/"+id+"/presence", h, body, self, true); err != nil {
		s.repeats.Info("a presence report was not delivered; the next one is", "game", id, "err", err)
	}
}

// presenting reports again, every Lease/2, the holders connected to the
// games this node relays, until the server shuts down.
func (s *Server) presenting() {
	t := time.NewTicker(s.cfg.Lease / 2)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		s.mu.Lock()
		for _, l := range s.games {
			if !l.owned.Load() && l.nsubs.Load() > 0 {
				go l.post(s.ctx, func() {
					for _, n := range l.online {
						if n > 0 {
							l.reportPresence()
							return
						}
					}
				})
			}
		}
		s.mu.Unlock()
	}
}

// handlePresence is POST /api/games/{id}/presence: a node's report of the
// holders connected to it (Presence), from nodes of the cluster only.
func (s *Server) handlePresence(w http.ResponseWriter, r *http.Request) {
	if s.node == nil || !infoOf(r).forwarded {
		s.fail(w, r, Errorf(EFORBIDDEN, "only the nodes of a cluster report presence"))
		return
	}
	var p Presence
	if err := s.readJSON(w, r, &p); err != nil {
		s.fail(w, r, err)
		return
	}
	l := s.liveGame(r.PathValue("id"))
	if l == nil || !l.owned.Load() {
		s.notOwner(w, r)
		return
	}
	if err := l.post(r.Context(), func() { l.setPresence(&p) }); err != nil {
		s.notOwner(w, r)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
