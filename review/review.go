// Package review goes through a finished game's record with a search
// player and judges every decision: the expected final scores before it
// under the best action, and after the action played; what the played
// action lost for the seat that decided it; whether that was an
// inaccuracy, a mistake or a blunder; and the turning points of the game,
// the decisions and rolls where a seat's expected score swung most.
//
// Decisions returns the decisions of a record, Judge judges one, and
// Game does both for a whole game; a server that must share its search
// players between requests calls Judge itself, one decision at a time.
package review

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

// Point is a decision of a game, before it is judged: the position in
// which a seat had to choose, and what it chose.
type Point struct {
	Turn     int             // the record's turn group, from 0
	Position *rules.Position // the position before the action, its roll made
	Played   rules.Action    // the action played
}

// Decision is a judged decision.
type Decision struct {
	Point
	Seat   rules.Seat   // the seat that decided (Position.Decider)
	Best   rules.Action // the action the search found best
	Forced bool         // the played action was the only legal one
	// Before is each seat's expected final score before the decision,
	// with the best action; After, with the action played. When the
	// played action is the best one, After is Before.
	Before, After [rules.NumSeats]float64
	// Loss is what the played action cost the deciding seat, in points
	// of expected final score: Before[Seat] - After[Seat], or 0 where
	// that is negative (two searches may disagree by a little; the
	// search picks by its objective, not by the seat's score alone).
	Loss  float64
	Class Class // how bad the loss is
	Nodes int64 // the nodes searched for this decision
	// Withheld: the decision was not searched (see Withhold); Best is 0,
	// and Before and After are the After of the decision before it.
	Withheld bool
}

// Withhold returns the decision of pt unjudged, for a caller that must not
// search it (a server does not analyse the live position of a game whose
// table turned engine help off): prev is the judged decision before it,
// nil if none, whose After it keeps.
func Withhold(pt Point, prev *Decision) Decision {
	d := Decision{Point: pt, Seat: pt.Position.Decider(), Forced: pt.Position.CountActions() == 1, Withheld: true}
	if prev != nil {
		d.Before, d.After = prev.After, prev.After
	}
	return d
}

// ErrNotFinished is the error of Decisions for the record of a game that
// is not over: there is no game to review yet.
var ErrNotFinished = errors.New("review: the game is not over: only a finished game is reviewed")

// Decisions replays the record (record.Replay, with its errors) and
// returns every decision of its game, in order. With finished set, a
// record whose game is not over is refused with ErrNotFinished.
func Decisions(r *record.Record, finished bool) ([]Point, error) {
	g, err := r.Replay()
	if err != nil {
		return nil, err
	}
	if finished && !g.Finished() {
		return nil, ErrNotFinished
	}
	pr := g.Preset()
	p := g.Start()
	if p.AwaitingRollOff() && len(r.Turns) > 0 {
		// The first turn's seat says how the roll-off went (as in
		// record.Replay): face 1, South's team starts; face 2, West's.
		face := 1
		if r.Turns[0].Seat == rules.West {
			face = 2
		}
		ro, err := rules.NewRoll(face)
		if err != nil {
			return nil, fmt.Errorf("review: the roll-off: %v", err)
		}
		p.SetRoll(ro)
	}
	var out []Point
	var u rules.Undo
	for i, t := range r.Turns {
		if pr.Die != nil {
			p.SetRoll(t.Roll)
		}
		for _, a := range t.Actions {
			q := *p
			out = append(out, Point{Turn: i, Position: &q, Played: a})
			p.Make(a, &u)
		}
	}
	if !p.Equal(g.Position()) {
		// Replay accepted the record; walking it again must end in the
		// same place, or the points would not be the game's.
		return nil, fmt.Errorf("review: the decisions end in %s, the replay in %s", p, g.Position())
	}
	return out, nil
}

// ForcedShare is the part of the budget a forced decision (one legal
// action) gets: there is nothing to judge, and its search only gives the
// expected scores along the game.
const ForcedShare = 8

// Judge searches one decision with an, within budget b for each search:
// once for the best action and, if the played action is another, once
// more with the played action alone at the root (an.AnalyzeAction, if an
// is an ai.ActionAnalyzer; otherwise, the position after it, with a
// search for each roll to come, b shared among them). A forced decision
// gets b divided by ForcedShare. A resignation or a timeout
// (chesscom-chaturaji's) is not judged: it has no loss and no class.
func Judge(ctx context.Context, an ai.Analyzer, pt Point, b ai.Budget) (Decision, error) {
	p := pt.Position
	d := Decision{Point: pt, Seat: p.Decider(), Forced: p.CountActions() == 1}
	if d.Forced {
		b = share(b, ForcedShare)
	}
	best, err := an.Analyze(ctx, p, b)
	if err != nil {
		return d, err
	}
	d.Best, d.Before, d.After, d.Nodes = best.Best, best.Expected, best.Expected, best.Nodes
	if t := pt.Played.Type(); t == rules.Resign || t == rules.Timeout {
		// No move of the game: the clock's verdict, or the player's
		// choice to stop, which no search judges. The scores after it
		// are the game's (its turning points show the swing).
		d.Best = pt.Played
		after, nodes, err := valueOf(ctx, an, p, pt.Played, b)
		if err != nil {
			return d, err
		}
		d.After, d.Nodes = after, d.Nodes+nodes
		return d, nil
	}
	if d.Forced || best.Best == pt.Played {
		d.Best = pt.Played
		return d, nil
	}
	after, nodes, err := valueOf(ctx, an, p, pt.Played, b)
	if err != nil {
		return d, err
	}
	d.After = after
	d.Nodes += nodes
	d.Loss = max(0, d.Before[d.Seat]-d.After[d.Seat])
	d.Class = Classify(d.Loss)
	return d, nil
}

// valueOf returns the expected scores after action a in p, and the nodes
// it took to find them.
func valueOf(ctx context.Context, an ai.Analyzer, p *rules.Position, a rules.Action, b ai.Budget) ([rules.NumSeats]float64, int64, error) {
	if aa, ok := an.(ai.ActionAnalyzer); ok {
		r, err := aa.AnalyzeAction(ctx, p, a, b)
		return r.Expected, r.Nodes, err
	}
	q := *p
	var u rules.Undo
	q.Make(a, &u)
	return Expected(ctx, an, &q, b)
}

// Expected returns each seat's expected final score in p, and the nodes
// searched to find it: for a finished game its scores; for a position
// awaiting its roll the mean over the rolls, weighed by their chances,
// of a search of each, budget b shared among them; otherwise the search
// of p within b.
func Expected(ctx context.Context, an ai.Analyzer, p *rules.Position, b ai.Budget) ([rules.NumSeats]float64, int64, error) {
	var out [rules.NumSeats]float64
	switch {
	case p.Finished() || !p.AwaitingRoll() && p.CountActions() == 0:
		for _, s := range p.Preset().Seats() {
			out[s] = float64(p.Score(s))
		}
		return out, 0, nil
	case !p.AwaitingRoll():
		r, err := an.Analyze(ctx, p, b)
		return r.Expected, r.Nodes, err
	}
	// The position's own chances: martian's throne control rolls two pairs.
	chances := p.Chances()
	b = share(b, len(chances))
	var nodes int64
	for _, c := range chances {
		q := *p
		q.SetRoll(c.Roll)
		exp, n, err := Expected(ctx, an, &q, b)
		if err != nil {
			return out, nodes, err
		}
		nodes += n
		for s := range out {
			out[s] += c.P * exp[s]
		}
	}
	return out, nodes, nil
}

// share returns a budget n times smaller than b, limit by limit; a limit
// never falls to 0, which would lift it.
func share(b ai.Budget, n int) ai.Budget {
	if n <= 1 {
		return b
	}
	if b.Time > 0 {
		b.Time = max(b.Time/time.Duration(n), time.Millisecond)
	}
	if b.Nodes > 0 {
		b.Nodes = max(b.Nodes/int64(n), 1)
	}
	return b
}
