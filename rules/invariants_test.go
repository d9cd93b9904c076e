package rules_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// What docs/rules.md says, written out again here so that the checks below do not
// lean on the engine's own tables.
var (
	points     = [rules.NumKinds]int{rules.Pawn: 1, rules.Boat: 2, rules.Horse: 3, rules.Elephant: 4, rules.King: 5}
	turnOrder  = [4]rules.Seat{rules.South, rules.West, rules.North, rules.East}
	byDistance = [4]rules.Kind{rules.Boat, rules.Horse, rules.Elephant, rules.King}
)

// onLastLine reports whether sq is on seat s's last line: rank 8 for South,
// file h for West, rank 1 for North, file a for East.
func onLastLine(s rules.Seat, sq rules.Square) bool {
	switch s {
	case rules.South:
		return sq.Rank() == 7
	case rules.West:
		return sq.File() == 7
	case rules.North:
		return sq.Rank() == 0
	}
	return sq.File() == 0
}

// promotionKind is the kind a pawn of s becomes on sq of its last line: the
// square's place along the line counted from the nearer corner.
func promotionKind(s rules.Seat, sq rules.Square) rules.Kind {
	along := sq.File()
	if s == rules.West || s == rules.East {
		along = sq.Rank()
	}
	return byDistance[min(along, 7-along)]
}

// effects is what one action did to the board, read off by comparing the
// board before and after it.
type effects struct {
	captured []rules.Piece // pieces the mover took, on the destination or by a triumph
	triumph  int           // boats taken by a boat triumph
	pawnMove bool          // a pawn moved (a capture or promotion too)
	promoted bool          // the moving pawn promoted at once
	waits    bool          // the moving pawn reached its last line and waits
	waiting  int           // waiting pawns promoted while the turn passed
	revived  int           // armies that got a king back while the turn passed
	retired  bool
	frozen   int // pieces taken from armies without a king
}

// effectsOf compares the boards before and after action a and explains every
// change; a change it cannot explain (a piece from nowhere) is an error.
func effectsOf(before, after *rules.Position, a rules.Action) (effects, error) {
	var e effects
	mover := before.Seat()
	var moving rules.Piece
	if a.Type() == rules.Move {
		moving = before.At(a.From())
		if moving == rules.NoPiece || moving.Seat() != mover {
			return e, fmt.Errorf("%s moves no piece of the mover", a)
		}
		e.pawnMove = moving.Kind() == rules.Pawn
	}
	take := func(pc rules.Piece) {
		e.captured = append(e.captured, pc)
		if !before.HasKing(pc.Seat()) {
			e.frozen++
		}
	}
	for sq := rules.Square(0); sq < 64; sq++ {
		b, x := before.At(sq), after.At(sq)
		switch {
		case a.Type() == rules.Move && sq == a.From():
			if x != rules.NoPiece {
				return e, fmt.Errorf("%s: %s left on the square it moved from", a, x)
			}
		case a.Type() == rules.Move && sq == a.To():
			if b != rules.NoPiece {
				if b.Seat() == mover {
					return e, fmt.Errorf("%s takes its own %s", a, b)
				}
				take(b)
			}
			switch {
			case x == moving && moving.Kind() == rules.Pawn && onLastLine(mover, sq):
				e.waits = true
			case x == moving:
			case moving.Kind() == rules.Pawn && onLastLine(mover, sq) &&
				x == rules.MakePiece(mover, promotionKind(mover, sq)):
				e.promoted = true
			default:
				return e, fmt.Errorf("%s: %s arrived as %s", a, moving, x)
			}
		case b == x:
		case x == rules.NoPiece && a.Type() == rules.Retire && b == rules.MakePiece(mover, rules.King):
			e.retired = true
		case x == rules.NoPiece && a.Type() == rules.Move && moving.Kind() == rules.Boat &&
			b.Kind() == rules.Boat && b.Seat() != mover:
			take(b)
			e.triumph++
		case b.Kind() == rules.Pawn && onLastLine(b.Seat(), sq) &&
			x == rules.MakePiece(b.Seat(), promotionKind(b.Seat(), sq)):
			e.waiting++
		default:
			return e, fmt.Errorf("%s: %s on %s became %s", a, b, sq, x)
		}
	}
	if a.Type() == rules.Retire && !e.retired {
		return e, fmt.Errorf("retire left the king on the board")
	}
	for _, s := range turnOrder {
		if !before.HasKing(s) && after.HasKing(s) {
			e.revived++
		}
	}
	return e, nil
}

func bitsSet(b uint64) int { return bits.OnesCount64(b) }

// kingsOn returns the number of kings on the board and whether every piece
// is a king.
func kingsOn(p *rules.Position) (kings int, onlyKings bool) {
	onlyKings = true
	for sq := rules.Square(0); sq < 64; sq++ {
		switch pc := p.At(sq); {
		case pc.Kind() == rules.King:
			kings++
		case pc != rules.NoPiece:
			onlyKings = false
		}
	}
	return kings, onlyKings
}

// checkAction checks one action against docs/rules.md §4's order of events,
// from the boards, scores and clocks before and after it.
func checkAction(before, after *rules.Position, a rules.Action) (effects, error) {
	e, err := effectsOf(before, after, a)
	if err != nil {
		return e, err
	}
	mover := before.Seat()
	if before.Roll().Len() != 1 {
		return e, fmt.Errorf("%s played with the roll %s", a, before.Roll())
	}
	face := before.Roll().Face(0)
	switch a.Type() {
	case rules.Move:
		k := before.At(a.From()).Kind()
		if !(face == 2 && k == rules.Boat || face == 3 && k == rules.Horse || face == 4 && k == rules.Elephant ||
			face == 5 && (k == rules.King || k == rules.Pawn)) {
			return e, fmt.Errorf("%s moves a %v on a %d", a, before.At(a.From()), face)
		}
	case rules.Retire:
		if before.Army(mover) != before.Pieces(mover, rules.King) {
			return e, fmt.Errorf("retire while the king is not alone")
		}
	}
	if n, m := bitsSet(after.Army(0)|after.Army(1)|after.Army(2)|after.Army(3)), bitsSet(before.Army(0)|before.Army(1)|before.Army(2)|before.Army(3)); n > m {
		return e, fmt.Errorf("%s: %d pieces after, %d before", a, n, m)
	}
	// Scores: the mover scores what it took, then the 54 raise.
	kings, onlyKings := kingsOn(after)
	for _, s := range turnOrder {
		want := before.Score(s)
		if s == mover {
			for _, pc := range e.captured {
				want += points[pc.Kind()]
			}
		}
		if kings == 1 && after.HasKing(s) {
			want = max(want, 54)
		}
		if got := after.Score(s); got != want {
			return e, fmt.Errorf("%s: score of %s is %d, want %d", a, s, got, want)
		}
	}
	// The clock: reset by a capture or a pawn move, else one more.
	wantClock := before.Clock() + 1
	if len(e.captured) > 0 || e.pawnMove {
		wantClock = 0
	}
	if after.Clock() != wantClock {
		return e, fmt.Errorf("%s: clock %d, want %d", a, after.Clock(), wantClock)
	}
	// The turn: the first seat clockwise after the mover that has a king, the
	// mover last.
	i := 0
	for turnOrder[i] != mover {
		i++
	}
	wantSeat := mover
	for j := 1; j <= 4; j++ {
		if s := turnOrder[(i+j)%4]; after.HasKing(s) {
			wantSeat = s
			break
		}
	}
	if after.Seat() != wantSeat {
		return e, fmt.Errorf("%s: %s to act, want %s", a, after.Seat(), wantSeat)
	}
	over := kings <= 1 || onlyKings || after.Clock() >= 200
	if after.Finished() != over {
		return e, fmt.Errorf("%s: Finished() = %v, want %v", a, after.Finished(), over)
	}
	if !over && !after.AwaitingRoll() {
		return e, fmt.Errorf("%s: the next seat does not await its roll", a)
	}
	return e, nil
}

// The longest game: the clock ends it after 200 actions without a capture or
// a pawn move, so a game is at most 200 such actions after each reset, and
// before the first. Resets are bounded: each pawn move takes a pawn one
// square nearer its last line (6 squares from its start line; 16 pawns), and
// each capture takes at least one of the 32 pieces off the board.
const (
	maxPawnMoves = 16 * 6
	maxResets    = maxPawnMoves + 32
	maxActions   = maxResets + 200*(maxResets+1)
)

// TestStartPositionHash: the preset's start position has the hash of its
// notation (it once was hashed before the keys were made, and was 0).
func TestStartPositionHash(t *testing.T) {
	s := rules.Chaturaji.StartPosition()
	q := mustParse(t, rules.Chaturaji.Start)
	if s.Hash() != q.Hash() || !s.Equal(q) || s.Hash() == 0 {
		t.Errorf("StartPosition().Hash() = %#x, the parsed start %#x; Equal %v", s.Hash(), q.Hash(), s.Equal(q))
	}
}

// TestRandomGameInvariants plays random games from the start position and
// checks every action against the rules as the board shows them.
func TestRandomGameInvariants(t *testing.T) {
	t.Parallel() // seconds of CPU: beside the package's other long tests
	// Most games start from the start position, where the length bound
	// holds; the rest from random positions, for rarer rules.
	fromStart, fromRandom := 2000, 1000
	if testing.Short() {
		fromStart, fromRandom = 200, 100
	}
	rng := rand.New(rand.NewPCG(20240601, 7))
	var buf [rules.MaxActions]rules.Action
	var total, longest, triumphs, waiting, revived, retired, frozen int
	var ends [3]int // one king, only kings, clock
	for g := range fromStart + fromRandom {
		pol := policies[g%len(policies)]
		p := rules.Chaturaji.StartPosition()
		if g >= fromStart {
			p = mustParse(t, randomPosition(rng))
		}
		actions, resets, pawnMoves := 0, 0, 0
		for !p.Finished() {
			if p.AwaitingRoll() {
				p.SetRoll(rules.Chaturaji.RandomRoll(rng))
			}
			acts := p.Actions(buf[:])
			a := pol.choose(p, acts, rng)
			before := *p
			var u rules.Undo
			p.Make(a, &u)
			actions++
			e, err := checkAction(&before, p, a)
			if err != nil {
				t.Fatalf("game %d, action %d in %s: %v", g, actions, before.String(), err)
			}
			if len(e.captured) > 0 || e.pawnMove {
				resets++
			}
			if e.pawnMove {
				pawnMoves++
			}
			triumphs += e.triumph
			waiting += e.waiting
			revived += e.revived
			frozen += e.frozen
			if e.retired {
				retired++
			}
			if q := mustParse(t, p.String()); q.Hash() != p.Hash() || !q.Equal(p) {
				t.Fatalf("game %d: %s: Hash %#x, re-parsed %#x", g, p, p.Hash(), q.Hash())
			}
			after := *p
			p.Unmake(&u)
			if !p.Equal(&before) || p.Hash() != before.Hash() || p.String() != before.String() {
				t.Fatalf("game %d: unmake of %s gave %s, want %s", g, a, p, before.String())
			}
			*p = after
		}
		if g < fromStart && (pawnMoves > maxPawnMoves || resets > maxResets || actions > resets+200*(resets+1)) {
			t.Errorf("game %d: %d actions, %d resets, %d pawn moves: over the bound", g, actions, resets, pawnMoves)
		}
		if g < fromStart {
			longest = max(longest, actions)
		}
		switch kings, only := kingsOn(p); {
		case kings <= 1:
			ends[0]++
		case only:
			ends[1]++
		case p.Clock() >= 200:
			ends[2]++
		}
		total += actions
	}
	if longest > maxActions {
		t.Errorf("a game of %d actions, longer than the bound %d", longest, maxActions)
	}
	t.Logf("%d games, %d actions, longest %d (bound %d); ends by one king %d, only kings %d, clock %d; %d boats taken by triumphs, %d waiting promotions, %d revivals, %d retirements, %d frozen pieces taken",
		fromStart+fromRandom, total, longest, maxActions, ends[0], ends[1], ends[2], triumphs, waiting, revived, retired, frozen)
	if !testing.Short() && (ends[0] == 0 || ends[1] == 0 || ends[2] == 0 || waiting == 0 || revived == 0 || retired == 0 || frozen == 0) {
		t.Errorf("the random games missed a rule the invariants should have seen at work")
	}
}
