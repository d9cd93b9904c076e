package rules

// Zobrist keys for the incremental position hash: one per piece and square,
// one per seat to act, and one per die face still to use. The keys come from
// a fixed generator so hashes are the same in every run.
var (
	pieceKeys [64][64]uint64 // [Piece][Square]
	seatKeys  [NumSeats]uint64
	faceKeys  [2][8]uint64
	rolledKey uint64
	leapKeys  [NumSeats]uint64

	commandKeys, throneKeys, retiredKeys, turnKeys [NumSeats]uint64
	stepKeys                                       [8]uint64
	dropKeys                                       [NumSeats]uint64
	splitKey, rollOffKey                           uint64
	controlFaceKeys                                [2][8]uint64
	controlKeys                                    [NumSeats]uint64
	returnKeys                                     [4]uint64
	lostKeys                                       [4][NumSeats]uint64 // lostKeys[0] stays 0
	deadKeys                                       [NumSeats]uint64
)

// keysReady is set by filling the keys in a package variable's initializer,
// which Go runs before any init function: presets hash their start positions
// in init.
var keysReady = initKeys()

func initKeys() bool {
	x := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { // splitmix64
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	for pc := range pieceKeys {
		for sq := range pieceKeys[pc] {
			pieceKeys[pc][sq] = next()
		}
	}
	for s := range seatKeys {
		seatKeys[s] = next()
	}
	for i := range faceKeys {
		for f := range faceKeys[i] {
			faceKeys[i][f] = next()
		}
	}
	rolledKey = next()
	for s := range leapKeys {
		leapKeys[s] = next()
	}
	for s := range NumSeats {
		commandKeys[s], throneKeys[s], retiredKeys[s], turnKeys[s] = next(), next(), next(), next()
	}
	for i := range stepKeys {
		stepKeys[i] = next()
	}
	for s := range NumSeats {
		dropKeys[s], lostKeys[1][s], lostKeys[2][s] = next(), next(), next()
	}
	splitKey, rollOffKey = next(), next()
	for i := range controlFaceKeys {
		for f := range controlFaceKeys[i] {
			controlFaceKeys[i][f] = next()
		}
	}
	for s := range controlKeys {
		controlKeys[s] = next()
	}
	for i := range returnKeys {
		returnKeys[i] = next()
	}
	for s := range deadKeys { // drawn last, so that the keys above keep their values
		deadKeys[s] = next()
	}
	return true
}

// rollKey is the hash contribution of a seat's dice state.
func rollKey(rolled bool, r Roll) uint64 {
	if !rolled {
		return 0
	}
	k := rolledKey
	for i := range r.Len() {
		k ^= faceKeys[i][r.Face(i)]
	}
	if c, split := r.Control(); split {
		k ^= splitKey
		for i := range c.Len() {
			k ^= controlFaceKeys[i][c.Face(i)]
		}
	}
	return k
}
