package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// Config is a match to play.
type Config struct {
	Preset *rules.Preset // the rules played
	Lineup *Lineup       // the players, one a seat
	Deals  int           // how many deals to play: a deal is one game per rotation
	Seed   rules.Seed    // the base seed; see DealSeed and PlayerSeed
	Budget ai.Budget     // of every decision
	// Timeout is how long a decision may take before it is a fault. Zero
	// means 10 times the budget's time, at least a second; with a node
	// budget only, a minute.
	Timeout time.Duration
	// Concurrency is how many games are played at once; 0 means 1.
	Concurrency int
	// SPRT, if set, stops the match as soon as its test of the lineup's
	// candidate against the baseline (Lineup.Candidate) reaches a verdict.
	SPRT *SPRT
	// NewPlayer creates the players; nil means the package's NewPlayer.
	NewPlayer func(spec string, seed uint64) (ai.Player, error)
	// OnDeal, if set, is called with the games of each deal that counts,
	// in deal order, rotation order within a deal.
	OnDeal func(games []*Game) error
	// Progress, if set, is called with the number of games finished so far
	// each time one finishes.
	Progress func(done int)
}

// Result is what a match played.
type Result struct {
	Config  Config        // the match as played, its defaults filled in
	Games   []*Game       // the games of the deals that count, in order
	Deals   int           // the deals that count
	Elapsed time.Duration // the match's wall-clock time
	// Test is the SPRT's state after the last deal that counts, if the
	// match ran one.
	Test *TestState
}

// TestState is where an SPRT stands.
type TestState struct {
	SPRT
	Candidate, Baseline string  // the specs tested
	LLR                 float64 // the log-likelihood ratio of H1 against H0
	Verdict             Verdict // Inconclusive until a bound is crossed after MinDeals deals
	Deals               int     // the deals it rests on
}

// Run plays the match. Deals are played in order, rotations within a deal in
// order, Concurrency games at once; a deal counts once all its games and
// those of every earlier deal are done, so the result does not depend on
// Concurrency. With an SPRT the match stops after the first deal whose
// verdict is not inconclusive; games of later deals already under way are
// abandoned and left out.
//
// Run returns an error, with the result so far, if a player cannot be
// created, a game breaks the rules engine's expectations, OnDeal fails, or
// ctx ends before the last deal ("match: interrupted after N of M deals",
// wrapping ctx's cause).
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.NewPlayer == nil {
		cfg.NewPlayer = NewPlayer
	}
	if cfg.Concurrency < 1 {
		cfg.Concurrency = 1
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = defaultTimeout(cfg.Budget)
	}
	if err := tryPlayers(cfg); err != nil {
		return nil, err
	}
	start := time.Now()
	res := &Result{Config: cfg}
	n := cfg.Preset.NumSeats()
	total := cfg.Deals * n
	if cfg.SPRT != nil {
		l := cfg.Lineup
		res.Test = &TestState{SPRT: *cfg.SPRT, Candidate: l.Distinct[l.Candidate()], Baseline: l.Distinct[l.Baseline]}
	}

	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	type outcome struct {
		i   int
		g   *Game
		err error
	}
	outcomes := make(chan outcome)
	var wg sync.WaitGroup
	for range cfg.Concurrency {
		wg.Go(func() {
			for i := range jobs {
				g, err := play(ctx, &cfg, i/n, i%n)
				outcomes <- outcome{i, g, err}
			}
		})
	}
	go func() {
		defer close(jobs)
		for i := range total {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(outcomes)
	}()

	games := make([]*Game, total)
	var firstErr error
	finished, stopped := 0, false
	for o := range outcomes {
		if o.err != nil {
			if ctx.Err() == nil && firstErr == nil {
				firstErr = o.err
				cancel()
			}
			continue
		}
		games[o.i] = o.g
		finished++
		if cfg.Progress != nil && !stopped && firstErr == nil {
			cfg.Progress(finished)
		}
		for !stopped && firstErr == nil && res.Deals < cfg.Deals && complete(games[res.Deals*n:res.Deals*n+n]) {
			deal := games[res.Deals*n : res.Deals*n+n]
			res.Games = append(res.Games, deal...)
			res.Deals++
			if cfg.OnDeal != nil {
				if err := cfg.OnDeal(deal); err != nil {
					firstErr = err
					cancel()
					break
				}
			}
			if res.Test != nil {
				res.Test.update(res)
				if res.Test.Verdict != Inconclusive {
					stopped = true
					cancel()
				}
			}
		}
	}
	res.Elapsed = time.Since(start)
	switch {
	case firstErr != nil:
		return res, firstErr
	case !stopped && res.Deals < cfg.Deals:
		return res, fmt.Errorf("match: interrupted after %d of %d deals: %w", res.Deals, cfg.Deals, context.Cause(parent))
	}
	return res, nil
}

// check validates a configuration.
func (cfg *Config) check() error {
	switch {
	case cfg.Preset == nil:
		return errors.New("match: no preset")
	case cfg.Lineup == nil:
		return errors.New("match: no players")
	case len(cfg.Lineup.Specs) != cfg.Preset.NumSeats():
		return fmt.Errorf("match: %d players for the %d seats of %s", len(cfg.Lineup.Specs), cfg.Preset.NumSeats(), cfg.Preset.Name)
	case cfg.Deals < 1:
		return errors.New("match: want at least one deal")
	case cfg.Budget.Time <= 0 && cfg.Budget.Nodes <= 0:
		return errors.New("match: a decision needs a time or node budget")
	case cfg.SPRT != nil && cfg.Lineup.Candidate() < 0:
		return errors.New("match: an SPRT needs two distinct players")
	case cfg.SPRT != nil && !(cfg.SPRT.Alpha > 0 && cfg.SPRT.Alpha < 1 && cfg.SPRT.Beta > 0 && cfg.SPRT.Beta < 1):
		return errors.New("match: the SPRT's alpha and beta must lie between 0 and 1")
	case cfg.SPRT != nil && cfg.SPRT.Elo0 >= cfg.SPRT.Elo1:
		return fmt.Errorf("match: the SPRT's elo0 (%g) must be below elo1 (%g)", cfg.SPRT.Elo0, cfg.SPRT.Elo1)
	}
	return nil
}

// defaultTimeout is Config.Timeout's default.
func defaultTimeout(b ai.Budget) time.Duration {
	if b.Time > 0 {
		return max(10*b.Time, time.Second)
	}
	return time.Minute
}

// tryPlayers creates each distinct player once, so that a spec that names
// no player, or an engine that does not start, stops the match before it
// begins.
func tryPlayers(cfg Config) error {
	for _, spec := range cfg.Lineup.Distinct {
		p, err := cfg.NewPlayer(spec, 0)
		if err != nil {
			return fmt.Errorf("match: player %q: %w", spec, err)
		}
		if c, ok := p.(io.Closer); ok {
			c.Close()
		}
	}
	return nil
}

func complete(games []*Game) bool {
	for _, g := range games {
		if g == nil {
			return false
		}
	}
	return true
}

// update recomputes the test after a deal.
func (t *TestState) update(res *Result) {
	l := res.Config.Lineup
	scores := DealScores(res, l.Candidate(), l.Baseline)
	t.Deals = len(scores)
	t.LLR = t.SPRT.LLR(scores)
	t.Verdict = t.SPRT.Decide(t.LLR, t.Deals)
}
