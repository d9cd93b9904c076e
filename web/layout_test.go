package web_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/web/webtest"
)

// covered returns, of the elements a CSS selector finds in a page, those
// that something else covers at their middle (once scrolled into view):
// each as "selector #i: what covers it".
const coveredJS = `((sel) => {
	const out = [];
	[...document.querySelectorAll(sel)].forEach((el, i) => {
		el.scrollIntoView({block: 'center'});
		const r = el.getBoundingClientRect();
		const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		if (!hit || !(el.contains(hit) || hit.contains(el))) {
			out.push(sel + ' #' + i + ': covered by ' + (hit ? hit.outerHTML.slice(0, 120) : 'nothing'));
		}
	});
	return out;
})`

// overlap is true when the boxes of two elements intersect.
const overlapJS = `((a, b) => {
	const r = a.getBoundingClientRect(), s = b.getBoundingClientRect();
	return r.width > 0 && s.width > 0 && r.left < s.right - 1 && s.left < r.right - 1 && r.top < s.bottom - 1 && s.top < r.bottom - 1;
})`

// TestPhoneGameOver shows a finished game on a phone: the game-over card,
// its title, ranking, chart, buttons and seed, is drawn whole, covered by
// nothing (neither the seat strip nor the dice panel), and beside them.
func TestPhoneGameOver(t *testing.T) {
	site := newSite(t)
	id := botGame(t, site, "Asha Ramachandran", "Bhimasena", "Chandrashekhar", "Devika")
	p := newPage(t, 390, 844, true)
	must(t, p.Go(site.URL+"/game/"+id))
	must(t, p.Wait(`document.querySelector('#over:not([hidden]) .over-card .seed code')`, 10*time.Second))
	for _, sel := range []string{"#over-title", "#over .ranking td", "#over .seed", "#over .button-row > *", "#over .score-chart"} {
		if bad := eval[[]string](t, p, fmt.Sprintf(`%s(%q)`, coveredJS, sel)); len(bad) > 0 {
			t.Errorf("on a phone the game-over card is covered:\n%s", strings.Join(bad, "\n"))
		}
	}
	// The seat strip above: each seat's words stay in its own column.
	if bad := eval[[]string](t, p, `[...document.querySelectorAll('#seats .seat')].flatMap(seat => {
		const box = seat.getBoundingClientRect();
		// What shows of an element: its box, cut by the ancestors that clip.
		const shown = (e) => {
			const r = e.getBoundingClientRect();
			let left = r.left, right = r.right;
			for (let a = e.parentElement; a && a !== seat; a = a.parentElement) {
				if (getComputedStyle(a).overflowX === 'visible') continue;
				const q = a.getBoundingClientRect();
				left = Math.max(left, q.left);
				right = Math.min(right, q.right);
			}
			return {left, right, width: r.width};
		};
		return [...seat.querySelectorAll('*')].filter(e => { const r = shown(e); return r.width > 0 && r.right > r.left && (r.left < box.left - 1 || r.right > box.right + 1); })
			.map(e => seat.dataset.seat + ': ' + (e.getAttribute('class') || e.tagName) + ' ' + e.textContent);
	})`); len(bad) > 0 {
		t.Errorf("on a phone, words stick out of their seat in the strip: %q", bad)
	}
	for _, other := range []string{"#seats", ".dice-panel", "#controls"} {
		if eval[bool](t, p, fmt.Sprintf(`%s(document.querySelector('.over-card'), document.querySelector(%q))`, overlapJS, other)) {
			t.Errorf("on a phone the game-over card overlaps %s", other)
		}
	}
}

// botGame lets four named greedy bots play a game to its end and returns
// its id.
func botGame(t *testing.T, site *webtest.Site, names ...string) string {
	t.Helper()
	c, err := site.Create(server.NewGame{Seats: []string{"bot:greedy", "bot:greedy", "bot:greedy", "bot:greedy"}, Names: names})
	must(t, err)
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		st, err := site.State(c.ID)
		must(t, err)
		if st.Status == "finished" {
			return c.ID
		}
	}
	t.Fatalf("the bots of game %s did not finish in a minute", c.ID)
	return ""
}

// TestInviteShowsYou opens a friend's invite link in a browser of their
// own, on a phone and on a computer: the page marks the friend's seat as
// theirs and shows the players' names. A link opened in a tab that shows
// the game already (only the fragment changes) takes the seat too.
func TestInviteShowsYou(t *testing.T) {
	site := newSite(t)
	c := humanPair(t, site, "Ann", "Bob")
	link := fmt.Sprintf("%s/game/%s#seat=West&token=%s", site.URL, c.ID, c.Seats[1].Token)
	// visible is the text the page shows of the seats, as a person sees it.
	const visible = `document.querySelector('#seats').innerText`
	youShown := `(() => { const y = document.querySelector('#seats .seat.you[data-seat="West"] .you-tag'); return !!y && y.checkVisibility() && y.getBoundingClientRect().width > 0; })()`
	for _, size := range []struct {
		w, h   int64
		mobile bool
	}{{390, 844, true}, {1366, 800, false}} {
		p := newPage(t, size.w, size.h, size.mobile)
		must(t, p.Go(link))
		must(t, p.Wait(`document.body.dataset.seq && document.querySelector('#seats .seat')`, 10*time.Second))
		if !eval[bool](t, p, youShown) {
			t.Errorf("at %dpx the invited friend sees no 'you' on West: %q", size.w, eval[string](t, p, visible))
		}
		text := eval[string](t, p, visible)
		for _, name := range []string{"Ann", "Bob"} {
			if !strings.Contains(text, name) {
				t.Errorf("at %dpx the seats show no %s: %q", size.w, name, text)
			}
		}
	}

	// The game open as a spectator; then the link, in the same tab.
	p := newPage(t, 1366, 800, false)
	must(t, p.Go(site.URL+"/game/"+c.ID))
	must(t, p.Wait(`document.body.dataset.seq`, 10*time.Second))
	if eval[int](t, p, `document.querySelectorAll('#seats .seat.you').length`) != 0 {
		t.Fatalf("a spectator is marked as a player")
	}
	eval[bool](t, p, fmt.Sprintf(`(location.href = %q, true)`, link))
	if err := p.Wait(youShown, 10*time.Second); err != nil {
		t.Errorf("an invite link opened over the game's page does not take the seat: %v", err)
	}
}

// TestGameListLabels lists live and finished games on a phone and on a
// computer: each bot says what it is ("Level 3 bot"), a score stands apart
// from the player's label, and the rules and age of a game overlap neither
// the players nor the button.
func TestGameListLabels(t *testing.T) {
	site := newSite(t)
	_, err := site.Create(server.NewGame{Rules: "chaturaji+clock=40", Seats: []string{"human", "bot:3", "bot:3", "bot:greedy"}, Names: []string{"Meenakshi Sundaram"}})
	must(t, err)
	_, err = site.Finish("chaturaji", 4, 'K', 4)
	must(t, err)
	for _, size := range []struct {
		w, h   int64
		mobile bool
	}{{390, 844, true}, {1366, 800, false}} {
		p := newPage(t, size.w, size.h, size.mobile)
		must(t, p.Go(site.URL+"/"))
		must(t, p.Wait(`document.querySelector('#live-games li.game-item') && document.querySelector('#recent-games li.game-item')`, 10*time.Second))
		// What each chip shows (the words for screen readers left out).
		chips := eval[[]string](t, p, `[...document.querySelectorAll('.game-item .chip')].map(c => {
			const k = c.cloneNode(true);
			k.querySelectorAll('.sr-only').forEach(e => e.remove());
			return k.textContent.replace(/\s+/g, ' ').trim();
		})`)
		if !slices.ContainsFunc(chips, func(c string) bool { return strings.HasPrefix(c, "Level 3 bot") }) {
			t.Errorf("at %dpx no chip says 'Level 3 bot': %q", size.w, chips)
		}
		for _, c := range chips {
			if regexp.MustCompile(`(?i)level \d+ \d+`).MatchString(c) {
				t.Errorf("at %dpx a chip reads %q: level or score?", size.w, c)
			}
		}
		bad := eval[[]string](t, p, `(() => {
			const overlap = `+overlapJS+`;
			const out = [];
			for (const item of document.querySelectorAll('.game-item')) {
				const parts = [...item.querySelectorAll('.chip'), ...item.querySelectorAll(':scope > :not(.chips)')];
				for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
					if (parts[i].contains(parts[j]) || parts[j].contains(parts[i])) continue;
					if (overlap(parts[i], parts[j])) out.push(parts[i].innerText + ' / ' + parts[j].innerText);
				}
				const box = item.getBoundingClientRect();
				for (const part of parts) {
					const r = part.getBoundingClientRect();
					if (r.right > box.right + 1 || r.left < box.left - 1) out.push(part.innerText + ' sticks out of its row');
				}
			}
			return out;
		})()`)
		if len(bad) > 0 {
			t.Errorf("at %dpx parts of the game lists overlap:\n%s", size.w, strings.Join(bad, "\n"))
		}
	}
}

// TestNotFoundPages opens a game and a replay that do not exist: each page
// says so plainly, links home, and offers nothing to do with the game.
func TestNotFoundPages(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1366, 800, false)
	for _, path := range []string{"/game/doesnotexist", "/replay/doesnotexist"} {
		must(t, p.Go(site.URL+path))
		if err := p.Wait(`document.querySelector('main h1') && /not found/i.test(document.querySelector('main h1').textContent)`, 10*time.Second); err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if !eval[bool](t, p, `!!document.querySelector('main a[href="/"]')`) {
			t.Errorf("%s: no link home", path)
		}
		text := eval[string](t, p, `document.body.innerText`)
		for _, stale := range []string{"Loading", "Connecting", "Verify dice"} {
			if strings.Contains(text, stale) {
				t.Errorf("%s still says %q: %q", path, stale, text)
			}
		}
		if n := eval[int](t, p, `[...document.querySelectorAll('button, input, select')].filter(b => !b.disabled && b.checkVisibility()).length`); n > 0 {
			t.Errorf("%s offers %d controls for a game that does not exist", path, n)
		}
		if title := eval[string](t, p, `document.title`); !strings.Contains(strings.ToLower(title), "not found") {
			t.Errorf("%s is titled %q", path, title)
		}
	}
}

// TestNoPlayableFlashAfterMove moves a piece while the game's events come
// late (the page's WebSocket messages are held back a little, as on a slow
// network): from the move until its event comes, the page never offers the
// old position again.
func TestNoPlayableFlashAfterMove(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1280, 900, false)
	must(t, p.OnNewDocument(`(() => {
		const Real = WebSocket;
		window.WebSocket = class extends Real {
			set onmessage(f) { super.onmessage = (m) => setTimeout(() => f(m), 400); }
		};
	})()`))
	var moved bool
	for games := 0; games < 5 && !moved; games++ {
		c, err := site.Create(server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}})
		must(t, err)
		must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
		if !awaitTurn(t, p) {
			continue
		}
		from := eval[string](t, p, `document.querySelector('#board rect.movable').dataset.square`)
		must(t, p.ClickSquare(from))
		must(t, p.Wait(`document.querySelector('#board circle.dest')`, 5*time.Second))
		to := eval[string](t, p, `document.querySelector('#board circle.dest').dataset.square`)
		eval[bool](t, p, `(() => {
			window.before = `+boardSnapshot+`;
			window.flash = '';
			const check = () => {
				const b = document.querySelector('svg.board');
				if (b.classList.contains('can-act') && document.querySelector('#board rect.movable') && `+boardSnapshot+` === window.before) window.flash = 'the old position is playable';
			};
			new MutationObserver(check).observe(document.querySelector('#board'), {childList: true, subtree: true, attributes: true});
			return true;
		})()`)
		must(t, p.ClickSquare(to))
		must(t, p.Wait(fmt.Sprintf(`document.querySelector('#board rect.last-move.to[data-seat="b"][data-square=%q]')`, to), 10*time.Second))
		if f := eval[string](t, p, `window.flash`); f != "" {
			t.Errorf("after %s%s was accepted, before its event: %s", from, to, f)
		}
		moved = true
	}
	if !moved {
		t.Fatalf("the bots ended five games before South could move")
	}
}

// TestReplayKeepsBoardStill steps through a replay with the arrow keys (real
// key presses) at 1366x800: the page does not scroll, the board and its
// controls stay in view, and the board keeps South at the bottom whoever
// moves; a browser that held a seat sees it from that seat.
func TestReplayKeepsBoardStill(t *testing.T) {
	site := newSite(t)
	st, err := site.Finish("chaturaji", 4, 'K', 6)
	must(t, err)
	p := newPage(t, 1366, 800, false)
	check := func(seat string) {
		t.Helper()
		must(t, p.Wait(`document.body.dataset.step`, 10*time.Second))
		must(t, p.ClickElement("#prev"))
		bottoms := map[string]bool{}
		for i := range 12 {
			key := "ArrowLeft"
			if i%3 == 2 {
				key = "ArrowRight"
			}
			before := eval[int](t, p, `Number(document.body.dataset.step)`)
			must(t, p.Press(key))
			must(t, p.Wait(fmt.Sprintf(`Number(document.body.dataset.step) !== %d`, before), 3*time.Second))
			bottoms[eval[string](t, p, `document.querySelector('svg.board').dataset.bottom || 'b'`)] = true
			if y := eval[float64](t, p, `scrollY`); y != 0 {
				t.Fatalf("after %s the page scrolled by %.0fpx", key, y)
			}
			for _, sel := range []string{"svg.board", "#replay-controls"} {
				if !eval[bool](t, p, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; })()`, sel)) {
					t.Fatalf("after %s, %s is not wholly in view", key, sel)
				}
			}
		}
		want := map[string]string{"South": "b", "West": "y"}[seat]
		if len(bottoms) != 1 || !bottoms[want] {
			t.Errorf("for %s the board showed %v at the bottom, want %s only", seat, bottoms, want)
		}
	}
	must(t, p.Go(site.URL+"/replay/"+st.ID))
	check("South")
	// A browser that played West sees the replay from West.
	eval[bool](t, p, fmt.Sprintf(`(localStorage.setItem('chaturaji.tokens.%s', JSON.stringify({West: 'x'})), true)`, st.ID))
	must(t, p.Go(site.URL+"/replay/"+st.ID))
	check("West")
}

// TestMartianPieces draws martian's pieces: each has its own picture, never
// that of a standard kind of another name (its paladin is no horse with a
// P on it), and the game page names every letter.
func TestMartianPieces(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1200, 900, false)
	glyphs := func(name string) map[string]string {
		must(t, p.Go(site.URL+"/rules/"+name))
		must(t, p.Wait(`document.querySelector('#start-board g.piece')`, 10*time.Second))
		return eval[map[string]string](t, p, `(() => {
			const out = {};
			for (const g of document.querySelectorAll('#start-board g.piece')) {
				const title = g.querySelector('title').textContent;
				const name = title.replace(/^.*'s /, '').replace(/ on .*$/, '');
				out[name] = [...g.querySelectorAll('.piece-art > g path')].map(p => p.getAttribute('d')).join('|');
			}
			return out;
		})()`)
	}
	standard := glyphs("chaturaji")
	martian := glyphs("martian")
	if len(martian) != 4 {
		t.Fatalf("martian's pieces: %v", martian)
	}
	for name, g := range martian {
		for other, sg := range standard {
			if g == sg && name != other {
				t.Errorf("martian's %s is drawn as chaturaji's %s", name, other)
			}
		}
	}
	c, err := site.Create(server.NewGame{Rules: "martian", Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}})
	must(t, err)
	must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
	must(t, p.Wait(`document.body.dataset.seq`, 10*time.Second))
	key := eval[string](t, p, `(document.querySelector('#piece-key') || {innerText: ''}).innerText.replace(/\s+/g, ' ')`)
	for _, want := range []string{"M monarch", "R raven", "P paladin", "S squire"} {
		if !strings.Contains(key, want) {
			t.Errorf("the game page's key of the pieces says %q, want %q in it", key, want)
		}
	}
}
