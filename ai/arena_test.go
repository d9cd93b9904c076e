package ai_test

import (
	"context"
	"flag"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// The arena plays deals between player specs, each deal in all four seat
// rotations with the same dice, and prints each spec's first-place rate.
// It is off by default:
//
//	go test ./ai -run Arena -v -arena=strong,greedy,greedy,greedy -deals=50 -movetime=100ms
var (
	arenaSpecs   = flag.String("arena", "", "comma-separated player specs, one per seat (fewer are repeated); empty: skip the arena")
	arenaDeals   = flag.Int("deals", 25, "arena: deals to play, each in four seat rotations")
	arenaTime    = flag.Duration("movetime", 100*time.Millisecond, "arena: time budget per decision")
	arenaNodes   = flag.Int64("movenodes", 0, "arena: node budget per decision (0: none)")
	arenaPar     = flag.Int("par", 1, "arena: games played at once")
	arenaFirst   = flag.Uint64("firstdeal", 1, "arena: dice seed of the first deal")
	arenaVerbose = flag.Bool("overruns", false, "arena: print every decision that overran its time")
)

// tally is one spec's results.
type tally struct {
	games     int
	firsts    float64 // first places, a tie shared
	score     float64
	maxChoose time.Duration
	over      int // decisions that overran the time budget by more than 5 ms
}

func TestArena(t *testing.T) {
	if *arenaSpecs == "" {
		t.Skip("no -arena specs given")
	}
	specs := strings.Split(*arenaSpecs, ",")
	for len(specs) < rules.Chaturaji.NumSeats() {
		specs = append(specs, specs[len(specs)-1])
	}
	for _, s := range specs {
		if _, err := ai.New(s, 0); err != nil {
			t.Fatal(err)
		}
	}
	budget := ai.Budget{Time: *arenaTime, Nodes: *arenaNodes}
	var mu sync.Mutex
	tallies := map[string]*tally{}
	sem := make(chan struct{}, *arenaPar)
	var wg sync.WaitGroup
	start := time.Now()
	for d := range *arenaDeals {
		for rot := range 4 {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				deal := *arenaFirst + uint64(d)
				res, err := playDeal(deal, rot, specs, budget)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				for _, r := range res {
					tl := tallies[r.spec]
					if tl == nil {
						tl = &tally{}
						tallies[r.spec] = tl
					}
					tl.games++
					tl.firsts += r.first
					tl.score += r.score
					tl.maxChoose = max(tl.maxChoose, r.maxChoose)
					tl.over += r.over
				}
			}()
		}
	}
	wg.Wait()
	names := make([]string, 0, len(tallies))
	for n := range tallies {
		names = append(names, n)
	}
	sort.Strings(names)
	t.Logf("%d deals x 4 rotations, budget %v / %d nodes, %v", *arenaDeals, budget.Time, budget.Nodes, time.Since(start).Round(time.Second))
	for _, n := range names {
		tl := tallies[n]
		p := tl.firsts / float64(tl.games)
		lo, hi := wilson(p, float64(tl.games))
		t.Logf("%-28s games %4d  first %5.1f%% [%4.1f, %4.1f]  score %5.1f  slowest %v  overruns %d",
			n, tl.games, 100*p, 100*lo, 100*hi, tl.score/float64(tl.games), tl.maxChoose.Round(time.Millisecond), tl.over)
	}
}

// wilson returns the 95% Wilson score interval of a proportion p over n
// trials.
func wilson(p, n float64) (lo, hi float64) {
	const z = 1.96
	c := (p + z*z/(2*n)) / (1 + z*z/n)
	h := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / (1 + z*z/n)
	return c - h, c + h
}

// seatResult is one seat's outcome of a game.
type seatResult struct {
	spec      string
	first     float64
	score     float64
	maxChoose time.Duration
	over      int
}

// playDeal plays one game: the dice of deal, specs rotated by rot.
func playDeal(deal uint64, rot int, specs []string, b ai.Budget) ([]seatResult, error) {
	pr := rules.Chaturaji
	seats := pr.Seats()
	players := make([]ai.Player, len(seats))
	res := make([]seatResult, len(seats))
	for i, s := range seats {
		spec := specs[(i+rot)%len(seats)]
		pl, err := ai.New(spec, deal*16+uint64(i)*4+uint64(rot))
		if err != nil {
			return nil, err
		}
		players[s] = pl
		res[s].spec = spec
	}
	g := rules.NewGame(pr, rules.SeedFromInt(deal))
	ctx := context.Background()
	for !g.Finished() {
		if _, err := g.Roll(); err != nil {
			return nil, err
		}
		p := g.Position()
		s := p.Decider()
		t0 := time.Now()
		a, err := players[s].Choose(ctx, p, b)
		el := time.Since(t0)
		if err != nil {
			return nil, fmt.Errorf("deal %d: %s in %s: %v", deal, res[s].spec, p, err)
		}
		res[s].maxChoose = max(res[s].maxChoose, el)
		if b.Time > 0 && el > b.Time+5*time.Millisecond {
			res[s].over++
			if *arenaVerbose {
				fmt.Printf("overrun %v: %s in %s\n", el, res[s].spec, p)
			}
		}
		if err := g.Play(a); err != nil {
			return nil, fmt.Errorf("deal %d: %s: %v", deal, res[s].spec, err)
		}
	}
	p := g.Position()
	ranks := p.Ranks()
	firsts := 0
	for _, s := range seats {
		if ranks[s] == 1 {
			firsts++
		}
	}
	for _, s := range seats {
		res[s].score = float64(p.Score(s))
		if ranks[s] == 1 {
			res[s].first = 1 / float64(firsts)
		}
	}
	return res, nil
}
