package server

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// panicker is a player whose every choice panics, as a bug in a bot would.
type panicker struct{}

func (panicker) Name() string { return "panicker" }
func (panicker) Choose(context.Context, *rules.Position, ai.Budget) (rules.Action, error) {
	panic("index out of range")
}

// TestBotPanicFailsOneDecision checks that a bot that panics fails its
// decision, which the server then plays at random, instead of taking the
// whole server down.
func TestBotPanicFailsOneDecision(t *testing.T) {
	b := &bot{player: panicker{}}
	g := rules.NewGame(rules.Chaturaji, rules.NewSeed())
	if _, err := g.Roll(); err != nil {
		t.Fatal(err)
	}
	_, err := b.choose(context.Background(), g.Position(), ai.Budget{})
	if err == nil || !strings.Contains(err.Error(), "panicked: index out of range") {
		t.Fatalf("choose: %v, want the panic as an error", err)
	}
	if !b.mu.TryLock() {
		t.Fatal("the bot's mutex is still held after the panic")
	}
}

// TestQuickBot checks which bots answer without searching.
func TestQuickBot(t *testing.T) {
	for spec, want := range map[string]bool{
		"random": true, "greedy": true, "level:greedy": true,
		"strong": false, "1": false, "level:8": false, "mcts?c=1": false, "strong?nodes=100": false,
	} {
		if got := quickBot(spec); got != want {
			t.Errorf("quickBot(%q) = %v, want %v", spec, got, want)
		}
	}
}

// TestBotSeedHidesTheDiceSeed checks that the seeds of a game's bots, which
// their public choices may give away, show no part of the dice seed, and
// differ by seat and by event.
func TestBotSeedHidesTheDiceSeed(t *testing.T) {
	seed := rules.NewSeed()
	seen := map[uint64]bool{}
	for i := range 4 {
		for _, seq := range []int64{0, 1, 2, 100} {
			n := botSeed(seed, i, seq)
			for off := 0; off+8 <= len(seed); off++ {
				if w := binary.BigEndian.Uint64(seed[off:]); n == w || n == w^uint64(seq) {
					t.Fatalf("seat %d, event %d: bot seed %x is bytes %d.. of the dice seed", i, seq, n, off)
				}
			}
			if seen[n] {
				t.Fatalf("seat %d, event %d: bot seed %x used twice", i, seq, n)
			}
			seen[n] = true
			if botSeed(seed, i, seq) != n {
				t.Fatalf("seat %d, event %d: bot seed not the same twice", i, seq)
			}
		}
	}
}
