package rules_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/internal/naive"
	"github.com/chaturaji/chaturaji/rules"
)

// malformedPositions are positions that must not parse, each with the field
// the error must name ("" for any).
var malformedPositions = []struct{ pos, field string }{
	{"", "position"},
	{"8/8/8/8/8/8/8/3bK4 b - 0,0,0,0", "position"},              // no clock
	{"8/8/8/8/8/8/8/3bK4  b - 0,0,0,0 0", ""},                   // two spaces: six fields, so the error blames an extra field
	{"8/8/8/8/8/8/8/3bK4 b - 0,0,0,0 0 ", "position"},           // trailing space
	{"8/8/8/8/8/8/8/3bK4 b - 0,0,0,0 0 x=1", "extra"},           // no extra state in this preset
	{"8/8/8/8/8/8/3bK4 b - 0,0,0,0 0", "board"},                 // 7 ranks
	{"8/8/8/8/8/8/8/8/3bK4 b - 0,0,0,0 0", "board"},             // 9 ranks
	{"8/8/8/8/8/8/8/4bK4 b - 0,0,0,0 0", "board"},               // 9 squares
	{"8/8/8/8/8/8/8/3bK3 b - 0,0,0,0 0", "board"},               // 7 squares
	{"8/8/8/8/8/8/8/9 b - 0,0,0,0 0", "board"},                  // no run of 9
	{"8/8/8/8/8/8/8/03bK4 b - 0,0,0,0 0", "board"},              // no run of 0
	{"8/8/8/8/8/8/8/3xK4 b - 0,0,0,0 0", "board"},               // no colour x
	{"8/8/8/8/8/8/8/3bQ4 b - 0,0,0,0 0", "board"},               // no piece Q
	{"8/8/8/8/8/8/8/3bk4 b - 0,0,0,0 0", "board"},               // lower-case letter
	{"8/8/8/8/8/8/8/7b b - 0,0,0,0 0", "board"},                 // half a piece
	{"8/8/8/8/8/8/8/3bK4 w - 0,0,0,0 0", "seat"},                // no seat w
	{"8/8/8/8/8/8/8/3bK4 bg - 0,0,0,0 0", "seat"},               // two seats
	{"yK6gK/8/8/8/8/8/bP7/bK7 r - 0,0,0,0 0", "seat"},           // East has no king
	{"yK6gK/8/8/8/8/8/bP7/bK7 b 6 0,0,0,0 0", "dice"},           // not a face of the long die
	{"yK6gK/8/8/8/8/8/bP7/bK7 b 1 0,0,0,0 0", "dice"},           // not a face of the long die
	{"yK6gK/8/8/8/8/8/bP7/bK7 b 25 0,0,0,0 0", "dice"},          // one die only
	{"yK6gK/8/8/8/8/8/bP7/bK7 b x 0,0,0,0 0", "dice"},           // not a roll
	{"yK6gK/8/8/8/8/8/bP7/bK7 b  0,0,0,0 0", "position"},        // empty dice
	{"8/8/8/8/8/8/bP7/bK7 b 5 0,0,0,0 0", "dice"},               // game over, yet a roll
	{"yK6gK/8/8/8/8/8/bP7/bK7 b - 0,0,0 0", "scores"},           // 3 scores
	{"yK6gK/8/8/8/8/8/bP7/bK7 b - 0,0,0,0,0 0", "scores"},       // 5 scores
	{"yK6gK/8/8/8/8/8/bP7/bK7 b - 0,01,0,0 0", "scores"},        // leading zero
	{"yK6gK/8/8/8/8/8/bP7/bK7 b - 0,,0,0 0", "scores"},          // empty score
	{"yK6gK/8/8/8/8/8/bP7/bK7 b - 0,+1,0,0 0", "scores"},        // signed
	{"yK6gK/8/8/8/8/8/bP7/bK7 b - 0,0,0,0 x", "clock"},          // not a number
	{"yK6gK/8/8/8/8/8/bP7/bK7 b - 0,0,0,0 -1", "clock"},         // negative
	{"yK6gK/8/8/8/8/8/bP7/bK7 b - 0,0,0,0 +1", "clock"},         // signed
	{"yK6gK/8/8/8/8/8/bP7/bK7 b - 0,0,0,0 007", "clock"},        // leading zeros
	{"yK6gK/8/8/8/8/8/bP7/bK7 b - 0,0,0,0 9999999999", "clock"}, // out of range
}

// conformanceCases reads the shared conformance data for seeding a corpus
// (loadConformance takes a *testing.T).
func conformanceCases(tb testing.TB) []conformanceCase {
	data, err := os.ReadFile(conformanceFile)
	if err != nil {
		tb.Fatal(err)
	}
	var cases []conformanceCase
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var c conformanceCase
		if err := json.Unmarshal(line, &c); err != nil {
			tb.Fatal(err)
		}
		cases = append(cases, c)
	}
	return cases
}

// TestParsePositionRejects checks that malformed positions are rejected with
// an error naming the offending field.
func TestParsePositionRejects(t *testing.T) {
	for _, c := range malformedPositions {
		p, err := rules.ParsePosition(rules.Chaturaji, c.pos)
		if err == nil {
			t.Errorf("%q parsed as %s", c.pos, p)
			continue
		}
		var pe *rules.PositionError
		if !errors.As(err, &pe) {
			t.Errorf("%q: error %v is not a *PositionError", c.pos, err)
		} else if c.field != "" && pe.Field != c.field {
			t.Errorf("%q: error names field %q, want %q: %v", c.pos, pe.Field, c.field, err)
		}
	}
	// Non-canonical runs of empty squares are accepted and printed canonically.
	p := mustParse(t, "44/8/116/2222/8/11111111/bP7/3bK111yK b 5 0,0,0,0 7")
	if want := "8/8/8/8/8/8/bP7/3bK3yK b 5 0,0,0,0 7"; p.String() != want {
		t.Errorf("printed %s, want %s", p, want)
	}
}

// FuzzParsePosition: any input either fails with a *PositionError or parses
// to a position whose canonical print parses back to the same position and
// prints the same; naive accepts the print too. The position's actions can
// be made and unmade.
func FuzzParsePosition(f *testing.F) {
	f.Add(rules.Chaturaji.Start)
	for _, c := range conformanceCases(f) {
		f.Add(c.Pos)
		for _, after := range c.After {
			f.Add(after)
			break
		}
	}
	for _, c := range malformedPositions {
		f.Add(c.pos)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		f.Add(randomPosition(rng))
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := rules.ParsePosition(rules.Chaturaji, s)
		if err != nil {
			var pe *rules.PositionError
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "rules: ") {
				t.Fatalf("%q: error %v is not a rules *PositionError", s, err)
			}
			return
		}
		out := p.String()
		q, err := rules.ParsePosition(rules.Chaturaji, out)
		if err != nil {
			t.Fatalf("%q parsed, but its print %q does not: %v", s, out, err)
		}
		if q.String() != out || !q.Equal(p) || q.Hash() != p.Hash() {
			t.Fatalf("%q: print %q re-parses to %q (equal %v)", s, out, q, q.Equal(p))
		}
		var np *naive.Position
		if scores := strings.Split(out, " ")[3]; !strings.Contains(scores, "-") { // naive takes no negative scores
			if np, err = naive.Parse(out); err != nil || np.String() != out {
				t.Fatalf("naive cannot read %q: %v", out, err)
			}
		}
		if np != nil && !p.AwaitingRoll() {
			if got, want := actionStrings(p), naiveActions(np); !slices.Equal(got, want) {
				t.Fatalf("%s: actions %v, naive %v", out, got, want)
			}
		}
		var buf [rules.MaxActions]rules.Action
		acts := p.Actions(buf[:])
		if len(acts) != p.CountActions() {
			t.Fatalf("%s: %d actions, CountActions %d", out, len(acts), p.CountActions())
		}
		if len(acts) > 64 {
			acts = acts[:64]
		}
		for _, a := range acts {
			var u rules.Undo
			p.Make(a, &u)
			if np != nil {
				if nq, err := np.Apply(a.String()); err != nil || nq.String() != p.String() {
					t.Fatalf("%s, %s: engine %s, naive %v (%v)", out, a, p, nq, err)
				}
			}
			p.Unmake(&u)
			if !p.Equal(q) || p.String() != out {
				t.Fatalf("%s: make and unmake %s left %s", out, a, p)
			}
		}
	})
}

// FuzzParseAction: any input either fails with a "rules:" error or parses to
// an action whose notation is the input itself and parses back to it.
func FuzzParseAction(f *testing.F) {
	for _, c := range conformanceCases(f) {
		for _, a := range c.Actions {
			f.Add(a)
		}
	}
	for _, s := range []string{"pass", "retire", "a7a8=H", "h2h1=B", "", "a1", "a1a1", "i1a2", "a1a9", "a1a2=",
		"a1a2=Q", "a1a2=HH", "a1a2x", "a1a2 ", " pass", "PASS", "Pass", "a1a2=h", "A1A2", "\xff\xff\xff\xff", "a1a2=\xc8", "K@e4", "K@i4", "X@e4", "K@e", "propose", "waive", "accept", "decline", "Propose", "resign", "timeout", "claim", "Claim", "resign "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := rules.ParseAction(rules.Chaturaji, s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "rules: ") {
				t.Fatalf("%q: error %q lacks the package name", s, err)
			}
			return
		}
		out := a.Format(rules.Chaturaji)
		if out != s || a.String() != s {
			t.Fatalf("%q parsed to an action printed %q", s, out)
		}
		b, err := rules.ParseAction(rules.Chaturaji, out)
		if err != nil || b != a {
			t.Fatalf("%q: print %q parses to %v, %v", s, out, b, err)
		}
		switch a.Type() {
		case rules.Move:
			if a.From() == a.To() || a.From() < 0 || a.From() > 63 || a.To() < 0 || a.To() > 63 {
				t.Fatalf("%q: move from %v to %v", s, a.From(), a.To())
			}
		case rules.Drop:
			if a.To() < 0 || a.To() > 63 || a.Promotion() != rules.King {
				t.Fatalf("%q: drop of %v on %v", s, a.Promotion(), a.To())
			}
		case rules.Pass, rules.Retire, rules.Propose, rules.Waive, rules.Accept, rules.Decline,
			rules.NoReturn, rules.ReturnUs, rules.ReturnThem, rules.Resign, rules.Timeout, rules.Claim:
		default:
			t.Fatalf("%q: action of type %v", s, a.Type())
		}
	})
}

// FuzzMakeUnmake plays from the start position a game whose rolls and
// actions the input's bytes choose, checking after every action the position
// against naive and the hash against the re-parsed position, that Unmake
// restores the exact position, and at the end that unmaking the whole game
// returns to the start.
func FuzzMakeUnmake(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add([]byte(strings.Repeat("\x03\x07\x01\xfe", 50)))
	rng := rand.New(rand.NewPCG(5, 6))
	for range 8 {
		b := make([]byte, 256)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 256 {
			data = data[:256] // 128 actions: long enough, and keeps the fuzzer fast
		}
		p := rules.Chaturaji.StartPosition()
		start := *p
		np := naive.Start()
		var buf [rules.MaxActions]rules.Action
		var undos []rules.Undo
		for len(data) >= 2 && !p.Finished() {
			if p.AwaitingRoll() {
				face := 2 + int(data[0]%4)
				p.SetRoll(mustRoll(t, string(rune('0'+face))))
				np = np.WithRoll(face)
			}
			acts := p.Actions(buf[:])
			if got, want := actionStrings(p), np.Actions(); !slices.Equal(got, want) {
				t.Fatalf("%s: actions %v, naive %v", p, got, want)
			}
			a := acts[int(data[1])%len(acts)]
			data = data[2:]
			before := *p
			var u rules.Undo
			p.Make(a, &u)
			p.Unmake(&u)
			if !p.Equal(&before) || p.Hash() != before.Hash() || p.String() != before.String() {
				t.Fatalf("%s: make and unmake %s left %s", before.String(), a, p)
			}
			p.Make(a, &u)
			undos = append(undos, u)
			q, err := np.Apply(a.String())
			if err != nil {
				t.Fatal(err)
			}
			np = q
			if p.String() != np.String() {
				t.Fatalf("%s, %s: engine %s, naive %s", before.String(), a, p, np)
			}
			if h := mustParse(t, p.String()).Hash(); h != p.Hash() {
				t.Fatalf("%s: hash %#x, re-parsed %#x", p, p.Hash(), h)
			}
		}
		for i := len(undos) - 1; i >= 0; i-- {
			p.Unmake(&undos[i])
		}
		if len(undos) > 0 {
			p.ClearRoll() // the first action was made after the first roll
		}
		if !p.Equal(&start) || p.Hash() != start.Hash() {
			t.Fatalf("unmaking the whole game left %s", p)
		}
	})
}
