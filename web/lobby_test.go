package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/web/webtest"
)

// choosePool sets the lobby page's choices: rules, time, rated or casual,
// and the seconds before bots ("0": people only; any number, as a test
// needs, becomes a choice of the menu).
func choosePool(t *testing.T, p *webtest.Page, rules, turn, kind, bots string) {
	t.Helper()
	must(t, p.Wait(`document.body.dataset.ready && document.body.dataset.lobby === 'open' && document.querySelector('#rules option')`, 10*time.Second))
	eval[bool](t, p, fmt.Sprintf(`(() => {
		const bots = document.querySelector('#bots');
		if (![...bots.options].some(o => o.value === %[4]q)) bots.append(new Option('bots after ' + %[4]q + ' s', %[4]q));
		for (const [id, v] of [['rules', %[1]q], ['turn', %[2]q], ['rated', %[3]q], ['bots', %[4]q]]) {
			const s = document.querySelector('#' + id);
			s.value = v;
			if (s.value !== v) throw new Error('the lobby offers no ' + id + ' ' + v);
			s.dispatchEvent(new Event('change', {bubbles: true}));
		}
		return true;
	})()`, rules, turn, kind, bots))
}

// seatedGame waits until the page is on a game's page, seated, and
// returns the game's id.
func seatedGame(t *testing.T, p *webtest.Page, within time.Duration) string {
	t.Helper()
	must(t, p.Wait(`location.pathname.startsWith('/game/') && document.body.dataset.seq`, within))
	return eval[string](t, p, `decodeURIComponent(location.pathname.split('/')[2])`)
}

// TestLoneSeekerGetsBots: a guest alone presses Play on the home page (the
// lobby's remembered pool, bots after a wait); nobody else comes, and when
// the wait ends the guest is in a game with three bots, as the seat the
// lobby gave, holding its token.
func TestLoneSeekerGetsBots(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 390, 844, true)
	must(t, p.Go(site.URL+"/play"))
	choosePool(t, p, "chaturaji", "15s", "casual", "1")
	// Remembered: Play on the home page seeks that pool at once.
	must(t, p.Go(site.URL+"/"))
	must(t, p.Wait(`document.querySelector('#play-pool').textContent.includes('after 1 s')`, 5*time.Second))
	start := time.Now()
	must(t, p.ClickElement("#play"))
	must(t, p.Wait(`document.body.dataset.seeking === 'yes' || location.pathname.startsWith('/game/')`, 10*time.Second))
	id := seatedGame(t, p, 15*time.Second)
	waited := time.Since(start)
	st, err := site.State(id)
	must(t, err)
	var bots, people []string
	for _, s := range st.Seats {
		if strings.HasPrefix(s.Player, "bot") {
			bots = append(bots, s.Seat)
		} else {
			people = append(people, s.Seat)
		}
	}
	if len(bots) != 3 || len(people) != 1 {
		t.Fatalf("the lone seeker's game seats bots %v and people %v, want three bots and one person", bots, people)
	}
	if waited < time.Second {
		t.Errorf("bots came after %v, before the wait of 1 s ended", waited)
	}
	held := eval[[]string](t, p, fmt.Sprintf(`import('/static/js/api.js').then(m => Object.keys(m.tokens(%q)))`, id))
	if len(held) != 1 || held[0] != people[0] {
		t.Errorf("the page holds the tokens of %v, want %s's alone", held, people[0])
	}
	must(t, p.Wait(`document.querySelectorAll('#seats .seat.you').length === 1`, 10*time.Second))
	t.Logf("a lone seeker with bots after 1 s was in a game after %v", waited.Round(time.Millisecond))
}

// TestOpenTable: one guest opens a table with two seats for others; another
// sees it listed live and joins it; the opener starts it with bots in the
// seats still empty, and both are seated in one game with two bots.
func TestOpenTable(t *testing.T) {
	site := newSite(t)
	opener, joiner := newPage(t, 1366, 768, false), newPage(t, 390, 844, true)
	for _, p := range []*webtest.Page{opener, joiner} {
		must(t, p.Go(site.URL+"/play"))
		choosePool(t, p, "chaturaji", "1m0s", "casual", "0")
	}
	eval[bool](t, opener, `(() => { const d = document.querySelector('#open-table'); d.open = true; document.querySelector('#table-open').value = '2'; return true; })()`)
	must(t, opener.ClickElement("#open"))
	must(t, joiner.Wait(`document.querySelector('#tables li[data-table] button[data-join]')`, 10*time.Second))
	must(t, joiner.ClickElement("#tables li[data-table] button[data-join]"))
	must(t, opener.Wait(`document.querySelector('#tables li[data-table] button[data-start]') && document.querySelectorAll('#tables li[data-table] .lobby-player').length === 2`, 10*time.Second))
	if n := eval[int](t, joiner, `document.querySelectorAll('#tables button[data-start]').length`); n != 0 {
		t.Errorf("the joiner is offered to start the opener's table")
	}
	must(t, opener.ClickElement("#tables li[data-table] button[data-start]"))
	a, b := seatedGame(t, opener, 15*time.Second), seatedGame(t, joiner, 15*time.Second)
	if a != b {
		t.Fatalf("the opener is in game %s, the joiner in %s", a, b)
	}
	st, err := site.State(a)
	must(t, err)
	bots := 0
	for _, s := range st.Seats {
		if strings.HasPrefix(s.Player, "bot") {
			bots++
		}
	}
	if bots != 2 {
		t.Errorf("the table's game has %d bots, want 2: %+v", bots, st.Seats)
	}
}
