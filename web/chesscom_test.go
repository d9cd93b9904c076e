package web_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// The colours docs/rules.md §6.12 gives chesscom-chaturaji's seats, as
// chess.com shows them.
var chesscomColours = map[string]string{"South": "red", "West": "blue", "North": "yellow", "East": "green"}

// hueOf names the colour of a #rrggbb fill by its dominant channels:
// red, yellow, green or blue (what a player sees, not the palette's
// exact value).
func hueOf(fill string) string {
	if len(fill) != 7 || fill[0] != '#' {
		return "?" + fill
	}
	c := func(i int) int {
		v, _ := strconv.ParseUint(fill[i:i+2], 16, 8)
		return int(v)
	}
	r, g, b := c(1), c(3), c(5)
	switch {
	case r > 2*b && g > 2*b && r > 150 && g > 150:
		return "yellow"
	case r > g+60 && r > b+60:
		return "red"
	case g > r+40 && g > b+20:
		return "green"
	case b > r+60 && b > g+20:
		return "blue"
	}
	return "?" + fill
}

// checkChesscomLook checks what a chesscom-chaturaji page shows before
// play: every seat's army in chess.com's colour (its badge and its
// pieces), the note that the artwork is the project's own, the bishop
// drawn as itself and not as an elephant, and axe-core.
func checkChesscomLook(t *testing.T, pg func(js string) string) {
	t.Helper()
	for seat, want := range chesscomColours {
		badge := pg(fmt.Sprintf(`document.querySelector('#seats li[data-seat=%s] .army-badge .token').getAttribute('fill')`, seat))
		name := pg(fmt.Sprintf(`document.querySelector('#seats li[data-seat=%s] .colour-name').textContent`, seat))
		if hueOf(badge) != want || !strings.Contains(strings.ToLower(name), want) {
			t.Errorf("%s's army is drawn %s (%s) and named %q, want %s", seat, badge, hueOf(badge), name, want)
		}
	}
	if note := pg(`(document.querySelector('#art-note') || {}).textContent || ''`); !strings.Contains(note, "chess.com") || !strings.Contains(note, "own") {
		t.Errorf("the artwork note says %q: want that the artwork is the project's own", note)
	}
	// South's bishop on c1: its own glyph (a mitre, drawn even-odd), not
	// the elephant's.
	if got := pg(`(() => {
		const g = document.querySelector('#board g.piece[data-square=c1]');
		return g ? g.querySelector('title').textContent + '|' + g.querySelectorAll('path[fill-rule=evenodd]').length : 'none';
	})()`); got != "South's bishop on c1|1" {
		t.Errorf("c1 shows %q, want South's bishop in its own glyph", got)
	}
}

// TestChesscomGame plays chesscom-chaturaji from the page: set up on the
// home page (which lists the preset) against three bots, with a short
// clock, and played to its end, its armies in chess.com's colours; the
// rules page lists it; then a second game whose South and West the page
// holds: South resigns from the page and its army is shown dead (greyed,
// its pieces still on the board, its seat saying so), West resigns too,
// the banner says the player's armies are dead, and the bots play the game
// out. The page passes axe-core before play and with an army dead.
func TestChesscomGame(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1280, 900, false)
	pg := func(js string) string { return eval[string](t, p, js) }

	must(t, p.Go(site.URL+"/?rules=chesscom-chaturaji"))
	must(t, p.Wait(`document.querySelector('#seat-East') && document.querySelector('#house-clock')`, 5*time.Second))
	if got := pg(`document.querySelector('#preset').value`); got != "chesscom-chaturaji" {
		t.Fatalf("the new-game form chose %q, want chesscom-chaturaji among its presets", got)
	}
	eval[bool](t, p, `(() => {
		const c = document.querySelector('#house-clock');
		c.value = '16';
		c.dispatchEvent(new Event('input', {bubbles: true}));
		c.dispatchEvent(new Event('change', {bubbles: true}));
		for (const s of ['West', 'North', 'East']) document.querySelector('#seat-' + s).value = 'bot:greedy';
		return true;
	})()`)
	must(t, p.ClickElement("#create"))
	if err := p.Wait(`document.querySelector("#open-game")`, 5*time.Second); err != nil {
		t.Fatalf("%v: %s", err, pg(`document.querySelector("#created").textContent`))
	}
	must(t, p.ClickElement("#open-game"))
	must(t, p.Wait(`location.pathname.startsWith('/game/') && document.body.dataset.seq && document.querySelector('#board g.piece[data-square=c1]')`, 10*time.Second))
	if rules := pg(`document.querySelector('#game-title a').textContent`); rules != "chesscom-chaturaji+clock=16" {
		t.Errorf("the game plays %q, want chesscom-chaturaji+clock=16", rules)
	}
	checkChesscomLook(t, pg)
	if bad := axeCheck(t, p); len(bad) > 0 {
		t.Errorf("chesscom-chaturaji's game page: %d accessibility violations:\n%s", len(bad), strings.Join(bad, "\n"))
	}
	t0 := time.Now()
	playUntil(t, p, `document.body.dataset.status === 'finished'`, 120*time.Second)
	id := pg(`location.pathname.split('/')[2]`)
	st, err := site.State(id)
	must(t, err)
	if st.Status != "finished" || len(st.Ranks) != 4 {
		t.Fatalf("the page says finished; the server: %s, ranks %v", st.Status, st.Ranks)
	}
	t.Logf("a game of chesscom-chaturaji+clock=16 from the page: %v, %d events, ended by %s", time.Since(t0).Round(time.Millisecond), st.Seq, st.End)

	// South and West are this page's: South resigns at its turn, and its
	// army is shown dead while West plays on; then West resigns too, and
	// the page says the player is out while North, a person (the test,
	// through the API), plays on. North's turn comes next and waits, so
	// the page must say it then: with bots alone left, the game can end
	// (a claim) before the page draws again.
	c, err := site.Create(server.NewGame{Rules: "chesscom-chaturaji", Seats: []string{"human", "human", "human", "bot:greedy"}, HostSeats: []string{"South", "West", "North"}})
	must(t, err)
	// The rules page lists the preset and shows its rules.
	must(t, p.Go(site.URL+"/rules/chesscom-chaturaji"))
	if err := p.Wait(`document.querySelector('#preset-nav a[href="/rules/chesscom-chaturaji"]') && document.querySelector('#rules-text').textContent.includes('sailboat')`, 10*time.Second); err != nil {
		t.Errorf("the rules page does not list chesscom-chaturaji's rules: %v", err)
	}
	for _, i := range []int{1, 0} {
		must(t, p.Go(site.URL+"/"))
		must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=%s&token=%s", site.URL, c.ID, c.Seats[i].Seat, c.Seats[i].Token)))
		must(t, p.Wait(`document.body.dataset.seq && document.querySelector('#turn')`, 10*time.Second))
	}
	if err := p.Wait(`document.querySelectorAll('#seats li.you').length === 2`, 5*time.Second); err != nil {
		t.Fatalf("the page holds %d seats, want South and West", eval[int](t, p, `document.querySelectorAll('#seats li.you').length`))
	}
	eval[bool](t, p, `(() => {
		window.bannerTexts = new Set();
		const note = () => window.bannerTexts.add(document.querySelector('#turn').textContent);
		new MutationObserver(note).observe(document.querySelector('#turn'), {childList: true, subtree: true, characterData: true});
		return true;
	})()`)
	resign := func(seat, dies string) {
		t.Helper()
		must(t, p.Wait(myTurn+` && document.querySelector('#turn').textContent.includes('Your turn, `+seat+`') && document.querySelector('#resign')`, 10*time.Second))
		must(t, p.ClickElement("#resign"))
		must(t, p.Wait(`document.querySelector('dialog#confirm-resign[open]')`, 5*time.Second))
		if text := pg(`document.querySelector('dialog#confirm-resign').textContent`); !strings.Contains(text, seat+"'s army dies "+dies) {
			t.Errorf("the resign dialog says %q: want that %s's army dies %s", text, seat, dies)
		}
		must(t, p.ClickElement("#confirm-resign [data-answer=yes]"))
	}
	resign("South", "now")
	must(t, p.Wait(`document.querySelector('#seats li[data-seat=South]').textContent.includes('dead')`, 10*time.Second))
	dead := eval[[]string](t, p, `[...document.querySelectorAll('#board g.piece[data-piece^=b]')].map(g => g.classList.contains('frozen') + ' ' + g.querySelector('title').textContent)`)
	if len(dead) != 8 {
		t.Errorf("South's dead army shows %d pieces, want its 8 still on the board: %v", len(dead), dead)
	}
	for _, d := range dead {
		if !strings.HasPrefix(d, "true ") || !strings.HasSuffix(d, "(dead)") {
			t.Errorf("South's piece %q: want it greyed, and said dead", d)
		}
	}
	if bad := axeCheck(t, p); len(bad) > 0 {
		t.Errorf("South's army dead: %d accessibility violations:\n%s", len(bad), strings.Join(bad, "\n"))
	}
	resign("West", "now")
	if err := p.Wait(`document.querySelector('#turn').textContent.includes('Your army is dead: you are out of this game')`, 10*time.Second); err != nil {
		t.Errorf("the banner does not say the player's armies are dead: %v\nit said: %v", err, eval[[]string](t, p, `[...window.bannerTexts]`))
	}
	// North, whose turn follows West's resignation, resigns: East's army,
	// the last alive, wins.
	st, err = site.State(c.ID)
	must(t, err)
	if st.Status != "live" || st.ToAct != "North" {
		t.Fatalf("after West's resignation the game is %s, %s to act: want North's turn", st.Status, st.ToAct)
	}
	must(t, site.Act(c.ID, c.Seats[2].Token, "resign"))
	must(t, p.Wait(`document.body.dataset.status === 'finished'`, 60*time.Second))
	if said := pg(`document.querySelector('#moves').textContent`); !strings.Contains(said, "resign") {
		t.Errorf("the move list shows no resign: %q", said)
	}
}
