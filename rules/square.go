package rules

import "fmt"

// Square is a board square, a1 = 0, b1 = 1, ..., h8 = 63: files a..h left to
// right and ranks 1..8 bottom to top, as seen from the South seat.
type Square int8

// NoSquare marks the absence of a square.
const NoSquare Square = -1

// SquareAt returns the square on file f (0 = a) and rank r (0 = rank 1).
func SquareAt(f, r int) Square { return Square(r*8 + f) }

// File returns the square's file, 0 for a to 7 for h.
func (s Square) File() int { return int(s) & 7 }

// Rank returns the square's rank, 0 for rank 1 to 7 for rank 8.
func (s Square) Rank() int { return int(s) >> 3 }

// String returns the square's name, such as "e4".
func (s Square) String() string {
	if s < 0 || s > 63 {
		return fmt.Sprintf("Square(%d)", int(s))
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare reads a square name such as "e4".
func ParseSquare(name string) (Square, error) {
	if len(name) != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8' {
		return NoSquare, fmt.Errorf("rules: invalid square %q", name)
	}
	return SquareAt(int(name[0]-'a'), int(name[1]-'1')), nil
}

func (s Square) bit() uint64 { return 1 << uint(s) }
