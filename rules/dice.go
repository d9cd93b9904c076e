package rules

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
)

// Seed is a game's dice seed: 32 bytes from which every roll of the game
// follows, so a game replays exactly and its dice can be audited.
type Seed [32]byte

// NewSeed returns a seed from the operating system's cryptographic random
// source.
func NewSeed() Seed {
	var s Seed
	if _, err := rand.Read(s[:]); err != nil {
		panic("rules: no cryptographic randomness: " + err.Error())
	}
	return s
}

// ParseSeed reads a seed written as 64 hexadecimal digits.
func ParseSeed(s string) (Seed, error) {
	var seed Seed
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(seed) {
		return seed, fmt.Errorf("rules: invalid seed %q: want 64 hexadecimal digits", s)
	}
	copy(seed[:], b)
	return seed, nil
}

// SeedFromInt returns a seed derived from a small number, for reproducible
// self-play and tests; it is as predictable as the number.
func SeedFromInt(n uint64) Seed {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return sha256.Sum256(append([]byte("chaturaji seed "), b[:]...))
}

// String returns the seed as 64 hexadecimal digits.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// Commitment returns the SHA-256 of the seed in hexadecimal: published when a
// game starts, it binds the dice before the seed itself is revealed.
func (s Seed) Commitment() string {
	h := sha256.Sum256(s[:])
	return hex.EncodeToString(h[:])
}

// RollFromSeed returns the roll number n (0 for the game's first roll) of
// preset pr's dice under seed s. Die j of roll n takes the first of the four
// big-endian 64-bit words of SHA-256(seed || "roll" || n as 8 bytes
// big-endian || j as one byte) that is below the largest multiple of the
// number of faces (the last word if none is), modulo that number, as an index into the die's faces
// (ascending); the faces of a roll are then sorted. Anyone can recompute it.
func RollFromSeed(s Seed, pr *Preset, n uint64) Roll {
	if pr.Die == nil {
		return Roll{}
	}
	faces := seedFaces(s, pr.Die, n, pr.Dice)
	slices.Sort(faces)
	r, err := NewRoll(faces...)
	if err != nil {
		panic(err)
	}
	return r
}

// RollFromSeedPairs is RollFromSeed for a turn that rolls pairs pairs of the
// preset's dice (martian's throne control: 2): dice 0 and 1 of roll n make
// the first pair, dice 2 and 3 the second, each sorted.
func RollFromSeedPairs(s Seed, pr *Preset, n uint64, pairs int) Roll {
	if pairs < 2 || pr.Die == nil {
		return RollFromSeed(s, pr, n)
	}
	faces := seedFaces(s, pr.Die, n, 2*pr.Dice)
	own, ctrl := faces[:pr.Dice], faces[pr.Dice:]
	slices.Sort(own)
	slices.Sort(ctrl)
	r, err := NewRoll(own...)
	c, err2 := NewRoll(ctrl...)
	if err != nil || err2 != nil {
		panic("rules: bad faces from the seed")
	}
	return r.WithControl(c)
}

// RollOffFromSeed plays martian's roll-off from seed s: roll n = 0, 1, ...
// gives one d4 to each seat (dice 0..3 of that roll: South, West, North,
// East); the team with the higher sum starts, at its seat first in that
// order; a tie rolls again. It returns the starting seat and the number of
// rolls the roll-off used.
func RollOffFromSeed(s Seed) (Seat, uint64) {
	for n := uint64(0); ; n++ {
		f := seedFaces(s, D4, n, 4)
		switch bg, yr := f[0]+f[2], f[1]+f[3]; {
		case bg > yr:
			return South, n + 1
		case yr > bg:
			return West, n + 1
		}
	}
}

// seedFaces returns the faces of dice 0..count-1 of roll n under seed s.
func seedFaces(s Seed, d *Die, n uint64, count int) []int {
	var msg [32 + 4 + 8 + 1]byte
	copy(msg[:], s[:])
	copy(msg[32:], "roll")
	binary.BigEndian.PutUint64(msg[36:], n)
	faces := make([]int, count)
	k := uint64(len(d.Faces))
	rem := -k % k // 2^64 mod k, in wrapping uint64 arithmetic
	for j := range faces {
		msg[44] = byte(j)
		h := sha256.Sum256(msg[:])
		var v uint64
		for w := range 4 {
			v = binary.BigEndian.Uint64(h[8*w:])
			if rem == 0 || v < -rem { // below 2^64 - rem, a multiple of k
				break
			}
		}
		faces[j] = d.Faces[v%k]
	}
	return faces
}
