package ai

import (
	"math"

	"github.com/chaturaji/chaturaji/rules"
)

// Objective turns a Utility into the one number a seat maximises. Seats
// play in sides: in the default preset each seat is its own side; a team
// preset puts partners on one side, whose utility is their sum (so a
// partner's points count as one's own and both opponents are enemies), and
// nothing else in the searches changes.
type Objective struct {
	// Leader weighs the best opposing side against the mean of the opposing
	// sides: 1 plays for first place alone, 0 for the margin over the field.
	Leader float64

	side  [rules.NumSeats]int // side of each seat
	sides int
	seats []rules.Seat
}

// newObjective returns the objective for preset pr: one side per seat, or
// per team where partners play together.
func newObjective(pr *rules.Preset, leader float64) Objective {
	o := Objective{Leader: leader, seats: pr.Seats()}
	for _, s := range o.seats {
		o.side[s] = -1
	}
	for _, s := range o.seats {
		if o.side[s] >= 0 {
			continue
		}
		for _, t := range o.seats {
			if pr.Teammates(s, t) {
				o.side[t] = o.sides
			}
		}
		o.sides++
	}
	return o
}

// sameSide reports whether two seats play for the same side.
func (o *Objective) sameSide(a, b rules.Seat) bool { return o.side[a] == o.side[b] }

// value returns what seat me makes of utility u: its side's utility minus
// a blend of the best and the mean of the other sides'.
func (o *Objective) value(u *Utility, me rules.Seat) float64 {
	var sum [rules.NumSeats]float64
	for _, s := range o.seats {
		sum[o.side[s]] += u[s]
	}
	mine := o.side[me]
	best, total := -1e18, 0.0
	for i := range o.sides {
		if i == mine {
			continue
		}
		total += sum[i]
		if sum[i] > best {
			best = sum[i]
		}
	}
	if o.sides < 2 {
		return sum[mine]
	}
	return sum[mine] - o.Leader*best - (1-o.Leader)*total/float64(o.sides-1)
}

// reward returns each seat's reward in [0, 1] for the Monte Carlo players,
// from estimated final scores u: its side's share of first place, blended
// (by margin) with how near the best its side came, over a scale of points.
// With temp 0 the estimate is a final result and first place is certain (a
// tie shares it); otherwise first place goes to each side in proportion to
// exp(utility/temp).
func (o *Objective) reward(u *Utility, temp, margin, scale float64) [rules.NumSeats]float64 {
	var sum [rules.NumSeats]float64
	for _, s := range o.seats {
		sum[o.side[s]] += u[s]
	}
	best, firsts := math.Inf(-1), 0
	for i := range o.sides {
		switch {
		case sum[i] > best:
			best, firsts = sum[i], 1
		case sum[i] == best:
			firsts++
		}
	}
	var share [rules.NumSeats]float64
	if temp > 0 {
		total := 0.0
		for i := range o.sides {
			share[i] = math.Exp((sum[i] - best) / temp)
			total += share[i]
		}
		for i := range o.sides {
			share[i] /= total
		}
	} else {
		for i := range o.sides {
			if sum[i] == best {
				share[i] = 1 / float64(firsts)
			}
		}
	}
	var r [rules.NumSeats]float64
	for _, s := range o.seats {
		i := o.side[s]
		m := max(0, 1+(sum[i]-best)/scale)
		r[s] = (1-margin)*share[i] + margin*m
	}
	return r
}
