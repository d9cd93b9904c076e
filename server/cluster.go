package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// Many nodes, one PostgreSQL (Config.Cluster). Each live game is driven
// by exactly one node, the one holding its lease in the store; the store
// fences every write of a game by that lease (store.Cluster), so a node
// that lost a game cannot write it, whatever it believes. A node:
//
//   - renews its leases every Lease/3, in one statement; a game the
//     renewal finds another node's is dropped at once (lose);
//   - adopts, every Lease/5 and at once when a node says it released its
//     games, live games whose lease lapsed, at most its share of them
//     (the orphans over the nodes alive), and resumes them as a restart
//     does, giving the decider back the time since the last renewal;
//   - follows, for its own WebSocket clients, the games another node
//     drives: a follower is a live game whose loop drives nothing, reads
//     the game's new events from the store when the store notifies it of
//     them, and hands them to its subscribers, with the same numbering
//     and messages as the driving node's;
//   - forwards the actions on games it does not drive to the node that
//     does (forward.go).
//
// When a node loses a game (fenced, or its renewal says so) its loop
// becomes a follower, so its clients stay connected; when it adopts one
// it follows, the follower becomes the driver.

// errNotOwner is the verdict of a game's loop on a request it cannot
// serve because this node does not drive the game: the request is to be
// forwarded.
var errNotOwner = errors.New("server: this node does not drive the game")

// node is the server's part in a cluster.
type node struct {
	id      string
	cl      store.Cluster
	key     []byte          // Config.ClusterKey, which signs what the nodes forward
	window  time.Duration   // Config.ForwardWindow
	seen    *seenSignatures // the signatures accepted, to refuse them again
	client  *http.Client    // to the other nodes (forward.go)
	kick    chan struct{}   // an adoption round, now
	renewed atomic.Int64    // when the last renewal that went through began (or the join), Unix ns
}

// lapsed reports whether the node's leases may have lapsed: its last
// renewal that went through began more than a lease ago. A node paused
// (SIGSTOP, a frozen VM) past its lease finds this on waking, before its
// next renewal tells it which games other nodes adopted meanwhile; until
// then what it holds of its games may be behind the store.
func (n *node) lapsed(lease time.Duration) bool {
	return time.Since(time.Unix(0, n.renewed.Load())) > lease
}

// minClusterKey is the shortest Config.ClusterKey, in bytes.
const minClusterKey = 32

// clusterKeyID names a cluster key in the store, so that a node given
// another key file is refused when it joins, without the store holding
// the key: the first 8 bytes of a SHA-256 of it, in hex.
func clusterKeyID(key []byte) string {
	sum := sha256.Sum256(append([]byte("chaturaji cluster key id\x00"), key...))
	return hex.EncodeToString(sum[:8])
}

// newNodeID returns a random id for this process's node.
func newNodeID() string {
	var b [8]byte
	rand.Read(b[:])
	return "node-" + hex.EncodeToString(b[:])
}

// startCluster joins the cluster, adopts a first share of the orphaned
// games and starts the renewals, the adoptions and the listening.
func (s *Server) startCluster(ctx context.Context) error {
	cl := store.ClusterOf(s.store)
	if cl == nil {
		return errors.New("server: Config.Cluster needs a store that nodes can share (PostgreSQL)")
	}
	if s.cfg.Advertise == "" {
		return errors.New("server: Config.Cluster needs Config.Advertise, the URL the other nodes reach this one at")
	}
	if len(s.cfg.ClusterKey) < minClusterKey {
		return fmt.Errorf("server: Config.Cluster needs Config.ClusterKey, the key all the nodes share (the key file's cluster-key), of %d bytes or more; it has %d", minClusterKey, len(s.cfg.ClusterKey))
	}
	n := &node{
		id: newNodeID(), cl: cl, key: s.cfg.ClusterKey, window: s.cfg.ForwardWindow,
		seen: newSeenSignatures(s.cfg.MaxForwardSignatures),
		kick: make(chan struct{}, 1), client: &http.Client{Timeout: 10 * time.Second},
	}
	n.renewed.Store(time.Now().UnixNano())
	if err := cl.Join(ctx, n.id, s.cfg.Advertise, s.cfg.Lease, clusterKeyID(n.key)); err != nil {
		return fmt.Errorf("server: joining the cluster: %w", err)
	}
	s.node = n
	s.log.Info("joined the cluster", "node", n.id, "advertise", s.cfg.Advertise, "lease", s.cfg.Lease)
	s.adoptRound(ctx)
	for _, f := range []func(){s.renewing, s.adopting, s.listening, s.presenting} {
		if s.track() {
			go func() {
				defer s.wg.Done()
				f()
			}()
		}
	}
	return nil
}

// renewing renews the node's leases every Lease/3 until the server shuts
// down.
func (s *Server) renewing() {
	t := time.NewTicker(s.cfg.Lease / 3)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(s.ctx, s.cfg.Lease/3)
		t0 := time.Now()
		lost, err := s.node.cl.Renew(ctx)
		cancel()
		if err != nil {
			s.metrics.renewals.WithLabelValues("failed").Inc()
			s.repeats.Error("renewing the leases of the games: the store fails; past the lease, other nodes adopt them", "err", err)
			continue
		}
		s.metrics.renewals.WithLabelValues("ok").Inc()
		var fenced []*live
		for _, id := range lost {
			if l := s.liveGame(id); l != nil {
				l.fenced.Store(true) // before the renewal counts: reads go to the store
				fenced = append(fenced, l)
			}
		}
		s.node.renewed.Store(t0.UnixNano())
		for _, l := range fenced {
			l.post(s.ctx, func() { l.lose("the lease renewal found it another node's") })
		}
	}
}

// adopting runs an adoption round every Lease/5, and at once when a node
// released its games, until the server shuts down.
func (s *Server) adopting() {
	t := time.NewTicker(s.cfg.Lease / 5)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		case <-s.node.kick:
		}
		s.adoptRound(s.ctx)
	}
}

// adoptRound adopts this node's share of the orphaned games, within
// Config.MaxLiveGames: what it lacks of an even share of all the live
// games over the nodes alive, and at least the orphans over the nodes,
// rounded up. The first share alone lets the nodes take a dead node's
// games in one round each (the orphans' share alone left the last to
// look a share of what the others left: 16 of 32 orphans for the first
// of two nodes, 8 for the second, and the rest a round or two later);
// the second keeps adoption going when the shares are uneven (a node
// counted alive that adopts nothing, or one at its cap).
func (s *Server) adoptRound(ctx context.Context) {
	if s.shuttingDown() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Lease)
	defer cancel()
	orphans, live, nodes, err := s.node.cl.Orphans(ctx)
	if err != nil {
		s.repeats.Error("looking for games to adopt", "err", err)
		return
	}
	if orphans == 0 {
		return
	}
	nodes = max(nodes, 1)
	owned := s.owned()
	share := max((live+nodes-1)/nodes-owned, (orphans+nodes-1)/nodes)
	share = min(share, s.cfg.MaxLiveGames-owned)
	adopted, err := s.node.cl.Adopt(ctx, share)
	if err != nil {
		s.repeats.Error("adopting games", "err", err)
		return
	}
	for _, a := range adopted {
		s.adoptGame(ctx, a)
	}
}

// adoptGame drives a game the node has just adopted: its follower, if it
// has one, takes over; else the game is loaded as at a start.
func (s *Server) adoptGame(ctx context.Context, a store.Adopted) {
	why := "its lease lapsed"
	switch {
	case a.Released:
		why = "its node released it on shutdown"
	case a.From == "":
		why = "it had no owner"
	}
	s.log.Info("game adopted", "game", a.ID, "from", a.From, "why", why, "last_held", a.LastHeld)
	s.metrics.ownership.WithLabelValues("adopted").Inc()
	s.loading.Lock()
	defer s.loading.Unlock()
	if l := s.liveGame(a.ID); l != nil {
		// Waited for: a follower stopping meanwhile would drop a
		// command only queued, and the game would be held but not driven.
		err := l.call(ctx, func() { l.adopt(a.LastHeld) })
		if err == nil {
			return
		}
		if !errors.Is(err, errGone) {
			// Not held, so not renewed: its lease lapses for a node to
			// try again.
			s.log.Error("resuming an adopted game", "game", a.ID, "err", err)
			s.node.cl.Drop(a.ID)
			return
		}
		<-l.done // it has stopped, and is out of s.games
	}
	r, err := s.read(ctx, a.ID)
	if err != nil {
		var d *damagedError
		if errors.As(err, &d) {
			s.noteDamaged(a.ID, d.err)
		} else {
			s.log.Error("loading an adopted game; its lease lapses for another node to try", "game", a.ID, "err", err)
		}
		s.node.cl.Drop(a.ID)
		return
	}
	l := newLive(s, r)
	l.owned.Store(true)
	l.unheld = a.LastHeld
	if !s.start(l) {
		s.node.cl.Drop(a.ID)
	}
}

// listening hears the store's notes until the server shuts down: new
// events go to the game's follower, a release starts an adoption round,
// and after a reconnection every follower reads what it may have missed.
func (s *Server) listening() {
	s.node.cl.Listen(s.ctx, func(n store.Note) {
		switch n.Kind {
		case store.NoteConnected:
			s.mu.Lock()
			for _, l := range s.games {
				l.wantCatchUp()
			}
			s.mu.Unlock()
			s.kickAdoption()
			s.mirrorAll()
		case store.NoteReleased:
			s.kickAdoption()
		case store.NoteEvents:
			if l := s.liveGame(n.ID); l != nil {
				l.wantCatchUp()
			}
		case store.NoteRematch:
			go s.mirror(n.ID)
		}
	})
}

// kickAdoption asks for an adoption round now.
func (s *Server) kickAdoption() {
	select {
	case s.node.kick <- struct{}{}:
	default:
	}
}

// releaseAll gives up the node's leases once its games have stopped, so
// that the other nodes adopt them at once.
func (s *Server) releaseAll(ctx context.Context, games int) {
	if err := s.node.cl.Release(ctx); err != nil {
		s.log.Error("releasing the games on shutdown; the other nodes adopt them when their leases lapse", "err", err)
		return
	}
	s.metrics.ownership.WithLabelValues("released").Add(float64(games))
	s.log.Info("released the games on shutdown for the other nodes to adopt", "node", s.node.id, "games", games)
}

// liveGame returns the loop of game id in this server, driver or
// follower, or nil.
func (s *Server) liveGame(id string) *live {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.games[id]
}

// owns reports whether this server drives game id now.
func (s *Server) owns(id string) bool {
	l := s.liveGame(id)
	return l != nil && l.owned.Load()
}

// owned counts the games this server drives.
func (s *Server) owned() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.games {
		if l.owned.Load() {
			n++
		}
	}
	return n
}

// relayed counts the subscribers of the games this server follows.
func (s *Server) relayed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.games {
		if !l.owned.Load() {
			n += int(l.nsubs.Load())
		}
	}
	return n
}

// follower returns the loop that follows game id for this node's
// clients, starting one if there is none, counted as joining until the
// caller calls its joined: a follower stops when it has no subscribers,
// and the game's events, relayed as they come, must not stop it between
// its start and its first client's subscription.
func (s *Server) follower(ctx context.Context, id string) (*live, error) {
	s.loading.Lock()
	defer s.loading.Unlock()
	if l := s.liveGame(id); l != nil {
		l.joining.Add(1)
		return l, nil
	}
	r, err := s.read(ctx, id)
	if err != nil {
		return nil, err
	}
	l := newLive(s, r)
	l.joining.Add(1)
	if !s.start(l) {
		return nil, Errorf(EUNAVAILABLE, "the server is shutting down")
	}
	return l, nil
}

// joined ends a joining that follower counted: the client subscribed, and
// has gone since, or gave up first. A follower left with neither
// subscribers nor clients joining stops.
func (l *live) joined() {
	if l.joining.Add(-1) > 0 {
		return
	}
	l.post(l.srv.ctx, func() {
		if l.unwanted() {
			l.leaving = true
		}
	})
}

// unwanted reports whether the loop is a follower with neither subscribers
// nor clients joining, which has no reason to go on.
func (l *live) unwanted() bool {
	return !l.owned.Load() && len(l.subs) == 0 && l.joining.Load() == 0
}

// follows is the part of a live game that a follower needs.
type follows struct {
	rp      *replayed   // the game as its events left it, sharing l.game; nil while the loop drives
	pending atomic.Bool // a catch-up is queued
	leaving bool        // a follower without subscribers: the loop stops
	nsubs   atomic.Int32
	joining atomic.Int32 // clients between follower and their subscription

	// Presence (presence.go), owned by the loop.
	remotes   map[string]remote // a driver's: the other nodes' reports, by node
	presenceN int64             // a follower's: its reports so far
}

// wantCatchUp queues a catch-up on a follower's loop unless one is
// queued already (which will read every event committed before it runs).
func (l *live) wantCatchUp() {
	if l.owned.Load() || !l.pending.CompareAndSwap(false, true) {
		return
	}
	go l.post(l.srv.ctx, l.catchUp)
}

// catchUp reads a follower's new events from the store, takes them in
// and hands them to its subscribers, in order. A follower left without
// subscribers stops.
func (l *live) catchUp() {
	l.pending.Store(false)
	if l.owned.Load() {
		return
	}
	if l.unwanted() {
		l.leaving = true
		return
	}
	l.readAhead(true)
}

// readAhead takes in the events stored after the follower's last, then
// publishes them; at the game's end, if over, the loop stops.
func (l *live) readAhead(over bool) {
	if l.rp == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	evs, err := l.srv.store.Events(ctx, l.id, l.seq)
	if err != nil {
		l.srv.repeats.Error("relaying a game's events: the store fails; the next event's note tries again", "game", l.id, "err", err)
		return
	}
	if len(evs) == 0 {
		return
	}
	for _, e := range evs {
		if err := l.rp.apply(e); err != nil {
			l.srv.noteDamaged(l.id, err)
			l.leaving = true
			return
		}
	}
	l.info, l.seq, l.last, l.takeovers, l.moved = l.rp.info, l.rp.seq, l.rp.last, l.rp.takeovers, l.rp.moved
	l.banks, l.times, l.waitUntil = l.rp.bankList(), l.rp.times, l.rp.waitUntil
	l.updated = l.last.At
	l.snapshot()
	for _, e := range evs {
		l.publish(e.Data)
	}
	if over && l.last.Kind == KindEnd {
		l.over = true
	}
}

// adopt makes a follower the game's driver: it takes in the events it
// has not seen, reads the game afresh (its seats may have been claimed)
// and resumes it, giving back the time since the last renewal.
func (l *live) adopt(lastHeld time.Time) {
	if l.owned.Load() {
		return
	}
	l.readAhead(false)
	l.owned.Store(true)
	l.leaving = false
	if _, ok := l.reload(); !ok {
		return // it tries again by itself
	}
	l.unheld = lastHeld
	l.resume()
}

// lose makes the game's driver a follower at once: its bots and timers
// stop, nothing more is written, and its subscribers stay, hearing the
// new driver's events. A follower without subscribers stops.
func (l *live) lose(why string) {
	if !l.owned.Load() {
		l.fenced.Store(false) // a follower already: it reads the new driver's events
		return
	}
	l.owned.Store(false)
	l.srv.node.cl.Drop(l.id)
	l.cancelBot()
	if l.timer != nil {
		l.timer.Stop()
	}
	if l.failures > 0 {
		l.srv.metrics.gamesWaiting.Dec()
		l.failures = 0
	}
	l.retryAt, l.stale, l.unheld = time.Time{}, false, time.Time{}
	l.srv.log.Warn("game lost: another node drives it now", "game", l.id, "why", why, "seq", l.seq)
	l.srv.metrics.ownership.WithLabelValues("fenced").Inc()
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	r, evs, err := readGameEvents(ctx, l.srv.store, l.id)
	if err != nil {
		l.srv.repeats.Error("reading a lost game to follow it; its clients reconnect", "game", l.id, "err", err)
		for sub := range l.subs {
			l.drop(sub, reasonShutdown)
		}
		l.rp = nil
		l.leaving = true
		return
	}
	l.takeIn(r, evs) // the events it had written unconfirmed, then the new driver's
	l.fenced.Store(false)
	if l.last != nil && l.last.Kind == KindEnd {
		l.over = true
	}
	if l.unwanted() {
		l.leaving = true
	}
}

// lapsed reports whether this server is a node whose leases may have
// lapsed (node.lapsed): it must not answer for its games from what it
// holds until a renewal says which are still its own.
func (s *Server) lapsed() bool {
	return s.node != nil && s.node.lapsed(s.cfg.Lease)
}

// behind reports whether the store holds events of the game past those
// the loop holds, which a node's driver finds after it was paused past its
// lease (another node adopted the game and moved it on) or after a write
// of its own whose outcome it never heard; the loop then reloads, so that
// its subscribers hear them (takeIn). An error is the store's.
func (l *live) behind() (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	info, err := l.srv.store.Game(ctx, l.id)
	if err != nil {
		return false, err
	}
	if info.LastEvent <= l.seq {
		return false, nil
	}
	l.reload()
	return true, nil
}
