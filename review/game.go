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
// game: a decision's action, or the dice before it.
//
// Each search values the position for the seat that decides: the other
// seats' expected scores are what they get when they play against it
// (paranoid search), not what their own searches expect. So a swing
// compares only values of one seat's view: an action's, the decider's
// view before it and after it; the dice's, the deciding seat's own
// expected score at its decision against its own at its previous decision.
type Swing struct {
	Decision int // the decision's index among the game's decisions
	// Roll: the swing of Seat's expected score since Seat's previous
	// decision, up to this decision after its roll: the dice and the
	// other seats' actions between, the roll that opened this turn last.
	// False: the decision's action.
	Roll  bool
	Seat  rules.Seat // the seat whose expected score moved (most)
	Delta float64    // how far it moved, in points; below 0 it fell
}

// TurningMin is the least swing that makes a turning point, in points of
// expected final score: smaller ones are within the searches' noise.
const TurningMin = 3.0

// Turning returns the biggest swings of judged decisions, in order, at
// most n, biggest first, each at least TurningMin: for each decision, its
// action's (After against Before, the seat that moved most) and, in
// presets with dice, at the first decision of a seat's turn, the seat's
// own since its previous decision (Before against that decision's After,
// for the seat). Withheld decisions have none.
func Turning(ds []Decision, n int) []Swing {
	var all []Swing
	var last [rules.NumSeats]int // each seat's previous judged decision, plus 1
	for i := range ds {
		d := &ds[i]
		if d.Withheld {
			continue
		}
		if j := last[d.Seat] - 1; j >= 0 && ds[j].Turn != d.Turn && d.Position.Preset().Die != nil {
			all = append(all, Swing{Decision: i, Roll: true, Seat: d.Seat, Delta: d.Before[d.Seat] - ds[j].After[d.Seat]})
		}
		last[d.Seat] = i + 1
		all = append(all, swing(d.Position.Preset().Seats(), i, &d.Before, &d.After))
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

// swing returns the swing of decision i's action: from one vector of
// expected scores to the next, for the seat that moved most.
func swing(seats []rules.Seat, i int, from, to *[rules.NumSeats]float64) Swing {
	s := Swing{Decision: i, Seat: seats[0]}
	for _, seat := range seats {
		if d := to[seat] - from[seat]; math.Abs(d) > math.Abs(s.Delta) {
			s.Seat, s.Delta = seat, d
		}
	}
	return s
}
