package web_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/web/webtest"
)

// announced returns what the page's live region has said so far.
func announced(t *testing.T, p *webtest.Page) []string {
	t.Helper()
	return eval[[]string](t, p, `[...document.querySelectorAll('#announce p')].map(e => e.textContent)`)
}

// lastSaid is the live region's last line.
const lastSaid = `(document.querySelector('#announce p:last-child') || {textContent: ''}).textContent`

// focusedSquare is the square the keyboard focus is on, empty if it is not
// on the board.
const focusedSquare = `(document.activeElement && document.activeElement.closest('#board [role=grid]') ? document.activeElement.dataset.square : '')`

// tabToBoard presses Tab from the top of the page until the focus is on a
// square of the board: the board is one tab stop.
func tabToBoard(t *testing.T, p *webtest.Page) {
	t.Helper()
	for range 30 {
		if eval[string](t, p, focusedSquare) != "" {
			return
		}
		must(t, p.Press("Tab"))
	}
	t.Fatalf("30 presses of Tab never reach the board; the focus is on %s", eval[string](t, p, `document.activeElement.outerHTML.slice(0, 100)`))
}

// keyTo moves the keyboard focus to a square with the arrow keys, as the
// board is drawn, and checks that the live region names it.
func keyTo(t *testing.T, p *webtest.Page, square string) {
	t.Helper()
	if eval[string](t, p, focusedSquare) == square {
		// Step away and back, for the square to be said again.
		away := "ArrowRight"
		if eval[int](t, p, `Number(document.activeElement.dataset.x)`) == 7 {
			away = "ArrowLeft"
		}
		must(t, p.Press(away))
	}
	for range 20 {
		at := eval[[]int](t, p, fmt.Sprintf(`(() => {
			const here = document.activeElement, there = document.querySelector('#board [role=gridcell][data-square=%q]');
			return [Number(there.dataset.x) - Number(here.dataset.x), Number(there.dataset.y) - Number(here.dataset.y)];
		})()`, square))
		key := ""
		switch {
		case at[0] < 0:
			key = "ArrowLeft"
		case at[0] > 0:
			key = "ArrowRight"
		case at[1] < 0:
			key = "ArrowUp"
		case at[1] > 0:
			key = "ArrowDown"
		}
		if key == "" {
			break
		}
		must(t, p.Press(key))
	}
	if got := eval[string](t, p, focusedSquare); got != square {
		t.Fatalf("the arrow keys brought the focus to %q, want %s", got, square)
	}
	must(t, p.Wait(fmt.Sprintf(`%s.startsWith(%q)`, lastSaid, square+":"), 3*time.Second))
}

// TestKeyboardPlay plays moves with the keyboard alone: Tab reaches the
// board, the arrow keys walk its squares (each named in the live region),
// Enter picks a piece (its targets said) and Space plays it on a target;
// the moves of every seat are announced. The page never scrolls for the
// keys.
func TestKeyboardPlay(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1280, 900, false)
	if role := func() string {
		c, err := site.Create(server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}})
		must(t, err)
		must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
		must(t, p.Wait(`document.body.dataset.seq`, 10*time.Second))
		return eval[string](t, p, `(document.querySelector('#board [role=grid]') || {}).getAttribute?.('role') || document.querySelector('svg.board').getAttribute('role')`)
	}(); role != "grid" {
		t.Fatalf("the board is a single %q, not a grid of squares", role)
	}
	moves := 0
	for games := 1; moves < 2; {
		if !awaitTurn(t, p) {
			if games == 5 {
				t.Fatalf("the bots ended %d games first", games)
			}
			c, err := site.Create(server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}})
			must(t, err)
			must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
			games++
			continue
		}
		if eval[string](t, p, focusedSquare) == "" {
			tabToBoard(t, p)
		}
		legal := eval[[]string](t, p, legalMoves)
		m := legal[len(legal)-1]
		from, to := m[:2], m[2:4]
		// A square that is no target first: refused in words, nothing played.
		keyTo(t, p, from)
		if said := eval[string](t, p, lastSaid); !strings.Contains(said, "can move") {
			t.Errorf("on %s, a piece that can move, the page says %q", from, said)
		}
		must(t, p.Press("Enter"))
		must(t, p.Wait(fmt.Sprintf(`%s.startsWith('Picked ')`, lastSaid), 3*time.Second))
		said := eval[string](t, p, lastSaid)
		for _, mv := range legal {
			if mv[:2] == from && !strings.Contains(said, mv[2:4]) {
				t.Errorf("picking %s the page says %q, without its target %s", from, said, mv[2:4])
			}
		}
		keyTo(t, p, to)
		if said := eval[string](t, p, lastSaid); !strings.Contains(said, "target") {
			t.Errorf("on the target %s the page says %q", to, said)
		}
		before := seq(t, p)
		// Every line the log says from here, kept: the log keeps only its
		// last lines, and the bots, playing at once, may say more before
		// the test looks.
		eval[bool](t, p, `window.saidLog = []; new MutationObserver((ms) => ms.forEach((m) => m.addedNodes.forEach((n) => window.saidLog.push(n.textContent)))).observe(document.getElementById('announce'), {childList: true}); true`)
		must(t, p.Press(" "))
		waitSeqAfter(t, p, before)
		must(t, p.Wait(fmt.Sprintf(`window.saidLog.some(s => s.startsWith('South moved') && s.includes('from %s to %s'))`, from, to), 5*time.Second))
		if !slices.Contains(eval[[]string](t, p, `[...document.querySelectorAll('#moves .move-act')].map(e => e.dataset.action)`), m) {
			t.Errorf("the move %s is not in the move list", m)
		}
		// The bots' moves are said too.
		must(t, p.Wait(`[...document.querySelectorAll('#announce p')].some(e => /^(West|North|East) (moved|passed|placed)/.test(e.textContent)) || document.body.dataset.status === 'finished'`, 10*time.Second))
		if y := eval[float64](t, p, `scrollY`); y != 0 {
			t.Errorf("the keys scrolled the page by %.0fpx", y)
		}
		moves++
	}
	if t.Failed() {
		t.Logf("the page said:\n%s", strings.Join(announced(t, p), "\n"))
	}
}

// TestKeyboardPromotionAndDrop plays a promotion (ludii's rules, where the
// player chooses the piece) and a placement (martian's monarch) by
// keyboard: the chooser takes the focus, Enter plays the choice.
func TestKeyboardPromotionAndDrop(t *testing.T) {
	site := newSite(t)
	promotes := func(st *server.State) bool {
		n := map[string]int{}
		for _, a := range st.Actions {
			if strings.Contains(a, "=") {
				n[a[:4]]++
				if n[a[:4]] > 1 {
					return true
				}
			}
		}
		return false
	}
	p, c, st := steer(t, site, "ludii", 4, 'K', promotes)
	var choice []string
	for _, a := range st.Actions {
		if strings.Contains(a, "=") && (len(choice) == 0 || a[:4] == choice[0][:4]) {
			choice = append(choice, a)
		}
	}
	must(t, p.Wait(`document.querySelector('svg.board.can-act')`, 5*time.Second))
	tabToBoard(t, p)
	keyTo(t, p, choice[0][:2])
	must(t, p.Press("Enter"))
	must(t, p.Wait(fmt.Sprintf(`%s.startsWith('Picked ') && %s.includes('promotes')`, lastSaid, lastSaid), 3*time.Second))
	keyTo(t, p, choice[0][2:4])
	must(t, p.Press("Enter"))
	must(t, p.Wait(`!document.querySelector('#board .chooser').hidden && document.querySelector('#board .chooser').contains(document.activeElement)`, 5*time.Second))
	want := eval[string](t, p, `document.activeElement.textContent`)
	must(t, p.Press("Enter"))
	waitSeqAfter(t, p, int(st.Seq))
	acts := recordActions(t, site, c.ID)
	played := acts[len(acts)-1]
	for _, a := range acts {
		if strings.HasPrefix(a, choice[0][:4]+"=") {
			played = a
		}
	}
	if !strings.HasPrefix(played, choice[0][:4]+"=") || !strings.Contains(want, "("+played[5:]+")") {
		t.Errorf("the chooser's focused choice %q played %s", want, played)
	}

	p, c, st = steer(t, site, "martian", 4, 'M', hasDrop)
	to := ""
	for _, a := range st.Actions {
		if strings.HasPrefix(a, "M@") {
			to = a[2:]
		}
	}
	must(t, p.Wait(fmt.Sprintf(`document.querySelector('#board g.drop-target[data-square=%q]')`, to), 5*time.Second))
	tabToBoard(t, p)
	keyTo(t, p, to)
	if said := eval[string](t, p, lastSaid); !strings.Contains(said, "monarch may be placed here") {
		t.Errorf("on %s the page says %q", to, said)
	}
	must(t, p.Press("Enter"))
	waitSeqAfter(t, p, int(st.Seq))
	if acts := recordActions(t, site, c.ID); !slices.Contains(acts, "M@"+to) {
		t.Errorf("the placement M@%s was not played: %v", to, acts[max(0, len(acts)-3):])
	}
}
