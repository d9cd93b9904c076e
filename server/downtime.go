package server

import (
	"context"
	"time"
)

// Downtime. A decision's deadline is an absolute time, saved in the event
// that opened the decision, so that a restart honours it. But time when no
// server held the game (between the last heartbeat of a server that died
// or stopped and the start of the next), or when the store refused the
// game's writes so that nobody could act, is not the player's to pay: when
// the game can be played again, a clock event moves the open deadline on
// by that time, and every client hears of the new deadline. Abandonment
// and idle timers start again from the moment the game resumes, so they
// charge nothing either.
//
// A game learns that its database fails when its own write fails, but a
// game waiting on a timed player writes nothing until the deadline: the
// outage is therefore dated from what the server knows (its heartbeat and
// every game's writes: health.go), and when the database answers again
// every game is told (outageOver). A game waiting to try again does so at
// once, giving back the time since the outage began; any other game gives
// its open decision the part of the outage during which it was open. A
// game's credited time keeps the same time from being given twice.

// lastHeld returns since when no server has held game id, as the store
// knows it (store.Store.LastHeld): the last heartbeat of the server before
// this one, zero if the store knows nothing of one, or if the time is this
// server's own (a game loaded after the start, which this server held all
// along).
func (s *Server) lastHeld(ctx context.Context, id string) time.Time {
	at, err := s.store.LastHeld(ctx, id)
	if err != nil {
		s.storeFailed(opRead, "reading when the game was last held; no time is given back", id, err)
		return time.Time{}
	}
	if at.IsZero() || !at.Before(s.heldSince) {
		return time.Time{}
	}
	return at
}

// credit returns the clock event that gives the decider back the time the
// game could not be played, from l.unheld until now, or nil if nothing is
// owed: no decision with a deadline is open, or its deadline had passed
// before the game stopped being played. A game with nothing owed forgets
// when it stopped.
func (l *live) credit(now time.Time) *Event {
	since := l.unheld
	if since.IsZero() || l.last == nil || l.last.Deadline == nil || !l.last.Deadline.After(since) || !now.After(since) {
		l.unheld = time.Time{}
		return nil
	}
	seat, i := l.decider()
	if i < 0 {
		l.unheld = time.Time{}
		return nil
	}
	deadline := l.last.Deadline.Add(now.Sub(since))
	l.credited = now
	e := &Event{Kind: KindClock, At: now, Seat: seat.String()}
	l.describeAt(e, deadline)
	l.srv.repeats.Info("time given back to players' clocks", "game", l.id, "seat", seat.String(), "since", since, "given", now.Sub(since), "deadline", deadline)
	return e
}

// outageOver tells every game this server drives that the database failed
// from since until until, and answers again.
func (s *Server) outageOver(since, until time.Time) {
	s.repeats.Info("the database answers again", "down_since", since, "for", until.Sub(since))
	s.mu.Lock()
	games := make([]*live, 0, len(s.games))
	for _, l := range s.games {
		if l.owned.Load() {
			games = append(games, l)
		}
	}
	s.mu.Unlock()
	for _, l := range games {
		go l.post(s.ctx, func() { l.owe(since, until) })
	}
}

// owe gives the game's open decision back the time, between since and
// until, when the database failed: nobody could have acted in it, whether
// or not the game tried to write meanwhile.
func (l *live) owe(since, until time.Time) {
	if l.over || !l.owned.Load() {
		return
	}
	since = since.UTC().Truncate(time.Millisecond)
	if !l.retryAt.IsZero() || l.stale {
		// Waiting to try again after a write failed: it tries now, and
		// its credit runs from the outage's start.
		if l.unheld.IsZero() || since.Before(l.unheld) {
			l.unheld = since
		}
		l.retry()
		return
	}
	from := since
	for _, t := range []time.Time{l.turnStart, l.credited} {
		if t.After(from) {
			from = t
		}
	}
	if l.last == nil || l.last.Deadline == nil || !l.last.Deadline.After(from) || !until.After(from) {
		return
	}
	seat, i := l.decider()
	if i < 0 {
		return
	}
	deadline := l.last.Deadline.Add(until.Sub(from))
	now := stamp()
	l.credited = now
	e := &Event{Kind: KindClock, At: now, Seat: seat.String()}
	l.describeAt(e, deadline)
	l.srv.repeats.Info("time given back to players' clocks", "game", l.id, "seat", seat.String(), "since", from, "given", until.Sub(from), "deadline", deadline)
	l.commit([]*Event{e}) // on failure the game tries again later, from the outage's start
}
