package server

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/chaturaji/chaturaji/rules"
)

// The reasons a seat changes hands, in a seat event's Reason.
const (
	ReasonAbandoned = "abandoned" // its holder was away for the table's grace
	ReasonTimeout   = "timeout"   // its holder ran out of time, at a table whose policy is TimeoutBot
	ReasonIdle      = "idle"      // its holder, connected, did not act for the server's idle limit (untimed tables)
	ReasonExpired   = "expired"   // no human seat's holder was connected or acted for the server's expiry: bots took every human seat
	// ReasonUnclaimed (clock_wait.go): nobody claimed the seat's invite
	// within the start wait.
)

// setTimer arms the loop's one timer for the next moment something is due:
// the decider's deadline, the end of an absent decider's grace or of a
// present one's idle limit, or a retry after the store failed.
func (l *live) setTimer(now time.Time) {
	if !l.owned.Load() {
		return // a follower drives nothing
	}
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	next := l.nextWake()
	if next.IsZero() {
		return
	}
	l.timer = time.AfterFunc(next.Sub(now), func() {
		l.post(context.Background(), l.wake)
	})
}

// nextWake returns when something is next due, zero if nothing is: the
// end of the start wait, or what the open decision waits for.
func (l *live) nextWake() time.Time {
	if l.over {
		return time.Time{}
	}
	if !l.retryAt.IsZero() {
		return l.retryAt
	}
	next := l.nextDue()
	if l.waitPending() && (next.IsZero() || l.waitUntil.Before(next)) {
		next = l.waitUntil
	}
	return next
}

// nextDue returns when the open decision next needs the loop, zero if
// never.
func (l *live) nextDue() time.Time {
	_, i := l.decider()
	if i < 0 || l.info.Seats[i].Player != Human {
		return time.Time{}
	}
	next := l.deadline
	if x := l.remoteExpiry(); !x.IsZero() && (next.IsZero() || x.Before(next)) {
		next = x // a report of another node's lapses: look again
	}
	if l.byCorrespondence() {
		return next // the decision's clock alone bounds an absent player
	}
	if l.present(i) == 0 {
		if g := l.graceEnd(i); (next.IsZero() || g.Before(next)) && !l.awaited(i) {
			next = g
		}
		if !l.humansOnline() {
			if x := l.expiryEnd(); x.Before(next) {
				next = x
			}
		}
	} else if next.IsZero() {
		next = l.idleEnd(i)
	}
	return next
}

// byCorrespondence reports whether the game is played by correspondence
// and its open decision has a deadline: an absent player keeps the seat
// until then, with no grace and no expiry, and at the deadline the table
// deals with a player out of time (timeout). Without a deadline (its
// clocks waiting for the players, say) the grace and the expiry apply.
func (l *live) byCorrespondence() bool {
	return l.table.Correspondence && !l.deadline.IsZero()
}

// humansOnline reports whether any human seat's holder is connected.
func (l *live) humansOnline() bool {
	for i := range l.online {
		if l.present(i) > 0 && l.info.Seats[i].Player == Human {
			return true
		}
	}
	return false
}

// expiryEnd returns when a game none of whose human seats' holders is
// connected expires: the server's expiry after a holder was last
// connected or acted (or the game was loaded).
func (l *live) expiryEnd() time.Time {
	return l.active.Add(l.srv.cfg.Expiry)
}

// idleEnd returns when connected decider i of an untimed table has been
// idle too long: the server's idle limit after the decision opened (or the
// game resumed) or the holder came back (idleSince, while present),
// whichever came later: a player who returns to a decision that opened
// long ago has the whole limit to take it.
func (l *live) idleEnd(i int) time.Time {
	since := l.turnStart
	if l.idleSince[i].After(since) {
		since = l.idleSince[i]
	}
	return since.Add(l.srv.cfg.IdleLimit)
}

// graceEnd returns when an absent seat i is abandoned: the table's grace
// after its decision opened or its last connection closed (idleSince,
// while absent), whichever came later.
func (l *live) graceEnd(i int) time.Time {
	since := l.turnStart
	if l.idleSince[i].After(since) {
		since = l.idleSince[i]
	}
	return since.Add(l.table.grace())
}

// wake does what is due: it tries again after the store failed, plays for
// a player out of time, or gives an abandoned or idle seat to a bot.
func (l *live) wake() {
	now := stamp()
	if l.over || !l.owned.Load() { // a timer that fired as the game was lost

		return
	}
	if !l.retryAt.IsZero() {
		if now.Before(l.retryAt) {
			l.setTimer(now)
			return
		}
		l.retry()
		return
	}
	if l.waitPending() && !now.Before(l.waitUntil) {
		l.endWait(now)
		return
	}
	seat, i := l.decider()
	if i < 0 || l.info.Seats[i].Player != Human {
		return
	}
	corr := l.byCorrespondence()
	switch {
	case !corr && l.present(i) == 0 && !l.humansOnline() && !now.Before(l.expiryEnd()):
		l.expire(now)
	case !l.deadline.IsZero() && !now.Before(l.deadline):
		l.timeout(seat, i, now)
	case !corr && l.present(i) == 0 && !now.Before(l.graceEnd(i)) && !l.awaited(i):
		l.takeOver(ReasonAbandoned, now, i)
	case l.present(i) > 0 && l.deadline.IsZero() && !now.Before(l.idleEnd(i)):
		l.takeOver(ReasonIdle, now, i)
	default:
		l.setTimer(now)
	}
}

// timeout deals with a player out of time: in a preset with dead armies
// by the rules' `timeout`; else as the table says: a bot takes the seat,
// or the seat passes. Where the rules allow no pass (a move is
// possible) the server plays a random legal action in its place, the
// nearest thing to passing the rules have.
func (l *live) timeout(seat rules.Seat, i int, now time.Time) {
	if l.pr.Dead && l.game.Position().IsLegal(rules.TimeoutAction) {
		// The rules' own end for a player out of time (dead.go), whatever
		// the table's policy: the army dies, and the seat stays its
		// holder's, out of play.
		if l.play(seat, rules.TimeoutAction, ByTimeout) == nil {
			l.srv.log.Info("out of time: the army is dead", "game", l.id, "seat", seat.String())
		}
		return
	}
	if l.table.OnTimeout == TimeoutBot {
		if i < len(l.banks) {
			l.banks[i] = 0 // spent: the bot plays on without a clock
		}
		l.takeOver(ReasonTimeout, now, i) // which logs it
		return
	}
	p := l.game.Position()
	a := rules.PassAction
	if !p.IsLegal(a) {
		var buf [rules.MaxActions]rules.Action
		acts := p.Actions(buf[:])
		a = acts[rand.IntN(len(acts))]
	}
	if l.play(seat, a, ByTimeout) == nil { // on failure the game reloads and tries again later
		l.srv.log.Info("out of time", "game", l.id, "seat", seat.String(), "policy", l.table.OnTimeout)
	}
}

// expire gives every human seat to the takeover bot at once: nobody has
// been at the table for the server's expiry.
func (l *live) expire(now time.Time) {
	var seats []int
	for i, s := range l.info.Seats {
		if s.Player == Human {
			seats = append(seats, i)
		}
	}
	l.takeOver(ReasonExpired, now, seats...)
}

// takeOver gives the seats to the table's takeover bot for the rest of the
// game. If that leaves no human seat, the game becomes one of bots alone,
// which counts against its creator's quota of those and the server's
// (admitAlone): over either, the game is aborted instead (abandon). If the
// store fails, a seat not yet given stays its holder's (the game reloads
// and tries again later).
func (l *live) takeOver(reason string, now time.Time, seats ...int) error {
	humans := 0
	for _, s := range l.info.Seats {
		if s.Player == Human {
			humans++
		}
	}
	if humans > 0 && humans == len(seats) {
		release, err := l.srv.admitAlone(l)
		if err != nil {
			return l.abandon(reason, err, now)
		}
		defer release() // once the last seat is given, the game counts as one of bots alone
	}
	for _, i := range seats {
		if err := l.giveSeat(i, reason, now); err != nil {
			return err
		}
	}
	return nil
}

// giveSeat gives seat i to the table's takeover bot, within the server's
// bound on those (Config.MaxTakeoverLevel).
func (l *live) giveSeat(i int, reason string, now time.Time) error {
	seat := l.pr.Seats()[i]
	player := botPrefix + l.srv.cfg.takeover(l.table.Takeover)
	t := newTakeover(l.game, seat, l.info.Seats[i].Player, player, reason)
	l.info.Seats[i].Player = player
	l.bots[i] = nil
	l.takeovers = append(l.takeovers, t) // a reload sets both anew from the store
	e := &Event{Kind: KindSeat, At: now, Seat: seat.String(), Player: player, Reason: reason}
	l.describe(e, now)
	if err := l.commit([]*Event{e}); err != nil {
		return err // reloaded: the seat is the human's again, until the retry
	}
	l.srv.log.Info("bot takes seat", "game", l.id, "seat", seat.String(), "bot", player, "reason", reason)
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	t0 := time.Now()
	err := l.srv.store.UpdateSeat(ctx, l.id, i, l.info.Seats[i])
	l.srv.metrics.committed(opSeat, t0)
	if err != nil {
		// The seat event is saved, and it is what a reload goes by.
		l.srv.storeFailed(opSeat, "updating seat", l.id, err)
	}
	return nil
}
