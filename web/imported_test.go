package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/pgn4"
	"github.com/chaturaji/chaturaji/web"
	"github.com/chaturaji/chaturaji/web/webtest"
)

// TestReplayImported replays a chess.com game imported into the server
// (pgn4/testdata/blunder.pgn4, stored by server.Import): Red (South)
// leaves its king to Green's knight at its third move, Green takes it,
// Blue resigns and Yellow runs out of time. The replay draws the armies in
// chess.com's colours; stepped from the start, South's army is whole
// before Green's capture and shown dead (greyed, said dead) after it; and
// the review, asked for with a small budget, marks South's third move a
// blunder (??) on the move list and the chart.
func TestReplayImported(t *testing.T) {
	parallel(t)
	site, err := webtest.NewSiteWith(t.TempDir(), webtest.Config(), web.Options{AnalyzeTime: time.Second, ReviewNodes: 2000})
	must(t, err)
	t.Cleanup(site.Close)
	data, err := os.ReadFile(filepath.Join("..", "pgn4", "testdata", "blunder.pgn4"))
	must(t, err)
	games, err := pgn4.ParseString(string(data))
	must(t, err)
	rec, err := games[0].Record()
	must(t, err)
	id, err := site.Server.Import(context.Background(), rec)
	must(t, err)

	p := newPage(t, 1280, 900, false)
	pg := func(js string) string { return eval[string](t, p, js) }
	must(t, p.Go(site.URL+"/replay/"+id))
	must(t, p.Wait(`document.querySelectorAll('#moves .move-act').length > 0 && document.body.dataset.step`, 10*time.Second))
	// The steps: the start, then the 14 actions (no dice, no rolls).
	if last := pg(`document.querySelector('#slider').max`); last != "14" {
		t.Fatalf("the replay has steps 0 to %s, want 0 to 14", last)
	}
	southDead := `[...document.querySelectorAll('#board g.piece[data-piece^=b]')].map(g => g.classList.contains('frozen') + ' ' + g.querySelector('title').textContent)`
	must(t, p.ClickElement("#first"))
	must(t, p.Wait(`document.body.dataset.step === '0'`, 5*time.Second))
	checkChesscomLook(t, pg)
	for step := 1; step <= 12; step++ {
		must(t, p.ClickElement("#next"))
		must(t, p.Wait(fmt.Sprintf(`document.body.dataset.step === '%d'`, step), 5*time.Second))
		dead := eval[[]string](t, p, southDead)
		switch step {
		case 11: // before Green's knight takes the king: South lives
			for _, d := range dead {
				if strings.HasPrefix(d, "true ") || strings.HasSuffix(d, "(dead)") {
					t.Errorf("step 11: South's piece %q is shown dead while its king stands", d)
				}
			}
		case 12: // after: its seven other pieces stay, greyed and said dead
			if len(dead) != 7 {
				t.Errorf("step 12: South's dead army shows %d pieces, want 7: %v", len(dead), dead)
			}
			for _, d := range dead {
				if !strings.HasPrefix(d, "true ") || !strings.HasSuffix(d, "(dead)") {
					t.Errorf("step 12: South's piece %q: want it greyed, and said dead", d)
				}
			}
			if seat := pg(`document.querySelector('#seats li[data-seat=South]').textContent`); !strings.Contains(seat, "dead") {
				t.Errorf("step 12: South's seat says %q, not that its army is dead", seat)
			}
		}
	}
	if said := pg(`document.querySelector('#moves').textContent`); !strings.Contains(said, "resign") || !strings.Contains(said, "timeout") {
		t.Errorf("the move list shows no resign and timeout: %q", said)
	}

	must(t, p.ClickElement("#analysis-toggle"))
	mark := `#moves .move-mark[data-step="9"]`
	if err := p.Wait(fmt.Sprintf(`document.querySelector('%s')`, mark), 60*time.Second); err != nil {
		t.Fatalf("no mark on South's c2c3 (step 9): %v; the review says %q", err,
			pg(`(document.querySelector('#review-summary') || {textContent: 'no review panel'}).textContent`))
	}
	got := eval[[]string](t, p, fmt.Sprintf(`(() => { const m = document.querySelector('%s');
		return [m.textContent, m.dataset.class, m.previousElementSibling.dataset.action]; })()`, mark))
	if !strings.HasPrefix(got[0], "??") || got[1] != "blunder" || got[2] != "c2c3" {
		t.Errorf("the mark at step 9 is %q, class %q, on %q: want ?? (blunder) on c2c3", got[0], got[1], got[2])
	}
	if n := eval[int](t, p, `document.querySelectorAll('#review-chart .chart-mark.blunder[data-step="9"]').length`); n != 1 {
		t.Errorf("%d dots on the chart at the blunder, want 1", n)
	}
	if summary := pg(`document.querySelector('#review-summary').textContent`); !strings.Contains(summary, "All 14 decisions") {
		t.Errorf("the review's summary says %q: want all 14 decisions judged", summary)
	}
}
