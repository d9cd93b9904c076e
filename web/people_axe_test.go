package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestPeoplePagesAccessible runs axe-core on the pages of people (sign in,
// sign up and its recovery codes, the account, the lobby with a seek
// waiting and with a partner invited, its link shown, a profile, the
// leaderboard) on a 390x844 phone and a 1366x768 computer, light and
// dark: no violations, and nothing wider than the screen.
func TestPeoplePagesAccessible(t *testing.T) {
	axeScript(t)
	site := newSite(t)
	for _, scheme := range []string{"light", "dark"} {
		for _, size := range []struct {
			w, h   int64
			mobile bool
		}{{1366, 768, false}, {390, 844, true}} {
			where := fmt.Sprintf("%s, %dx%d", scheme, size.w, size.h)
			t.Run(where, func(t *testing.T) {
				p := newPage(t, size.w, size.h, size.mobile) // beside the others (parallel)
				must(t, p.ColorScheme(scheme))
				report := func(page string) {
					t.Helper()
					if bad := axeCheck(t, p); len(bad) > 0 {
						t.Errorf("%s (%s): %d accessibility violations:\n%s", page, where, len(bad), strings.Join(bad, "\n"))
					}
					if wide := eval[[]string](t, p, `[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1).map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 5)`); len(wide) > 0 {
						t.Errorf("%s (%s): wider than the screen: %v", page, where, wide)
					}
				}
				must(t, p.Go(site.Local+"/signin"))
				must(t, p.Wait(`document.body.dataset.signedIn`, 10*time.Second))
				report("sign in")

				must(t, p.Go(site.Local+"/signup"))
				must(t, p.Wait(`document.body.dataset.signedIn`, 10*time.Second))
				report("sign up")

				name := fmt.Sprintf("axe%s%d", scheme, size.w)
				must(t, p.Go(site.Local+"/signup"))
				fill(t, p, map[string]string{"#name": name, "#how-password": "", "#password": "a long password"})
				must(t, p.ClickElement("#signup"))
				must(t, p.Wait(`!document.querySelector('#codes-step').hidden`, 10*time.Second))
				report("recovery codes")

				must(t, p.Go(site.Local+"/account"))
				must(t, p.Wait(`!document.querySelector('#account').hidden`, 10*time.Second))
				report("account")

				must(t, p.Go(site.Local+"/play"))
				choosePool(t, p, "chaturaji", "1d", "casual", "0")
				must(t, p.ClickElement("#seek"))
				must(t, p.Wait(`document.body.dataset.seeking === 'yes' && document.querySelector('#seekers li.lobby-item')`, 10*time.Second))
				report("lobby")
				must(t, p.ClickElement("#cancel"))
				must(t, p.Wait(`document.body.dataset.seeking === 'no'`, 10*time.Second))
				choosePool(t, p, "chaturaji-teams", "15s", "casual", "0")
				must(t, p.ClickElement("#pair"))
				must(t, p.Wait(`document.body.dataset.pair === 'inviting' && document.querySelector('#pair-link').value`, 10*time.Second))
				report("lobby, a partner invited")
				must(t, p.ClickElement("#cancel"))
				must(t, p.Wait(`!document.body.dataset.pair && document.querySelector('#pair-invite').hidden`, 10*time.Second))

				must(t, p.Go(site.Local+"/players/"+name))
				must(t, p.Wait(`document.body.dataset.loaded || document.querySelector('#profile-error').textContent`, 10*time.Second))
				report("profile")

				must(t, p.Go(site.Local+"/leaderboard?rules=chaturaji"))
				must(t, p.Wait(`document.body.dataset.loaded || document.querySelector('#lb-error').textContent`, 10*time.Second))
				report("leaderboard")
			})
		}
	}
}
