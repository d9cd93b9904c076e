package web_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// TestKingFallen opens, as South, a game of four people in which South's
// king has fallen and the others play on: the banner says plainly that
// South is out of the game, with Watch and Leave and no Resign; the page
// passes axe-core. Watch, pressed from the keyboard, gives the banner back
// to the game and keeps Leave at hand; Leave gives South's seat to a bot
// (the game goes on for the others) and takes the page home.
func TestKingFallen(t *testing.T) {
	for _, tt := range []struct {
		name          string
		width, height int64
		mobile        bool
	}{
		{"desktop", 1366, 768, false},
		{"phone", 390, 844, true},
	} {
		t.Run(tt.name, func(t *testing.T) { kingFallen(t, tt.width, tt.height, tt.mobile) })
	}
}

// kingFallen is TestKingFallen on one screen.
func kingFallen(t *testing.T, width, height int64, mobile bool) {
	site := newSite(t)
	southOut := func(st *server.State) bool { return slices.Contains(st.OutOfPlay, "South") }
	c, st, err := site.Steer("chaturaji", 4, 'K', southOut, 7, 50)
	must(t, err)
	p := newPage(t, width, height, mobile)
	must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
	must(t, p.Wait(fmt.Sprintf(`Number(document.body.dataset.seq) === %d`, st.Seq), 10*time.Second))

	if err := p.Wait(`document.querySelector('#turn').textContent.includes('Your king has fallen: you are out of this game')`, 3*time.Second); err != nil {
		t.Fatalf("South's king fallen, the banner says %q", eval[string](t, p, `document.querySelector('#turn').textContent`))
	}
	if eval[bool](t, p, `!!document.querySelector('#resign')`) {
		t.Error("South is out of the game, and the page still offers Resign")
	}
	if !eval[bool](t, p, `!!document.querySelector('#fallen-watch') && !!document.querySelector('#fallen-leave')`) {
		t.Fatal("the banner offers no Watch and Leave")
	}
	// Both in sight, within the banner's fixed height (it hides what overflows).
	if cut := eval[[]string](t, p, `(() => {
		const b = document.querySelector('#turn').getBoundingClientRect();
		return ['#fallen-watch', '#fallen-leave'].filter(sel => {
			const r = document.querySelector(sel).getBoundingClientRect();
			return r.top < b.top || r.bottom > b.bottom || r.left < b.left || r.right > b.right;
		});
	})()`); len(cut) > 0 {
		t.Errorf("%v cut off by the banner (%s)", cut, eval[string](t, p, `JSON.stringify(document.querySelector('#turn').getBoundingClientRect())`))
	}
	if bad := axeCheck(t, p); len(bad) > 0 {
		t.Errorf("South out of the game (%dx%d): %d accessibility violations:\n%s", width, height, len(bad), strings.Join(bad, "\n"))
	}

	// Watch, from the keyboard: the banner shows the game again.
	eval[bool](t, p, `(document.querySelector('#fallen-watch').focus(), true)`)
	must(t, p.Press("Enter"))
	must(t, p.Wait(`!document.querySelector('#turn.fallen') && !!document.querySelector('#leave-game')`, 3*time.Second))
	if note := eval[string](t, p, `document.querySelector('#leave').textContent`); !strings.Contains(note, "out of this game") {
		t.Errorf("watching, the page's controls say %q: want that South is out", note)
	}
	if eval[bool](t, p, `!!document.querySelector('#resign')`) {
		t.Error("watching, the page offers Resign")
	}

	// Leave: a bot takes South's seat, the game goes on, the page goes home.
	must(t, p.ClickElement("#leave-game"))
	must(t, p.Wait(`location.pathname === '/'`, 10*time.Second))
	after, err := site.State(c.ID)
	must(t, err)
	if !strings.HasPrefix(after.Seats[0].Player, "bot:") || after.Status != "live" {
		t.Errorf("after South left: South played by %q, the game %s; want a bot, and the game live", after.Seats[0].Player, after.Status)
	}
	evs, err := site.Events(c.ID)
	must(t, err)
	if e := evs[len(evs)-1]; e.Kind != server.KindSeat || e.Seat != "South" || e.Reason != server.ReasonLeft {
		t.Errorf("the last event %+v: want South's seat given to a bot, reason left", e)
	}
}
