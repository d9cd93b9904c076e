package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/netip"
	"reflect"
	"time"
)

// Rematches in a cluster. A finished game's rematch offer lives in the
// memory of one node, its home (store.Cluster.Home): the node that drove
// the game to its end while it is alive, else the alive node first by
// id. Every other node forwards the game's rematch requests (POST and GET
// .../rematch) to the home, signed as forward.go signs actions, so that
// the players' offers and answers meet whichever node each one reaches.
// The home tells every node of each change of the offer (a NOTIFY); a
// node with WebSockets following the game's rematch (?rematch=1) then
// reads the offer as everyone sees it from the home, and passes it on
// to them. If the home goes, its offers go with it, as they do when a
// single server restarts: the players offer again, at the new home.

// homed wraps a rematch handler: with Config.Cluster, a request that
// reaches a node other than the game's home is forwarded there, and
// answered as the home answers it.
func (s *Server) homed(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if s.node == nil || !validID(id) || infoOf(r).forwarded {
			h(w, r)
			return
		}
		addr, local, err := s.rematchHome(r.Context(), id)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if local {
			h(w, r)
			return
		}
		var body []byte
		if r.Method == http.MethodPost {
			if body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)); err != nil {
				s.fail(w, r, Errorf(ETOOLARGE, "the body is over the limit of %d bytes", s.cfg.MaxBody))
				return
			}
		}
		ans, _, err := s.send(r.Context(), addr, r.Method, r.URL.RequestURI(), forwardHeader(r), body, infoOf(r).client)
		if err != nil {
			s.log.Warn("rematch: the game's home node did not answer", "game", id, "addr", addr, "err", err)
			s.fail(w, r, unavailable(time.Second, "the node that keeps game %s's rematch offer does not answer; try again", id))
			return
		}
		ans.write(w)
	}
}

// rematchHome returns the address of game id's rematch home, or local if
// this node is the home (or no node is alive, as far as the store
// knows).
func (s *Server) rematchHome(ctx context.Context, id string) (addr string, local bool, err error) {
	node, addr, err := s.node.cl.Home(ctx, id)
	if err != nil {
		return "", false, s.storeError(id, err)
	}
	return addr, node == "" || node == s.node.id, nil
}

// rematched tells the other nodes that game id's rematch offer changed,
// so that they pass it on to their followers (mirror).
func (s *Server) rematched(id string) {
	if s.node == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(s.ctx, storeTimeout)
		defer cancel()
		if err := s.node.cl.Rematched(ctx, id); err != nil {
			s.log.Warn("rematch: telling the other nodes of an offer", "game", id, "err", err)
		}
	}()
}

// mirrorClient is the client a node reads another's rematch offers as.
var mirrorClient = netip.PrefixFrom(netip.IPv6Loopback(), 128)

// mirror reads game id's rematch offer from its home and passes it on to
// this node's followers of the game, if it has any and is not the home.
// Mirrors of one board are read one at a time, each after the note that
// asked for it, so the last one read is the offer as it stands.
func (s *Server) mirror(id string) {
	b := s.rematches.get(id)
	if b == nil {
		return
	}
	b.mirroring.Lock()
	defer b.mirroring.Unlock()
	b.mu.Lock()
	idle := len(b.subs) == 0 || b.offer != nil
	b.mu.Unlock()
	if idle {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, storeTimeout)
	defer cancel()
	addr, local, err := s.rematchHome(ctx, id)
	if err != nil || local {
		return
	}
	ans, _, err := s.send(ctx, addr, http.MethodGet, "/api/games/"+id+"/rematch", http.Header{}, nil, mirrorClient)
	if err != nil {
		s.log.Warn("rematch: reading an offer from the game's home node", "game", id, "addr", addr, "err", err)
		return
	}
	var view *Rematch
	switch {
	case ans.status == http.StatusOK:
		view = new(Rematch)
		if err := json.Unmarshal(ans.body, view); err != nil {
			return
		}
	case ans.status != http.StatusNotFound:
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	before := b.mirrored
	if b.offer != nil || view == nil && before == nil {
		return
	}
	b.mirrored = view
	if view != nil && !reflect.DeepEqual(view, before) { // the followers have heard of no offer, or of another
		b.publish()
	}
}

// mirrorAll reads again every offer this node mirrors, after its
// notifications may have missed some.
func (s *Server) mirrorAll() {
	s.rematches.mu.Lock()
	ids := make([]string, 0, len(s.rematches.boards))
	for id := range s.rematches.boards {
		ids = append(ids, id)
	}
	s.rematches.mu.Unlock()
	for _, id := range ids {
		go s.mirror(id)
	}
}
