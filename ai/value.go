package ai

import "github.com/chaturaji/chaturaji/rules"

// pieceValue is what a piece is worth as material: its points where the
// preset scores captures, and otherwise (presets won by taking kings, where
// every piece scores 0) a worth read from how it moves, on the scale of
// the default preset's points, so that the search still tells a rook from
// a pawn.
func pieceValue(pr *rules.Preset, k rules.Kind) float64 {
	r := pr.Pieces[k]
	if r.Points > 0 || pr.Goal != rules.KingsGoal {
		return float64(r.Points)
	}
	if k == rules.King {
		return 5
	}
	return movementValue(r.Moves)
}

// movementValue sums the worth of a movement's components: the default
// preset's points for its pieces (elephant 4, horse 3, boat 2, pawn 1),
// chess's proportions for the others (a bishop's slide 3, a step in every
// direction 3, a diagonal step 1.5).
func movementValue(m rules.Movement) float64 {
	v := 0.0
	for _, c := range []struct {
		m rules.Movement
		v float64
	}{
		{rules.SlideOrth, 4},
		{rules.SlideDiagonal, 3},
		{rules.LeapKnight, 3},
		{rules.LeapAlfil, 2},
		{rules.StepAny, 3},
		{rules.StepDiagonal, 1.5},
	} {
		if m&c.m != 0 {
			v += c.v
		}
	}
	if m&(rules.PawnPush|rules.PawnTakeDiag|rules.PawnTakeAhead) != 0 {
		v++
	}
	return v
}
