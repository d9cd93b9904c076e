package rules

import "fmt"

// Kind is a kind of piece. Which kinds a game uses, their letters, moves and
// points are the preset's; the engine knows only their roles (the royal piece,
// the promoting piece).
type Kind uint8

// The kinds of piece found in the sources.
const (
	NoKind   Kind = iota
	Pawn          // moves forward, captures diagonally forward
	Boat          // jumps two squares diagonally (an alfil)
	Horse         // a knight's leap
	Elephant      // slides orthogonally (a rook)
	King          // one step in any direction; royal
	Vizir         // one step diagonally (two-player chaturanga)
	numKinds
)

// NumKinds is one more than the largest Kind.
const NumKinds = int(numKinds)

// KindSet is a set of kinds, bit k for kind k.
type KindSet uint16

// Has reports whether k is in the set.
func (ks KindSet) Has(k Kind) bool { return ks&(1<<k) != 0 }

// kinds returns a set of the given kinds.
func kinds(ks ...Kind) KindSet {
	var s KindSet
	for _, k := range ks {
		s |= 1 << k
	}
	return s
}

// Piece is a piece on the board: its owner's seat and its kind. The zero
// Piece is an empty square.
type Piece uint8

// NoPiece is an empty square.
const NoPiece Piece = 0

// MakePiece returns the piece of kind k owned by seat s.
func MakePiece(s Seat, k Kind) Piece { return Piece(uint8(s)<<4 | uint8(k)) }

// Seat returns the piece's owner.
func (p Piece) Seat() Seat { return Seat(p >> 4) }

// Kind returns the piece's kind, NoKind for an empty square.
func (p Piece) Kind() Kind { return Kind(p & 15) }

// String returns the piece in the default notation, such as "bK".
func (p Piece) String() string {
	if p == NoPiece {
		return "-"
	}
	return fmt.Sprintf("%c%c", p.Seat().Letter(), defaultLetters[p.Kind()])
}

var defaultLetters = [NumKinds]byte{0, 'P', 'B', 'H', 'E', 'K', 'V'}
