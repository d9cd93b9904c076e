package web_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// notifyLog records the notifications the page shows (the notify module's
// chaturaji:notify events), in every document the tab loads.
const notifyLog = `(() => {
	window.notes = [];
	document.addEventListener('chaturaji:notify', (e) => window.notes.push(e.detail));
})()`

// TestHiddenTabKeepsUp plays South against bots in a tab put in the
// background after each move, as a person does who opens another tab: the
// browser gives a hidden page no animation frames, yet when the turn comes
// back the page has taken the events in, titles the tab "Your turn",
// plays the turn's sound and, its switch turned on (the permission allowed
// as a person would), shows a system notification; none while the tab is
// in sight.
func TestHiddenTabKeepsUp(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1280, 900, false)
	must(t, p.OnNewDocument(soundLog+";"+notifyLog))
	must(t, p.Allow(site.URL, "notifications"))
	delay := int64(200) // the bots play after South has gone
	c := southsTurn(t, site, p, server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}, BotDelayMS: &delay})
	must(t, p.ClickElement("#notify"))
	must(t, p.Wait(`document.querySelector('#notify').getAttribute('aria-pressed') === 'true'`, 5*time.Second))

	for turns := 0; turns < 2; turns++ {
		must(t, p.Hide())
		if !eval[bool](t, p, `document.hidden`) {
			t.Fatal("the tab is not hidden behind another")
		}
		before := seq(t, p)
		eval[bool](t, p, `(window.sounds = [], window.notes = [], document.querySelector('#play-move').click(), true)`)
		// The page, hidden, must follow the bots to South's next turn.
		if err := p.Wait(`(`+turnOrLost+`) && Number(document.body.dataset.seq) > `+fmt.Sprint(before), 20*time.Second); err != nil {
			st, _ := site.State(c.ID)
			if st != nil {
				t.Fatalf("hidden, the page did not follow the game (the server is at event %d, %s to act, %s): %v", st.Seq, st.ToAct, st.Status, err)
			}
			t.Fatal(err)
		}
		if !eval[bool](t, p, myTurn) {
			t.Logf("the bots ended the game or took South's king after %d turns", turns)
			break
		}
		if got := eval[string](t, p, `document.title`); !strings.HasPrefix(got, "Your turn") {
			t.Errorf("hidden, on South's turn the tab says %q", got)
		}
		if got := eval[[]string](t, p, `window.sounds`); !slices.Contains(got, "turn") {
			t.Errorf("hidden, the turn came back with sounds %v: want turn", got)
		}
		if got := eval[[]string](t, p, `window.notes`); len(got) != 1 || !strings.Contains(got[0], "South to move") {
			t.Errorf("hidden, the turn came back with notifications %q: want one, South's", got)
		}
		st, err := site.State(c.ID)
		must(t, err)
		if st.ToAct != "South" || int(st.Seq) != seq(t, p) {
			t.Errorf("the page shows event %d, South to act; the server is at event %d, %s to act", seq(t, p), st.Seq, st.ToAct)
		}
		must(t, p.Show())
		must(t, p.Wait(`!document.hidden`, 5*time.Second))
	}

	// In sight, the page says it is South's turn itself: no notification.
	if !awaitTurn(t, p) {
		return
	}
	eval[bool](t, p, `(window.notes = [], true)`)
	before := seq(t, p)
	must(t, p.ClickElement("#play-move"))
	waitSeqAfter(t, p, before)
	if awaitTurn(t, p) {
		if got := eval[[]string](t, p, `window.notes`); len(got) > 0 {
			t.Errorf("in sight, the page notified %q", got)
		}
	}
}
