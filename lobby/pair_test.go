package lobby_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/lobby"
)

// now is when the tables' rounds run; seeks are made before it.
var now = time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC)

// levels are the bots' levels of the tests, 300 points apart.
var levels = []lobby.Level{{Level: 1, Rating: 900}, {Level: 2, Rating: 1200}, {Level: 3, Rating: 1500}, {Level: 4, Rating: 1800}, {Level: 5, Rating: 2100}}

var (
	four  = lobby.Shape{Seats: 4}
	two   = lobby.Shape{Seats: 2}
	teams = lobby.Shape{Seats: 4, Teams: true}
)

// seek returns a seek of one seeker, player id, who has waited waited
// (made at now - waited), waiting for people only.
func seek(id string, waited time.Duration, rating float64, opts ...func(*lobby.Seek)) lobby.Seek {
	s := lobby.Seek{ID: id, Seekers: []lobby.Seeker{{Player: id, Name: "Player " + id, Rating: rating}}, Since: now.Add(-waited)}
	for _, o := range opts {
		o(&s)
	}
	return s
}

// bots lets the seek play with bots after wait.
func bots(wait time.Duration) func(*lobby.Seek) {
	return func(s *lobby.Seek) { s.Bots, s.BotWait = true, wait }
}

// player makes the seek's player another than its id.
func player(id string) func(*lobby.Seek) {
	return func(s *lobby.Seek) { s.Seekers[0].Player = id }
}

// pair makes the seek one of two partners, players id1 and id2.
func pair(id1, id2 string, r1, r2 float64) func(*lobby.Seek) {
	return func(s *lobby.Seek) {
		s.Seekers = []lobby.Seeker{{Player: id1, Rating: r1}, {Player: id2, Rating: r2}}
	}
}

// show writes tables as their seats in order, players by id and bots as
// bot:LEVEL, tables apart by " | ".
func show(tables []lobby.Table) string {
	var out []string
	for _, t := range tables {
		var seats []string
		for _, s := range t.Seats {
			if s.Bot != 0 {
				seats = append(seats, fmt.Sprintf("bot:%d", s.Bot))
			} else {
				seats = append(seats, s.Player)
			}
		}
		out = append(out, strings.Join(seats, " "))
	}
	return strings.Join(out, " | ")
}

func TestPair(t *testing.T) {
	s, m, h := time.Second, time.Minute, time.Hour
	for _, tc := range []struct {
		name  string
		shape lobby.Shape
		seeks []lobby.Seek
		want  string
	}{
		{"four close seekers sit together at once", four, []lobby.Seek{
			seek("a", 3*s, 1500), seek("b", 2*s, 1520), seek("c", 1*s, 1480), seek("d", 0, 1560),
		}, "a b c d"},
		{"the three closest to the oldest are chosen, the far left waiting", four, []lobby.Seek{
			seek("a", 10*s, 1500), seek("b", 10*s, 1600), seek("c", 10*s, 1450), seek("d", 10*s, 1520), seek("e", 10*s, 1380), seek("f", 10*s, 1700),
		}, "a d c b"},
		{"200 apart: no table at once", four, []lobby.Seek{
			seek("a", 0, 1500), seek("b", 0, 1700), seek("c", 0, 1600), seek("d", 0, 1650),
		}, ""},
		{"200 apart: a table after 15 s (range 250)", four, []lobby.Seek{
			seek("a", 15*s, 1500), seek("b", 15*s, 1700), seek("c", 15*s, 1600), seek("d", 15*s, 1650),
		}, "a c d b"},
		{"300 apart: no table after 15 s (range 250)", four, []lobby.Seek{
			seek("a", 15*s, 1500), seek("b", 15*s, 1800), seek("c", 15*s, 1600), seek("d", 15*s, 1650),
		}, ""},
		{"300 apart: a table after 20 s (range 300)", four, []lobby.Seek{
			seek("a", 20*s, 1500), seek("b", 20*s, 1800), seek("c", 20*s, 1600), seek("d", 20*s, 1650),
		}, "a c d b"},
		{"the range is the narrower of two: a long wait does not widen a newcomer's", four, []lobby.Seek{
			seek("a", h, 1500), seek("b", 0, 1750), seek("c", 0, 1760), seek("d", 0, 1740),
		}, ""},
		{"no widening past Max (600)", four, []lobby.Seek{
			seek("a", h, 1000), seek("b", h, 1601), seek("c", h, 1300), seek("d", h, 1400),
		}, ""},
		{"bots fill the empty seats once the wait has passed", four, []lobby.Seek{
			seek("a", 20*s, 1500, bots(20*s)),
		}, "a bot:3 bot:3 bot:3"},
		{"no bots a moment before the wait has passed", four, []lobby.Seek{
			seek("a", 20*s-time.Millisecond, 1500, bots(20*s)),
		}, ""},
		{"a zero bot wait is the default, 20 s", four, []lobby.Seek{
			seek("a", 19*s, 1500, bots(0)), seek("b", 20*s, 2100, bots(0)),
		}, "b bot:5 bot:5 bot:5"},
		{"a seek that waits for people never gets bots", four, []lobby.Seek{
			seek("a", h, 1500), seek("b", h, 1510), seek("c", h, 1490),
		}, ""},
		{"people first: a seek ready for bots joins three people instead", four, []lobby.Seek{
			seek("a", 30*s, 1500, bots(20*s)), seek("b", 0, 1500), seek("c", 0, 1510), seek("d", 0, 1490),
		}, "a b c d"},
		{"seekers ready for bots share a table, with bots for the mean of them", four, []lobby.Seek{
			seek("a", 30*s, 1500, bots(20*s)), seek("b", 25*s, 1700, bots(20*s)),
		}, "a b bot:3 bot:3"},
		{"a seeker whose bot wait has not passed, or who waits for people, is not seated with bots", four, []lobby.Seek{
			seek("a", 30*s, 1500, bots(20*s)), seek("b", 10*s, 1510, bots(20*s)), seek("c", 30*s, 1505),
		}, "a bot:3 bot:3 bot:3"},
		{"bots too far in rating from each other sit apart", four, []lobby.Seek{
			seek("a", 20*s, 1000, bots(20*s)), seek("b", 20*s, 2000, bots(20*s)),
		}, "a bot:1 bot:1 bot:1 | b bot:5 bot:5 bot:5"},
		{"between two levels as close, the lower", four, []lobby.Seek{
			seek("a", 20*s, 1950, bots(20*s)),
		}, "a bot:4 bot:4 bot:4"},
		{"a fifth seeker waits for the next table", four, []lobby.Seek{
			seek("a", 5*s, 1500), seek("b", 4*s, 1500), seek("c", 3*s, 1500), seek("d", 2*s, 1500), seek("e", 1*s, 1500),
		}, "a b c d"},
		{"eight make two tables, the closest together", four, []lobby.Seek{
			seek("a", 20*s, 1500), seek("b", 20*s, 1800), seek("c", 20*s, 1510), seek("d", 20*s, 1790),
			seek("e", 20*s, 1520), seek("f", 20*s, 1780), seek("g", 20*s, 1530), seek("h", 20*s, 1770),
		}, "a c e g | b d f h"},
		{"two seats: the closest two", two, []lobby.Seek{
			seek("a", 10*s, 1500), seek("b", 10*s, 1600), seek("c", 10*s, 1510), seek("d", 10*s, 1590),
		}, "a c | b d"},
		{"two seats: one seeker and a bot", two, []lobby.Seek{
			seek("a", m, 1200, bots(20*s)),
		}, "a bot:2"},
		{"teams: two pairs of partners, each pair a team", teams, []lobby.Seek{
			seek("p", 2*s, 0, pair("n1", "s1", 1500, 1500)), seek("q", s, 0, pair("w1", "e1", 1520, 1520)),
		}, "n1 w1 s1 e1"},
		{"teams: a pair, and two who came alone make the other team", teams, []lobby.Seek{
			seek("x", 5*s, 1550), seek("p", 10*s, 0, pair("a1", "a2", 1500, 1500)), seek("y", 3*s, 1450),
		}, "a1 x a2 y"},
		{"teams: four alone, the strongest with the weakest", teams, []lobby.Seek{
			seek("u", 20*s, 1500), seek("s", 20*s, 1700), seek("t", 20*s, 1600), seek("v", 20*s, 1550),
		}, "s t u v"},
		{"teams: a pair and bots, the bots a team", teams, []lobby.Seek{
			seek("p", 20*s, 0, pair("a1", "a2", 1400, 1600), bots(20*s)),
		}, "a1 bot:3 a2 bot:3"},
		{"teams: two pairs and one alone: the one waits", teams, []lobby.Seek{
			seek("p", 3*s, 0, pair("a1", "a2", 1500, 1500)), seek("x", 2*s, 1500), seek("q", 1*s, 0, pair("b1", "b2", 1500, 1500)),
		}, "a1 b1 a2 b2"},
		{"a pair where teams are not played is left out", four, []lobby.Seek{
			seek("p", h, 0, pair("a1", "a2", 1500, 1500), bots(s)), seek("x", 0, 1500), seek("y", 0, 1500), seek("z", 0, 1500),
		}, ""},
		{"no seek twice: a repeated id, and a player in two seeks, are left out after the first", four, []lobby.Seek{
			seek("a", s, 1500), seek("b", 0, 1500), seek("c", 0, 1500), seek("a", 2*s, 1500, player("a2")),
			seek("d", 0, 1500), seek("x", 3*s, 1500, player("b")),
		}, "a b c d"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tables := lobby.Pair(tc.shape, tc.seeks, now, lobby.DefaultParams(levels))
			if got := show(tables); got != tc.want {
				t.Errorf("Pair = [%s], want [%s]", got, tc.want)
			}
			// Each table names the seeks it seats, each once, and no
			// seek is in two tables.
			seated := map[string]bool{}
			for _, tb := range tables {
				if len(tb.Seats) != tc.shape.Seats {
					t.Errorf("table [%s] has %d seats, want %d", show([]lobby.Table{tb}), len(tb.Seats), tc.shape.Seats)
				}
				var fromSeats []string
				for _, s := range tb.Seats {
					if s.Seek != "" && (len(fromSeats) == 0 || !strings.Contains(strings.Join(fromSeats, " "), s.Seek)) {
						fromSeats = append(fromSeats, s.Seek)
					}
				}
				for _, id := range tb.Seeks {
					if seated[id] {
						t.Errorf("seek %s is seated twice", id)
					}
					seated[id] = true
				}
				if len(fromSeats) != len(tb.Seeks) {
					t.Errorf("table [%s] names seeks %v, its seats %v", show([]lobby.Table{tb}), tb.Seeks, fromSeats)
				}
			}
		})
	}
}

// TestPairDeterministic checks that Pair's tables depend on its input
// alone, not on the order the seeks come in: many random pools, each
// paired in three orders.
func TestPairDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		shape := []lobby.Shape{four, two, teams}[round%3]
		var seeks []lobby.Seek
		for i := range 2 + rng.IntN(20) {
			id := fmt.Sprintf("s%d", i)
			var opts []func(*lobby.Seek)
			if rng.IntN(2) == 0 {
				opts = append(opts, bots(time.Duration(rng.IntN(40))*time.Second))
			}
			if shape.Teams && rng.IntN(3) == 0 {
				opts = append(opts, pair(id+"a", id+"b", 1200+rng.Float64()*600, 1200+rng.Float64()*600))
			}
			seeks = append(seeks, seek(id, time.Duration(rng.IntN(60))*time.Second, 1200+rng.Float64()*600, opts...))
		}
		want := lobby.Pair(shape, seeks, now, lobby.DefaultParams(levels))
		for range 2 {
			rng.Shuffle(len(seeks), func(i, j int) { seeks[i], seeks[j] = seeks[j], seeks[i] })
			if got := lobby.Pair(shape, seeks, now, lobby.DefaultParams(levels)); !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d: in another order Pair = [%s], want [%s]", round, show(got), show(want))
			}
		}
	}
}

func TestWideningRange(t *testing.T) {
	w := lobby.DefaultWidening
	for _, tc := range []struct {
		wait time.Duration
		want float64
	}{
		{-time.Second, 100}, // a seek made a moment after now, by another node's clock
		{0, 100},
		{5*time.Second - 1, 100},
		{5 * time.Second, 150},
		{20 * time.Second, 300},
		{50 * time.Second, 600},
		{time.Hour, 600},
	} {
		if got := w.Range(tc.wait); got != tc.want {
			t.Errorf("Range(%v) = %v, want %v", tc.wait, got, tc.want)
		}
	}
}

func TestParamsValidate(t *testing.T) {
	for _, tc := range []struct {
		change func(*lobby.Params)
		want   string
	}{
		{func(p *lobby.Params) { p.Widening.Start = -1 }, "Start -1"},
		{func(p *lobby.Params) { p.Widening.Every = 0 }, "Every 0s"},
		{func(p *lobby.Params) { p.Widening.Max = 50 }, "Max 50"},
		{func(p *lobby.Params) { p.MaxSeeks = 0 }, "MaxSeeks 0"},
		{func(p *lobby.Params) { p.SeekLife = 0 }, "SeekLife 0s"},
		{func(p *lobby.Params) { p.Levels = []lobby.Level{{Level: 0, Rating: 1500}} }, "level 0"},
	} {
		p := lobby.DefaultParams(levels)
		tc.change(&p)
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate: %v, want an error saying %q", err, tc.want)
		}
	}
	if err := lobby.DefaultParams(nil).Validate(); err != nil {
		t.Errorf("the defaults: %v", err)
	}
}
