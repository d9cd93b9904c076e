package web_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/web/webtest"
)

// hostGame creates a game on the home page as a person would, West human
// and the other two seats greedy bots (and the form changed by setup, a
// script run before Create game), opens it as its creator, and returns its
// id and West's invite link as the page shows it.
func hostGame(t *testing.T, site *webtest.Site, p *webtest.Page, setup string) (id, link string) {
	t.Helper()
	must(t, p.Go(site.URL+"/"))
	must(t, p.Wait(`document.querySelector('#seat-East')`, 5*time.Second))
	eval[bool](t, p, `(() => {
		const set = (sel, v) => { const e = document.querySelector(sel); e.value = v; e.dispatchEvent(new Event('change')); };
		set('#seat-West', 'human');
		set('#seat-North', 'bot:greedy');
		set('#seat-East', 'bot:greedy');
		document.querySelector('#name-South').value = 'Ann';
		document.querySelector('#name-West').value = 'Bob';
		`+setup+`
		return true;
	})()`)
	must(t, p.ClickElement("#create"))
	if err := p.Wait(`document.querySelector('#invite-West')`, 5*time.Second); err != nil {
		t.Fatalf("no invite link for West after Create game: %v\n%s", err, eval[string](t, p, `document.querySelector('#created').innerText`))
	}
	link = eval[string](t, p, `document.querySelector('#invite-West').value`)
	must(t, p.ClickElement("#open-game"))
	must(t, p.Wait(`location.pathname.startsWith('/game/') && document.body.dataset.seq`, 10*time.Second))
	return eval[string](t, p, `location.pathname.split('/')[2]`), link
}

// heldSeats lists the seats whose tokens a page keeps for a game.
func heldSeats(t *testing.T, p *webtest.Page, id string) string {
	t.Helper()
	return eval[string](t, p, fmt.Sprintf(`Object.keys(JSON.parse(localStorage.getItem('chaturaji.tokens.%s') || '{}')).sort().join(',')`, id))
}

// youAre waits until a page marks exactly the given seats as its own.
func youAre(t *testing.T, p *webtest.Page, seats string) {
	t.Helper()
	js := `[...document.querySelectorAll('#seats .seat.you')].map(e => e.dataset.seat).join(',')`
	if err := p.Wait(fmt.Sprintf(`%s === %q`, js, seats), 10*time.Second); err != nil {
		t.Fatalf("the page marks %q as its seats, want %q: %v", eval[string](t, p, js), seats, err)
	}
}

// TestFriendsSeatIsTheirs creates a game for two on the home page and
// sends West's invite link to a friend in a browser of their own. The
// creator's browser holds South alone: when South has played and the turn
// is West's, the creator's page does not offer West's move (it used to say
// "Your turn, West" and move the friend's pieces); the friend's page does.
func TestFriendsSeatIsTheirs(t *testing.T) {
	site := newSite(t)
	host, friend := newPage(t, 1280, 900, false), newPage(t, 1280, 900, false)
	// Eight seconds a decision (an option the form does not have, for a
	// short test, long enough for a busy machine's pages to see West's
	// turn before it runs out), passing when out of time.
	id, link := hostGame(t, site, host, `
		const time = document.querySelector('#time');
		time.append(new Option('8 s a move', '8000'));
		set('#time', '8000');
		set('#timeout', 'pass');`)
	if got := heldSeats(t, host, id); got != "South" {
		t.Errorf("the creator's browser holds %q, want South alone", got)
	}
	must(t, friend.Go(link))
	youAre(t, friend, "West")
	if h := eval[string](t, friend, `location.hash`); h != "" {
		t.Errorf("the invite stays in the friend's address: %q", h)
	}

	// South, the creator, plays; the turn comes to West. A West that
	// cannot move with its roll passes at once: play round after round,
	// South at once (not waiting out its clock, which gave the bots time
	// to take West's king first), until West has a move.
	south := eval[string](t, host, fmt.Sprintf(`JSON.parse(localStorage.getItem('chaturaji.tokens.%s')).South`, id))
	deadline := time.Now().Add(60 * time.Second)
	for {
		for ; ; time.Sleep(20 * time.Millisecond) {
			st, err := site.State(id)
			must(t, err)
			if st.ToAct == "West" && len(st.Actions) > 0 {
				break
			}
			if st.Result != "" || time.Now().After(deadline) {
				t.Fatalf("West never had a move to make: %+v", st)
			}
			if st.ToAct == "South" && len(st.Actions) > 0 {
				site.Act(id, south, st.Actions[0]) // refused if South's turn just ended: looked at again
			}
		}
		for _, p := range []struct {
			page *webtest.Page
			cond string
		}{
			{host, `document.body.dataset.toAct === 'West'`},
			{friend, `document.body.dataset.toAct === 'West' && (` + myTurn + `)`},
		} {
			if err := p.page.Wait(p.cond, 7*time.Second); err != nil {
				st, _ := site.State(id)
				t.Fatalf("%v\nthe game: %+v\n%s", err, st, p.page.Describe())
			}
		}
		if eval[string](t, host, `document.body.dataset.toAct`) == "West" {
			break
		}
		// West's clock ran out before the creator's page was looked at:
		// the next round.
	}
	banner := eval[string](t, host, `document.querySelector('#turn').textContent`)
	if strings.Contains(banner, "Your turn") || eval[bool](t, host, "!!("+myTurn+")") || eval[int](t, host, `document.querySelectorAll('#board rect.movable').length`) > 0 {
		t.Fatalf("the creator's page offers West's move: %q\n%s", banner, host.Describe())
	}
	if !strings.Contains(eval[string](t, friend, `document.querySelector('#turn').textContent`), "Your turn, West") {
		t.Errorf("the friend's page does not say it is their turn: %s", friend.Describe())
	}
	// The friend plays; the creator's page sees the move.
	before := seq(t, host)
	must(t, friend.ClickElement("#play-move"))
	waitSeqAfter(t, host, before)
}

// TestInviteClaimedTwice opens West's invite link in two browsers: the
// first takes the seat; the second is told the seat is taken and watches.
func TestInviteClaimedTwice(t *testing.T) {
	site := newSite(t)
	host := newPage(t, 1280, 900, false)
	id, link := hostGame(t, site, host, "")
	first, second := newPage(t, 1280, 900, false), newPage(t, 1280, 900, false)
	must(t, first.Go(link))
	youAre(t, first, "West")
	must(t, second.Go(link))
	must(t, second.Wait(`document.body.dataset.seq && document.querySelector('#seats .seat')`, 10*time.Second))
	msg := eval[string](t, second, `document.querySelector('#message').textContent`)
	if !strings.Contains(msg, "seat West is taken") || eval[string](t, second, `document.body.dataset.claim || ''`) != "refused" {
		t.Errorf("the second browser is told %q, want that West's seat is taken", msg)
	}
	youAre(t, second, "")
	if got := heldSeats(t, second, id); got != "" {
		t.Errorf("the second browser holds %q, want nothing", got)
	}
	if mode := eval[string](t, second, `document.querySelector('#controls').dataset.mode`); mode != "watch" {
		t.Errorf("the second browser's controls are in %q mode, want watch", mode)
	}
	if got := heldSeats(t, first, id); got != "West" {
		t.Errorf("the first browser holds %q, want West", got)
	}
}

// clickConfirm answers the confirmation dialog the page shows.
func clickConfirm(t *testing.T, p *webtest.Page, dialog string, yes bool) {
	t.Helper()
	must(t, p.Wait(fmt.Sprintf(`document.querySelector('dialog#%s[open]')`, dialog), 5*time.Second))
	answer := "no"
	if yes {
		answer = "yes"
	}
	must(t, p.ClickElement(fmt.Sprintf(`dialog#%s button[data-answer=%q]`, dialog, answer)))
	must(t, p.Wait(fmt.Sprintf(`!document.querySelector('dialog#%s')`, dialog), 5*time.Second))
}

// TestRematchOffer plays no further than an abort: the creator offers a
// rematch, the friend, in a browser of their own, sees the offer and
// accepts it, and both land in the new game, each in their own seat, each
// holding only that seat. A spectator sees the offer but has no rematch
// button, and the API refuses its offer.
func TestRematchOffer(t *testing.T) {
	site := newSite(t)
	host, friend, watcher := newPage(t, 1280, 900, false), newPage(t, 1280, 900, false), newPage(t, 1280, 900, false)
	id, link := hostGame(t, site, host, "")
	must(t, friend.Go(link))
	youAre(t, friend, "West")
	must(t, watcher.Go(site.URL+"/game/"+id))
	must(t, watcher.Wait(`document.body.dataset.seq`, 10*time.Second))

	must(t, host.Wait(`document.querySelector('#abort')`, 5*time.Second))
	must(t, host.ClickElement("#abort"))
	clickConfirm(t, host, "confirm-abort", true)
	for _, p := range []*webtest.Page{host, friend, watcher} {
		must(t, p.Wait(`document.body.dataset.status === 'finished' && document.querySelector('#over:not([hidden]) #rematch-panel')`, 10*time.Second))
	}
	if n := eval[int](t, watcher, `document.querySelectorAll('#rematch, #rematch-accept').length`); n != 0 {
		t.Errorf("the spectator has %d rematch buttons, want none", n)
	}
	status := eval[float64](t, watcher, fmt.Sprintf(`fetch('/api/games/%s/rematch', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"answer": "offer"}'}).then(r => r.status)`, id))
	if status != 401 {
		t.Errorf("a spectator's offer answers %v, want 401", status)
	}

	must(t, host.ClickElement("#rematch"))
	for _, p := range []*webtest.Page{friend, watcher} {
		must(t, p.Wait(`document.querySelector('#rematch-status') && document.querySelector('#rematch-status').textContent.includes('South offers a rematch')`, 10*time.Second))
	}
	if n := eval[int](t, watcher, `document.querySelectorAll('#rematch-accept, #rematch-decline').length`); n != 0 {
		t.Errorf("the spectator may answer the offer")
	}
	must(t, friend.ClickElement("#rematch-accept"))
	again := ""
	for name, p := range map[string]*webtest.Page{"the creator": host, "the friend": friend} {
		if err := p.Wait(fmt.Sprintf(`location.pathname.startsWith('/game/') && !location.pathname.endsWith(%q) && document.body.dataset.seq`, id), 10*time.Second); err != nil {
			t.Fatalf("%s's page did not move to the rematch: %v", name, err)
		}
		g := eval[string](t, p, `location.pathname.split('/')[2]`)
		if again != "" && g != again {
			t.Fatalf("the two pages moved to games %s and %s", again, g)
		}
		again = g
	}
	youAre(t, host, "South")
	youAre(t, friend, "West")
	if h, f := heldSeats(t, host, again), heldSeats(t, friend, again); h != "South" || f != "West" {
		t.Errorf("in the rematch the creator holds %q and the friend %q, want South and West", h, f)
	}
	st, err := site.State(again)
	must(t, err)
	if st.Seats[0].Name != "Ann" || st.Seats[1].Name != "Bob" || st.Seats[2].Player != "bot:greedy" {
		t.Errorf("the rematch's seats: %+v", st.Seats)
	}
	must(t, watcher.Wait(fmt.Sprintf(`document.querySelector('#rematch-watch[href="/game/%s"]')`, again), 10*time.Second))
}

// TestHelpOff creates a game without engine help: every page, players'
// and spectator's, says so and offers neither hint nor expected scores,
// and the server refuses to analyse the game's position.
func TestHelpOff(t *testing.T) {
	site := newSite(t)
	host, friend, watcher := newPage(t, 1280, 900, false), newPage(t, 1280, 900, false), newPage(t, 1280, 900, false)
	id, link := hostGame(t, site, host, `document.querySelector('#help').checked = false;`)
	must(t, friend.Go(link))
	must(t, watcher.Go(site.URL+"/game/"+id))
	for name, p := range map[string]*webtest.Page{"creator": host, "friend": friend, "spectator": watcher} {
		must(t, p.Wait(`document.body.dataset.seq`, 10*time.Second))
		shown := eval[string](t, p, `['#hint', '#analysis-toggle', '#help-off'].filter(s => { const e = document.querySelector(s); return e && e.checkVisibility(); }).join(' ')`)
		if shown != "#help-off" {
			t.Errorf("the %s's page shows %q, want the notice that help is off alone", name, shown)
		}
	}
	st, err := site.State(id)
	must(t, err)
	if st.Table.Help {
		t.Fatalf("the game's table has help: %+v", st.Table)
	}
	js := fmt.Sprintf(`fetch('/web/analyze', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({rules: 'chaturaji', pos: %q, movetime_ms: 100})}).then(async r => r.status + ' ' + await r.text())`, st.Position)
	if got := eval[string](t, friend, js); !strings.HasPrefix(got, "403 ") || !strings.Contains(got, "engine help off") {
		t.Errorf("the analysis of the live position answers %s, want 403", got)
	}
}

// TestResignAndAbort resigns and aborts from the page, each asked again in
// a dialog that the keyboard reaches and leaves: Escape keeps the game as
// it was; confirmed, an abort ends the game with no result, and a resign
// hands the seat to a bot. Once every human seat has moved, the page
// offers no abort.
func TestResignAndAbort(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1280, 900, false)
	c, err := site.Create(server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}, Names: []string{"Ann"}, AutoPass: new(false)})
	must(t, err)
	must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
	must(t, p.Wait(`document.querySelector('#abort') && document.querySelector('#resign')`, 10*time.Second))

	// Abort, asked again, cancelled with Escape: the focus is on the
	// dialog's safe answer, and comes back.
	must(t, p.ClickElement("#abort"))
	must(t, p.Wait(`document.querySelector('dialog#confirm-abort[open]')`, 5*time.Second))
	if f := eval[string](t, p, `document.activeElement.dataset.answer || document.activeElement.id`); f != "no" {
		t.Errorf("the dialog's focus is on %q, want its Cancel", f)
	}
	must(t, p.Press("Escape"))
	must(t, p.Wait(`!document.querySelector('dialog#confirm-abort')`, 5*time.Second))
	if st, _ := site.State(c.ID); st.Status != "live" {
		t.Fatalf("a cancelled abort ended the game")
	}

	// Confirmed with the keyboard: Tab to Abort, Enter.
	must(t, p.ClickElement("#abort"))
	must(t, p.Wait(`document.querySelector('dialog#confirm-abort[open]')`, 5*time.Second))
	must(t, p.Press("Tab"))
	if f := eval[string](t, p, `document.activeElement.dataset.answer || ''`); f != "yes" {
		t.Fatalf("Tab in the dialog reaches %q, want its Abort", f)
	}
	must(t, p.Press("Enter"))
	must(t, p.Wait(`document.body.dataset.status === 'finished' && document.querySelector('#over-title')`, 10*time.Second))
	if title := eval[string](t, p, `document.querySelector('#over-title').textContent`); title != "Game aborted" {
		t.Errorf("the card says %q, want Game aborted", title)
	}
	rec := recordOf(t, site, c.ID)
	if !strings.Contains(rec, `[Termination "aborted by South"]`) || !strings.Contains(rec, `[Result "*"]`) {
		t.Errorf("the aborted game's record:\n%s", rec)
	}

	// Resign, confirmed: a bot takes South's seat and the game goes on.
	// The bots play without delay here: they may take South's king, and
	// end the game, before the page is looked at; then another game.
	for games := 1; ; games++ {
		c = southsTurn(t, site, p, server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}})
		before := seq(t, p)
		must(t, p.ClickElement("#play-move"))
		waitSeqAfter(t, p, before)
		resignable := `!document.querySelector('#abort') && document.querySelector('#resign')`
		if err := p.Wait(resignable+` || document.body.dataset.status === 'finished' || document.querySelectorAll('#seats .seat.you:not(.frozen)').length === 0`, 5*time.Second); err != nil {
			t.Fatalf("after South, the only human, moved: %v", err)
		}
		if eval[bool](t, p, `!!(`+resignable+`)`) {
			break
		}
		if games == 5 {
			t.Fatal("the bots took South's king right after its first move in five games")
		}
	}
	must(t, p.ClickElement("#resign"))
	clickConfirm(t, p, "confirm-resign", true)
	// The page shows the bot in South's seat, or, once the four bots have
	// ended the game (at once: they play without delay here), the
	// takeover's note in the move list.
	must(t, p.Wait(`document.querySelector('#seats .seat[data-seat="South"]').textContent.includes('bot') ||
		[...document.querySelectorAll('#moves .move-line.note')].some(e => e.textContent.startsWith('South: ') && e.textContent.endsWith('(the player resigned)'))`, 30*time.Second))
	st, err := site.State(c.ID)
	must(t, err)
	if st.Seats[0].Player == "human" {
		t.Errorf("after the resign South is played by %s", st.Seats[0].Player)
	}
	if eval[bool](t, p, `!!document.querySelector('#resign')`) {
		t.Errorf("the page still offers to resign a seat a bot plays")
	}
}

// recordOf reads a game's record.
func recordOf(t *testing.T, site *webtest.Site, id string) string {
	t.Helper()
	resp, err := http.Get(site.Base + "/api/games/" + id + "/record")
	must(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	must(t, err)
	return string(b)
}

// TestSeatsAccessible runs axe-core on what a game's people now see, light
// and dark, on a computer and a phone: the home page with a friend's
// invite link, the creator's game page with its invite and the abort
// dialog open, and the game-over card with a rematch offer to answer.
func TestSeatsAccessible(t *testing.T) {
	axeScript(t)
	for _, scheme := range []string{"light", "dark"} {
		for _, size := range []struct {
			w, h   int64
			mobile bool
		}{{1366, 800, false}, {390, 844, true}} {
			where := fmt.Sprintf("%s, %dx%d", scheme, size.w, size.h)
			t.Run(where, func(t *testing.T) {
				site := newSite(t)
				host, friend := newPage(t, size.w, size.h, size.mobile), newPage(t, size.w, size.h, size.mobile)
				must(t, host.ColorScheme(scheme))
				must(t, friend.ColorScheme(scheme))
				report := func(p *webtest.Page, page string) {
					t.Helper()
					if bad := axeCheck(t, p); len(bad) > 0 {
						t.Errorf("%s (%s): %d accessibility violations:\n%s", page, where, len(bad), strings.Join(bad, "\n"))
					}
				}
				// The home page's creation, read before the game opens.
				must(t, host.Go(site.URL+"/"))
				must(t, host.Wait(`document.querySelector('#seat-East')`, 5*time.Second))
				eval[bool](t, host, `(() => { const s = document.querySelector('#seat-West'); s.value = 'human'; s.dispatchEvent(new Event('change')); return true; })()`)
				must(t, host.ClickElement("#create"))
				must(t, host.Wait(`document.querySelector('#invite-West')`, 5*time.Second))
				report(host, "home, a game created")
				link := eval[string](t, host, `document.querySelector('#invite-West').value`)
				must(t, host.ClickElement("#open-game"))
				must(t, host.Wait(`document.body.dataset.seq && document.querySelector('#invite:not([hidden]) [data-invite="West"]') && document.querySelector('#abort')`, 10*time.Second))
				report(host, "game, the invite panel")
				must(t, host.ClickElement("#abort"))
				must(t, host.Wait(`document.querySelector('dialog#confirm-abort[open]')`, 5*time.Second))
				report(host, "game, the abort dialog")
				must(t, host.Press("Escape"))

				must(t, friend.Go(link))
				youAre(t, friend, "West")
				must(t, host.ClickElement("#abort"))
				clickConfirm(t, host, "confirm-abort", true)
				must(t, host.Wait(`document.querySelector('#over:not([hidden]) #rematch')`, 10*time.Second))
				must(t, host.ClickElement("#rematch"))
				must(t, friend.Wait(`document.querySelector('#over:not([hidden]) #rematch-accept')`, 10*time.Second))
				report(friend, "game over, a rematch offered")
			})
		}
	}
}
