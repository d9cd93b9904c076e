package review

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

// Review is a judged game.
type Review struct {
	Preset    *rules.Preset // the game's preset; nil for a game without decisions
	Decisions []Decision    // the decisions judged, in order: the first Total, or fewer if the review stopped early
	Total     int           // the decisions of the game
	Turning   []Swing       // the turning points, biggest first
	Nodes     int64         // the nodes searched, in all
	Elapsed   time.Duration // how long the review took
}

// Options tune Game.
type Options struct {
	// Budget is each search's budget (see Judge).
	Budget ai.Budget
	// Turning is how many turning points to keep at most (default
	// DefaultTurning).
	Turning int
	// Progress, if not nil, is called after each decision with the number
	// judged and the number in all.
	Progress func(done, total int)
}

// DefaultTurning is how many turning points Game keeps by default.
const DefaultTurning = 5

// Game reviews the game of a record, which must be over: it judges every
// decision with an, in order, and finds the turning points.
func Game(ctx context.Context, an ai.Analyzer, r *record.Record, o Options) (*Review, error) {
	start := time.Now()
	pts, err := Decisions(r, true)
	if err != nil {
		return nil, err
	}
	rv := &Review{Total: len(pts)}
	if len(pts) > 0 {
		rv.Preset = pts[0].Position.Preset()
	}
	for i, pt := range pts {
		d, err := Judge(ctx, an, pt, o.Budget)
		if err != nil {
			return nil, err
		}
		rv.Decisions = append(rv.Decisions, d)
		rv.Nodes += d.Nodes
		if o.Progress != nil {
			o.Progress(i+1, len(pts))
		}
	}
	n := o.Turning
	if n <= 0 {
		n = DefaultTurning
	}
	rv.Turning = Turning(rv.Decisions, n)
	rv.Elapsed = time.Since(start)
	return rv, nil
}

// Swing is a change of the expected final scores at one event of a
// game: a decision's action, or the roll before it.
type Swing struct {
	Decision int        // the decision's index among the game's decisions
	Roll     bool       // the roll that opened the decision's turn, not the action
	Seat     rules.Seat // the seat whose expected score moved most
	Delta    float64    // how far it moved, in points; below 0 it fell
}

// TurningMin is the least swing that makes a turning point, in points of
// expected final score: smaller ones are within the searches' noise.
const TurningMin = 3.0

// Turning returns the biggest swings of judged decisions, in order, at
// most n, biggest first, each at least TurningMin: for each decision, its
// action's (After against Before) and, in presets with dice, the roll's
// before the first decision of a turn (its Before against the previous
// decision's After). Each swing names the seat that moved most; withheld
// decisions have none.
func Turning(ds []Decision, n int) []Swing {
	var all []Swing
	for i := range ds {
		d := &ds[i]
		if d.Withheld {
			continue
		}
		seats := d.Position.Preset().Seats()
		if i > 0 && ds[i-1].Turn != d.Turn && d.Position.Preset().Die != nil {
			all = append(all, swing(seats, i, true, &ds[i-1].After, &d.Before))
		}
		all = append(all, swing(seats, i, false, &d.Before, &d.After))
	}
	kept := all[:0]
	for _, s := range all {
		if math.Abs(s.Delta) >= TurningMin {
			kept = append(kept, s)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool { return math.Abs(kept[i].Delta) > math.Abs(kept[j].Delta) })
	return kept[:min(n, len(kept))]
}

// swing returns the swing from one vector of expected scores to the next.
func swing(seats []rules.Seat, i int, roll bool, from, to *[rules.NumSeats]float64) Swing {
	s := Swing{Decision: i, Roll: roll, Seat: seats[0]}
	for _, seat := range seats {
		if d := to[seat] - from[seat]; math.Abs(d) > math.Abs(s.Delta) {
			s.Seat, s.Delta = seat, d
		}
	}
	return s
}
