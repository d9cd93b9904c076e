package ai

import (
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/chaturaji/chaturaji/rules"
)

// Options tune a search player. New starts from DefaultOptions (or a
// level's options) and applies the spec's settings; players built by hand
// should start from DefaultOptions too, since zero Weights value nothing.
type Options struct {
	// Weights are the evaluation's parameters, with which every search
	// family values positions.
	Weights Weights
	// Eval names the evaluation the search values positions with:
	// EvalHand, EvalLearned, or EvalDefault for the preset's default.
	Eval string
	// Leader is the objective's weight of the best opponent against the
	// mean of the opponents (see Objective).
	Leader float64
	// Variety, in points of expected score: the player picks at random among
	// the root actions whose value is within Variety of the best, so it does
	// not always answer a position the same way. 0 always plays the best.
	Variety float64
	// Temperature, in points: the player draws its action from a softmax of
	// the root values, exp(value/Temperature). 0 turns it off.
	Temperature float64
	// Blunder is the chance of playing a random legal action instead.
	Blunder float64
	// MaxNodes caps the nodes (playouts, for Monte Carlo) of one decision,
	// whatever the budget says; 0 is no cap.
	MaxNodes int64
	// TimeShare is the fraction of the time budget a decision may use; 0 is
	// the whole budget.
	TimeShare float64
	// TableBits sets the transposition table of a decision to 2^TableBits
	// entries; a decision with a node budget asks for twice as many
	// entries as nodes, if that is fewer (see Pool).
	TableBits uint
	// Exploration is the UCT constant of the Monte Carlo player.
	Exploration float64
	// Epsilon is the chance that a Monte Carlo playout plays a random action
	// instead of its greedy choice.
	Epsilon float64
	// Horizon cuts Monte Carlo playouts after this many actions and scores
	// them with the evaluation; 0 plays them to the end.
	Horizon int
	// RewardTemp, in points, turns an evaluated playout's estimated scores
	// into chances of first place: exp(utility/RewardTemp), normalised.
	RewardTemp float64
	// RewardMargin blends the score margin into the reward (0: first place
	// only).
	RewardMargin float64
}

// DefaultOptions are the tuned options of the strong players.
var DefaultOptions = Options{
	Weights:      DefaultWeights,
	Leader:       0.7,
	TableBits:    18,
	Exploration:  0.7,
	Epsilon:      0.1,
	Horizon:      12,
	RewardTemp:   6,
	RewardMargin: 0.2,
}

// limit applies the options' caps to a budget.
func (o *Options) limit(b Budget) Budget {
	if o.MaxNodes > 0 && (b.Nodes == 0 || b.Nodes > o.MaxNodes) {
		b.Nodes = o.MaxNodes
	}
	if o.TimeShare > 0 && b.Time > 0 {
		b.Time = time.Duration(float64(b.Time) * o.TimeShare)
	}
	return b
}

// rootChoice is one root action with its searched value; exact reports
// whether the value is exact or only an upper bound (it failed low).
type rootChoice struct {
	action rules.Action
	value  float64
	exact  bool
}

// pick returns the action to play among searched root choices, best first,
// applying the options' variety, temperature and blunders.
func (o *Options) pick(rng *rand.Rand, choices []rootChoice, all []rules.Action) rules.Action {
	if o.Blunder > 0 && rng.Float64() < o.Blunder {
		return all[rng.IntN(len(all))]
	}
	if len(choices) == 0 {
		return all[0]
	}
	sort.SliceStable(choices, func(i, j int) bool { return choices[i].value > choices[j].value })
	best := choices[0].value
	var pool []rootChoice
	for _, c := range choices {
		if c.exact || c.action == choices[0].action {
			pool = append(pool, c)
		}
	}
	switch {
	case o.Temperature > 0:
		total := 0.0
		w := make([]float64, len(pool))
		for i, c := range pool {
			w[i] = math.Exp((c.value - best) / o.Temperature)
			total += w[i]
		}
		x := rng.Float64() * total
		for i := range pool {
			x -= w[i]
			if x <= 0 {
				return pool[i].action
			}
		}
		return pool[len(pool)-1].action
	case o.Variety > 0:
		n := 0
		for _, c := range pool {
			if c.value >= best-o.Variety {
				n++
			}
		}
		return pool[rng.IntN(n)].action
	}
	return choices[0].action
}

// margin is how far below the best a root action's value must be searched
// exactly for pick to weigh it.
func (o *Options) margin() float64 {
	m := o.Variety
	if t := 4 * o.Temperature; t > m {
		m = t
	}
	return m
}
