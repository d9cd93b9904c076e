package server

import "time"

// closeReason says why a subscription ended.
type closeReason int

const (
	reasonOver     closeReason = iota + 1 // the game is over
	reasonSlow                            // the subscriber fell too far behind
	reasonShutdown                        // the server is shutting down
)

// subscriber receives a game's events as their encoded JSON, through a
// bounded channel: the loop never waits for a subscriber, and one that
// falls Config.Buffer events behind is dropped and must reconnect.
type subscriber struct {
	seat int // the seat whose holder it is, -1 for a spectator
	ch   chan []byte
	why  closeReason // set before ch is closed
}

// subscribe adds a subscriber for the holder of seat i (-1 for a
// spectator) and returns it with the number of the last event: the
// subscriber receives every event after it.
func (l *live) subscribe(i int) (*subscriber, int64) {
	s := &subscriber{seat: i, ch: make(chan []byte, l.srv.cfg.Buffer)}
	l.subs[s] = struct{}{}
	if i >= 0 {
		l.online[i]++
		l.active = time.Now()
		l.snapshot()
		l.setTimer(time.Now())
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
}

// drop ends a subscription from the loop's side.
func (l *live) drop(s *subscriber, why closeReason) {
	delete(l.subs, s)
	s.why = why
	close(s.ch)
	l.left(s)
}

// left counts a seat holder's connection gone.
func (l *live) left(s *subscriber) {
	if s.seat < 0 {
		return
	}
	now := time.Now()
	l.online[s.seat]--
	l.active = now
	if l.online[s.seat] == 0 {
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
		select {
		case s.ch <- data:
		default:
			l.drop(s, reasonSlow)
		}
	}
}
