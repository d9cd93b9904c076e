package server

import (
	"time"
)

// The start wait. A timed game's clocks start when every human seat has
// its player: held by the creator, or claimed with its invite. Until
// then the game may go on (the bots play, a player may act), but no
// decision has a deadline, and the turn of a seat nobody holds waits for
// its player rather than the table's grace. The wait is bounded: the
// start event sets its end (Event.WaitUntil, an absolute time, so that a
// restart keeps it, as it keeps a deadline), Config.StartWait after the
// game's start; then bots take the seats nobody claimed, as they take an
// absent player's (ReasonUnclaimed), and the clocks start. When the
// clocks start with a decision open, a clock event (ReasonStart) gives it
// its deadline. Until then the game's state names the seats still
// expected (State.Expected) and the wait's end.

// ReasonStart is a clock event's reason when it starts the clocks of a
// decision opened during the start wait.
const ReasonStart = "start"

// ReasonUnclaimed is a seat event's reason when a bot takes a seat whose
// invite nobody claimed within the start wait.
const ReasonUnclaimed = "unclaimed"

// expected returns the human seats nobody holds yet: their invites wait
// to be claimed.
func (l *live) expected() []int {
	var out []int
	for i, s := range l.info.Seats {
		if s.Player == Human && s.TokenHash == nil {
			out = append(out, i)
		}
	}
	return out
}

// waitPending reports whether the game's start wait has not been ended:
// it has one, and a seat is still expected.
func (l *live) waitPending() bool {
	return !l.waitUntil.IsZero() && len(l.expected()) > 0
}

// waiting reports whether the clocks wait for the players now.
func (l *live) waiting(now time.Time) bool {
	return l.waitPending() && now.Before(l.waitUntil)
}

// beginWait sets the start wait of a new game, before its start event is
// described: only at a timed table with a seat nobody holds.
func (l *live) beginWait(e *Event, now time.Time) {
	if !l.table.timed() || len(l.expected()) == 0 {
		return
	}
	l.waitUntil = now.Add(l.srv.cfg.StartWait).UTC().Truncate(time.Millisecond)
	w := l.waitUntil
	e.WaitUntil = &w
}

// awaited reports whether seat i, nobody's yet, waits for its player
// through the start wait rather than the table's grace.
func (l *live) awaited(i int) bool {
	return l.waitPending() && l.info.Seats[i].Player == Human && l.info.Seats[i].TokenHash == nil
}

// endWait gives the seats still expected to bots: the start wait is over.
func (l *live) endWait(now time.Time) {
	seats := l.expected()
	if len(seats) == 0 {
		return
	}
	l.srv.log.Info("start wait over", "game", l.id, "unclaimed", len(seats))
	l.takeOver(ReasonUnclaimed, now, seats...) // its seat events start the clocks
}

// clockStart returns the clock event that starts the clock of the open
// decision, which opened during the start wait, now that the wait is
// over; nil if there is none to start.
func (l *live) clockStart(now time.Time) *Event {
	if l.over || l.last == nil || l.last.Deadline != nil || l.waiting(now) {
		return nil
	}
	seat, i := l.decider()
	if i < 0 {
		return nil
	}
	deadline := l.deadlineAt(now)
	if deadline.IsZero() {
		return nil
	}
	e := &Event{Kind: KindClock, At: now, Seat: seat.String(), Reason: ReasonStart}
	l.describeAt(e, deadline)
	return e
}

// startClocks starts the open decision's clock if the start wait just
// ended: the last seat expected was claimed. If the store fails, the game
// reloads and its resume tries again.
func (l *live) startClocks() {
	if !l.retryAt.IsZero() || l.stale {
		return
	}
	if e := l.clockStart(stamp()); e != nil {
		l.commit([]*Event{e})
	}
}
