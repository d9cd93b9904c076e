package match_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/match"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

// chaturaji is the command built by TestMain, for matches against engines.
var chaturaji string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "match-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	chaturaji = filepath.Join(dir, "chaturaji")
	build := exec.Command("go", "build", "-o", chaturaji, "github.com/chaturaji/chaturaji/cmd/chaturaji")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building chaturaji:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// config returns a match of the default preset with a node budget, which
// random and greedy players ignore: their games take milliseconds.
func config(t *testing.T, players string, deals int) match.Config {
	t.Helper()
	l, err := match.NewLineup(strings.Split(players, ","), "")
	if err != nil {
		t.Fatal(err)
	}
	return match.Config{Preset: rules.Chaturaji, Lineup: l, Deals: deals, Seed: rules.SeedFromInt(1), Budget: ai.Budget{Nodes: 100}}
}

// records runs the match and returns its result and its records as text.
func records(t *testing.T, cfg match.Config) (*match.Result, string) {
	t.Helper()
	var buf bytes.Buffer
	var all []*record.Record
	cfg.OnDeal = func(games []*match.Game) error {
		for _, g := range games {
			all = append(all, g.Record(cfg.Lineup, record.Tag{Name: "Date", Value: "2025.01.01"}))
		}
		return nil
	}
	res, err := match.Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if err := record.WriteAll(&buf, all); err != nil {
		t.Fatal(err)
	}
	return res, buf.String()
}

func TestMatchEndToEnd(t *testing.T) {
	cfg := config(t, "random,greedy,greedy,greedy", 2)
	var progress []int
	cfg.Progress = func(done int) { progress = append(progress, done) }
	res, text := records(t, cfg)

	if res.Deals != 2 || len(res.Games) != 2*4 {
		t.Fatalf("%d deals, %d games; want 2 deals x 4 rotations = 8 games", res.Deals, len(res.Games))
	}
	if fmt.Sprint(progress) != "[1 2 3 4 5 6 7 8]" {
		t.Errorf("progress %v, want 1..8", progress)
	}
	for i, g := range res.Games {
		if g.Deal != i/4 || g.Rotation != i%4 {
			t.Errorf("game %d is deal %d rotation %d, want %d %d", i, g.Deal, g.Rotation, i/4, i%4)
		}
		for j := range 4 {
			if k := (j + g.Rotation) % 4; g.Players[k] != j {
				t.Errorf("game %d: player %d at seat %d, want player %d there", i, g.Players[k], k, j)
			}
		}
		if g.Game.Seed() != match.DealSeed(cfg.Seed, g.Deal) {
			t.Errorf("game %d: seed %s, want its deal's", i, g.Game.Seed())
		}
		if !g.Game.Finished() || len(g.Faults) > 0 {
			t.Errorf("game %d: finished %v, faults %v", i, g.Game.Finished(), g.Faults)
		}
	}

	// The records replay, with their dice, to the games' final positions.
	recs, err := record.ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 8 {
		t.Fatalf("%d records, want 8", len(recs))
	}
	for i, r := range recs {
		g, err := r.Replay()
		if err != nil {
			t.Fatalf("record %d: %v", i+1, err)
		}
		if err := r.VerifyDice(); err != nil {
			t.Errorf("record %d: %v", i+1, err)
		}
		if !g.Position().Equal(res.Games[i].Game.Position()) {
			t.Errorf("record %d replays to %s, want %s", i+1, g.Position(), res.Games[i].Game.Position())
		}
		round, _ := r.Tags.Get("Round")
		south, _ := r.Tags.Get("South")
		wantSouth := []string{"random", "greedy#3", "greedy#2", "greedy"}[i%4]
		if round != fmt.Sprintf("%d.%d", i/4+1, i%4+1) || south != wantSouth {
			t.Errorf("record %d: Round %q, South %q; want %d.%d and %q", i+1, round, south, i/4+1, i%4+1, wantSouth)
		}
	}

	// The counts add up.
	s := match.Summarize(res)
	if s.Games != 8 || s.Deals != 2 || s.Rotations != 4 || s.Baseline != "greedy" || len(s.Players) != 2 {
		t.Fatalf("summary %+v", s)
	}
	var firsts float64
	for _, p := range s.Players {
		wantSeats := map[string]int{"random": 1, "greedy": 3}[p.Name]
		if p.Seats != wantSeats || p.Games != 8*wantSeats {
			t.Errorf("%s: %d seats, %d seat-games; want %d, %d", p.Name, p.Seats, p.Games, wantSeats, 8*wantSeats)
		}
		var sum float64
		for _, r := range p.Ranks {
			sum += r
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s: rank shares sum to %v", p.Name, sum)
		}
		if p.FirstPlace.Lo > p.FirstPlace.Rate || p.FirstPlace.Rate > p.FirstPlace.Hi {
			t.Errorf("%s: first place %+v not inside its interval", p.Name, p.FirstPlace)
		}
		firsts += p.FirstPlace.Rate * float64(p.Games)
	}
	if math.Abs(firsts-8) > 1e-9 {
		t.Errorf("first places add up to %v, want one a game (8)", firsts)
	}
	if r := s.Players[0]; r.Baseline || math.IsNaN(float64(r.Elo.Elo)) || !(r.Elo.Lo <= r.Elo.Elo && r.Elo.Elo <= r.Elo.Hi) {
		t.Errorf("random's Elo %+v, want a number inside its interval", r.Elo)
	}
	var out bytes.Buffer
	if err := s.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2 deals x 4 rotations = 8 games", "\nrandom      1      8 ", "\ngreedy      3     24 ", "baseline\n", "faults: none"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
}

// TestMatchReproducible plays the same match one game at a time and three at
// once: the same games come out.
func TestMatchReproducible(t *testing.T) {
	cfg := config(t, "greedy,random,greedy,random", 3)
	_, one := records(t, cfg)
	cfg.Concurrency = 3
	_, three := records(t, cfg)
	if one != three {
		t.Error("the records differ with concurrency 3")
	}
}

func TestMatchTwoPlayers(t *testing.T) {
	pr, err := rules.Lookup("chaturanga-2p")
	if err != nil {
		t.Fatal(err)
	}
	cfg := config(t, "greedy,random", 2)
	cfg.Preset = pr
	res, text := records(t, cfg)
	if len(res.Games) != 4 {
		t.Fatalf("%d games, want 2 deals x 2 colours", len(res.Games))
	}
	if !strings.Contains(text, "[South \"greedy\"]\n[North \"random\"]") || !strings.Contains(text, "[South \"random\"]\n[North \"greedy\"]") {
		t.Errorf("the colours are not swapped:\n%s", text)
	}
}

func TestMatchSPRTStops(t *testing.T) {
	cfg := config(t, "greedy,random,random,random", 200)
	cfg.SPRT = &match.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	cfg.Concurrency = 2
	res, err := match.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	tt := res.Test
	if tt.Verdict != match.AcceptH1 || tt.Candidate != "greedy" || tt.Baseline != "random" {
		t.Fatalf("%s vs %s: %v after %d deals (LLR %.2f), want greedy's H1 accepted against random", tt.Candidate, tt.Baseline, tt.Verdict, tt.Deals, tt.LLR)
	}
	if tt.Deals < match.MinDeals || tt.Deals >= 200 || res.Deals != tt.Deals || len(res.Games) != 4*tt.Deals {
		t.Errorf("stopped after %d deals with %d games counted, want between %d and 200 deals", tt.Deals, len(res.Games), match.MinDeals)
	}
	if _, upper := tt.Bounds(); tt.LLR < upper {
		t.Errorf("LLR %.2f below the upper bound %.2f", tt.LLR, upper)
	}
	var out bytes.Buffer
	match.Summarize(res).WriteText(&out)
	if !strings.Contains(out.String(), fmt.Sprintf("H1 accepted after %d deals", tt.Deals)) {
		t.Errorf("no SPRT line in\n%s", out.String())
	}
}

// faulty is a player that fails as its name says: always, or for "slow"
// only its first decision, which waits for the match's timeout.
type faulty struct {
	name  string
	calls int
}

func (f *faulty) Name() string { return f.name }

func (f *faulty) Choose(ctx context.Context, p *rules.Position, _ ai.Budget) (rules.Action, error) {
	f.calls++
	switch f.name {
	case "broken":
		return 0, errors.New("broken: out of order")
	case "cheat":
		return rules.MoveAction(0, 63), nil
	case "slow":
		if f.calls == 1 {
			<-ctx.Done()
			return 0, ctx.Err()
		}
	}
	var buf [rules.MaxActions]rules.Action
	return p.Actions(buf[:])[0], nil
}

func TestMatchFaults(t *testing.T) {
	tests := []struct {
		player  string
		timeout time.Duration
		kind    match.FaultKind
		why     string
	}{
		{"broken", 0, match.Failed, "broken: out of order"},
		{"cheat", 0, match.Illegal, "a1h8 is not legal in "},
		// The others take microseconds: 100ms leaves them a wide margin.
		{"slow", 100 * time.Millisecond, match.Slow, "the limit is 100ms"},
	}
	for _, tt := range tests {
		t.Run(tt.player, func(t *testing.T) {
			cfg := config(t, tt.player+",greedy,greedy,greedy", 1)
			cfg.Timeout = tt.timeout
			cfg.NewPlayer = func(spec string, seed uint64) (ai.Player, error) {
				if spec == tt.player {
					return &faulty{name: spec}, nil
				}
				return ai.New(spec, seed)
			}
			res, err := match.Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			var n int
			for _, g := range res.Games {
				if !g.Game.Finished() {
					t.Errorf("game %d.%d unfinished", g.Deal+1, g.Rotation+1)
				}
				if tt.player == "slow" && len(g.Faults) > 1 {
					t.Errorf("game %d.%d: %d faults, want one at most (the first decision)", g.Deal+1, g.Rotation+1, len(g.Faults))
				}
				for _, f := range g.Faults {
					n++
					if f.Player != 0 || f.Kind != tt.kind || !strings.Contains(f.Why, tt.why) || f.Seat != g.Game.Preset().Seats()[g.Rotation] {
						t.Errorf("fault %+v, want player 0's %v at its seat, with %q", f, tt.kind, tt.why)
					}
				}
			}
			s := match.Summarize(res)
			if n == 0 || s.Players[0].Faults != n || s.Players[1].Faults != 0 {
				t.Errorf("%d faults, summary counts %d and %d", n, s.Players[0].Faults, s.Players[1].Faults)
			}
			if !strings.HasPrefix(s.Players[0].FirstFault, "deal 1, rotation 1: "+tt.kind.String()+" at South, turn ") {
				t.Errorf("first fault %q", s.Players[0].FirstFault)
			}
		})
	}
}

func TestMatchConfigErrors(t *testing.T) {
	tests := []struct {
		name   string
		change func(*match.Config)
		want   string
	}{
		{"unknown player", func(c *match.Config) {
			c.Lineup, _ = match.NewLineup([]string{"greedy", "chess", "greedy", "greedy"}, "")
		}, `match: player "chess": ai: unknown player "chess"`},
		{"too few players", func(c *match.Config) { c.Lineup, _ = match.NewLineup([]string{"greedy", "random"}, "") }, "match: 2 players for the 4 seats of chaturaji"},
		{"no budget", func(c *match.Config) { c.Budget = ai.Budget{} }, "match: a decision needs a time or node budget"},
		{"no deals", func(c *match.Config) { c.Deals = 0 }, "match: want at least one deal"},
		{"SPRT of one spec", func(c *match.Config) {
			c.Lineup, _ = match.NewLineup([]string{"greedy", "greedy", "greedy", "greedy"}, "")
			c.SPRT = &match.SPRT{Elo1: 10, Alpha: 0.05, Beta: 0.05}
		}, "match: an SPRT needs two distinct players"},
		{"engine that does not start", func(c *match.Config) {
			c.Lineup, _ = match.NewLineup([]string{"greedy", "cmd:/nonexistent/engine", "greedy", "greedy"}, "")
		}, `match: player "cmd:/nonexistent/engine": engine: cannot start /nonexistent/engine`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config(t, "random,greedy,greedy,greedy", 1)
			tt.change(&cfg)
			_, err := match.Run(context.Background(), cfg)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("Run: %v, want %q", err, tt.want)
			}
		})
	}
}

func TestMatchInterrupted(t *testing.T) {
	cfg := config(t, "random,greedy,greedy,greedy", 50)
	ctx, cancel := context.WithCancel(context.Background())
	cfg.OnDeal = func(games []*match.Game) error {
		if games[0].Deal == 1 {
			cancel()
		}
		return nil
	}
	res, err := match.Run(ctx, cfg)
	if err == nil || !strings.HasPrefix(err.Error(), "match: interrupted after ") || !strings.HasSuffix(err.Error(), " of 50 deals: context canceled") || !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v, want match: interrupted after N of 50 deals", err)
	}
	if res == nil || res.Deals < 2 || res.Deals >= 50 || len(res.Games) != 4*res.Deals {
		t.Errorf("result %+v, want the deals finished so far", res)
	}
}

// TestMatchAgainstEngine plays our greedy player against our own binary in
// engine mode, through the engine protocol.
func TestMatchAgainstEngine(t *testing.T) {
	engineSpec := "cmd:" + chaturaji + " engine --player greedy"
	cfg := config(t, "random,"+engineSpec+",greedy,"+engineSpec, 1)
	res, text := records(t, cfg)
	if len(res.Games) != 4 {
		t.Fatalf("%d games, want 4", len(res.Games))
	}
	for _, g := range res.Games {
		if len(g.Faults) > 0 {
			t.Errorf("game %d.%d: faults %v", g.Deal+1, g.Rotation+1, g.Faults)
		}
	}
	if !strings.Contains(text, `[West "`+engineSpec+`"]`) || !strings.Contains(text, `[East "`+engineSpec+`#2"]`) {
		t.Errorf("the engine is not named in the records")
	}
	s := match.Summarize(res)
	if s.Baseline != "greedy" || s.Players[1].Name != engineSpec || s.Players[1].Seats != 2 || s.Players[1].Games != 8 {
		t.Errorf("summary: baseline %q, players %+v", s.Baseline, s.Players)
	}
	// With a search player in the engine, its info lines come through too.
	strong := "cmd:" + chaturaji + " engine --player strong"
	cfg = config(t, "greedy,"+strong+",greedy,greedy", 1)
	cfg.Budget = ai.Budget{Nodes: 300}
	if res, err := match.Run(context.Background(), cfg); err != nil || len(res.Games) != 4 {
		t.Errorf("match against the strong engine: %v", err)
	}
}
