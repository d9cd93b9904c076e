package record

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
)

// Proof is what Verify proved of a record.
type Proof struct {
	Turns  int    // the turn groups replayed, every action legal
	Result string // the Result tag, the replayed game's result
	Rolls  int    // the rolls checked against the seed; 0 in diceless presets
	Seed   string // the revealed seed; "" in diceless presets
	Signer string // the public key whose signature was checked; "" if no key was given
	// Termination is the Termination tag of a game ended outside the rules
	// (aborted): its record proves its dice and moves, and that it has no
	// result; "" for a game the rules ended.
	Termination string
}

// TerminationTag is the tag of a game that did not end by the rules: its
// value starts with "aborted" for a game called off before it began for
// everyone, whose Result is "*" (docs/notation.md, section 5.2).
const TerminationTag = "Termination"

// aborted reports whether a Termination tag's value says the game was
// aborted.
func aborted(term string) bool {
	return term == "aborted" || strings.HasPrefix(term, "aborted ")
}

// Verify checks everything a record can prove, in this order, and returns
// the first problem, an *Error naming the turn or tag and the token:
//
//  1. with dice: the Seed tag is revealed, the SeedHash tag is its
//     commitment, and every roll is the seed's (VerifyDice);
//  2. every turn and action is legal, in order (Replay);
//  3. the Result tag is present and is the replayed game's result;
//  4. the game is over, so that the result is final; or, for a game its
//     Termination tag says was aborted, that it is not over and its
//     Result is "*": its record is valid, and proves no result;
//  5. with a key (not nil): the Signature tag is key's signature of the
//     record (CheckSignature).
//
// The dice prove that no roll was chosen; a legal action put in place of
// the one played, with the same rolls, is still a legal game with fair
// dice, and only the signature of the server that saw the game proves it
// was the game played.
func (r *Record) Verify(key ed25519.PublicKey) (*Proof, error) {
	pr, err := r.preset()
	if err != nil {
		return nil, err
	}
	p := &Proof{Turns: len(r.Turns)}
	if pr.Die != nil {
		seed, ok := r.Tags.Get("Seed")
		if !ok {
			return nil, &Error{Game: r.src.game, Tag: "Seed", Err: errors.New("no Seed tag: the dice cannot be checked without the revealed seed")}
		}
		if _, ok := r.Tags.Get("SeedHash"); !ok {
			return nil, &Error{Game: r.src.game, Tag: "SeedHash", Err: errors.New("no SeedHash tag: nothing shows the seed was fixed before the game")}
		}
		if err := r.VerifyDice(); err != nil {
			return nil, err
		}
		p.Seed = seed
		for _, t := range r.Turns {
			if t.Roll.Len() > 0 {
				p.Rolls++
			}
		}
	}
	g, err := r.Replay()
	if err != nil {
		return nil, err
	}
	result, ok := r.Tags.Get("Result")
	if !ok {
		return nil, &Error{Game: r.src.game, Tag: "Result", Err: fmt.Errorf("no Result tag after %d turns: a record must state its result", len(r.Turns))}
	}
	term, hasTerm := r.Tags.Get(TerminationTag)
	switch {
	case hasTerm && !aborted(term):
		return nil, r.tagError(TerminationTag, term, errors.New(`unknown termination: want "aborted" or "aborted by SEAT"`))
	case hasTerm && g.Finished():
		return nil, r.tagError(TerminationTag, term, fmt.Errorf("the game is over after %d turns by the rules: it was not aborted", len(r.Turns)))
	case hasTerm:
		p.Termination = term
	case !g.Finished():
		return nil, r.tagError("Result", result, fmt.Errorf("the game is not over after %d turns: only a finished game's record proves its result", len(r.Turns)))
	}
	p.Result = result
	if key != nil {
		if err := r.CheckSignature(key); err != nil {
			return nil, err
		}
		p.Signer = FormatPublicKey(key)
	}
	return p, nil
}
