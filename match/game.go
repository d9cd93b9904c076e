package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

// Game is one game of a match.
type Game struct {
	Deal, Rotation int // from 0
	// Players[k] is the lineup index of the player at the preset's seat k
	// (Preset.Seats()[k]): player j sits at seat (j + Rotation) mod n.
	Players []int
	Game    *rules.Game // the finished game
	Faults  []Fault     // the game's faults, in the order they happened
}

// Fault is a decision a player failed to make: it returned an error, took
// longer than the match's timeout, or returned an action that is not legal.
// A uniformly random legal action is played for it instead, drawn from a
// generator keyed by the deal's seed and the rotation, and the game goes on;
// the fault is counted against the player's spec.
type Fault struct {
	Player int        // the lineup index of the player
	Seat   rules.Seat // where it sat
	Turn   int        // the turn, from 1
	Kind   FaultKind  // what went wrong
	Why    string     // the details: the error, the time taken, or the illegal action
}

// FaultKind says what went wrong with a decision.
type FaultKind int

// The kinds of fault.
const (
	Failed  FaultKind = iota // the player returned an error
	Slow                     // the player took longer than the match's timeout
	Illegal                  // the player returned an action that is not legal
)

// String returns "error", "timeout" or "illegal action".
func (k FaultKind) String() string {
	switch k {
	case Slow:
		return "timeout"
	case Illegal:
		return "illegal action"
	}
	return "error"
}

// String describes the fault in one line.
func (f Fault) String() string {
	return fmt.Sprintf("%s at %s, turn %d: %s", f.Kind, f.Seat, f.Turn, f.Why)
}

// Record returns the game's record: FromGame's tags with Round
// "deal.rotation" (both from 1), the given tags and the players' names under
// their seats' names.
func (g *Game) Record(l *Lineup, tags ...record.Tag) *record.Record {
	all := []record.Tag{{Name: "Round", Value: strconv.Itoa(g.Deal+1) + "." + strconv.Itoa(g.Rotation+1)}}
	all = append(all, tags...)
	for k, s := range g.Game.Preset().Seats() {
		all = append(all, record.Tag{Name: s.String(), Value: l.Names[g.Players[k]]})
	}
	return record.FromGame(g.Game, all...)
}

// play plays rotation r of deal d.
func play(ctx context.Context, cfg *Config, d, r int) (_ *Game, err error) {
	pr := cfg.Preset
	seats := pr.Seats()
	n := len(seats)
	seed := DealSeed(cfg.Seed, d)
	g := &Game{Deal: d, Rotation: r, Players: make([]int, n), Game: rules.NewGame(pr, seed)}
	players := make([]ai.Player, n)
	defer func() {
		for _, p := range players {
			if c, ok := p.(io.Closer); ok {
				c.Close()
			}
		}
	}()
	for j, spec := range cfg.Lineup.Specs {
		k := (j + r) % n
		g.Players[k] = j
		if players[k], err = cfg.NewPlayer(spec, PlayerSeed(seed, r, j)); err != nil {
			return nil, fmt.Errorf("match: deal %d, rotation %d: player %q: %w", d+1, r+1, spec, err)
		}
	}
	rng := rand.New(rand.NewChaCha8(faultSeed(seed, r)))
	var buf [rules.MaxActions]rules.Action
	for !g.Game.Finished() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := g.Game.Position()
		if p.AwaitingRoll() {
			if _, err := g.Game.Roll(); err != nil {
				return nil, fmt.Errorf("match: deal %d, rotation %d: %w", d+1, r+1, err)
			}
			continue
		}
		acts := p.Actions(buf[:])
		if len(acts) == 0 {
			return nil, fmt.Errorf("match: deal %d, rotation %d: no legal action in %s", d+1, r+1, p)
		}
		a := acts[0]
		// A forced action is played without asking.
		if len(acts) > 1 {
			k := slices.Index(seats, p.Decider())
			var f *Fault
			a, f = decide(ctx, cfg, players[k], p)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if f != nil {
				f.Player, f.Seat, f.Turn = g.Players[k], seats[k], len(g.Game.Turns())
				g.Faults = append(g.Faults, *f)
				a = acts[rng.IntN(len(acts))]
			}
		}
		if err := g.Game.Play(a); err != nil {
			return nil, fmt.Errorf("match: deal %d, rotation %d: %w", d+1, r+1, err)
		}
	}
	return g, nil
}

// decide asks a player for its action in p, within the match's timeout, and
// returns it, or a fault.
func decide(ctx context.Context, cfg *Config, player ai.Player, p *rules.Position) (rules.Action, *Fault) {
	dctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	q := *p // the player gets a copy: p stays the judge of legality
	start := time.Now()
	a, err := player.Choose(dctx, &q, cfg.Budget)
	took := time.Since(start)
	switch {
	case took > cfg.Timeout || errors.Is(dctx.Err(), context.DeadlineExceeded):
		return 0, &Fault{Kind: Slow, Why: fmt.Sprintf("took %v, the limit is %v", took.Round(time.Millisecond), cfg.Timeout)}
	case err != nil:
		return 0, &Fault{Kind: Failed, Why: err.Error()}
	case !p.IsLegal(a):
		return 0, &Fault{Kind: Illegal, Why: fmt.Sprintf("%s is not legal in %s", a.Format(p.Preset()), p)}
	}
	return a, nil
}
