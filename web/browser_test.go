package web_test

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/web/webtest"
)

// browserOff names the variable that leaves the browser tests out of a
// run: scripts/test.sh runs them once, without the race detector, where
// the time goes to Chromium, and the package's other tests once more under
// the race detector, which would only slow the browser tests' server
// without finding anything their run did not (the server's own tests run
// under it).
const browserOff = "CHATURAJI_NO_BROWSER"

// The one browser of the test binary, started by the first test that needs
// it and stopped by TestMain.
var (
	browserOnce sync.Once
	browser     *webtest.Browser
	browserErr  error
)

// The browser tests run beside each other (parallel), as many at once as
// go test's -parallel allows: by default GOMAXPROCS, the CPUs. Six at once
// on two busy CPUs ran Chromium out of time.
func TestMain(m *testing.M) {
	code := m.Run()
	if browser != nil {
		browser.Close()
	}
	os.Exit(code)
}

// parallel runs the test beside the package's other browser tests (at
// most -parallel at once, GOMAXPROCS unless told): each has its own site and its own browser
// context. newSite and newPage call it; it is called once a test.
func parallel(t *testing.T) {
	if _, again := parallelTests.LoadOrStore(t, true); !again {
		t.Parallel()
	}
}

// parallelTests holds the tests that called parallel.
var parallelTests sync.Map

// newSite starts a game server with the web client for one test.
func newSite(t *testing.T) *webtest.Site {
	t.Helper()
	parallel(t)
	s, err := webtest.NewSite(t.TempDir(), webtest.Config())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// skipWithoutBrowser skips a browser test in a run that leaves them out
// (browserOff).
func skipWithoutBrowser(t *testing.T) {
	t.Helper()
	if os.Getenv(browserOff) == "1" {
		t.Skipf("%s=1: the browser tests are left out of this run (scripts/test.sh runs them in its run without the race detector)", browserOff)
	}
}

// newPage opens a tab of the shared headless Chromium; the test fails if
// Chromium is missing, with the command that installs it, and if the page
// throws an error.
func newPage(t *testing.T, width, height int64, mobile bool) *webtest.Page {
	t.Helper()
	skipWithoutBrowser(t)
	parallel(t)
	browserOnce.Do(func() { browser, browserErr = webtest.NewBrowser() })
	if browserErr != nil {
		t.Fatalf("the browser tests need Chromium: %v", browserErr)
	}
	p, err := browser.Tab(width, height, mobile)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if errs := p.Errors(); len(errs) > 0 {
			t.Errorf("the page reported errors:\n%s", strings.Join(errs, "\n"))
		}
		p.Close()
	})
	return p
}

// must fails the test on an error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func eval[T any](t *testing.T, p *webtest.Page, js string) T {
	t.Helper()
	v, err := webtest.Eval[T](p, js)
	if err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// boardSnapshot lists the pieces on the board, as "d2:bP d1:bK ...".
const boardSnapshot = `[...document.querySelectorAll('#board g.piece')].map(g => g.dataset.square + ':' + g.dataset.piece).sort().join(' ')`

// legalMoves lists the moves the page offers the player (its keyboard menu).
const legalMoves = `[...document.querySelectorAll('#move-select option')].map(o => o.value).filter(Boolean)`

// myTurn is true when the page lets its player move a piece.
const myTurn = `document.querySelector('svg.board.can-act') && document.querySelectorAll('#board rect.movable').length > 0 && document.querySelectorAll('#move-select option[value]:not([value=""])').length > 0`

func seq(t *testing.T, p *webtest.Page) int {
	t.Helper()
	return eval[int](t, p, `Number(document.body.dataset.seq || 0)`)
}

// waitSeqAfter waits until the page has handled an event after n.
func waitSeqAfter(t *testing.T, p *webtest.Page, n int) {
	t.Helper()
	must(t, p.Wait(fmt.Sprintf(`Number(document.body.dataset.seq || 0) > %d`, n), 10*time.Second))
}

// turnOrLost is true when the page may move, or when its game can no
// longer give it a turn: the game is over, or every seat the page holds is
// frozen or out (the bots took its kings).
const turnOrLost = `(` + myTurn + `) || document.body.dataset.status === 'finished' || (document.querySelectorAll('#seats .seat.you').length > 0 && document.querySelectorAll('#seats .seat.you:not(.frozen)').length === 0)`

// passOnly holds when the page's decision is a pass and nothing else: in a
// game without auto_pass, a roll of a piece that cannot move.
const passOnly = `document.querySelector('svg.board.can-act') && document.querySelectorAll('#board rect.movable').length === 0 && !!document.querySelector('#act-pass')`

// awaitTurn waits until the page may move and reports true, or reports
// false if its game can no longer give it a turn. A turn whose one
// decision is a pass (a game without auto_pass) is passed from the page,
// and the wait goes on for the next.
func awaitTurn(t *testing.T, p *webtest.Page) bool {
	t.Helper()
	for {
		must(t, p.Wait(turnOrLost+" || ("+passOnly+")", 15*time.Second))
		if eval[bool](t, p, "!!("+myTurn+")") {
			return true
		}
		if !eval[bool](t, p, "!!("+passOnly+")") {
			return false
		}
		before := seq(t, p)
		must(t, p.ClickElement("#act-pass"))
		waitSeqAfter(t, p, before)
	}
}

// southsTurn creates game g, South a person's and the other seats its
// bots', opens it in p as South and waits for South's move; the bots may
// end a game, or take South's king, first: then it takes another game,
// and fails the test after five. It returns the game whose turn it is.
func southsTurn(t *testing.T, site *webtest.Site, p *webtest.Page, g server.NewGame) *server.Created {
	t.Helper()
	for games := 1; ; games++ {
		c, err := site.Create(g)
		must(t, err)
		must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
		if awaitTurn(t, p) {
			return c
		}
		if games == 5 {
			t.Fatal("the bots ended five games before South had a move")
		}
	}
}

// TestPlayAgainstBots starts a game from the home page in one click, sees
// the roll, moves by click-click and by drag-and-drop, has an illegal drop
// refused, and asks for a hint. The bots may end the game, or take South's
// king, before all that is done: the test then starts another game the same
// way and goes on with it.
func TestPlayAgainstBots(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1280, 900, false)
	must(t, p.Motion(true)) // the dice tumble
	playNow := func() {
		t.Helper()
		must(t, p.Go(site.URL+"/"))
		must(t, p.Wait(`document.querySelector('#preset option')`, 5*time.Second))
		must(t, p.ClickElement("#play-now"))
		must(t, p.Wait(`location.pathname.startsWith('/game/') && document.body.dataset.seq`, 10*time.Second))
		// Count the rolls shown tumbling.
		eval[bool](t, p, `(() => {
			window.tumbles = 0;
			new MutationObserver(() => { if (document.querySelector('#dice .die-box.rolling')) window.tumbles++; })
				.observe(document.querySelector('#dice'), {childList: true, subtree: true, attributes: true});
			return true;
		})()`)
	}
	games := 1
	turn := func() {
		t.Helper()
		for !awaitTurn(t, p) {
			if games == 5 {
				t.Fatalf("the bots ended %d games before South could play them", games)
			}
			playNow()
			games++
		}
	}
	playNow()

	// The roll: a die, the kinds it moves, and the pieces it allows.
	turn()
	movable := eval[[]string](t, p, `[...document.querySelectorAll('#board rect.movable')].map(r => r.dataset.square).sort()`)
	from := map[string]bool{}
	for _, m := range eval[[]string](t, p, legalMoves) {
		from[m[:2]] = true
	}
	if len(movable) != len(from) {
		t.Errorf("the pieces highlighted are on %v, the legal moves start from %v", movable, from)
	}
	for _, sq := range movable {
		if !from[sq] {
			t.Errorf("the piece on %s is highlighted but has no legal move (moves from %v)", sq, from)
		}
	}
	if n := eval[int](t, p, `document.querySelectorAll('#dice .die-box').length`); n != 1 {
		t.Fatalf("%d dice shown, want 1", n)
	}
	banner := eval[string](t, p, `document.querySelector('#turn').textContent`)
	if !strings.Contains(banner, "Your turn, South") || !strings.Contains(banner, "rolled") {
		t.Errorf("turn banner %q: want South's turn and the roll", banner)
	}

	// Click-click: the first movable piece, then its first destination.
	first := eval[string](t, p, `document.querySelector('#board rect.movable').dataset.square`)
	must(t, p.ClickSquare(first))
	must(t, p.Wait(`document.querySelector('#board circle.dest')`, 5*time.Second))
	to := eval[string](t, p, `document.querySelector('#board circle.dest').dataset.square`)
	before := seq(t, p)
	must(t, p.ClickSquare(to))
	waitSeqAfter(t, p, before)
	must(t, p.Wait(fmt.Sprintf(`[...document.querySelectorAll('#moves .move-act')].some(e => e.dataset.action === %q)`, first+to), 5*time.Second))
	must(t, p.Wait(fmt.Sprintf(`document.querySelector('#board rect.last-move.to[data-seat="b"][data-square=%q]')`, to), 5*time.Second))
	// West rolls next, its die tumbling.
	must(t, p.Wait(`window.tumbles > 0 || document.body.dataset.status === 'finished'`, 10*time.Second))

	// Drag-and-drop: a legal move of the next turn.
	turn()
	moves := eval[[]string](t, p, legalMoves)
	m := moves[0]
	before = seq(t, p)
	must(t, p.Drag(m[:2], m[2:4]))
	waitSeqAfter(t, p, before)
	must(t, p.Wait(fmt.Sprintf(`[...document.querySelectorAll('#moves .move-act')].some(e => e.dataset.action === %q)`, m), 5*time.Second))

	// An illegal drop: refused with a message, the board unchanged.
	turn()
	moves = eval[[]string](t, p, legalMoves)
	src := moves[0][:2]
	illegal := ""
	for _, sq := range []string{"h8", "a8", "h1", "e5", "d4", "e4", "a1"} {
		legal := sq == src
		for _, mv := range moves {
			legal = legal || mv[:2] == src && mv[2:4] == sq
		}
		if !legal {
			illegal = sq
			break
		}
	}
	snap := eval[string](t, p, boardSnapshot)
	before = seq(t, p)
	must(t, p.Drag(src, illegal))
	must(t, p.Wait(`document.querySelector('#message').textContent.includes('Illegal move')`, 5*time.Second))
	if got := eval[string](t, p, boardSnapshot); got != snap {
		t.Errorf("the board changed after an illegal drop %s%s:\nbefore %s\nafter  %s", src, illegal, snap, got)
	}
	if s := seq(t, p); s != before {
		t.Errorf("an illegal drop sent something: event %d, was %d", s, before)
	}

	// A hint: the strong bot's move, drawn as an arrow.
	must(t, p.ClickElement("#hint"))
	must(t, p.Wait(`document.querySelector('#board line.hint-arrow') && document.querySelector('#message').textContent.startsWith('Hint:')`, 10*time.Second))
}
