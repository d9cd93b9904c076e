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
// by the seat that decided. A pawn scores 1 point and a king 5; a king
// left on the board for the next seat to take, or a king capture missed,
// costs its 5 points and then some (the army it freezes), a blunder; a
// horse or an elephant given away (3, 4 points), a mistake; a pawn or a
// boat's worth (1, 2 points), an inaccuracy. The searches that value the
// actions are short, and a point or so of noise between them is usual:
// the thresholds stand above it.
const (
	InaccuracyLoss = 1.5
	MistakeLoss    = 3.0
	BlunderLoss    = 6.0
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
