package ai

import (
	"math/bits"

	"github.com/chaturaji/chaturaji/rules"
)

// Attack tables for the evaluation. The rules engine keeps its own tables
// unexported; these follow the same geometry (docs/rules.md §1) and read
// each kind's Movement from the preset, so a preset with other pieces needs
// no new code here.
var (
	kingSteps   [64]uint64
	ferzSteps   [64]uint64
	knightLeaps [64]uint64
	alfilLeaps  [64]uint64
	pawnAhead   [rules.NumSeats][64]uint64
	pawnDiag    [rules.NumSeats][64]uint64
	rays        [8][64]uint64
	// alfilLattice[sq] is every square an alfil could ever reach from sq:
	// one of eight lattices of eight squares, which no other lattice's
	// alfil ever touches.
	alfilLattice [64]uint64
)

// forward is each seat's pawn step as (file, rank): South north, West east,
// North south, East west.
var forward = [rules.NumSeats][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}

// rayDirs: the first four directions increase the square index, the last
// four decrease it.
var rayDirs = [8][2]int{{0, 1}, {1, 0}, {1, 1}, {-1, 1}, {0, -1}, {-1, 0}, {-1, -1}, {1, -1}}

func init() {
	for sq := range rules.Square(64) {
		f, r := sq.File(), sq.Rank()
		kingSteps[sq] = offsets(f, r, [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}})
		ferzSteps[sq] = offsets(f, r, [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}})
		knightLeaps[sq] = offsets(f, r, [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}})
		alfilLeaps[sq] = offsets(f, r, [][2]int{{2, 2}, {2, -2}, {-2, 2}, {-2, -2}})
		for s := range rules.Seat(rules.NumSeats) {
			df, dr := forward[s][0], forward[s][1]
			pawnAhead[s][sq] = offsets(f, r, [][2]int{{df, dr}})
			pawnDiag[s][sq] = offsets(f, r, [][2]int{{df + dr, dr + df}, {df - dr, dr - df}})
		}
		alfilLattice[sq] = 0
		for t := range rules.Square(64) {
			if t.File()%2 == f%2 && t.Rank()%2 == r%2 && (t.File()/2+t.Rank()/2)%2 == (f/2+r/2)%2 {
				alfilLattice[sq] |= 1 << uint(t)
			}
		}
		for d, dir := range rayDirs {
			for i := 1; ; i++ {
				b := offsets(f, r, [][2]int{{dir[0] * i, dir[1] * i}})
				if b == 0 {
					break
				}
				rays[d][sq] |= b
			}
		}
	}
}

func offsets(f, r int, steps [][2]int) uint64 {
	var b uint64
	for _, st := range steps {
		nf, nr := f+st[0], r+st[1]
		if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
			b |= 1 << uint(rules.SquareAt(nf, nr))
		}
	}
	return b
}

// slide returns the squares a slider on sq reaches along four directions,
// each ray stopping at (and including) its first occupied square.
func slide(sq rules.Square, occ uint64, dirs [4]int) uint64 {
	var a uint64
	for _, d := range dirs {
		ray := rays[d][sq]
		if blockers := ray & occ; blockers != 0 {
			var b int
			if d < 4 {
				b = bits.TrailingZeros64(blockers)
			} else {
				b = 63 - bits.LeadingZeros64(blockers)
			}
			ray ^= rays[d][b]
		}
		a |= ray
	}
	return a
}

var (
	orthDirs = [4]int{0, 1, 4, 5}
	diagDirs = [4]int{2, 3, 6, 7}
)

// takes returns the squares a piece with movement m, owned by s, standing on
// sq, could capture on if an enemy stood there.
func takes(m rules.Movement, s rules.Seat, sq rules.Square, occ uint64) uint64 {
	var a uint64
	if m&rules.StepAny != 0 {
		a |= kingSteps[sq]
	}
	if m&rules.StepDiagonal != 0 {
		a |= ferzSteps[sq]
	}
	if m&rules.LeapKnight != 0 {
		a |= knightLeaps[sq]
	}
	if m&rules.LeapAlfil != 0 {
		a |= alfilLeaps[sq]
	}
	if m&rules.PawnTakeDiag != 0 {
		a |= pawnDiag[s][sq]
	}
	if m&rules.PawnTakeAhead != 0 {
		a |= pawnAhead[s][sq]
	}
	if m&rules.SlideOrth != 0 {
		a |= slide(sq, occ, orthDirs)
	}
	if m&rules.SlideDiagonal != 0 {
		a |= slide(sq, occ, diagDirs)
	}
	return a
}

func lowest(b uint64) rules.Square { return rules.Square(bits.TrailingZeros64(b)) }

func popcount(b uint64) int { return bits.OnesCount64(b) }
