package rules_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chaturaji/chaturaji/internal/naive"
	"github.com/chaturaji/chaturaji/rules"
)

// playGame plays a whole game with rolls drawn from the game's seed and
// random legal actions, and returns the rolls drawn.
func playGame(t *testing.T, g *rules.Game, rng *rand.Rand) []rules.Roll {
	t.Helper()
	var rolls []rules.Roll
	var buf [rules.MaxActions]rules.Action
	for !g.Finished() {
		r, err := g.Roll()
		if err != nil {
			t.Fatal(err)
		}
		rolls = append(rolls, r)
		p := g.Position()
		if p.Roll() != r {
			t.Fatalf("rolled %s, the position shows %s", r, p.Roll())
		}
		acts := p.Actions(buf[:])
		if err := g.Play(acts[rng.IntN(len(acts))]); err != nil {
			t.Fatal(err)
		}
	}
	return rolls
}

func TestGameReplay(t *testing.T) {
	for i := range uint64(30) {
		seed := rules.SeedFromInt(i)
		g := rules.NewGame(rules.Chaturaji, seed)
		if g.Seed() != seed || g.Preset() != rules.Chaturaji || g.Start().String() != rules.Chaturaji.Start {
			t.Fatalf("game %d: seed, preset or start wrong", i)
		}
		rolls := playGame(t, g, rand.New(rand.NewPCG(i, 0)))
		final := g.Position().String()

		// The rolls are the seed's, in order, one a turn.
		turns := g.Turns()
		if len(turns) != len(rolls) {
			t.Fatalf("game %d: %d turns for %d rolls", i, len(turns), len(rolls))
		}
		for n, r := range rolls {
			if want := rules.RollFromSeed(seed, rules.Chaturaji, uint64(n)); r != want || turns[n].Roll != r {
				t.Fatalf("game %d, roll %d: %s (turn shows %s), want %s", i, n, r, turns[n].Roll, want)
			}
			if len(turns[n].Actions) != 1 {
				t.Fatalf("game %d, turn %d: %d actions", i, n, len(turns[n].Actions))
			}
		}

		// Replayed by PlayRoll and Play, under another seed, it ends the same.
		h := rules.NewGame(rules.Chaturaji, rules.SeedFromInt(1000+i))
		np := naive.Start()
		for n, turn := range turns {
			if h.Position().Seat() != turn.Seat {
				t.Fatalf("game %d, turn %d: %s to act, the record says %s", i, n, h.Position().Seat(), turn.Seat)
			}
			if err := h.PlayRoll(turn.Roll); err != nil {
				t.Fatalf("game %d, turn %d: PlayRoll: %v", i, n, err)
			}
			np = np.WithRoll(turn.Roll.Face(0))
			for _, a := range turn.Actions {
				if err := h.PlayString(a.String()); err != nil {
					t.Fatalf("game %d, turn %d: %v", i, n, err)
				}
				q, err := np.Apply(a.String())
				if err != nil {
					t.Fatalf("game %d, turn %d: naive: %v", i, n, err)
				}
				np = q
			}
		}
		if !h.Finished() || h.Position().String() != final || !h.Position().Equal(g.Position()) {
			t.Errorf("game %d: replay ends in %s, want %s", i, h.Position(), final)
		}
		if np.String() != final {
			t.Errorf("game %d: naive replay ends in %s, want %s", i, np, final)
		}
		if !slices.EqualFunc(h.Turns(), turns, func(a, b rules.Turn) bool {
			return a.Seat == b.Seat && a.Roll == b.Roll && slices.Equal(a.Actions, b.Actions)
		}) {
			t.Errorf("game %d: the replay's turns differ", i)
		}

		// The same seed and the same choices give the same game.
		again := rules.NewGame(rules.Chaturaji, seed)
		playGame(t, again, rand.New(rand.NewPCG(i, 0)))
		if again.Position().String() != final {
			t.Errorf("game %d: played again, ends in %s, want %s", i, again.Position(), final)
		}
	}
}

// gameState is what a rejected call must leave unchanged.
type gameState struct {
	pos   string
	turns int
}

func stateOf(g *rules.Game) gameState { return gameState{g.Position().String(), len(g.Turns())} }

func TestGameRejects(t *testing.T) {
	seed := rules.SeedFromInt(5)
	g := rules.NewGame(rules.Chaturaji, seed)
	unchanged := func(what string, before gameState) {
		t.Helper()
		if after := stateOf(g); after != before {
			t.Errorf("%s changed the game: %v, then %v", what, before, after)
		}
	}

	// An action before the roll.
	before := stateOf(g)
	if err := g.Play(mustAction(t, "d2d3")); !errors.Is(err, rules.ErrAwaitingRoll) {
		t.Errorf("Play before the roll: %v, want ErrAwaitingRoll", err)
	}
	unchanged("Play before the roll", before)

	// A roll that is not an outcome of one long die.
	for _, s := range []string{"1", "6", "25"} {
		if err := g.PlayRoll(mustRoll(t, s)); err == nil {
			t.Errorf("PlayRoll(%s) succeeded", s)
		}
		unchanged("PlayRoll("+s+")", before)
	}

	// The first roll, then no second one.
	r, err := g.Roll()
	if err != nil || r != rules.RollFromSeed(seed, rules.Chaturaji, 0) {
		t.Fatalf("first roll %s, %v", r, err)
	}
	before = stateOf(g)
	if _, err := g.Roll(); err == nil {
		t.Error("a second Roll in one turn succeeded")
	}
	unchanged("a second Roll", before)
	if err := g.PlayRoll(mustRoll(t, "5")); err == nil {
		t.Error("PlayRoll after Roll succeeded")
	}
	unchanged("PlayRoll after Roll", before)

	// Illegal and malformed actions.
	for _, s := range []string{"d2d4", "e7e6", "a1a3", "retire", "a2a3=H"} {
		err := g.PlayString(s)
		var ill *rules.IllegalActionError
		if !errors.As(err, &ill) {
			t.Errorf("PlayString(%s): %v, want an *IllegalActionError", s, err)
		} else if ill.Action != s || ill.Position != before.pos {
			t.Errorf("PlayString(%s): error names %s in %s", s, ill.Action, ill.Position)
		}
		unchanged("PlayString("+s+")", before)
	}
	if err := g.PlayString("d2"); err == nil {
		t.Error("PlayString(d2) succeeded")
	}
	unchanged("PlayString(d2)", before)

	// The position handed out is a copy.
	p := g.Position()
	var u rules.Undo
	var buf [rules.MaxActions]rules.Action
	p.Make(p.Actions(buf[:])[0], &u)
	unchanged("changing the copy from Position", before)
	g.Start().SetRoll(mustRoll(t, "2"))
	if g.Start().String() != rules.Chaturaji.Start {
		t.Error("changing the copy from Start changed the game's start")
	}

	// The second roll drawn is the seed's second, even after rejected calls.
	if err := g.Play(g.Position().Actions(buf[:])[0]); err != nil {
		t.Fatal(err)
	}
	if r, err := g.Roll(); err != nil || r != rules.RollFromSeed(seed, rules.Chaturaji, 1) {
		t.Errorf("second roll %s, %v; want %s", r, err, rules.RollFromSeed(seed, rules.Chaturaji, 1))
	}
}

func TestGameAfterTheEnd(t *testing.T) {
	// South takes the last other king: the game is over.
	start := mustParse(t, "8/8/8/8/3gK4/3bK4/8/7bP b - 0,0,0,0 0")
	g := rules.NewGameFrom(start, rules.SeedFromInt(1))
	if err := g.PlayRoll(mustRoll(t, "5")); err != nil {
		t.Fatal(err)
	}
	if err := g.PlayString("d3d4"); err != nil {
		t.Fatal(err)
	}
	if !g.Finished() {
		t.Fatalf("%s is not over", g.Position())
	}
	want := "8/8/8/8/3bK4/8/8/7bP b - 54,0,0,0 0"
	if got := g.Position().String(); got != want {
		t.Fatalf("final position %s, want %s", got, want)
	}
	before := stateOf(g)
	if _, err := g.Roll(); !errors.Is(err, rules.ErrFinished) {
		t.Errorf("Roll after the end: %v", err)
	}
	if err := g.PlayRoll(mustRoll(t, "5")); !errors.Is(err, rules.ErrFinished) {
		t.Errorf("PlayRoll after the end: %v", err)
	}
	for _, a := range []rules.Action{rules.PassAction, rules.RetireAction, mustAction(t, "d4d5")} {
		if err := g.Play(a); !errors.Is(err, rules.ErrFinished) {
			t.Errorf("Play(%s) after the end: %v", a, err)
		}
	}
	if err := g.PlayString("pass"); !errors.Is(err, rules.ErrFinished) {
		t.Errorf("PlayString(pass) after the end: %v", err)
	}
	if after := stateOf(g); after != before {
		t.Errorf("calls after the end changed the game: %v, then %v", before, after)
	}
	if g.Start().String() != start.String() {
		t.Errorf("Start() = %s, want %s", g.Start(), start)
	}
}

// A game handed over with its first roll made plays on from there.
func TestGameFromRolledPosition(t *testing.T) {
	start := mustParse(t, "yK6gK/8/8/8/3bK4/8/8/bE6rK b 5 0,0,0,0 0")
	g := rules.NewGameFrom(start, rules.SeedFromInt(1))
	if err := g.PlayString("d4d5"); err != nil {
		t.Fatal(err)
	}
	if got, want := g.Position().String(), "yK6gK/8/8/3bK4/8/8/8/bE6rK y - 0,0,0,0 1"; got != want {
		t.Errorf("after d4d5: %s, want %s", got, want)
	}
	turns := g.Turns()
	if len(turns) != 1 || turns[0].Seat != rules.South || turns[0].Roll.String() != "5" || len(turns[0].Actions) != 1 {
		t.Errorf("turns %+v, want South's roll 5 and its action", turns)
	}
	if _, err := g.Roll(); err != nil {
		t.Errorf("West's roll: %v", err)
	}
}
