package server

import (
	"time"

	"github.com/chaturaji/chaturaji/rules"
)

// Dead armies: the presets whose rules end a player's game themselves
// (rules.Preset.Dead, chesscom-chaturaji). There a resignation is the
// rules' `resign` and running out of time the rules' `timeout`: the
// army dies, its king and pieces standing, and its turns are skipped.
// The server plays them instead of what it does for other presets (a bot
// taking the seat, or a pass).
//
// The rules allow `resign` and `timeout` only at the seat's decision.
// A player who resigns at it plays `resign` at once, and keeps the seat,
// out of play. A player who resigns off its turn, while its army still
// lives, gives the seat to the table's takeover bot with the reason
// ReasonResigned, as in other presets, so that the resignation is saved
// and the token acts no more; but the bot never plays a move there: when
// the seat's decision comes, the server plays `resign` for it at once
// (an action event by ByPlayer with the reason ReasonResigned), which
// holds across a restart or a move to another node, as every takeover
// does. A player out of time plays `timeout`, whatever the table's
// on_timeout says: the seat stays its holder's, out of play. A player
// cannot send `timeout`: only the server says when time ran out.
//
// Leaving is unchanged: the bot plays the army on. A rated game ranks a
// seat that resigned by its score, whether the resignation was played
// at once or at its turn, as the rules rank every dead army (takeover.out).

// resignArmy resigns seat i of a preset with dead armies: `resign` now if
// the seat decides, else its resignation is saved as a takeover, to be
// played at its decision (resignDue). A seat with nothing left in play
// passes to the bot as in other presets.
func (l *live) resignArmy(i int) error {
	seat := l.pr.Seats()[i]
	if d, j := l.decider(); j == i && l.game.Position().IsLegal(rules.ResignAction) {
		if err := l.play(d, rules.ResignAction, ByPlayer); err != nil {
			return err
		}
		l.srv.log.Info("seat resigned: its army is dead", "game", l.id, "seat", seat.String())
		return nil
	}
	return l.takeOver(ReasonResigned, stamp(), i)
}

// resignDue reports whether the seat that decides in p resigned off its
// turn and its `resign` is to be played now.
func (l *live) resignDue(p *rules.Position) bool {
	if !l.pr.Dead {
		return false
	}
	s := p.Decider()
	i := seatIndex(l.pr, s)
	if i < 0 || l.info.Seats[i].Player == Human || !p.IsLegal(rules.ResignAction) {
		return false
	}
	for _, t := range l.takeovers {
		if t.seat == s && t.reason == ReasonResigned {
			return true
		}
	}
	return false
}

// playResign plays the `resign` of a seat that resigned off its turn, for
// advance; it returns the action's event, nil if the rules refused it.
func (l *live) playResign(p *rules.Position, now time.Time) *Event {
	fx := p.Effect(rules.ResignAction)
	if err := l.game.Play(rules.ResignAction); err != nil {
		l.srv.log.Error("resign", "game", l.id, "err", err)
		return nil
	}
	seat := p.Decider()
	e := &Event{Kind: KindAction, At: now, Seat: seat.String(), Action: rules.ResignAction.Format(l.pr), By: ByPlayer, Reason: ReasonResigned}
	if l.table.timed() {
		e.UsedMS = new(int64) // played at once: no time
	}
	e.effect(l.pr, fx)
	l.describe(e, now)
	l.srv.log.Info("seat resigned: its army is dead", "game", l.id, "seat", seat.String())
	return e
}
