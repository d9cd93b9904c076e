package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// boardPlaces makes the page note, at every event it shows, where the
// board is drawn (its top and bottom in the viewport) and how tall the
// banner above it is; window.places holds them.
const boardPlaces = `(() => {
	window.places = [];
	const note = () => {
		if (document.body.dataset.status !== 'live') return; // the game-over card takes the board's place on a phone
		const b = document.querySelector('svg.board').getBoundingClientRect();
		window.places.push({seq: Number(document.body.dataset.seq || 0), top: Math.round(b.top), bottom: Math.round(b.bottom), banner: Math.round(document.querySelector('#turn').getBoundingClientRect().height)});
	};
	new MutationObserver(note).observe(document.body, {attributes: true, attributeFilter: ['data-seq']});
	return true;
})()`

type place struct {
	Seq, Top, Bottom, Banner int
}

// TestBoardStaysStill watches sixty events of a game of bots and South
// (the test) on a laptop's
// screen (1366x768) and on a phone (390x844): whatever the banner above
// the board says (a turn, a roll, what the last move took, a pass and its
// reason), the board stays where it is, wholly in view.
func TestBoardStaysStill(t *testing.T) {
	for _, c := range []struct {
		name          string
		width, height int64
		mobile        bool
	}{{"laptop", 1366, 768, false}, {"phone", 390, 844, true}} {
		t.Run(c.name, func(t *testing.T) {
			site := newSite(t)
			delay := int64(60)
			p := newPage(t, c.width, c.height, c.mobile)
			var places []place
			// Once the bots take South's king they play the game out at
			// full speed: a game that ends so before the page saw ten
			// events is replaced by another, five at most.
			for games := 1; len(places) < 10; games++ {
				if games > 5 {
					t.Fatalf("five games ended with the page showing %d events or fewer", len(places))
				}
				cr, err := site.Create(server.NewGame{Seats: []string{"human", "bot:greedy", "bot:random", "bot:greedy"}, BotDelayMS: &delay})
				must(t, err)
				must(t, p.Go(site.URL+"/game/"+cr.ID))
				must(t, p.Wait(`document.body.dataset.seq`, 20*time.Second))
				eval[bool](t, p, boardPlaces)
				// South, the test through the API, plays its first move each turn.
				for eval[int](t, p, `window.places.length`) < 60 {
					must(t, p.Wait(`document.body.dataset.status === 'finished' || document.body.dataset.toAct === 'South'`, 20*time.Second))
					st, err := site.State(cr.ID)
					must(t, err)
					if st.Status != "live" {
						break
					}
					if st.ToAct == "South" && len(st.Actions) > 0 {
						must(t, site.Act(cr.ID, cr.Seats[0].Token, st.Actions[0]))
						waitSeqAfter(t, p, int(st.Seq))
					}
				}
				places = eval[[]place](t, p, `window.places`)
			}
			banners := map[int]bool{}
			first := places[0]
			for _, pl := range places {
				banners[pl.Banner] = true
				if pl.Top != first.Top {
					t.Errorf("at event %d the board's top is at %d px, at event %d at %d px (the banner %d px tall, then %d)", pl.Seq, pl.Top, first.Seq, first.Top, pl.Banner, first.Banner)
					break
				}
				if pl.Bottom > int(c.height) {
					t.Errorf("at event %d the board ends at %d px, below the screen's %d", pl.Seq, pl.Bottom, c.height)
					break
				}
			}
			t.Logf("%d events, the board's top at %d px, banners of %v px", len(places), first.Top, fmt.Sprint(banners))
		})
	}
}
