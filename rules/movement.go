package rules

// Movement describes how a kind of piece moves, as a set of components; a
// piece may use any of its components. Presets give each kind its Movement,
// so a new piece is a new combination, not new generator code.
type Movement uint16

// The components of a Movement.
const (
	StepAny       Movement = 1 << iota // one square in any of 8 directions
	StepDiagonal                       // one square diagonally
	LeapKnight                         // a chess knight's leap
	LeapAlfil                          // two squares diagonally, jumping
	SlideOrth                          // any distance orthogonally
	SlideDiagonal                      // any distance diagonally
	PawnPush                           // one square forward, to an empty square only
	PawnTakeDiag                       // captures one square diagonally forward
	PawnTakeAhead                      // captures one square straight forward
	PawnDouble                         // from its second line, two squares forward over an empty square to an empty one
)

// stepSet is the squares a piece on one square reaches without sliding:
// quiet only when empty, takes only to capture, either in both cases.
type stepSet struct{ quiet, takes, either uint64 }

// steps returns the non-sliding targets of a piece with movement m, owned by
// seat s, standing on sq.
func (m Movement) steps(s Seat, sq Square) stepSet {
	var t stepSet
	if m&StepAny != 0 {
		t.either |= kingSteps[sq]
	}
	if m&StepDiagonal != 0 {
		t.either |= ferzSteps[sq]
	}
	if m&LeapKnight != 0 {
		t.either |= knightLeaps[sq]
	}
	if m&LeapAlfil != 0 {
		t.either |= alfilLeaps[sq]
	}
	if m&PawnPush != 0 {
		t.quiet |= pawnPushes[s][sq]
	}
	if m&PawnTakeDiag != 0 {
		t.takes |= pawnTakes[s][sq]
	}
	if m&PawnTakeAhead != 0 {
		t.takes |= pawnPushes[s][sq]
	}
	return t
}

// lines returns the squares a piece with movement m on sq could reach by
// sliding on an empty board.
func (m Movement) lines(sq Square) uint64 {
	var l uint64
	if m&SlideOrth != 0 {
		l |= orthLines[sq]
	}
	if m&SlideDiagonal != 0 {
		l |= diagLines[sq]
	}
	return l
}

// slides returns the squares a piece with movement m on sq reaches by
// sliding, when the board's occupancy is occ.
func (m Movement) slides(sq Square, occ uint64) uint64 {
	var a uint64
	if m&SlideOrth != 0 {
		a |= rookAttacks(sq, occ)
	}
	if m&SlideDiagonal != 0 {
		a |= bishopAttacks(sq, occ)
	}
	return a
}
