package review

// Class says how bad a decision's loss is, lichess's way: an inaccuracy
// (?!), a mistake (?) or a blunder (??).
type Class uint8

// The classes, from the least loss.
const (
	Good       Class = iota // lost less than InaccuracyLoss
	Inaccuracy              // lost InaccuracyLoss or more, "?!"
	Mistake                 // lost MistakeLoss or more, "?"
	Blunder                 // lost BlunderLoss or more, "??"
)

// The thresholds of the classes, in points of expected final score lost
// by the seat that decided. A pawn scores 1 point, a boat 2, a horse 3, an
// elephant 4 and a king 5: a king capture missed for a pawn, even when
// another seat takes the king soon after, costs about a king's worth less
// a pawn's, 4 points, a blunder (and far more when it was the last king
// but one, whose capture ends the game with the raise to 54); a boat's or
// a horse's worth is a mistake; a pawn's and a half, an inaccuracy. The
// searches that value the actions are short, and they disagree by a point
// or so: in four games of the strong player against levels 3 and 5
// (chaturaji analyze at 20000 and 50000 nodes a search), 1 unforced
// decision in 300 lost 4 points or more, 5 to 8 lost 2.5 or more, and 11
// to 15 lost 1.5 or more.
const (
	InaccuracyLoss = 1.5
	MistakeLoss    = 2.5
	BlunderLoss    = 4.0
)

// Classify returns the class of a loss.
func Classify(loss float64) Class {
	switch {
	case loss >= BlunderLoss:
		return Blunder
	case loss >= MistakeLoss:
		return Mistake
	case loss >= InaccuracyLoss:
		return Inaccuracy
	}
	return Good
}

// String returns the class's name: "good", "inaccuracy", "mistake" or
// "blunder".
func (c Class) String() string {
	switch c {
	case Inaccuracy:
		return "inaccuracy"
	case Mistake:
		return "mistake"
	case Blunder:
		return "blunder"
	}
	return "good"
}

// Mark returns the class's annotation: "?!", "?", "??", or "" for a good
// decision.
func (c Class) Mark() string {
	switch c {
	case Inaccuracy:
		return "?!"
	case Mistake:
		return "?"
	case Blunder:
		return "??"
	}
	return ""
}
