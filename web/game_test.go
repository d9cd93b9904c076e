package web_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/web/webtest"
)

// playUntil plays the page's first legal move whenever it is the page's
// turn, through its keyboard menu, or its Pass button when it has no move
// (a lone king whose roll does not name it may only pass or retire), until
// done is true.
func playUntil(t *testing.T, p *webtest.Page, done string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if eval[bool](t, p, "!!("+done+")") {
			return
		}
		button := ""
		switch {
		case eval[bool](t, p, "!!("+myTurn+") && !document.querySelector('#play-move').disabled"):
			button = "#play-move"
		case eval[bool](t, p, `!!(document.querySelector('svg.board.can-act') && document.querySelector('#act-pass'))`):
			button = "#act-pass"
		}
		if button != "" {
			before := seq(t, p)
			must(t, p.ClickElement(button))
			p.Wait(fmt.Sprintf(`Number(document.body.dataset.seq) > %d || (%s)`, before, done), 5*time.Second)
			continue
		}
		time.Sleep(30 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s\n%s", done, p.Describe())
}

// TestFinishAndReplay sets up a game on the home page (house rules, seats,
// bots), plays it to the end while the scores change, checks the game-over
// panel, asks for a rematch, and replays the game: steps, keys, slider, the
// dice verified against the revealed seed, the record.
func TestFinishAndReplay(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1280, 900, false)
	must(t, p.Go(site.URL+"/"))
	must(t, p.Wait(`document.querySelector('#seat-East')`, 5*time.Second))
	eval[bool](t, p, `(() => {
		document.querySelector('#house-clock').value = '20';
		for (const s of ['West', 'North', 'East']) document.querySelector('#seat-' + s).value = 'bot:greedy';
		document.querySelector('#name-South').value = 'Ann';
		return true;
	})()`)
	must(t, p.ClickElement("#create"))
	if err := p.Wait(`document.querySelector("#open-game")`, 5*time.Second); err != nil {
		t.Fatalf("%v: %s", err, eval[string](t, p, `document.querySelector("#created").textContent`))
	}
	must(t, p.ClickElement("#open-game"))
	must(t, p.Wait(`location.pathname.startsWith('/game/') && document.body.dataset.seq`, 10*time.Second))
	id := eval[string](t, p, `location.pathname.split('/')[2]`)
	if rules := eval[string](t, p, `document.querySelector('#game-title a').textContent`); rules != "chaturaji+clock=20" {
		t.Errorf("the game plays %q, want chaturaji+clock=20", rules)
	}

	// Record every score line the page shows while the game goes on, from
	// the event it shows now.
	shownFrom := eval[int](t, p, `(() => {
		window.scoreLines = new Set();
		const note = () => window.scoreLines.add([...document.querySelectorAll('#seats .seat-score')].map(e => e.textContent).join(','));
		new MutationObserver(note).observe(document.querySelector('#seats'), {childList: true, subtree: true, characterData: true});
		note();
		return Number(document.body.dataset.seq);
	})()`)
	playUntil(t, p, `document.body.dataset.status === 'finished'`, 150*time.Second)
	// The scores shown change with the game's, if they changed after the
	// event the page showed when the watch began (greedy bots may end a
	// game before, and a game may end by the clock with no capture at all;
	// TestScores checks a capture's points).
	evs, err := site.Events(id)
	must(t, err)
	var from []int
	changed := false
	for _, e := range evs {
		switch {
		case e.Scores == nil:
		case e.Seq <= int64(shownFrom):
			from = e.Scores
		case !slices.Equal(e.Scores, from):
			changed = true
		}
	}
	final := eval[string](t, p, `[...document.querySelectorAll('#seats .seat-score')].map(e => e.textContent).join(',')`)
	if n := eval[int](t, p, `window.scoreLines.size`); n < 2 && changed {
		t.Errorf("the page showed %d score lines from event %d of a game whose scores changed after it, ending at %s", n, shownFrom, final)
	}

	// The game-over panel: the ranking of the four seats and what to do next.
	must(t, p.Wait(`document.querySelector('#over:not([hidden]) .ranking')`, 5*time.Second))
	if n := eval[int](t, p, `document.querySelectorAll('#over .ranking tr').length`); n != 4 {
		t.Errorf("the ranking has %d rows, want 4", n)
	}
	// The banner says the game is over above the board, the header in view.
	if !eval[bool](t, p, `(() => {
		const b = document.querySelector('.brand').getBoundingClientRect();
		const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
		return !!(hit && hit.closest('.brand'));
	})()`) {
		t.Errorf("something covers the header after the game: %s", eval[string](t, p, `document.elementFromPoint(20, 15).outerHTML.slice(0, 200)`))
	}
	if top, board := eval[float64](t, p, `document.querySelector('#turn').getBoundingClientRect().bottom`), eval[float64](t, p, `document.querySelector('svg.board').getBoundingClientRect().top`); top > board {
		t.Errorf("the game-over banner reaches %.0fpx, below the board's top at %.0fpx", top, board)
	}
	if eval[bool](t, p, `getComputedStyle(document.querySelector('#move-select')).display !== 'none' && document.querySelector('#move-select').offsetParent !== null`) {
		t.Errorf("the move menu still shows after the game")
	}
	// The server broadcasts the end before its state says so (it marks the
	// game finished in the store first): wait for the state to catch up.
	var st *server.State
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var err error
		st, err = site.State(id)
		must(t, err)
		if st.Status == "finished" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page shows the game over, the server says it is %s", st.Status)
		}
	}
	if st.Seed == "" {
		t.Fatalf("the server reveals no seed at the end")
	}
	if got := eval[string](t, p, `document.querySelector('#over .seed code').textContent`); got != st.Seed {
		t.Errorf("the panel shows seed %q, want %q", got, st.Seed)
	}
	first := eval[string](t, p, `document.querySelector('#over .ranking tr td:nth-child(2)').textContent`)
	for i, r := range st.Ranks {
		if r == 1 && !strings.Contains(first, st.Seats[i].Seat) {
			t.Errorf("the first row is %q, want %s first", first, st.Seats[i].Seat)
		}
	}

	// Rematch: a new game with the same table, this browser in South.
	must(t, p.ClickElement("#rematch"))
	must(t, p.Wait(fmt.Sprintf(`location.pathname.startsWith('/game/') && !location.pathname.endsWith(%q) && document.body.dataset.seq`, id), 10*time.Second))
	again := eval[string](t, p, `location.pathname.split('/')[2]`)
	st2, err := site.State(again)
	must(t, err)
	if st2.Rules != "chaturaji+clock=20" || st2.Seats[0].Player != "human" || st2.Seats[0].Name != "Ann" || st2.Seats[1].Player != "bot:greedy" {
		t.Errorf("rematch %s: rules %s, seats %+v", again, st2.Rules, st2.Seats)
	}

	// The replay: the last step first, then back and forth.
	must(t, p.Go(site.URL+"/replay/"+id))
	must(t, p.Wait(`document.body.dataset.step`, 10*time.Second))
	last := eval[int](t, p, `Number(document.body.dataset.step)`)
	if max := eval[int](t, p, `Number(document.querySelector('#slider').max)`); last < 10 || max != last {
		t.Fatalf("the replay opens at step %d of %d", last, max)
	}
	finalBoard := eval[string](t, p, boardSnapshot)
	must(t, p.Key("ArrowLeft"))
	must(t, p.Wait(fmt.Sprintf(`Number(document.body.dataset.step) === %d`, last-1), 3*time.Second))
	must(t, p.Key("Home"))
	must(t, p.Wait(`Number(document.body.dataset.step) === 0`, 3*time.Second))
	if n := eval[int](t, p, `document.querySelectorAll('#board g.piece').length`); n != 32 {
		t.Errorf("the start position has %d pieces, want 32", n)
	}
	must(t, p.ClickElement("#next"))
	must(t, p.Wait(`Number(document.body.dataset.step) === 1 && document.querySelector('#dice .die-box')`, 3*time.Second))
	eval[bool](t, p, `(() => { const s = document.querySelector('#slider'); s.value = 5; s.dispatchEvent(new Event('input')); return true; })()`)
	must(t, p.Wait(`Number(document.body.dataset.step) === 5`, 3*time.Second))
	must(t, p.Key("End"))
	must(t, p.Wait(fmt.Sprintf(`Number(document.body.dataset.step) === %d`, last), 3*time.Second))
	if got := eval[string](t, p, boardSnapshot); got != finalBoard {
		t.Errorf("the last step shows\n%s\nwant\n%s", got, finalBoard)
	}

	// The dice, checked in the page against the seed and its hash.
	must(t, p.ClickElement("#verify"))
	must(t, p.Wait(`document.querySelector('#verify-result.ok')`, 10*time.Second))
	must(t, p.Wait(`document.querySelector('#verify-result').textContent.includes('Signed by')`, 10*time.Second))
	msg := eval[string](t, p, `document.querySelector('#verify-result').textContent`)
	if !strings.Contains(msg, "in this page") || !strings.Contains(msg, "turns are legal") || !strings.Contains(msg, "✓ Signed by this server's key") {
		t.Errorf("verify says %q", msg)
	}
	href := eval[string](t, p, `document.querySelector('#download').href`)
	if !strings.HasSuffix(href, "/api/games/"+id+"/record") {
		t.Errorf("the record link is %q", href)
	}
}

// humanPair starts a game of two human seats, South and West, against two
// greedy bots.
func humanPair(t *testing.T, site *webtest.Site, names ...string) *server.Created {
	t.Helper()
	c, err := site.Create(server.NewGame{Seats: []string{"human", "human", "bot:greedy", "bot:greedy"}, HostSeats: []string{"South", "West"}, Names: names})
	must(t, err)
	return c
}

// TestTwoBrowsers puts two players of one game in two browser contexts:
// each sees the other's moves as they happen. If the bots end the game or
// take a player's king first, the test goes on in a new game.
func TestTwoBrowsers(t *testing.T) {
	site := newSite(t)
	pages := map[string]*webtest.Page{"South": newPage(t, 1100, 800, false), "West": newPage(t, 1100, 800, false)}
	open := func() {
		t.Helper()
		c := humanPair(t, site, "Ann", "Bob")
		for _, s := range c.Seats[:2] {
			p := pages[s.Seat]
			must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=%s&token=%s", site.URL, c.ID, s.Seat, s.Token)))
			must(t, p.Wait(`document.body.dataset.seq`, 10*time.Second))
			if h := eval[string](t, p, `location.hash`); h != "" {
				t.Errorf("the token stays in the address: %q", h)
			}
		}
	}
	open()
	moved := map[string]bool{}
	for games := 1; !(moved["South"] && moved["West"]); {
		// Whoever may move: the game waits for one of the two players.
		both := fmt.Sprintf(`(%s) || document.body.dataset.status === 'finished' || document.querySelector('#seats .seat.you.frozen')`, myTurn)
		mover := ""
		for deadline := time.Now().Add(15 * time.Second); mover == ""; {
			if time.Now().After(deadline) {
				t.Fatalf("neither page may move:\n%s\n%s", pages["South"].Describe(), pages["West"].Describe())
			}
			for seat, p := range pages {
				if eval[bool](t, p, "!!("+both+")") {
					mover = seat
				}
			}
			time.Sleep(30 * time.Millisecond)
		}
		p := pages[mover]
		if !eval[bool](t, p, "!!("+myTurn+")") {
			if games == 5 {
				t.Fatalf("the bots ended %d games first", games)
			}
			open()
			games++
			continue
		}
		from := eval[string](t, p, `document.querySelector('#board rect.movable').dataset.square`)
		must(t, p.ClickSquare(from))
		must(t, p.Wait(`document.querySelector('#board circle.dest')`, 5*time.Second))
		to := eval[string](t, p, `document.querySelector('#board circle.dest').dataset.square`)
		must(t, p.ClickSquare(to))
		letter := map[string]string{"South": "b", "West": "y"}[mover]
		for seat, q := range pages {
			if err := q.Wait(fmt.Sprintf(`document.querySelector('#board rect.last-move.to[data-seat=%q][data-square=%q]')`, letter, to), 5*time.Second); err != nil {
				t.Fatalf("%s's page does not show %s's move %s%s: %v", seat, mover, from, to, err)
			}
		}
		moved[mover] = true
	}
	// Each page knows its own seat.
	if got := eval[string](t, pages["West"], `document.querySelector('#seats .seat.you').dataset.seat`); got != "West" {
		t.Errorf("West's page marks %s as its seat", got)
	}
}

// TestPassAndPlay holds two seats in one browser: the board turns to the
// seat to act. If the bots end the game or take a king of the pair first,
// the test goes on in a new game.
func TestPassAndPlay(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1100, 800, false)
	open := func() {
		t.Helper()
		c := humanPair(t, site)
		must(t, p.Go(site.URL+"/"))
		for _, s := range c.Seats[:2] {
			eval[bool](t, p, fmt.Sprintf(`(localStorage.setItem('chaturaji.tokens.%s', JSON.stringify(Object.assign(JSON.parse(localStorage.getItem('chaturaji.tokens.%s') || '{}'), {%q: %q}))), true)`, c.ID, c.ID, s.Seat, s.Token))
		}
		must(t, p.Go(site.URL+"/game/"+c.ID))
		must(t, p.Wait(`document.body.dataset.seq`, 10*time.Second))
	}
	open()
	seen := map[string]bool{}
	// A seat frozen or out ends this game for the test, as the end does.
	lost := fmt.Sprintf(`(%s) || document.body.dataset.status === 'finished' || document.querySelector('#seats .seat.you.frozen')`, myTurn)
	for games := 1; len(seen) < 2; {
		must(t, p.Wait(lost, 15*time.Second))
		if !eval[bool](t, p, "!!("+myTurn+")") {
			if games == 5 {
				t.Fatalf("the bots ended %d games first; the page acted for %v", games, seen)
			}
			open()
			games++
			continue
		}
		toAct := eval[string](t, p, `document.body.dataset.toAct`)
		bottom := eval[string](t, p, `document.querySelector('svg.board').dataset.bottom || 'b'`)
		want := map[string]string{"South": "b", "West": "y"}[toAct]
		if bottom != want {
			t.Fatalf("%s to act, the board shows %s at the bottom", toAct, bottom)
		}
		seen[toAct] = true
		before := seq(t, p)
		must(t, p.ClickElement("#play-move"))
		waitSeqAfter(t, p, before)
	}
}

// TestPhone plays on a phone-sized screen: the board fits, nothing scrolls
// sideways, and a move can be made by tapping.
func TestPhone(t *testing.T) {
	site := newSite(t)
	c, err := site.Create(server.NewGame{Seats: []string{"human", "bot:3", "bot:3", "bot:3"}})
	must(t, err)
	p := newPage(t, 390, 844, true)
	for _, path := range []string{"/", "/rules/chaturaji", fmt.Sprintf("/game/%s#seat=South&token=%s", c.ID, c.Seats[0].Token)} {
		must(t, p.Go(site.URL+path))
		must(t, p.Wait(`document.querySelector('svg.board g.piece')`, 10*time.Second))
		if w := eval[int](t, p, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
			t.Errorf("%s scrolls sideways by %dpx on a phone", path, w)
		}
	}
	width := eval[float64](t, p, `document.querySelector('svg.board').getBoundingClientRect().width`)
	if width < 330 || width > 390 {
		t.Errorf("the board is %.0fpx wide on a 390px screen", width)
	}
	if top := eval[float64](t, p, `document.querySelector('#seats').getBoundingClientRect().bottom - document.querySelector('svg.board').getBoundingClientRect().top`); top > 0 {
		t.Errorf("the scores are not above the board on a phone")
	}
	// The panels span the screen, as the board does.
	for _, panel := range []string{"#seats", ".dice-panel", "#controls"} {
		if w := eval[float64](t, p, fmt.Sprintf(`document.querySelector(%q).getBoundingClientRect().width`, panel)); w < width-2 {
			t.Errorf("%s is %.0fpx wide on a phone, the board %.0fpx", panel, w, width)
		}
	}
	must(t, p.Wait(myTurn, 10*time.Second))
	from := eval[string](t, p, `document.querySelector('#board rect.movable').dataset.square`)
	must(t, p.ClickSquare(from))
	must(t, p.Wait(`document.querySelector('#board circle.dest')`, 5*time.Second))
	to := eval[string](t, p, `document.querySelector('#board circle.dest').dataset.square`)
	before := seq(t, p)
	must(t, p.ClickSquare(to))
	waitSeqAfter(t, p, before)
}

// TestReconnect cuts the network under a page: it says it is reconnecting,
// comes back by itself and catches up with what happened meanwhile.
func TestReconnect(t *testing.T) {
	site := newSite(t)
	c, err := site.Create(server.NewGame{Seats: []string{"human", "human", "bot:greedy", "bot:greedy"}, HostSeats: []string{"South", "West"}})
	must(t, err)
	p := newPage(t, 1100, 800, false)
	must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=West&token=%s", site.URL, c.ID, c.Seats[1].Token)))
	must(t, p.Wait(`document.querySelector('#net').dataset.state === 'open'`, 10*time.Second))

	// The game comes to wait for one of the two human seats (either may be
	// first: South passes by itself when its roll moves nothing, and the
	// bots may be thinking). Only once the page has shown every event so
	// far is it cut off.
	tokens := map[string]string{"South": c.Seats[0].Token, "West": c.Seats[1].Token}
	st := waitForHuman(t, site, c.ID, tokens)
	must(t, p.Wait(fmt.Sprintf(`Number(document.body.dataset.seq) === %d`, st.Seq), 10*time.Second))

	site.Proxy.Cut()
	must(t, p.Wait(`document.querySelector('#net').textContent.includes('reconnecting')`, 5*time.Second))
	// The seat to act moves from another device while the page is cut off.
	must(t, site.Act(c.ID, tokens[st.ToAct], st.Actions[0]))
	time.Sleep(300 * time.Millisecond)
	if s := seq(t, p); s != int(st.Seq) {
		t.Fatalf("the page heard of event %d while cut off after event %d", s, st.Seq)
	}
	site.Proxy.Restore()
	must(t, p.Wait(`document.querySelector('#net').dataset.state === 'open'`, 15*time.Second))
	waitSeqAfter(t, p, int(st.Seq))
	must(t, p.Wait(fmt.Sprintf(`[...document.querySelectorAll('#moves .move-act')].some(e => e.dataset.action === %q)`, st.Actions[0]), 5*time.Second))
	if got := eval[string](t, p, `document.querySelector('#net').textContent`); got != "Reconnected" {
		t.Errorf("after the network came back the page says %q, want Reconnected", got)
	}
}

// waitForHuman waits until one of the seats with a token is to act, and
// returns the game's state then.
func waitForHuman(t *testing.T, site *webtest.Site, id string, tokens map[string]string) *server.State {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, err := site.State(id)
		must(t, err)
		if tokens[st.ToAct] != "" && len(st.Actions) > 0 {
			return st
		}
		if st.Status != "live" || time.Now().After(deadline) {
			t.Fatalf("game %s does not wait for %v: %s to act, status %s", id, tokens, st.ToAct, st.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRulesPage shows a preset's rules from the engine's text, with its
// start position.
func TestRulesPage(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1200, 900, false)
	must(t, p.Go(site.URL+"/rules/chaturanga-2p"))
	must(t, p.Wait(`document.querySelector('#rules-text h2')`, 10*time.Second))
	headings := eval[string](t, p, `[...document.querySelectorAll('#rules-text h2')].map(e => e.textContent).join('|')`)
	for _, h := range []string{"Pieces", "Start position"} {
		if !strings.Contains(headings, h) {
			t.Errorf("the rules have no %q section: %s", h, headings)
		}
	}
	if n := eval[int](t, p, `document.querySelectorAll('#rules-text table tr').length`); n < 3 {
		t.Errorf("the pieces table has %d rows", n)
	}
	if n := eval[int](t, p, `document.querySelectorAll('#start-board g.piece').length`); n != 32 {
		t.Errorf("the start diagram has %d pieces, want 32", n)
	}
	if n := eval[int](t, p, `document.querySelectorAll('#start-board g.throne').length`); n != 2 {
		t.Errorf("the start diagram marks %d thrones, want 2", n)
	}
	if n := eval[int](t, p, `document.querySelectorAll('#preset-nav a').length`); n < 5 {
		t.Errorf("the rules page links %d presets", n)
	}
}

// TestDiceInPage checks the page's own roll derivation against the test
// vectors of docs/notation.md section 4.
func TestDiceInPage(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 800, 600, false)
	must(t, p.Go(site.URL+"/rules"))
	for seed, want := range map[string]string{
		"0000000000000000000000000000000000000000000000000000000000000000": "2 5 5 2 2 4 2 2 5 3 2 4",
		"1c999b443da88acf2997f16862008b4ff9ee62473fcbaec4ba395a7730465a41": "5 2 4 4 5 4 5 2 3 2 2 3",
	} {
		got := eval[string](t, p, fmt.Sprintf(`(async () => {
			const m = await import('/static/js/verify.js');
			const seed = new Uint8Array(%q.match(/../g).map(x => parseInt(x, 16)));
			const out = [];
			for (let n = 0; n < 12; n++) out.push(await m.rollFromSeed(seed, [2, 3, 4, 5], 1, n));
			return out.join(' ');
		})()`, seed))
		if got != want {
			t.Errorf("seed %s: rolls %s, want %s", seed[:8], got, want)
		}
	}
}

// TestDiceOfEveryPreset checks the page's rolls against the engine's for
// every preset with dice, martian's second pair and roll-off included.
func TestDiceOfEveryPreset(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 800, 600, false)
	must(t, p.Go(site.URL+"/rules"))
	seed, err := rules.ParseSeed("1c999b443da88acf2997f16862008b4ff9ee62473fcbaec4ba395a7730465a41")
	must(t, err)
	load := fmt.Sprintf(`const m = await import('/static/js/verify.js'); const seed = new Uint8Array(%q.match(/../g).map(x => parseInt(x, 16)));`, seed.String())
	for _, name := range rules.Names() {
		pr, err := rules.Lookup(name)
		must(t, err)
		if pr.Die == nil {
			continue
		}
		pairs := 1
		if pr.Team.Control {
			pairs = 2
		}
		var want []string
		for n := range uint64(16) {
			want = append(want, rules.RollFromSeedPairs(seed, pr, n, pairs).String())
		}
		faces, _ := json.Marshal(pr.Die.Faces)
		got := eval[string](t, p, fmt.Sprintf(`(async () => { %s
			const out = [];
			for (let n = 0; n < 16; n++) out.push(await m.rollFromSeed(seed, %s, %d, n, %d));
			return out.join(' ');
		})()`, load, faces, pr.Dice, pairs))
		if got != strings.Join(want, " ") {
			t.Errorf("%s: the page rolls %s, the engine %s", name, got, strings.Join(want, " "))
		}
	}
	first, used := rules.RollOffFromSeed(seed)
	want := fmt.Sprintf("%d %d", map[rules.Seat]int{rules.South: 1, rules.West: 2}[first], used)
	if got := eval[string](t, p, `(async () => { `+load+` return (await m.rollOffFromSeed(seed)).join(' '); })()`); got != want {
		t.Errorf("the page's roll-off gives %s, the engine's %s", got, want)
	}
}
