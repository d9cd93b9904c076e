package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/web/webtest"
	"github.com/chromedp/cdproto/webauthn"
)

// This file holds what the tests of the people's pages share: a tab with a
// passkey authenticator, and signing up through the page.

// passkeyPage opens a tab with Chromium's virtual authenticator, as a
// device with a built-in passkey store, and returns it with the
// authenticator's id.
func passkeyPage(t *testing.T, width, height int64, mobile bool) (*webtest.Page, webauthn.AuthenticatorID) {
	t.Helper()
	p := newPage(t, width, height, mobile)
	id, err := p.Authenticator()
	if err != nil {
		t.Fatalf("adding a virtual authenticator: %v", err)
	}
	return p, id
}

// fill sets the value of the form fields a map names by CSS selector, as
// typing would (input and change events).
func fill(t *testing.T, p *webtest.Page, fields map[string]string) {
	t.Helper()
	for sel, v := range fields {
		eval[bool](t, p, fmt.Sprintf(`(() => {
			const e = document.querySelector(%q);
			if (e.type === 'radio' || e.type === 'checkbox') e.checked = true; else e.value = %q;
			e.dispatchEvent(new Event('input', {bubbles: true}));
			e.dispatchEvent(new Event('change', {bubbles: true}));
			return true;
		})()`, sel, v))
	}
}

// headerName is the name the page header shows as signed in, "" for a
// guest.
const headerName = `(document.querySelector('#me') && document.querySelector('#me').dataset.name) || ''`

// waitSignedIn waits until the page's header shows name signed in.
func waitSignedIn(t *testing.T, p *webtest.Page, name string) {
	t.Helper()
	must(t, p.Wait(fmt.Sprintf(`%s === %q`, headerName, name), 10*time.Second))
}

// signUp makes an account on the sign-up page at site.Local: by a
// passkey of the tab's authenticator if password is "", else by the
// password. It checks the recovery codes are shown once, with a step
// that holds Continue back until the player says they saved them, and
// returns them; the page is left on the lobby, signed in.
func signUp(t *testing.T, site *webtest.Site, p *webtest.Page, name, password string) []string {
	t.Helper()
	must(t, p.Go(site.Local+"/signup"))
	fields := map[string]string{"#name": name}
	if password != "" {
		fields["#how-password"] = ""
		fields["#password"] = password
	}
	fill(t, p, fields)
	must(t, p.ClickElement("#signup"))
	must(t, p.Wait(`!document.querySelector('#codes-step').hidden || document.querySelector('#signup-error').textContent`, 10*time.Second))
	if msg := eval[string](t, p, `document.querySelector('#signup-error').textContent`); msg != "" {
		t.Fatalf("signing up %s: %s", name, msg)
	}
	if warn := eval[string](t, p, `[...document.querySelectorAll('#codes-step [role=alert]')].map(e => e.textContent).join(' ')`); warn != "" {
		t.Fatalf("signing up %s: %s", name, warn)
	}
	codes := eval[[]string](t, p, `[...document.querySelectorAll('#codes li')].map(li => li.textContent.trim())`)
	if len(codes) != 10 {
		t.Errorf("%s's sign-up shows %d recovery codes, want 10: %q", name, len(codes), codes)
	}
	if !eval[bool](t, p, `document.querySelector('#codes-done').disabled`) {
		t.Errorf("Continue can be pressed before the player says the codes are saved")
	}
	must(t, p.ClickElement("#saved"))
	must(t, p.Wait(`!document.querySelector('#codes-done').disabled`, 5*time.Second))
	must(t, p.ClickElement("#codes-done"))
	must(t, p.Wait(`location.pathname === '/play' && document.body.dataset.ready`, 10*time.Second))
	waitSignedIn(t, p, name)
	return codes
}

// accountName is what GET /api/account says of the page's session: the
// account's name, or "" for a guest.
func accountName(t *testing.T, p *webtest.Page) string {
	t.Helper()
	return eval[string](t, p, `fetch('/api/account').then(r => r.ok ? r.json().then(a => a.name) : '')`)
}

// ratedProfiles checks what a finished rated game shows of its players:
// each one's profile lists the game and a rating in its rules moved from
// where it started, and the leaderboard of the rules lists them all.
func ratedProfiles(t *testing.T, site *webtest.Site, pages []*webtest.Page, names []string, game string) {
	t.Helper()
	for i, p := range pages {
		must(t, p.Go(site.Local+"/players/"+names[i]))
		must(t, p.Wait(`document.body.dataset.loaded || document.querySelector('#profile-error').textContent`, 10*time.Second))
		if msg := eval[string](t, p, `document.querySelector('#profile-error').textContent`); msg != "" {
			t.Fatalf("%s's profile: %s", names[i], msg)
		}
		if !eval[bool](t, p, fmt.Sprintf(`!!document.querySelector('#recent li[data-game=%q] a[href="/replay/%s"]')`, game, game)) {
			t.Errorf("%s's profile does not list game %s with its replay: %s", names[i], game, eval[string](t, p, `document.querySelector('#recent').innerText`))
		}
		row := eval[map[string]any](t, p, `(() => { const r = document.querySelector('#ratings tr[data-rules="chaturaji"]'); if (!r) return {}; const s = r.querySelector('.rating'); return {games: r.querySelector('[data-games]').dataset.games, rating: s ? Number(s.dataset.rating) : 0, title: s ? s.title : ''}; })()`)
		if row["games"] != "1" {
			t.Errorf("%s's profile shows %v rated games of chaturaji, want 1", names[i], row["games"])
		}
		// The graph runs from the rating before the game to the one shown.
		points := eval[[]float64](t, p, `(document.querySelector('#rating-chart').dataset.points || '').split(' ').filter(Boolean).map(Number)`)
		if len(points) != 2 || points[1] != row["rating"] || points[0] == points[1] {
			t.Errorf("%s's rating graph runs through %v, the rating shown is %v: want two points, the second the rating shown, the first another", names[i], points, row["rating"])
		}
	}
	p := pages[0]
	must(t, p.Go(site.Local+"/leaderboard?rules=chaturaji"))
	must(t, p.Wait(`document.body.dataset.loaded === 'chaturaji'`, 10*time.Second))
	listed := eval[[]string](t, p, `[...document.querySelectorAll('#leaderboard tbody tr[data-name]')].map(r => r.dataset.name).sort()`)
	if fmt.Sprint(listed) != fmt.Sprint(names) {
		t.Errorf("the leaderboard lists %v, want %v", listed, names)
	}
}
