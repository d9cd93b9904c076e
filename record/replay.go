package record

import (
	"errors"
	"fmt"

	"github.com/chaturaji/chaturaji/rules"
)

// Replay plays the record's game again under the preset its Rules tag
// names, from its Start tag's position if it has one: every recorded roll
// with Game.PlayRoll and every action with Game.Play. With a Seed tag the
// game gets that seed, but the rolls are the recorded ones: VerifyDice checks
// them against it. It then checks the Result tag, if present, against the
// final position.
//
// An error is an *Error naming the turn (from 1), its line if the record was
// parsed, the offending token and why. Replay then returns the game as far
// as it got: the turns before the faulty one.
func (r *Record) Replay() (*rules.Game, error) {
	pr, err := r.preset()
	if err != nil {
		return nil, err
	}
	start := pr.StartPosition()
	if s, ok := r.Tags.Get("Start"); ok {
		if start, err = rules.ParsePosition(pr, s); err != nil {
			return nil, r.tagError("Start", s, err)
		}
		if pr.Die != nil && !start.AwaitingRoll() && !start.Finished() {
			return nil, r.tagError("Start", s, errors.New("the dice are rolled already: a record starts from a position awaiting its roll"))
		}
	}
	var seed rules.Seed
	if s, ok := r.Tags.Get("Seed"); ok {
		if seed, err = rules.ParseSeed(s); err != nil {
			return nil, r.tagError("Seed", s, err)
		}
	}
	g := rules.NewGameFrom(start, seed)
	for i, t := range r.Turns {
		if err := r.replayTurn(g, i, t); err != nil {
			return g, err
		}
	}
	if want, ok := r.Tags.Get("Result"); ok {
		if got := Result(g.Position()); got != want {
			return g, r.tagError("Result", want, fmt.Errorf("the game's result is %q", got))
		}
	}
	return g, nil
}

// replayTurn plays turn group i (from 0) on g.
func (r *Record) replayTurn(g *rules.Game, i int, t rules.Turn) error {
	pr := g.Preset()
	p := g.Position()
	colour := string(t.Seat.Letter())
	if p.AwaitingRollOff() {
		// The first turn's seat says how the roll-off went: South's team
		// starts at South, West's at West.
		if t.Seat != rules.South && t.Seat != rules.West {
			return r.turnError(i, colour, fmt.Errorf("after the roll-off South or West starts, not %s", t.Seat))
		}
		face := 1
		if t.Seat == rules.West {
			face = 2
		}
		ro, _ := rules.NewRoll(face)
		if err := g.PlayRoll(ro); err != nil {
			return r.turnError(i, colour, err)
		}
		p = g.Position()
	}
	switch {
	case p.Finished():
		return r.turnError(i, colour, errors.New("the game is already over"))
	case p.Pending() != "":
		return r.turnError(i-1, "", fmt.Errorf("the turn is not over: %c must still %s", p.Seat().Letter(), p.Pending()))
	case pr.Die != nil && !p.AwaitingRoll():
		return r.turnError(i-1, "", fmt.Errorf("the turn is not over: %c still has dice %s to use", p.Seat().Letter(), p.Roll()))
	case p.TurnSeat() != t.Seat:
		return r.turnError(i, colour, fmt.Errorf("it is %c's turn (%s), not %s's (%s)", p.TurnSeat().Letter(), p.TurnSeat(), colour, t.Seat))
	}
	if pr.Die != nil {
		if err := g.PlayRoll(t.Roll); err != nil {
			return r.turnError(i, t.Roll.String(), err)
		}
	}
	for j, a := range t.Actions {
		tok := a.Format(pr)
		if j > 0 {
			q := g.Position()
			prev := t.Actions[j-1].Format(pr)
			switch {
			case q.Finished():
				return r.turnError(i, tok, fmt.Errorf("the game ended with %s", prev))
			case q.Pending() == "" && (pr.Die == nil || q.AwaitingRoll()) || q.TurnSeat() != t.Seat:
				// Only a pending decision (an exchange) continues a diceless turn.
				return r.turnError(i, tok, fmt.Errorf("the turn passed to %c (%s) after %s", q.TurnSeat().Letter(), q.TurnSeat(), prev))
			}
		}
		if err := g.Play(a); err != nil {
			return r.turnError(i, tok, err)
		}
	}
	return nil
}
