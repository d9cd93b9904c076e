package server

import (
	"context"
	"sync"
)

// humanShare is how many decisions of games with a human seat the
// scheduler grants in a row, while decisions of games of bots alone wait,
// before it grants one of those. Strict priority would let a busy server's
// games with humans (each up to three bots) starve the games of bots
// alone for good; one in five still lets a game with humans, whose
// decisions come one at a time, have the next free worker nearly always.
const humanShare = 4

// scheduler shares the server's bot workers (Config.BotWorkers) among the
// searching bots of all games. A game's decisions wait in a queue of its
// own; the games take turns, one decision each per turn, so that no game
// gets more than its share however many decisions it asks for. Games with
// a human seat are served before games of bots alone, humanShare to one:
// a person waits for their bots, nobody waits for a game of bots.
type scheduler struct {
	mu     sync.Mutex
	idle   int         // workers free; never while a decision waits
	tiers  [2][]*queue // the games with waiting decisions, in turn order: tierHuman, tierBots
	byGame map[string]*queue
	streak int // tierHuman decisions granted in a row while tierBots waited
}

// The tiers of games.
const (
	tierHuman = iota // a human holds a seat
	tierBots         // bots hold every seat
)

// queue is the waiting decisions of one game, first come first served.
type queue struct {
	game    string
	tier    int
	tickets []*ticket
}

// ticket is one decision waiting for a worker.
type ticket struct {
	ready   chan struct{} // closed when the worker is granted
	granted bool
}

func newScheduler(workers int) *scheduler {
	return &scheduler{idle: workers, byGame: make(map[string]*queue)}
}

// acquire waits for a worker for a decision of game, whose tier says
// whether a human sits at it. It reports false if ctx is done first; on
// true the caller must release the worker.
func (s *scheduler) acquire(ctx context.Context, game string, tier int) bool {
	s.mu.Lock()
	if s.idle > 0 {
		s.idle--
		s.mu.Unlock()
		return true
	}
	t := &ticket{ready: make(chan struct{})}
	q := s.byGame[game]
	if q == nil {
		q = &queue{game: game, tier: tier}
		s.byGame[game] = q
		s.tiers[tier] = append(s.tiers[tier], q)
	}
	q.tickets = append(q.tickets, t)
	s.mu.Unlock()

	select {
	case <-t.ready:
		return true
	case <-ctx.Done():
	}
	s.mu.Lock()
	if t.granted {
		// Granted as the context ended: pass the worker on.
		s.mu.Unlock()
		s.release()
		return false
	}
	s.drop(q, t)
	s.mu.Unlock()
	return false
}

// release frees a worker: it goes to the next waiting decision, if any.
func (s *scheduler) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.next()
	if t == nil {
		s.idle++
		return
	}
	t.granted = true
	close(t.ready)
}

// next takes the decision to serve next out of the queues: the first of
// the first game of its tier, whose turn then goes to the back.
func (s *scheduler) next() *ticket {
	humans, bots := len(s.tiers[tierHuman]) > 0, len(s.tiers[tierBots]) > 0
	var tier int
	switch {
	case humans && (!bots || s.streak < humanShare):
		tier = tierHuman
		if bots {
			s.streak++
		}
	case bots:
		tier, s.streak = tierBots, 0
	default:
		return nil
	}
	q := s.tiers[tier][0]
	t := q.tickets[0]
	q.tickets = q.tickets[1:]
	s.tiers[tier] = s.tiers[tier][1:]
	if len(q.tickets) > 0 {
		s.tiers[tier] = append(s.tiers[tier], q)
	} else {
		delete(s.byGame, q.game)
	}
	return t
}

// drop takes a decision that no longer waits out of its game's queue.
func (s *scheduler) drop(q *queue, t *ticket) {
	for i, w := range q.tickets {
		if w == t {
			q.tickets = append(q.tickets[:i], q.tickets[i+1:]...)
			break
		}
	}
	if len(q.tickets) > 0 {
		return
	}
	delete(s.byGame, q.game)
	games := s.tiers[q.tier]
	for i, g := range games {
		if g == q {
			s.tiers[q.tier] = append(games[:i], games[i+1:]...)
			break
		}
	}
}

// waiting returns how many decisions wait, for tests.
func (s *scheduler) waiting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, q := range s.byGame {
		n += len(q.tickets)
	}
	return n
}
