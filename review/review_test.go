package review_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/review"
	"github.com/chaturaji/chaturaji/rules"
)

var update = flag.Bool("update", false, "play the game of testdata/blunder.cgn again and rewrite it")

// blunderFile is a finished game of greedy players in which, the first
// time a seat could take a king and another piece, it took the other
// piece: TestBlunderRecord writes it with -update.
var blunderFile = filepath.Join("testdata", "blunder.cgn")

// missesKing reports whether a, played in p, takes a piece other than a
// king while a king could have been taken.
func missesKing(p *rules.Position, a rules.Action) bool {
	return takes(p, a) != rules.NoKind && takes(p, a) != rules.King && kingCapture(p) != 0
}

// takes returns the kind of piece that a takes in p, NoKind if none.
func takes(p *rules.Position, a rules.Action) rules.Kind {
	if a.Type() != rules.Move {
		return rules.NoKind
	}
	victim := p.At(a.To())
	if victim == rules.NoPiece || victim.Seat() == p.Seat() {
		return rules.NoKind
	}
	return victim.Kind()
}

// kingCapture returns a legal action of p that takes a king, 0 if none.
func kingCapture(p *rules.Position) rules.Action {
	var buf [rules.MaxActions]rules.Action
	for _, a := range p.Actions(buf[:]) {
		if takes(p, a) == rules.King {
			return a
		}
	}
	return 0
}

// lesserCapture returns the legal action of p that takes the cheapest
// piece that is not a king, 0 if none.
func lesserCapture(p *rules.Position) rules.Action {
	var buf [rules.MaxActions]rules.Action
	best, kind := rules.Action(0), rules.King
	for _, a := range p.Actions(buf[:]) {
		if k := takes(p, a); k != rules.NoKind && k < kind {
			best, kind = a, k
		}
	}
	return best
}

// TestBlunderRecord checks that testdata/blunder.cgn is a finished game
// with exactly one decision that misses a king capture; with -update it
// plays the game again first.
func TestBlunderRecord(t *testing.T) {
	if *update {
		writeBlunderGame(t)
	}
	r := readRecord(t, blunderFile)
	pts, err := review.Decisions(r, true)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(blunders(pts)); n != 1 {
		t.Fatalf("%s has %d decisions that miss a king capture, want 1", blunderFile, n)
	}
}

// writeBlunderGame plays greedy players to the end of a game, but for the
// first decision that can take a king and a lesser piece: there the seat
// takes the lesser piece.
func writeBlunderGame(t *testing.T) {
	t.Helper()
	seed, err := rules.ParseSeed("5eed0000000000000000000000000000000000000000000000000000000000b1")
	if err != nil {
		t.Fatal(err)
	}
	g := rules.NewGame(rules.Chaturaji, seed)
	greedy := ai.NewGreedy(1)
	missed := false
	for !g.Finished() {
		p := g.Position()
		if p.AwaitingRoll() {
			if _, err := g.Roll(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		a, err := greedy.Choose(context.Background(), p, ai.Budget{})
		if err != nil {
			t.Fatal(err)
		}
		if lesser := lesserCapture(p); !missed && kingCapture(p) != 0 && lesser != 0 {
			a, missed = lesser, true
		}
		if err := g.Play(a); err != nil {
			t.Fatal(err)
		}
	}
	if !missed {
		t.Fatal("the game ended before a seat could miss a king capture: try another seed")
	}
	r := record.FromGame(g, record.Tag{Name: "South", Value: "greedy"}, record.Tag{Name: "West", Value: "greedy"},
		record.Tag{Name: "North", Value: "greedy"}, record.Tag{Name: "East", Value: "greedy"})
	if err := os.WriteFile(blunderFile, []byte(r.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// blunders returns the indexes of the decisions that miss a king capture.
func blunders(pts []review.Point) []int {
	var out []int
	for i, pt := range pts {
		if missesKing(pt.Position, pt.Played) {
			out = append(out, i)
		}
	}
	return out
}

func readRecord(t *testing.T, path string) *record.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := record.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 {
		t.Fatalf("%s holds %d records, want 1", path, len(recs))
	}
	return recs[0]
}

func strong(t *testing.T) ai.Analyzer {
	t.Helper()
	p, err := ai.New("strong", 1)
	if err != nil {
		t.Fatal(err)
	}
	return p.(ai.Analyzer)
}

// TestMissedKingIsBlunder judges the decision of testdata/blunder.cgn
// that took a lesser piece with a king capture on the board: a blunder,
// and the best action takes the king.
func TestMissedKingIsBlunder(t *testing.T) {
	pts, err := review.Decisions(readRecord(t, blunderFile), true)
	if err != nil {
		t.Fatal(err)
	}
	i := blunders(pts)[0]
	d, err := review.Judge(context.Background(), strong(t), pts[i], ai.Budget{Nodes: testNodes})
	if err != nil {
		t.Fatal(err)
	}
	pr := rules.Chaturaji
	t.Logf("decision %d (turn %d), %s played %s, best %s: loss %.2f, before %.2f, after %.2f",
		i, d.Turn+1, d.Seat, d.Played.Format(pr), d.Best.Format(pr), d.Loss, d.Before, d.After)
	if d.Class != review.Blunder {
		t.Errorf("taking a lesser piece with a king to take lost %.2f points: a %s, want a blunder", d.Loss, d.Class)
	}
	if takes(d.Position, d.Best) != rules.King {
		t.Errorf("the best action is %s, which takes no king", d.Best.Format(pr))
	}
}

// testNodes is the budget of the tests' searches.
const testNodes = 20000

// TestGame reviews the whole game of testdata/blunder.cgn on a small
// budget: every decision is judged, and the missed king is marked.
func TestGame(t *testing.T) {
	if testing.Short() {
		t.Skip("a search of every decision")
	}
	r := readRecord(t, blunderFile)
	calls := 0
	rv, err := review.Game(context.Background(), strong(t), r, review.Options{
		Budget:   ai.Budget{Nodes: 3000},
		Progress: func(done, total int) { calls++ },
	})
	if err != nil {
		t.Fatal(err)
	}
	pts, _ := review.Decisions(r, true)
	if len(rv.Decisions) != len(pts) || calls != len(pts) {
		t.Fatalf("%d decisions judged, progress told %d times; the game has %d", len(rv.Decisions), calls, len(pts))
	}
	for i, d := range rv.Decisions {
		if d.Loss < 0 || d.Class != review.Classify(d.Loss) || d.Played != pts[i].Played {
			t.Errorf("decision %d: loss %v, class %s, played %v (want %v)", i, d.Loss, d.Class, d.Played, pts[i].Played)
		}
		if d.Forced && d.Loss != 0 {
			t.Errorf("decision %d was forced, yet lost %v", i, d.Loss)
		}
	}
	if i := blunders(pts)[0]; rv.Decisions[i].Class < review.Mistake {
		t.Errorf("the missed king (decision %d) is marked %s, with a loss of %.2f", i, rv.Decisions[i].Class, rv.Decisions[i].Loss)
	}
	if len(rv.Turning) == 0 || len(rv.Turning) > review.DefaultTurning {
		t.Errorf("%d turning points, want 1 to %d", len(rv.Turning), review.DefaultTurning)
	}
	for i, s := range rv.Turning {
		if i > 0 && abs(s.Delta) > abs(rv.Turning[i-1].Delta) {
			t.Errorf("turning point %d swings more than the one before: %v", i, rv.Turning)
		}
	}
}

func abs(x float64) float64 { return max(x, -x) }

// TestClassify is the thresholds of the classes, at and around each.
func TestClassify(t *testing.T) {
	for _, tt := range []struct {
		loss float64
		want review.Class
		mark string
	}{
		{0, review.Good, ""},
		{1.49, review.Good, ""},
		{1.5, review.Inaccuracy, "?!"},
		{2.49, review.Inaccuracy, "?!"},
		{2.5, review.Mistake, "?"},
		{3.99, review.Mistake, "?"},
		{4, review.Blunder, "??"},
		{54, review.Blunder, "??"},
	} {
		got := review.Classify(tt.loss)
		if got != tt.want || got.Mark() != tt.mark {
			t.Errorf("Classify(%v) = %s %q, want %s %q", tt.loss, got, got.Mark(), tt.want, tt.mark)
		}
	}
}

// TestNotFinished refuses the record of a game still going on.
func TestNotFinished(t *testing.T) {
	recs, err := record.ParseString("[Rules \"chaturaji\"]\n\nb 5 d1e1  y 2 a8c6\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := review.Decisions(recs[0], true); err != review.ErrNotFinished {
		t.Errorf("a game going on: %v, want ErrNotFinished", err)
	}
	pts, err := review.Decisions(recs[0], false)
	if err != nil || len(pts) != 2 {
		t.Fatalf("a game going on, not required finished: %d points, %v", len(pts), err)
	}
	if pts[1].Turn != 1 || pts[1].Played.Format(rules.Chaturaji) != "a8c6" || pts[1].Position.Decider() != rules.West {
		t.Errorf("the second point: turn %d, %s played by %s", pts[1].Turn, pts[1].Played.Format(rules.Chaturaji), pts[1].Position.Decider())
	}
}

// TestTurning finds the swings of one seat's view each: an action's, in
// the deciding seat's search before and after it; the dice's, the rolling
// seat's own expected score against its own at its previous decision.
func TestTurning(t *testing.T) {
	start := rules.Chaturaji.StartPosition()
	dec := func(turn int, seat rules.Seat, before, after [rules.NumSeats]float64) review.Decision {
		return review.Decision{Point: review.Point{Turn: turn, Position: start}, Seat: seat, Before: before, After: after}
	}
	ds := []review.Decision{
		dec(0, rules.South, [4]float64{10, 10, 10, 10}, [4]float64{10, 10, 10, 10}),
		// West's action loses it 6 points, in its own search.
		dec(1, rules.West, [4]float64{30, 10, 10, 10}, [4]float64{30, 4, 10, 10}),
		// South's next turn: its own view rose from 10 to 20 since its
		// last decision; West's search's 30 for South does not count.
		dec(2, rules.South, [4]float64{20, 0, 0, 0}, [4]float64{20, 0, 0, 0}),
		// The same turn goes on: no roll between, and a swing under 3.
		dec(2, rules.South, [4]float64{22, 0, 0, 0}, [4]float64{20, 0, 0, 0}),
		{Point: review.Point{Turn: 3, Position: start}, Seat: rules.West, Withheld: true},
	}
	got := review.Turning(ds, 5)
	want := []review.Swing{
		{Decision: 2, Roll: true, Seat: rules.South, Delta: 10},
		{Decision: 1, Roll: false, Seat: rules.West, Delta: -6},
	}
	if len(got) != len(want) {
		t.Fatalf("Turning = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("turning point %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if got := review.Turning(ds, 1); len(got) != 1 || got[0] != want[0] {
		t.Errorf("Turning(ds, 1) = %+v, want the biggest alone", got)
	}
}

// TestResignAndTimeoutNotJudged judges chesscom-chaturaji's resign and
// timeout at the start, where each loses the seat its whole game: they
// are no moves, and get no loss and no mark; the scores after them are
// the searched ones. A move of the same position is judged as ever.
func TestResignAndTimeoutNotJudged(t *testing.T) {
	pr, err := rules.Lookup("chesscom-chaturaji")
	if err != nil {
		t.Fatal(err)
	}
	p := rules.NewGame(pr, rules.Seed{}).Position()
	var buf [rules.MaxActions]rules.Action
	move := p.Actions(buf[:])[0]
	for _, a := range []rules.Action{rules.ResignAction, rules.TimeoutAction} {
		d, err := review.Judge(context.Background(), strong(t), review.Point{Position: p, Played: a}, ai.Budget{Nodes: 2000})
		if err != nil {
			t.Fatal(err)
		}
		if d.Loss != 0 || d.Class != review.Good || d.Best != a {
			t.Errorf("%s judged: loss %.2f, class %s, best %s; want no loss, no mark", a.Format(pr), d.Loss, d.Class, d.Best.Format(pr))
		}
		if d.After[d.Seat] >= d.Before[d.Seat] {
			t.Errorf("%s: the seat's expected score went from %.2f to %.2f, want down: its army is dead", a.Format(pr), d.Before[d.Seat], d.After[d.Seat])
		}
	}
	// A pawn move at the start: judged (a best action searched).
	if d, err := review.Judge(context.Background(), strong(t), review.Point{Position: p, Played: move}, ai.Budget{Nodes: 2000}); err != nil || d.Best == 0 {
		t.Errorf("a move judged: best %v, err %v", d.Best, err)
	}
}
