package ai

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chaturaji/chaturaji/rules"
)

// Budget limits one decision. A zero Time or Nodes is no limit; a budget
// with no limit at all is invalid for search players.
type Budget struct {
	Time  time.Duration // wall-clock time
	Nodes int64         // search nodes (or playouts, for Monte Carlo players)
	// Memory is the pool the decision's search memory (its table, its
	// tree) comes from and goes back to; nil is the player's own, which
	// keeps one table, or one tree, for the player's life.
	Memory *Pool
}

// Player chooses actions. Choose is called with a position whose decider
// (p.Decider()) the player plays for and whose roll, if any, has been made;
// it must not change p, and must return one of p's legal actions. A player
// created with the same seed makes the same choices given the same inputs
// and a node budget, when its memory is its own or comes from a Pool with
// room for every player that draws on it.
type Player interface {
	// Name returns the player's name as given to New, such as "greedy".
	Name() string
	// Choose returns the action to play.
	Choose(ctx context.Context, p *rules.Position, b Budget) (rules.Action, error)
}

// Analysis is what a search found in a position.
type Analysis struct {
	Best     rules.Action            // the best root action, before any variety, temperature or blunder
	Line     []rules.Action          // the principal line, starting with Best
	Expected [rules.NumSeats]float64 // each seat's expected final score
	Nodes    int64                   // nodes searched (or playouts)
	Depth    int                     // depth reached, where it applies
	Elapsed  time.Duration           // wall-clock time the search took
}

// Analyzer is a player that can explain its choice.
type Analyzer interface {
	Player
	Analyze(ctx context.Context, p *rules.Position, b Budget) (Analysis, error)
}

// ActionAnalyzer is an Analyzer that can also value an action it would not
// choose: a game's review compares the action played with the best one,
// and both values must come from the same kind of search to be compared.
type ActionAnalyzer interface {
	Analyzer
	// AnalyzeAction searches p as Analyze does, with a, one of p's legal
	// actions, as the only action at the root: its Best is a, its Line
	// starts with a and its Expected is what the search expects after a.
	AnalyzeAction(ctx context.Context, p *rules.Position, a rules.Action, b Budget) (Analysis, error)
}

// errNoBudget is returned by search players given no limit at all.
var errNoBudget = errors.New("ai: a search needs a time or node budget")

// errNoActions is returned for a position where nothing is to be decided.
func errNoActions(p *rules.Position) error {
	switch {
	case p.Finished():
		return fmt.Errorf("ai: the game is over")
	case p.AwaitingRoll():
		return fmt.Errorf("ai: the roll must be made before a player chooses")
	}
	return fmt.Errorf("ai: no legal action in %s", p)
}
