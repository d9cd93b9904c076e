package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestCreatedInvitesInView creates a game for three friends at 1366x800:
// the page brings the invite links of the two seats not the creator's into
// view, each written out with a button that copies it.
func TestCreatedInvitesInView(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1366, 800, false)
	must(t, p.Go(site.URL+"/"))
	must(t, p.Wait(`document.querySelector('#seat-West')`, 5*time.Second))
	eval[bool](t, p, `(() => { for (const seat of ['West', 'North']) { const s = document.querySelector('#seat-' + seat); s.value = 'human'; s.dispatchEvent(new Event('change')); } return true; })()`)
	must(t, p.ClickElement("#create"))
	must(t, p.Wait(`document.querySelectorAll('#created input.invite-link').length === 2`, 5*time.Second))
	// The page scrolls smoothly where it may: wait for it to settle.
	must(t, p.Wait(`(() => { const y = scrollY; return new Promise(r => setTimeout(() => r(scrollY === y), 300)); })()`, 5*time.Second))
	links := eval[[]string](t, p, `[...document.querySelectorAll('#created input.invite-link')].map(i => i.value)`)
	for _, l := range links {
		if !strings.Contains(l, "/game/") || !strings.Contains(l, "#seat=") || !strings.Contains(l, "&invite=") {
			t.Errorf("an invite link reads %q", l)
		}
	}
	for _, sel := range []string{"#created input.invite-link", "#created button[data-invite]", "#open-game"} {
		out := eval[[]string](t, p, fmt.Sprintf(`[...document.querySelectorAll(%q)].filter(e => { const r = e.getBoundingClientRect(); return !(r.top >= 0 && r.bottom <= innerHeight && r.width > 0); }).map(e => e.outerHTML.slice(0, 80))`, sel))
		if len(out) > 0 {
			t.Errorf("after Create game, %s is out of view at 1366x800: %v (scrollY %v, created %v, inner %v)", sel, out, eval[float64](t, p, "scrollY"), eval[string](t, p, "JSON.stringify(document.querySelector('#created').getBoundingClientRect())"), eval[float64](t, p, "innerHeight"))
		}
	}
	if n := eval[int](t, p, `[...document.querySelectorAll('#created button[data-invite]')].filter(b => /copy/i.test(b.textContent)).length`); n != 2 {
		t.Errorf("%d copy buttons, want one for each of the 2 invite links", n)
	}
	must(t, p.ClickElement(`#created button[data-invite="West"]`))
	must(t, p.Wait(`[...document.querySelectorAll('#toasts .toast')].some(e => e.textContent.includes('West'))`, 5*time.Second))
}

// TestRulesMenuReadable checks the home page's menu of rules: every choice
// fits in the menu, and what the chosen rules are is said beside it.
func TestRulesMenuReadable(t *testing.T) {
	site := newSite(t)
	for _, size := range []struct {
		w, h   int64
		mobile bool
	}{{390, 844, true}, {1366, 800, false}} {
		p := newPage(t, size.w, size.h, size.mobile)
		must(t, p.Go(site.URL+"/"))
		must(t, p.Wait(`document.querySelector('#preset option')`, 5*time.Second))
		cut := eval[[]string](t, p, `(() => {
			const sel = document.querySelector('#preset');
			const cs = getComputedStyle(sel);
			const ctx = document.createElement('canvas').getContext('2d');
			ctx.font = cs.font;
			// The room for the text: the box less its padding and the arrow.
			const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
			return [...sel.options].filter(o => ctx.measureText(o.text).width > room).map(o => o.text);
		})()`)
		if len(cut) > 0 {
			t.Errorf("at %dpx the rules menu cuts off %q", size.w, cut)
		}
		eval[bool](t, p, `(() => { const s = document.querySelector('#preset'); s.value = 'winther'; s.dispatchEvent(new Event('change')); return true; })()`)
		about := eval[string](t, p, `(document.querySelector('#preset-about') || {textContent: ''}).textContent`)
		if !strings.Contains(about, "two long dice") {
			t.Errorf("at %dpx the page says of winther %q, want its description", size.w, about)
		}
	}
}

// TestHouseRulesChoices sets house rules on the home page by choices people
// can read (no grammar to type): one labelled choice per house rule of the
// preset, saying what it changes; the game created plays them.
func TestHouseRulesChoices(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1366, 800, false)
	must(t, p.Go(site.URL+"/"))
	must(t, p.Wait(`document.querySelector('#seat-West')`, 5*time.Second))
	form := eval[string](t, p, `document.querySelector('#new-game').innerText`)
	if strings.Contains(form, "|") || strings.Contains(form, "=N") {
		t.Errorf("the form shows grammar to type: %q", form)
	}
	// Each house rule of chaturaji has a control labelled with what it does.
	labels := eval[map[string]string](t, p, `(() => {
		const out = {};
		for (const c of document.querySelectorAll('#house-rules [data-option]')) out[c.dataset.option] = c.labels && c.labels.length ? c.labels[0].textContent : '';
		return out;
	})()`)
	for name, help := range map[string]string{
		"clock": "turns without capture or pawn move",
		"ranks": "pawns and boats never capture",
		"dice":  "dice rolled each turn",
	} {
		if !strings.Contains(strings.ToLower(labels[name]), help) {
			t.Errorf("the house rule %s is labelled %q, want %q in it", name, labels[name], help)
		}
	}
	dice := eval[string](t, p, `[...document.querySelectorAll('#house-rules [data-option="dice"] option')].map(o => o.text).join(', ')`)
	if !strings.Contains(dice, "two cube dice") {
		t.Errorf("the dice choices read %q", dice)
	}
	eval[bool](t, p, `(() => {
		const set = (sel, v) => { const e = document.querySelector(sel); if (e.type === 'checkbox') e.checked = v; else e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true})); };
		set('#house-rules [data-option="clock"]', '40');
		set('#house-rules [data-option="ranks"]', true);
		set('#house-rules [data-option="dice"]', '2cube');
		return true;
	})()`)
	if got := eval[string](t, p, `document.querySelector('#house-summary').textContent`); !strings.Contains(got, "chaturaji+clock=40+dice=2cube+ranks") {
		t.Errorf("the form says the rules are %q", got)
	}
	must(t, p.ClickElement("#create"))
	must(t, p.Wait(`document.querySelector('#open-game')`, 5*time.Second))
	id := eval[string](t, p, `document.querySelector('#open-game').getAttribute('href').split('/')[2]`)
	st, err := site.State(id)
	must(t, err)
	if st.Rules != "chaturaji+clock=40+dice=2cube+ranks" {
		t.Errorf("the game plays %s", st.Rules)
	}
}
