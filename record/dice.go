package record

import (
	"fmt"

	"github.com/chaturaji/chaturaji/rules"
)

// VerifyDice checks the recorded dice against the Seed tag: roll number n of
// the game (from 0, counting only turns that rolled) must be
// rules.RollFromSeed(seed, preset, n), and a SeedHash tag, if present, must
// be the seed's commitment (its SHA-256 in hexadecimal). Without a Seed tag
// there is nothing to check and it returns nil. An error is an *Error naming
// the tag or the turn.
func (r *Record) VerifyDice() error {
	pr, err := r.preset()
	if err != nil {
		return err
	}
	s, ok := r.Tags.Get("Seed")
	if !ok {
		return nil
	}
	seed, err := rules.ParseSeed(s)
	if err != nil {
		return r.tagError("Seed", s, err)
	}
	if h, ok := r.Tags.Get("SeedHash"); ok && h != seed.Commitment() {
		return r.tagError("SeedHash", h, fmt.Errorf("not the commitment of the Seed, which is %s", seed.Commitment()))
	}
	var n uint64
	if pr.RollOff && len(r.Turns) > 0 {
		first, used := rules.RollOffFromSeed(seed)
		if r.Turns[0].Seat != first {
			return r.turnError(0, string(r.Turns[0].Seat.Letter()), fmt.Errorf("the Seed's roll-off makes %s start, not %s", first, r.Turns[0].Seat))
		}
		n = used
	}
	for i, t := range r.Turns {
		if t.Roll.Len() == 0 {
			if _, split := t.Roll.Control(); !split {
				continue
			}
		}
		pairs := 1
		if _, split := t.Roll.Control(); split {
			pairs = 2
		}
		if want := rules.RollFromSeedPairs(seed, pr, n, pairs); t.Roll != want {
			return r.turnError(i, t.Roll.String(), fmt.Errorf("roll %d of the Seed is %s, not %s", n+1, want, t.Roll))
		}
		n++
	}
	return nil
}
