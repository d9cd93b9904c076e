package ai

import (
	"fmt"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// New returns the player a spec names, seeded with seed. A spec is a name
// with optional settings in URL query form, "name?key=value&key=value":
//
//	random           a uniformly random legal action
//	greedy           the action that scores the most points at once
//	strong           the strongest player, at full strength (the same as level 8)
//	brs              expectimax with Best-Reply Search (see Star)
//	paranoid         expectimax with paranoid opponents (see Star)
//	mcts             Monte Carlo tree search with max^n backups (see MCTS)
//	level:N, or N    strength level N from 1 (weakest) to 8 (strong); see Levels
//
// Settings for the search players (strong, brs, paranoid, mcts, levels):
//
//	variety=X   pick at random among the actions within X points of the best
//	temp=X      pick from a softmax of the root values with temperature X points
//	blunder=X   play a random action with probability X
//	nodes=N     never search more than N nodes (playouts) per decision
//	leader=X    the objective's weight of the best opponent (0..1)
//	c=X         UCT exploration constant (mcts)
//	epsilon=X   playout randomness (mcts)
//	horizon=N   playout length before evaluating, 0 to the end (mcts)
//	rtemp=X     temperature of an evaluated playout's reward, in points (mcts)
//	rmargin=X   weight of the score margin in the reward (mcts)
//	eval=E      the evaluation: hand (the hand-written one, Weights) or nn
//	            (the learned one of package nn where the preset has
//	            weights, else hand); the default is the preset's (see
//	            LearnedByDefault)
//
// and the evaluation's Weights, for tuning: material, spite, pawn, strength,
// exposure, approach, lattice, hazard, insurance, loot, defend,
// threat0..threat3.
//
// Each setting but eval is given at most once, as a finite number of at least 0;
// blunder, epsilon and leader are at most 1, nodes and horizon whole.
//
// A player is deterministic for a given seed when its budget is in nodes.
func New(spec string, seed uint64) (Player, error) {
	name, query, _ := strings.Cut(spec, "?")
	settings, err := url.ParseQuery(query)
	if err != nil {
		return nil, fmt.Errorf("ai: player %q: bad settings: %v", spec, err)
	}
	if level, ok := strings.CutPrefix(name, "level:"); ok {
		name = level
	}
	var o Options
	switch name {
	case "random", "greedy":
		if len(settings) > 0 {
			return nil, fmt.Errorf("ai: player %q takes no settings", name)
		}
		if name == "random" {
			return NewRandom(seed), nil
		}
		return NewGreedy(seed), nil
	case "strong", "brs", "paranoid", "mcts":
		o = DefaultOptions
	default:
		n, err := strconv.Atoi(name)
		if err != nil || n < 1 || n > len(Levels) {
			return nil, fmt.Errorf("ai: unknown player %q (want random, greedy, strong, brs, paranoid, mcts, or a level 1..%d)", spec, len(Levels))
		}
		o = Levels[n-1].Options
		name = Levels[n-1].Family
	}
	if err := o.set(settings); err != nil {
		return nil, fmt.Errorf("ai: player %q: %v", spec, err)
	}
	if name == "strong" {
		name = strongFamily
	}
	return newFamily(name, spec, o, seed), nil
}

// strongFamily is the search family that plays as "strong".
const strongFamily = "paranoid"

// newFamily returns a search player of the named family.
func newFamily(family, name string, o Options, seed uint64) Player {
	switch family {
	case "paranoid":
		return newStar(name, paranoid, o, seed)
	case "mcts":
		return newMCTS(name, o, seed)
	}
	return newStar(name, bestReply, o, seed)
}

// maxCount bounds the settings that count (nodes, horizon), so that they
// convert to integers exactly.
const maxCount = 1 << 40

// set applies settings to the options. Every value is a finite number of
// at least 0 (a NaN or infinite weight would poison every value the search
// compares), given once; chances (blunder, epsilon) and the leader's weight
// are at most 1; counts (nodes, horizon) are whole numbers up to maxCount.
func (o *Options) set(settings url.Values) error {
	for _, key := range slices.Sorted(maps.Keys(settings)) {
		vals := settings[key]
		if len(vals) > 1 {
			return fmt.Errorf("setting %s given %d times", key, len(vals))
		}
		v := vals[0]
		if key == "eval" {
			if v != EvalHand && v != EvalLearned {
				return fmt.Errorf("setting eval=%q: want hand or nn", v)
			}
			o.Eval = v
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return fmt.Errorf("setting %s=%q: want a finite number of at least 0", key, v)
		}
		switch key {
		case "blunder", "epsilon", "leader":
			if f > 1 {
				return fmt.Errorf("setting %s=%q: want a number from 0 to 1", key, v)
			}
		case "nodes", "horizon":
			if f != math.Trunc(f) || f > maxCount {
				return fmt.Errorf("setting %s=%q: want a whole number from 0 to %d", key, v, int64(maxCount))
			}
		}
		switch key {
		case "variety":
			o.Variety = f
		case "temp":
			o.Temperature = f
		case "blunder":
			o.Blunder = f
		case "nodes":
			o.MaxNodes = int64(f)
		case "leader":
			o.Leader = f
		case "c":
			o.Exploration = f
		case "epsilon":
			o.Epsilon = f
		case "horizon":
			o.Horizon = int(f)
		case "rtemp":
			o.RewardTemp = f
		case "rmargin":
			o.RewardMargin = f
		default:
			w := o.Weights.Field(key)
			if w == nil {
				return fmt.Errorf("unknown setting %q", key)
			}
			*w = f
		}
	}
	return nil
}

// Kind is a player New builds by name, and how it plays, for people.
type Kind struct {
	Name  string // the spec, as New takes it
	About string // one line on how it plays
}

// Kinds are the players New builds by name, besides the levels.
var Kinds = []Kind{
	{"random", "a random legal action"},
	{"greedy", "the action that scores the most points at once; else a random one"},
	{"strong", "the strongest player: " + strongFamily + " search at full budget (the same as level " + strconv.Itoa(len(Levels)) + ")"},
	{"brs", "expectimax through the dice with Best-Reply Search (one opponent replies at a time)"},
	{"paranoid", "expectimax through the dice with paranoid opponents (all play against it)"},
	{"mcts", "Monte Carlo tree search with max^n backups and chance nodes"},
}

// Level is one strength level for human opponents: a search family with
// options that cap its nodes and time and add noise to its choices.
type Level struct {
	Family  string  // the search family New builds, such as "paranoid"
	Options Options // DefaultOptions with the level's node, time and noise settings
	About   string  // a short description of how the level plays, for people
}

// Levels are the strength levels 1..8, weakest first. Every level searches
// with the strong family; the lower ones are held to a few hundred or
// thousand nodes whatever the budget, pick their action from a softmax of
// the root values (temperature in points of expected score) and sometimes
// play a random action. Level 8 is "strong" itself.
var Levels = []Level{
	//    nodes  time  temp  random
	level(200, 0, 8, 0.5, "a tiny search; half its actions random, the rest drawn widely"),
	level(400, 0, 6, 0.3, "a tiny search; a third of its actions random"),
	level(1000, 0, 4, 0.15, "a short search drawn loosely, with some random actions"),
	level(3000, 0, 3, 0.05, "a short search drawn loosely, seldom a random action"),
	level(10000, 0, 2, 0.02, "a medium search, drawn among the near-best actions"),
	level(30000, 0, 1, 0, "a medium search, drawn among the best few"),
	level(0, 0.5, 0.5, 0, "half the time budget, a slight spread among equals"),
	level(0, 0, 0, 0, "the strong player at full budget"),
}

func level(nodes int64, share, temp, random float64, about string) Level {
	o := DefaultOptions
	o.MaxNodes, o.TimeShare, o.Temperature, o.Blunder = nodes, share, temp, random
	return Level{Family: strongFamily, Options: o, About: about}
}
