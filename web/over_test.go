package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// inSight lists, of the elements a CSS selector finds, those not wholly
// in sight as the page stands (nothing scrolled): outside the viewport,
// cut off by an ancestor that clips, or covered at their middle.
const inSightJS = `((sel) => [...document.querySelectorAll(sel)].flatMap((el, i) => {
	const r = el.getBoundingClientRect();
	if (r.width === 0) return [];
	const name = sel + ' #' + i + ' (' + el.textContent.trim().slice(0, 30) + ')';
	if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return [name + ': outside the screen'];
	for (let a = el.parentElement; a; a = a.parentElement) {
		if (getComputedStyle(a).overflowY === 'visible') continue;
		const q = a.getBoundingClientRect();
		if (r.top < q.top - 1 || r.bottom > q.bottom + 1) return [name + ': cut off by ' + (a.className || a.tagName)];
	}
	const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
	return hit && (el.contains(hit) || hit.contains(el)) ? [] : [name + ': covered by ' + (hit ? hit.outerHTML.slice(0, 120) : 'nothing')];
}))`

// TestGameOverFits shows a finished game on a laptop's screen (1366x768):
// the game-over card's buttons (Replay, Download record, Show the board)
// and its seed are in sight without scrolling, and stay so while toasts
// come in.
func TestGameOverFits(t *testing.T) {
	site := newSite(t)
	id := botGame(t, site, "Asha Ramachandran", "Bhimasena", "Chandrashekhar", "Devika")
	p := newPage(t, 1366, 768, false)
	must(t, p.Go(site.URL+"/game/"+id))
	must(t, p.Wait(`document.querySelector('#over:not([hidden]) .over-card .seed code')`, 10*time.Second))
	controls := "#over .button-row > *, #over .seed"
	if bad := eval[[]string](t, p, fmt.Sprintf(`%s(%q)`, inSightJS, controls)); len(bad) > 0 {
		t.Errorf("at 1366x768 the game-over card hides:\n%s", strings.Join(bad, "\n"))
	}
	// Toasts, as the page's own module shows them at a game's end.
	eval[bool](t, p, `import('/static/js/dom.js').then(m => { for (const s of ['The king of North has fallen: +3 for East.', 'A bot (greedy) takes the seat of West: its player left.', 'Game over']) m.toast(s); return true; })`)
	must(t, p.Wait(`document.querySelectorAll('#toasts .toast').length === 3`, 5*time.Second))
	if bad := eval[[]string](t, p, fmt.Sprintf(`%s(%q)`, inSightJS, controls)); len(bad) > 0 {
		t.Errorf("at 1366x768 toasts cover the game-over card:\n%s", strings.Join(bad, "\n"))
	}
}
