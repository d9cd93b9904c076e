package server

import (
	"sync"
	"time"
)

// closeReason says why a subscription ended.
type closeReason int

const (
	reasonOver     closeReason = iota + 1 // the game is over
	reasonSlow                            // the subscriber fell too far behind
	reasonShutdown                        // the server is shutting down
)

// subscriber receives a game's events as their encoded JSON, through a
// bounded queue: the loop never waits for a subscriber, and one that
// falls Config.Buffer events behind is dropped and must reconnect. The
// queue grows only as events wait: an idle subscriber holds none. (A
// channel of Buffer events cost every connection 6 KiB.)
type subscriber struct {
	seat  int           // the seat whose holder it is, -1 for a spectator
	max   int           // the events that may wait
	ready chan struct{} // a token when events wait or the subscription has ended

	mu    sync.Mutex
	queue [][]byte
	spare [][]byte    // the batch take returned last, for the queue to reuse
	ended bool        // no event will come after those queued
	why   closeReason // why it ended
}

// newSubscriber returns a subscriber for the holder of seat i (-1 for a
// spectator) that may fall max events behind.
func newSubscriber(i, max int) *subscriber {
	return &subscriber{seat: i, max: max, ready: make(chan struct{}, 1)}
}

// push queues an event; false if max events wait already.
func (s *subscriber) push(data []byte) bool {
	s.mu.Lock()
	full := len(s.queue) >= s.max
	if !full {
		s.queue = append(s.queue, data)
	}
	s.mu.Unlock()
	if !full {
		s.signal()
	}
	return !full
}

// end ends the subscription; the events queued are still taken.
func (s *subscriber) end(why closeReason) {
	s.mu.Lock()
	s.ended, s.why = true, why
	s.mu.Unlock()
	s.signal()
}

// signal leaves a token in ready, unless one is there.
func (s *subscriber) signal() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// take returns the events queued, in order, and whether the subscription
// has ended and why. The events are the caller's until it calls take
// again.
func (s *subscriber) take() (evs [][]byte, ended bool, why closeReason) {
	s.mu.Lock()
	defer s.mu.Unlock()
	evs = s.queue
	clear(s.spare)
	s.queue, s.spare = s.spare[:0], evs
	return evs, s.ended, s.why
}

// subscribe adds a subscriber for the holder of seat i (-1 for a
// spectator) and returns it with the number of the last event: the
// subscriber receives every event after it.
func (l *live) subscribe(i int) (*subscriber, int64) {
	s := newSubscriber(i, l.srv.cfg.Buffer)
	l.subs[s] = struct{}{}
	l.nsubs.Add(1)
	if i >= 0 {
		if l.present(i) == 0 {
			// The holder is back: the idle limit of a decision they
			// come back to counts from now (idleEnd), as the grace
			// counts from when they left (graceEnd).
			l.idleSince[i] = time.Now()
		}
		l.online[i]++
		l.active = time.Now()
		l.snapshot()
		l.setTimer(time.Now())
		l.reportPresence()
	}
	return s, l.seq
}

// unsubscribe removes a subscriber whose connection closed.
func (l *live) unsubscribe(s *subscriber) {
	if _, ok := l.subs[s]; !ok {
		return
	}
	delete(l.subs, s)
	l.left(s)
	if l.unwanted() {
		l.leaving = true // a follower serves its subscribers only
	}
}

// drop ends a subscription from the loop's side.
func (l *live) drop(s *subscriber, why closeReason) {
	delete(l.subs, s)
	s.end(why)
	l.left(s)
}

// left counts a seat holder's connection gone.
func (l *live) left(s *subscriber) {
	l.nsubs.Add(-1)
	if s.seat < 0 {
		return
	}
	now := time.Now()
	l.online[s.seat]--
	l.active = now
	l.reportPresence()
	if l.present(s.seat) == 0 {
		l.idleSince[s.seat] = now
	}
	if !l.over {
		l.snapshot()
		l.setTimer(now)
	}
}

// publish sends an event to every subscriber, dropping those too far
// behind.
func (l *live) publish(data []byte) {
	for s := range l.subs {
		if !s.push(data) {
			l.drop(s, reasonSlow)
		}
	}
}
