package match

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/chaturaji/chaturaji/rules"
)

// DealSeed returns the dice seed of deal i (from 0) of a match with seed base:
// SHA-256(base || "deal" || i as 8 bytes big-endian). Every rotation of the
// deal plays with it.
func DealSeed(base rules.Seed, i int) rules.Seed {
	msg := append(base[:], "deal"...)
	return sha256.Sum256(binary.BigEndian.AppendUint64(msg, uint64(i)))
}

// PlayerSeed returns the seed of player j in rotation r of a deal with dice
// seed deal: the first 8 bytes, big-endian, of SHA-256(deal || "player" || r
// as one byte || j as one byte). Players are created afresh for every game,
// so with a node budget a match replays exactly.
func PlayerSeed(deal rules.Seed, r, j int) uint64 {
	h := sha256.Sum256(append(append(deal[:], "player"...), byte(r), byte(j)))
	return binary.BigEndian.Uint64(h[:8])
}

// faultSeed keys the generator of the random actions played for faulty
// players: SHA-256(deal || "faults" || r as one byte).
func faultSeed(deal rules.Seed, r int) [32]byte {
	return sha256.Sum256(append(append(deal[:], "faults"...), byte(r)))
}
