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
	e := &Event{Kind: KindClock, At: now, Seat: seat.String()}
	describe(e, l.game, deadline)
	l.srv.repeats.Info("time given back to players' clocks", "game", l.id, "seat", seat.String(), "since", since, "given", now.Sub(since), "deadline", deadline)
	return e
}
