package server

import "time"

// Leaving, and the bots at full speed once nobody plays.
//
// A player may leave a live game at any time, their king fallen or not:
// the table's takeover bot takes the seat for the rest of the game (a seat
// event with the reason ReasonLeft), the record's Takeover tag says so,
// and the seat's token (or its account's session) acts no more. The game
// is not abandoned: it goes on to the end its rules give. Leaving differs
// from resigning only in never retiring a lone king: the army stays on
// the board, played by the bot. If the seat was the game's last human
// seat, the game becomes one of bots alone, within the quotas of those
// (takeOver, admitAlone); with no room for one more, the server aborts it
// instead (an end event, aborted, with the reason ReasonLeft), as it does
// for every last seat that passes to a bot.
//
// Once no person is left playing, the bots' actions no longer wait the
// table's bot delay: nobody is there to follow them, and the game runs
// out at once. Everyone connected still receives every event. Nobody
// plays when no human seat is in play (rules.Position.InPlay: its king
// fallen, its army dead or gone) and the game had people: a human seat,
// or a seat its player left or resigned. A game of bots from the start
// keeps its pace, for the people who watch it, and so does one whose
// people went away (abandoned, idle, out of time, expired), as before.

// KindLeave is the kind of a player's message that gives its seat to the
// table's takeover bot (leave).
const KindLeave = "leave"

// ReasonLeft is the reason of a seat event when a bot takes the seat of a
// player who left the game.
const ReasonLeft = "left"

// leave gives seat i to the table's takeover bot, at its holder's word.
func (l *live) leave(i int) error {
	if err := l.mayLeave(i); err != nil {
		return err
	}
	if err := l.takeOver(ReasonLeft, stamp(), i); err != nil {
		return err
	}
	l.srv.log.Info("seat left", "game", l.id, "seat", l.pr.Seats()[i].String())
	return nil
}

// botDelay returns how long a bot's action waits after its decision opened:
// the table's bot delay, or none once no person is left playing.
func (l *live) botDelay() time.Duration {
	if l.nobodyPlays() {
		return 0
	}
	return l.table.botDelay()
}

// nobodyPlays reports whether the game had people and none of them plays
// any more: no human seat is in play, and some seat is a person's or was
// left (or resigned) by one.
func (l *live) nobodyPlays() bool {
	p := l.game.Position()
	had := false
	for i, s := range l.info.Seats {
		if s.Player != Human {
			continue
		}
		had = true
		if p.InPlay(l.pr.Seats()[i]) {
			return false
		}
	}
	for _, t := range l.takeovers {
		had = had || t.from == Human && (t.reason == ReasonLeft || t.reason == ReasonResigned)
	}
	return had
}
