package rules

import "slices"

// InPlay reports whether seat s has a part in the game as the position
// stands: it decides now, the turn passes to its army (its king stands,
// or its army plays without one) and it decides that turn itself, or its
// king commands its partner's army. A seat whose king has fallen, whose
// army is dead (it resigned or ran out of time, in presets with Dead) or
// frozen, or which has no piece left, is out of play: it will not decide
// again unless an action brings its army back (Effect.Revived: a pawn
// promoted to king, a king exchanged). Once the game is over no seat is
// in play.
//
// Servers use it to tell a player who is out that the game goes on
// without them, and to stop pacing bots for people who no longer play.
func (p *Position) InPlay(s Seat) bool {
	pr := p.preset
	switch {
	case p.done || !slices.Contains(pr.seats, s):
		return false
	case !p.rollOff && p.Decider() == s:
		return true
	case pr.Kingless:
		return p.bySeat[s] != 0
	case pr.Dead:
		return p.live(s)
	case pr.teamPlay:
		return p.takesTurn(s) && p.decider(s) == s || p.Commands(s)
	}
	return p.HasKing(s)
}
