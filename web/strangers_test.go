package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/web/webtest"
)

// TestFourStrangers is issue 22's "done when" in a browser: four people,
// each in a browser context of their own with a passkey authenticator,
// sign up with passkeys, choose the same rated pool (people only) and
// press Play: all four are in one game within 5 s of the last press, each
// as the seat the lobby gave. The game is then played to its end through
// the API, each action sent with the token the lobby gave that seat's
// page (the pages' own moves are the game page's tests'); each profile
// then shows the rated game and a rating moved, and the leaderboard
// lists all four.
func TestFourStrangers(t *testing.T) {
	cfg := webtest.Config()
	cfg.LeaderGames = 1 // one rated game puts a player on the leaderboard
	site, err := webtest.NewSite(t.TempDir(), cfg)
	must(t, err)
	t.Cleanup(site.Close)
	names := []string{"Asha", "Bilal", "Chen", "Dagny"}
	pages := make([]*webtest.Page, len(names))
	for i := range names {
		pages[i], _ = passkeyPage(t, 1366, 768, false)
	}
	t.Run("sign up", func(t *testing.T) {
		for i, name := range names {
			// One after another: parallel subtests would wait behind every
			// other browser test of the package for a turn, holding this
			// test's pages open for minutes.
			t.Run(name, func(t *testing.T) {
				signUp(t, site, pages[i], name, "")
				choosePool(t, pages[i], "chaturaji", "15s", "rated", "0")
			})
		}
	})
	if t.Failed() {
		t.FailNow()
	}

	start := time.Now()
	first := start.UnixMilli()
	t.Run("play", func(t *testing.T) {
		for i, name := range names {
			t.Run(name, func(t *testing.T) {
				must(t, pages[i].ClickElement("#seek"))
			})
		}
	})
	pressed := time.Since(start)
	var slowest time.Duration // from the first press to the last page seated
	games := map[string]bool{}
	seats := map[string]string{} // the seat's token, by seat
	for i, p := range pages {
		id := seatedGame(t, p, 30*time.Second)
		games[id] = true
		// When the lobby told the page its seat, by the page's clock
		// (this machine's): the game page, loading after, is the browser's time.
		at := eval[int64](t, p, `JSON.parse(sessionStorage.getItem('chaturaji.seated') || '{}').at || 0`)
		slowest = max(slowest, time.Duration(at-first)*time.Millisecond)
		held := eval[map[string]string](t, p, fmt.Sprintf(`import('/static/js/api.js').then(m => m.tokens(%q))`, id))
		if len(held) != 1 {
			t.Fatalf("%s's page holds the seats %v, want one", names[i], held)
		}
		for seat, token := range held {
			seats[seat] = token
		}
	}
	shown := time.Since(start)
	if len(games) != 1 || len(seats) != 4 {
		t.Fatalf("the four are in games %v, in seats %v: want one game, four seats", games, seats)
	}
	if slowest <= 0 || slowest > 5*time.Second {
		t.Errorf("the last of the four was seated %v after the first pressed Play, want within 5 s", slowest)
	}
	t.Logf("four strangers pressed Play within %v; all four were seated in one game %v after the first press, and their game pages showed it after %v", pressed.Round(time.Millisecond), slowest, shown.Round(time.Millisecond))
	var id string
	for g := range games {
		id = g
	}
	st, err := site.State(id)
	must(t, err)
	if !st.Table.Rated {
		t.Errorf("the rated pool's game %s is not rated: %+v", id, st.Table)
	}
	got := map[string]bool{}
	for _, s := range st.Seats {
		if !s.Account {
			t.Errorf("seat %s is held by %q, not an account", s.Seat, s.Name)
		}
		got[s.Name] = true
	}
	for _, name := range names {
		if !got[name] {
			t.Errorf("%s holds no seat of game %s: %+v", name, id, st.Seats)
		}
	}
	// Every page shows the four names on its seats.
	for i, p := range pages {
		must(t, p.Wait(`document.querySelectorAll('#seats .seat a.player-name').length === 4 && document.querySelectorAll('#seats .seat.you').length === 1`, 10*time.Second))
		shown := eval[[]string](t, p, `[...document.querySelectorAll('#seats .seat a.player-name')].map(a => a.textContent).sort()`)
		if fmt.Sprint(shown) != fmt.Sprint(names) {
			t.Errorf("%s's page shows the seats' players as %v, want %v", names[i], shown, names)
		}
	}

	done, err := site.PlayOut(id, seats, 'K', 22)
	must(t, err)
	if done.Status != "finished" {
		t.Fatalf("game %s ended %s", id, done.Status)
	}
	for _, p := range pages {
		must(t, p.Wait(`document.body.dataset.status === 'finished'`, 15*time.Second))
	}
	ratedProfiles(t, site, pages, names, id)
	// The game page shows each player's rating beside their name now.
	p := pages[1]
	must(t, p.Go(site.Local+"/game/"+id))
	must(t, p.Wait(`document.querySelectorAll('#seats .seat .seat-rating .rating').length === 4`, 10*time.Second))
}
