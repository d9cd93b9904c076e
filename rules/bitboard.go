package rules

import "math/bits"

// Attack tables, computed once at start-up. A bitboard is a uint64 with bit i
// set for square i.
var (
	kingSteps   [64]uint64
	ferzSteps   [64]uint64
	knightLeaps [64]uint64
	alfilLeaps  [64]uint64
	pawnPushes  [NumSeats][64]uint64
	pawnTakes   [NumSeats][64]uint64
	pawnDoubles [NumSeats][64]uint64 // the double step's square, from the second line only
	rays        [8][64]uint64        // indexed by direction, see rayDirs
	orthLines   [64]uint64           // every square a rook's rays from a square cross, blockers aside
	diagLines   [64]uint64           // ... and a bishop's
)

// rayDirs lists the sliding directions; the first four increase the square
// index, the last four decrease it, which slide uses to find the nearest
// blocker.
var rayDirs = [8][2]int{{0, 1}, {1, 0}, {1, 1}, {-1, 1}, {0, -1}, {-1, 0}, {-1, -1}, {1, -1}}

// tablesReady is set by computing the tables in a package variable's
// initializer, which Go runs before any init function: presets parse their
// start positions in init and need the tables.
var tablesReady = initTables()

func initTables() bool {
	for sq := Square(0); sq < 64; sq++ {
		f, r := sq.File(), sq.Rank()
		kingSteps[sq] = offsets(f, r, [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}})
		ferzSteps[sq] = offsets(f, r, [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}})
		knightLeaps[sq] = offsets(f, r, [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}})
		alfilLeaps[sq] = offsets(f, r, [][2]int{{2, 2}, {2, -2}, {-2, 2}, {-2, -2}})
		for s := range Seat(NumSeats) {
			df, dr := forward[s][0], forward[s][1]
			pawnPushes[s][sq] = offsets(f, r, [][2]int{{df, dr}})
			// Diagonally forward: the forward step plus one step sideways.
			pawnTakes[s][sq] = offsets(f, r, [][2]int{{df + dr, dr + df}, {df - dr, dr - df}})
			// The second line: one step forward from the home line.
			if back := offsets(f, r, [][2]int{{-df, -dr}}); back != 0 && offsets(f-2*df, r-2*dr, [][2]int{{0, 0}}) == 0 {
				pawnDoubles[s][sq] = offsets(f, r, [][2]int{{2 * df, 2 * dr}})
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
		for _, d := range orthDirs {
			orthLines[sq] |= rays[d][sq]
		}
		for _, d := range diagDirs {
			diagLines[sq] |= rays[d][sq]
		}
	}
	return true
}

// offsets returns the squares at the given (file, rank) offsets from (f, r)
// that lie on the board.
func offsets(f, r int, steps [][2]int) uint64 {
	var b uint64
	for _, st := range steps {
		nf, nr := f+st[0], r+st[1]
		if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
			b |= SquareAt(nf, nr).bit()
		}
	}
	return b
}

// slide returns the squares a slider on sq reaches along the given
// directions, each ray stopping at (and including) its first occupied square.
func slide(sq Square, occ uint64, dirs [4]int) uint64 {
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

// rookAttacks returns the squares an orthogonal slider on sq reaches.
func rookAttacks(sq Square, occ uint64) uint64 { return slide(sq, occ, orthDirs) }

// bishopAttacks returns the squares a diagonal slider on sq reaches.
func bishopAttacks(sq Square, occ uint64) uint64 { return slide(sq, occ, diagDirs) }

// lowest returns the lowest square of a non-empty bitboard.
func lowest(b uint64) Square { return Square(bits.TrailingZeros64(b)) }

func popcount(b uint64) int { return bits.OnesCount64(b) }
