package nn

import (
	"math/bits"

	"github.com/chaturaji/chaturaji/rules"
)

// The inputs of the network. The sparse features come first, each 0 or 1;
// the dense inputs follow them.
const (
	// NumPlayKinds is the kinds of piece a feature may name: every kind
	// from the pawn on.
	NumPlayKinds = rules.NumKinds - 1
	// pieceFeatures: relative owner x kind x square.
	pieceFeatures = rules.NumSeats * NumPlayKinds * 64
	// armyFeatures: for each relative seat, its army is frozen (pieces but
	// no king), gone (no pieces), or it has a king.
	armyFeatures = rules.NumSeats * 3
	// rollFeatures: awaiting the roll, or face f (0..7) rolled.
	rollFeatures = 1 + 8
	// NumSparse is the number of sparse features.
	NumSparse = pieceFeatures + armyFeatures + rollFeatures
	// NumDense is the number of dense inputs: each relative seat's score,
	// over scoreScale, and the clock over the preset's limit.
	NumDense = rules.NumSeats + 1
	// NumInputs is the width of the network's input.
	NumInputs = NumSparse + NumDense
	// NumOutputs is the width of its output: a gain for each relative seat.
	NumOutputs = rules.NumSeats
	// MaxActive bounds the sparse features one position sets.
	MaxActive = 64 + armyFeatures + 3
)

// scoreScale brings scores to about 1: the raise of the default preset.
const scoreScale = 54

// Input is an encoded position: the indices of its active sparse features
// and its dense inputs.
type Input struct {
	Active [MaxActive]uint16 // the active sparse features, Active[:N]
	N      int               // how many features are active
	Dense  [NumDense]float32 // the dense inputs
}

// Features returns the active sparse features.
func (in *Input) Features() []uint16 { return in.Active[:in.N] }

// add appends feature f.
func (in *Input) add(f int) {
	if in.N < MaxActive {
		in.Active[in.N] = uint16(f)
		in.N++
	}
}

// Relative returns seat s counted in seat order from the mover: 0 for the
// mover itself, 1 for the next seat, 2 for the seat opposite.
func Relative(mover, s rules.Seat) int {
	return (int(s) - int(mover) + rules.NumSeats) % rules.NumSeats
}

// Turned returns square sq as the mover sees it, the board turned so that
// the mover sits South: each seat's army starts a quarter turn from the
// previous seat's (docs/rules.md §1.3), so a turn by the mover's number of
// quarter turns brings it home.
func Turned(mover rules.Seat, sq rules.Square) rules.Square {
	f, r := sq.File(), sq.Rank()
	for range int(mover) {
		f, r = 7-r, f
	}
	return rules.SquareAt(f, r)
}

// PieceFeature returns the feature of a piece of kind k of relative owner
// rel on the turned square sq.
func PieceFeature(rel int, k rules.Kind, sq rules.Square) int {
	return (rel*NumPlayKinds+int(k)-1)*64 + int(sq)
}

// Encode writes position p, seen by its seat to act, into in.
func Encode(p *rules.Position, in *Input) {
	in.N = 0
	in.Dense = [NumDense]float32{}
	pr := p.Preset()
	mover := p.Seat()
	for _, s := range pr.Seats() {
		rel := Relative(mover, s)
		for k := rules.Pawn; k < rules.Kind(rules.NumKinds); k++ {
			for b := p.Pieces(s, k); b != 0; b &= b - 1 {
				sq := rules.Square(bits.TrailingZeros64(b))
				in.add(PieceFeature(rel, k, Turned(mover, sq)))
			}
		}
		army := pieceFeatures + rel*3
		switch {
		case p.Army(s) == 0:
			in.add(army + 1)
		case !p.HasKing(s):
			in.add(army)
		default:
			in.add(army + 2)
		}
		in.Dense[rel] = float32(p.Score(s)) / scoreScale
	}
	roll := pieceFeatures + armyFeatures
	if p.AwaitingRoll() {
		in.add(roll)
	} else {
		r := p.Roll()
		seen := 0
		for i := range r.Len() {
			f := r.Face(i) & 7
			if seen&(1<<f) == 0 {
				seen |= 1 << f
				in.add(roll + 1 + f)
			}
		}
	}
	if pr.ClockLimit > 0 {
		in.Dense[rules.NumSeats] = float32(p.Clock()) / float32(pr.ClockLimit)
	}
}
