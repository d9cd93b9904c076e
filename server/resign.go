package server

import (
	"fmt"
	"time"

	"github.com/chaturaji/chaturaji/rules"
)

// Resign and abort: a player leaves a game, or calls off one that has not
// really begun. Both are the server's, outside the rules
// (docs/rules.md, "The server's actions"), and the record says so.
//
// Resigning is the rules' own `retire` where they allow it now (the
// seat's decision, a lone king), or their `resign` in a preset with dead
// armies (dead.go); anywhere else the seat passes to the
// table's takeover bot for the rest of the game, as an abandoned seat
// does, with the reason ReasonResigned. No result is made up: the game
// goes on to the end its rules give.
//
// Aborting is for a game that has not begun for everyone: any holder of a
// human seat may abort it until every human seat has played an action of
// its own. The game then ends with no result: an end event with End
// EndAborted and Result "*", the seed revealed, and a record whose
// Termination tag says who aborted it.
//
// The server aborts a game itself, at any point, when bots would take its
// last human seat (the holder away for the grace, idle, out of time,
// resigned, or the game expired) while the server has no room for one more
// game of bots alone: its creator's quota of those
// (Config.MaxBotGamesPerClient) or the server's (MaxBotGames) is full. The
// end event then has no seat, and the reason the last seat would have
// passed to a bot; the Termination tag says "aborted".

// The kinds of a player's message besides "action".
const (
	KindResign = "resign" // the seat leaves the game (resign)
	KindAbort  = "abort"  // the game is called off, in its first round (abort)
)

// ReasonResigned is the reason of a seat event when a bot takes the seat
// of a player who resigned.
const ReasonResigned = "resigned"

// EndAborted is the End of a game that was aborted.
const EndAborted = "aborted"

// ended reports whether the game's end event is saved: after an abort the
// position is not finished, and nothing more may happen.
func (l *live) ended() bool {
	return l.last != nil && l.last.Kind == KindEnd
}

// resign takes seat i out of the game for its holder: `retire` if the
// rules allow it now, `resign` in a preset with dead armies (now or at
// the seat's turn), else a bot takes the seat.
func (l *live) resign(i int) error {
	if err := l.mayLeave(i); err != nil {
		return err
	}
	seat := l.pr.Seats()[i]
	if d, j := l.decider(); j == i && l.game.Position().IsLegal(rules.RetireAction) {
		if err := l.play(d, rules.RetireAction, ByPlayer); err != nil {
			return err
		}
		l.srv.log.Info("seat resigned: its king retired", "game", l.id, "seat", seat.String())
		return nil
	}
	if l.pr.Dead && l.game.Position().InPlay(seat) {
		return l.resignArmy(i) // dead.go
	}
	return l.takeOver(ReasonResigned, stamp(), i)
}

// abort ends the game with no result, if it is still in its first round:
// some human seat has not yet played an action of its own.
func (l *live) abort(i int) error {
	if err := l.mayLeave(i); err != nil {
		return err
	}
	waiting := false
	for j, s := range l.info.Seats {
		if s.Player == Human && !l.moved[j] {
			waiting = true
		}
	}
	if !waiting {
		return Errorf(ECONFLICT, "too late to abort: every human seat has moved; resign instead")
	}
	now := stamp()
	seat := l.pr.Seats()[i]
	e := &Event{Kind: KindEnd, At: now, Seat: seat.String()}
	l.describe(e, now)
	e.ToAct, e.Actions, e.Deadline, e.OutOfPlay, e.Status = "", nil, nil, nil, "finished"
	e.Result, e.End, e.Seed = "*", EndAborted, l.game.Seed().String()
	if err := l.commit([]*Event{e}); err != nil {
		return err
	}
	l.srv.log.Info("game aborted", "game", l.id, "seat", seat.String())
	return nil
}

// abandon aborts the game for the server: bots would take its last human
// seats, for the reason given, but there is no room for one more game of
// bots alone (full, why says which limit). The game ends with no result,
// as an aborted one.
func (l *live) abandon(reason string, full error, now time.Time) error {
	e := &Event{Kind: KindEnd, At: now, Reason: reason}
	l.describe(e, now)
	e.ToAct, e.Actions, e.Deadline, e.OutOfPlay, e.Status = "", nil, nil, nil, "finished"
	e.Result, e.End, e.Seed = "*", EndAborted, l.game.Seed().String()
	if err := l.commit([]*Event{e}); err != nil {
		return err
	}
	l.srv.log.Info("game aborted: its people left, and there is no room for another game of bots alone", "game", l.id, "reason", reason, "limit", full)
	return nil
}

// mayLeave refuses a resign or an abort that cannot be: the game is over,
// or the seat is not a human's any more.
func (l *live) mayLeave(i int) error {
	switch {
	case l.over || l.ended():
		return Errorf(ECONFLICT, "the game is over")
	case l.stale:
		return unavailable(l.retryAt.Sub(time.Now()), "the database does not answer; the game goes on by itself when it does: try again")
	case l.info.Seats[i].Player != Human:
		return Errorf(ECONFLICT, "seat %s is played by %s now", l.pr.Seats()[i], l.info.Seats[i].Player)
	}
	return nil
}

// termination returns the Termination tag of a game whose last event is
// last: who aborted it ("aborted" if the server did), or "" if it was not
// aborted.
func termination(last *Event) string {
	if last == nil || last.Kind != KindEnd || last.End != EndAborted {
		return ""
	}
	if last.Seat == "" {
		return "aborted"
	}
	return fmt.Sprintf("aborted by %s", last.Seat)
}
