package web_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/review"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/web"
	"github.com/chaturaji/chaturaji/web/webtest"
)

// playBlunder plays games of chaturaji to their end through the API, every
// seat a human of this test: each takes a king when it can, else any
// piece, else acts at random; but the first seat that can take a king and
// a pawn takes the pawn. Whether that costs a king's worth depends on the
// dice to come (the king may not get away), so the test judges the
// decision itself, as the server's review does, and keeps the first game
// where it lost at least blunderMargin points: the server's review, whose
// searches start from another table, must then find it a blunder too. It
// returns the game and the index of the blunder among its actions.
func playBlunder(t *testing.T, site *webtest.Site) (id string, blunder int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 1))
	strong, err := ai.New("strong", 1)
	must(t, err)
	for range 40 {
		id, seq := playGame(t, site, rng)
		if seq == 0 {
			continue
		}
		evs, err := site.Events(id)
		must(t, err)
		k := 0 // the actions before the blunder
		for _, e := range evs {
			if e.Kind == "action" && e.Seq < seq {
				k++
			}
		}
		recs, err := record.ParseString(recordOf(t, site, id))
		must(t, err)
		pts, err := review.Decisions(recs[0], true)
		must(t, err)
		d, err := review.Judge(context.Background(), strong.(ai.Analyzer), pts[k], ai.Budget{Nodes: reviewNodes})
		must(t, err)
		if d.Loss >= review.BlunderLoss+blunderMargin {
			return id, k
		}
	}
	t.Fatal("in 40 games no seat missed a king capture at a blunder's cost")
	return "", 0
}

// blunderMargin is how far above BlunderLoss the test's own judgement of
// the blunder must be.
const blunderMargin = 2

// reviewNodes is the budget of each of the review's searches, the test's
// and the server's.
const reviewNodes = 5000

// playGame plays one game as playBlunder describes; blunder is the seq of
// the blunder's event, 0 if no seat could miss a king capture.
func playGame(t *testing.T, site *webtest.Site, rng *rand.Rand) (id string, blunder int64) {
	t.Helper()
	letters := map[string]byte{"South": 'b', "West": 'y', "North": 'g', "East": 'r'}
	ng := server.NewGame{Rules: "chaturaji", Seats: []string{"human", "human", "human", "human"},
		HostSeats: []string{"South", "West", "North", "East"}}
	c, err := site.Create(ng)
	must(t, err)
	tokens := map[string]string{}
	for _, s := range c.Seats {
		tokens[s.Seat] = s.Token
	}
	for {
		st, err := site.State(c.ID)
		must(t, err)
		if st.Status != "live" {
			break
		}
		board := webtest.Board(st.Position)
		var kings, pawns, others []string
		for _, act := range st.Actions {
			if len(act) < 4 || act[2] < 'a' || act[2] > 'h' {
				continue
			}
			switch p := board[act[2:4]]; {
			case p == "" || p[0] == letters[st.ToAct]:
			case p[1] == 'K':
				kings = append(kings, act)
			case p[1] == 'P':
				pawns = append(pawns, act)
			default:
				others = append(others, act)
			}
		}
		others = append(others, pawns...)
		var act string
		switch {
		case blunder == 0 && len(kings) > 0 && len(pawns) > 0:
			act, blunder = pawns[0], st.Seq+1
		case len(kings) > 0:
			act = kings[rng.IntN(len(kings))]
		case len(others) > 0:
			act = others[rng.IntN(len(others))]
		default:
			act = st.Actions[rng.IntN(len(st.Actions))]
		}
		must(t, site.Act(c.ID, tokens[st.ToAct], act))
	}
	return c.ID, blunder
}

// TestReviewMarksBlunder replays a finished game in which a seat took a
// pawn with a king to take, at a blunder's cost, turns the analysis on (at
// the game's end, where there is no move to hint), and sees the
// review: the move list marks that action a blunder (??), and the chart
// of the expected scores has a line per seat and a dot at the blunder.
func TestReviewMarksBlunder(t *testing.T) {
	parallel(t)
	// The review's searches are cut at reviewNodes, or at AnalyzeTime if
	// that comes first: nodes few enough to be searched well within the
	// time on a loaded machine under the race detector, so that the
	// server's review judges as the test does and not by how busy the
	// machine is.
	site, err := webtest.NewSiteWith(t.TempDir(), webtest.Config(), web.Options{ReviewNodes: reviewNodes})
	must(t, err)
	t.Cleanup(site.Close)
	id, k := playBlunder(t, site)
	evs, err := site.Events(id)
	must(t, err)
	// The replay's steps: the start, then every roll and action.
	step, action := -1, ""
	n, acts := 0, 0
	for _, e := range evs {
		if e.Position == "" || (e.Kind != "start" && e.Kind != "roll" && e.Kind != "action") {
			continue
		}
		if e.Kind == "action" {
			if acts == k {
				step, action = n, e.Action
			}
			acts++
		}
		n++
	}
	if step < 0 {
		t.Fatalf("no action %d among the events", k)
	}

	p := newPage(t, 1280, 900, false)
	must(t, p.Go(site.URL+"/replay/"+id))
	must(t, p.Wait(`document.querySelectorAll('#moves .move-act').length > 0`, 10*time.Second))
	if n := eval[int](t, p, `document.querySelectorAll('#moves .move-mark').length`); n != 0 {
		t.Fatalf("%d marks before the analysis is on", n)
	}
	must(t, p.ClickElement("#analysis-toggle"))
	mark := fmt.Sprintf(`#moves .move-mark[data-step="%d"]`, step)
	if err := p.Wait(fmt.Sprintf(`document.querySelector('%s')`, mark), 60*time.Second); err != nil {
		t.Fatalf("no mark on the blunder %s (step %d): %v; the review says %q", action, step, err,
			eval[string](t, p, `(document.querySelector('#review-summary') || {textContent: 'no review panel'}).textContent`))
	}
	got := eval[[]string](t, p, fmt.Sprintf(`(() => { const m = document.querySelector('%s');
		return [m.textContent, m.dataset.class, m.previousElementSibling.dataset.action]; })()`, mark))
	if got[0] == "" || got[0][:2] != "??" || got[1] != "blunder" || got[2] != action {
		t.Errorf("the mark at step %d is %q, class %q, on %q: want ?? (blunder) on %s", step, got[0], got[1], got[2], action)
	}
	must(t, p.Wait(`document.querySelectorAll('#review-chart .score-line').length === 4`, 5*time.Second))
	dot := fmt.Sprintf(`#review-chart .chart-mark.blunder[data-step="%d"]`, step)
	if n := eval[int](t, p, fmt.Sprintf(`document.querySelectorAll('%s').length`, dot)); n != 1 {
		t.Errorf("%d dots on the chart at the blunder, want 1", n)
	}
	if label := eval[string](t, p, `document.querySelector('#review-chart svg').getAttribute('aria-label')`); label == "" {
		t.Error("the chart has no accessible name")
	}
	// A click on a turning point goes to its step.
	if eval[int](t, p, `document.querySelectorAll('.review-turning button').length`) > 0 {
		must(t, p.ClickElement(".review-turning button"))
		must(t, p.Wait(`document.querySelector('#slider').value === document.querySelector('.review-turning button').dataset.step`, 5*time.Second))
	}
}
