package nn_test

import (
	"slices"
	"testing"

	"github.com/chaturaji/chaturaji/ai/nn"
	"github.com/chaturaji/chaturaji/rules"
)

// startWith returns the default preset's start position with seat s to
// act.
func startWith(t *testing.T, s rules.Seat) *rules.Position {
	t.Helper()
	notation := "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB " + string(s.Letter()) + " - 0,0,0,0 0"
	return rules.MustParsePosition(rules.Chaturaji, notation)
}

func sq(t *testing.T, name string) rules.Square {
	t.Helper()
	s, err := rules.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestTurned(t *testing.T) {
	for _, c := range []struct {
		mover    rules.Seat
		from, to string
	}{
		{rules.South, "d1", "d1"},
		{rules.West, "a5", "d1"}, // West's king goes to where South's stands
		{rules.North, "e8", "d1"},
		{rules.East, "h4", "d1"},
		{rules.West, "a8", "a1"}, // West's boat, to South's boat's corner
		{rules.North, "h8", "a1"},
		{rules.East, "h1", "a1"},
		{rules.West, "d1", "h4"}, // South, the seat before West, sits East
	} {
		if got := nn.Turned(c.mover, sq(t, c.from)); got != sq(t, c.to) {
			t.Errorf("Turned(%s, %s) = %s, want %s", c.mover, c.from, got, c.to)
		}
	}
}

func TestEncodeStartPosition(t *testing.T) {
	for _, c := range []struct {
		name  string
		mover rules.Seat
	}{
		{"South to act", rules.South},
		{"West to act", rules.West},
		{"North to act", rules.North},
		{"East to act", rules.East},
	} {
		t.Run(c.name, func(t *testing.T) {
			var in nn.Input
			nn.Encode(startWith(t, c.mover), &in)
			fs := in.Features()
			// 32 pieces, 4 armies with kings, awaiting the roll.
			if len(fs) != 32+4+1 {
				t.Fatalf("%d features, want 37", len(fs))
			}
			for _, w := range []struct {
				rel  int
				kind rules.Kind
				sq   string
			}{
				{0, rules.King, "d1"}, {0, rules.Boat, "a1"}, {0, rules.Pawn, "a2"},
				{1, rules.King, "a5"}, {2, rules.King, "e8"}, {3, rules.King, "h4"},
			} {
				if f := nn.PieceFeature(w.rel, w.kind, sq(t, w.sq)); !slices.Contains(fs, uint16(f)) {
					t.Errorf("no feature for the king-or-piece of relative seat %d, kind %d, on %s", w.rel, w.kind, w.sq)
				}
			}
			// The start position looks the same from every seat.
			var south nn.Input
			nn.Encode(startWith(t, rules.South), &south)
			a, b := slices.Clone(fs), slices.Clone(south.Features())
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) || in.Dense != south.Dense {
				t.Errorf("features differ from South's view")
			}
		})
	}
}

func TestEncodeScoresArmiesAndRoll(t *testing.T) {
	// West to act with a 5 rolled; North and East frozen (no king).
	p := rules.MustParsePosition(rules.Chaturaji, "yB2yPgE1gHgB/1rBbB3gPgP/1yKyP1gP1bHbK/3yP4/1bP6/8/3bP4/8 y 5 25,11,0,0 5")
	var in nn.Input
	nn.Encode(p, &in)
	// West is relative seat 0, North 1, East 2, South 3.
	want := [nn.NumDense]float32{11.0 / 54, 0, 0, 25.0 / 54, 5.0 / 200}
	for i := range want {
		if d := in.Dense[i] - want[i]; d > 1e-6 || d < -1e-6 {
			t.Errorf("dense %d = %v, want %v", i, in.Dense[i], want[i])
		}
	}
	const army = nn.NumSparse - 9 - 12
	for _, c := range []struct {
		name    string
		feature int
		want    bool
	}{
		{"West has a king", army + 0*3 + 2, true},
		{"North is frozen", army + 1*3 + 0, true},
		{"North is not gone", army + 1*3 + 1, false},
		{"East is frozen", army + 2*3 + 0, true},
		{"South has a king", army + 3*3 + 2, true},
		{"awaiting no roll", nn.NumSparse - 9, false},
		{"a 5 rolled", nn.NumSparse - 8 + 5, true},
	} {
		if got := slices.Contains(in.Features(), uint16(c.feature)); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
