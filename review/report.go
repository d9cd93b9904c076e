package review

import (
	"math"

	"github.com/chaturaji/chaturaji/rules"
)

// Report is a review in the game's notation, as `chaturaji analyze
// --json` prints it and POST /web/review answers it (docs/api.md).
type Report struct {
	Rules string   `json:"rules"` // the preset
	Seats []string `json:"seats"` // the preset's seats, the order of Before and After
	// Decisions are the decisions judged, in the game's order: all of
	// them when Complete, else the first ones.
	Decisions []Entry        `json:"decisions"`
	Turning   []TurningPoint `json:"turning"`    // the turning points, biggest first
	Complete  bool           `json:"complete"`   // every decision of the game was judged
	Total     int            `json:"total"`      // the decisions of the game
	Nodes     int64          `json:"nodes"`      // the nodes searched
	ElapsedMS int64          `json:"elapsed_ms"` // how long the review took, in milliseconds
}

// Entry is one judged decision of a Report; scores are rounded to
// hundredths of a point.
type Entry struct {
	Turn   int       `json:"turn"`   // the record's turn group, from 1
	Seat   string    `json:"seat"`   // the seat that decided, such as "West"
	Played string    `json:"played"` // the action played
	Best   string    `json:"best"`   // the action the search found best
	Forced bool      `json:"forced"` // the played action was the only legal one
	Before []float64 `json:"before"` // each seat's expected final score with the best action
	After  []float64 `json:"after"`  // and with the action played
	Loss   float64   `json:"loss"`   // what the action cost the deciding seat, in points
	Class  string    `json:"class"`  // "good", "inaccuracy", "mistake" or "blunder"
	Mark   string    `json:"mark"`   // "", "?!", "?" or "??"
	// Withheld: the decision was not searched; best is "" and before and
	// after are the previous decision's after.
	Withheld bool `json:"withheld"`
}

// TurningPoint is one turning point of a Report.
type TurningPoint struct {
	Decision int     `json:"decision"` // the decision's index in Decisions, from 0
	Turn     int     `json:"turn"`     // its turn group, from 1
	Roll     bool    `json:"roll"`     // the dice (and the others' play) since the seat's previous decision swung, not the action (Swing.Roll)
	Seat     string  `json:"seat"`     // the seat whose expected score moved most
	Delta    float64 `json:"delta"`    // by how much, in points; below 0 it fell
}

// Report returns the review in the game's notation.
func (rv *Review) Report() *Report {
	out := &Report{Seats: []string{}, Decisions: []Entry{}, Turning: []TurningPoint{},
		Complete: len(rv.Decisions) == rv.Total, Total: rv.Total, Nodes: rv.Nodes, ElapsedMS: rv.Elapsed.Milliseconds()}
	pr := rv.Preset
	if pr == nil {
		return out
	}
	out.Rules = pr.Name
	for _, s := range pr.Seats() {
		out.Seats = append(out.Seats, s.String())
	}
	for _, d := range rv.Decisions {
		e := Entry{
			Turn: d.Turn + 1, Seat: d.Seat.String(), Played: d.Played.Format(pr), Best: d.Best.Format(pr), Forced: d.Forced,
			Before: bySeat(pr, &d.Before), After: bySeat(pr, &d.After), Loss: round(d.Loss), Class: d.Class.String(), Mark: d.Class.Mark(),
			Withheld: d.Withheld,
		}
		if d.Withheld {
			e.Best = ""
		}
		out.Decisions = append(out.Decisions, e)
	}
	for _, s := range rv.Turning {
		out.Turning = append(out.Turning, TurningPoint{Decision: s.Decision, Turn: rv.Decisions[s.Decision].Turn + 1,
			Roll: s.Roll, Seat: s.Seat.String(), Delta: round(s.Delta)})
	}
	return out
}

// bySeat returns the preset's seats' values, rounded, in seat order.
func bySeat(pr *rules.Preset, v *[rules.NumSeats]float64) []float64 {
	out := make([]float64, 0, len(pr.Seats()))
	for _, s := range pr.Seats() {
		out = append(out, round(v[s]))
	}
	return out
}

func round(x float64) float64 { return math.Round(x*100) / 100 }
