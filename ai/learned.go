package ai

import (
	"github.com/chaturaji/chaturaji/ai/nn"
	"github.com/chaturaji/chaturaji/rules"
)

// valuer estimates each seat's final score: the searches' leaf
// evaluation. The hand-written evaluator and the learned network are
// interchangeable values of it.
type valuer interface {
	utility(p *rules.Position) Utility
}

// The evaluations Options.Eval names.
const (
	// EvalDefault is the preset's default: the learned evaluation where
	// LearnedByDefault lists the preset, the hand-written one elsewhere.
	EvalDefault = ""
	// EvalHand is the hand-written evaluation (Weights).
	EvalHand = "hand"
	// EvalLearned is the learned evaluation of package nn, where the preset
	// has shipped weights; elsewhere the hand-written one.
	EvalLearned = "nn"
)

// LearnedByDefault lists the presets whose search players use the learned
// evaluation unless told otherwise (eval=hand): those where an SPRT found
// it stronger than the hand-written one (docs/strength.md, "The learned
// evaluation"). It is empty: no SPRT has accepted it yet (chaturaji:
// H0 accepted; chaturaji-teams: inconclusive after 200 deals).
var LearnedByDefault = map[string]bool{}

// learned is the learned evaluation: the network's estimate or, for a
// residual network, the hand-written evaluation corrected by the network.
// Finished games are left to the hand-written evaluator, which knows the
// final scores exactly.
type learned struct {
	net  *nn.Net
	hand *evaluator
}

// utility returns the network's estimate, each seat's kept within the
// bounds the searches' pruning assumes.
func (l *learned) utility(p *rules.Position) Utility {
	if p.Finished() {
		return l.hand.utility(p)
	}
	var base [rules.NumSeats]float64
	if l.net.Residual {
		base = l.hand.utility(p)
	}
	u := Utility(l.net.Value(p, &base))
	for i, x := range u {
		u[i] = min(max(x, 0), valueBound/2)
	}
	return u
}

// newValuer returns the evaluation options o name for preset pr, given its
// hand-written evaluator.
func newValuer(pr *rules.Preset, o *Options, hand *evaluator) valuer {
	useNet := o.Eval == EvalLearned || o.Eval == EvalDefault && LearnedByDefault[pr.Name]
	if !useNet {
		return hand
	}
	net := nn.ForPreset(pr.Name)
	if net == nil || pr.NumSeats() != rules.NumSeats {
		return hand
	}
	return &learned{net: net, hand: hand}
}

// Evaluation returns the evaluation a search player with the setting eval
// (EvalHand, EvalLearned or EvalDefault) values positions of preset pr
// with, under DefaultWeights: each seat's expected final score. It is for
// measuring and testing the evaluations on their own.
func Evaluation(pr *rules.Preset, eval string) func(*rules.Position) Utility {
	o := DefaultOptions
	o.Eval = eval
	return newValuer(pr, &o, newEvaluator(pr, o.Weights)).utility
}

// HasLearned reports whether preset pr has a learned evaluation.
func HasLearned(pr *rules.Preset) bool {
	return pr.NumSeats() == rules.NumSeats && nn.ForPreset(pr.Name) != nil
}
