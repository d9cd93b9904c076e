package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// TestMissingAnswers404 asks for the pages of a game and of rules that do
// not exist: 404, where the pages of ones that exist answer 200; the rules
// page says plainly that there are no such rules, with no board and no
// "Play this game".
func TestMissingAnswers404(t *testing.T) {
	site := newSite(t)
	c, err := site.Create(server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}})
	must(t, err)
	for _, tt := range []struct {
		path string
		want int
	}{
		{"/game/" + c.ID, 200}, {"/replay/" + c.ID, 200}, {"/rules/chaturaji", 200},
		{"/game/nosuchgame", 404}, {"/replay/nosuchgame", 404}, {"/rules/nosuchrules", 404},
	} {
		resp, err := http.Get(site.URL + tt.path)
		must(t, err)
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("GET %s: %d, want %d", tt.path, resp.StatusCode, tt.want)
		}
	}
	p := newPage(t, 1366, 768, false)
	must(t, p.Go(site.URL+"/rules/nosuchrules"))
	must(t, p.Wait(`document.body.dataset.missing === 'notfound'`, 10*time.Second))
	text := eval[string](t, p, `document.querySelector('main').innerText`)
	if !strings.Contains(text, `no rules called "nosuchrules"`) || strings.Contains(text, "Play this game") || strings.Contains(text, "rules:") {
		t.Errorf("the page of rules that do not exist says %q", text)
	}
	if eval[bool](t, p, `!!document.querySelector('svg.board')`) {
		t.Error("the page of rules that do not exist draws a board")
	}
}

// audioLog counts the AudioContexts a page makes.
const audioLog = `(() => {
	window.audioContexts = 0;
	const A = window.AudioContext;
	window.AudioContext = class extends A { constructor(...a) { super(...a); window.audioContexts++; } };
})()`

// TestSpectatorMakesNoAudio watches a game of bots without touching the
// page: the browser would refuse its sounds and warn of each
// AudioContext, so the page makes none; one click on the page, and the
// next sound is played.
func TestSpectatorMakesNoAudio(t *testing.T) {
	site := newSite(t)
	delay := int64(100)
	p := newPage(t, 1366, 768, false)
	must(t, p.OnNewDocument(soundLog+";"+audioLog))
	var c *server.Created
	// South, the test through the API, plays until the page has had sounds to play.
	play := func() bool {
		t.Helper()
		for eval[int](t, p, `window.sounds.length`) < 3 {
			must(t, p.Wait(`document.body.dataset.status === 'finished' || document.body.dataset.toAct === 'South'`, 20*time.Second))
			st, err := site.State(c.ID)
			must(t, err)
			if st.Status != "live" {
				return false
			}
			if st.ToAct == "South" && len(st.Actions) > 0 {
				must(t, site.Act(c.ID, c.Seats[0].Token, st.Actions[0]))
				waitSeqAfter(t, p, int(st.Seq))
			}
		}
		return true
	}
	// A game whose bots take South's king before three sounds (rare) is
	// played again, in a new game, up to three times.
	for attempt := 1; ; attempt++ {
		var err error
		c, err = site.Create(server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}, BotDelayMS: &delay})
		must(t, err)
		must(t, p.Go(site.URL+"/game/"+c.ID))
		must(t, p.Wait(`document.body.dataset.seq`, 10*time.Second))
		if play() {
			break
		}
		if attempt == 3 {
			t.Fatal("three games ended before the page had three sounds to play")
		}
	}
	if n := eval[int](t, p, `window.audioContexts`); n > 0 {
		t.Errorf("untouched, the spectator's page made %d AudioContexts (sounds %v)", n, eval[[]string](t, p, `window.sounds`))
	}
	// Touched, the page plays its sounds.
	must(t, p.ClickElement("#moves"))
	eval[bool](t, p, `(window.sounds = [], true)`)
	if play() && eval[int](t, p, `window.oscillators`) == 0 {
		t.Errorf("clicked, the page played no sound (sounds %v)", eval[[]string](t, p, `window.sounds`))
	}
}

// TestOwnPieceOutOfTurn clicks one of South's pieces while the bots play:
// the page says it is not South's turn, and whose it is.
func TestOwnPieceOutOfTurn(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1366, 768, false)
	delay := int64(3000) // the bots' turn lasts
	southsTurn(t, site, p, server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}, BotDelayMS: &delay})
	before := seq(t, p)
	must(t, p.ClickElement("#play-move"))
	waitSeqAfter(t, p, before)
	must(t, p.Wait(`!['', 'South'].includes(document.body.dataset.toAct || '')`, 10*time.Second))
	sq := eval[string](t, p, `document.querySelector('#board g.piece[data-piece^="b"]').dataset.square`)
	must(t, p.ClickSquare(sq))
	must(t, p.Wait(`document.querySelector('#message').textContent.includes('Not your turn yet: ' + document.body.dataset.toAct)`, 3*time.Second))
}

// TestOwnSeatOnline opens a game as South: the seat list shows South
// connected once the page is, not a look at the game's state later.
func TestOwnSeatOnline(t *testing.T) {
	site := newSite(t)
	c, err := site.Create(server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}})
	must(t, err)
	p := newPage(t, 1366, 768, false)
	must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
	must(t, p.Wait(`document.querySelector('#net').dataset.state === 'open'`, 10*time.Second))
	must(t, p.Wait(`document.querySelector('#seats .seat.you .online')`, 3*time.Second))
}

// TestTapOnPhone: on a phone the banner says tap, not click; the new-game
// form says what the server does when time runs out (a pass where the
// rules allow one, else a random move).
func TestTapOnPhone(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 390, 844, true)
	southsTurn(t, site, p, server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}})
	banner := eval[string](t, p, `document.querySelector('#turn').textContent`)
	if strings.Contains(banner, "Click") || (eval[int](t, p, `document.querySelectorAll('#board rect.movable').length`) > 0 && !strings.Contains(banner, "Tap or drag")) {
		t.Errorf("on a phone the banner says %q", banner)
	}
	must(t, p.Go(site.URL+"/"))
	must(t, p.Wait(`document.querySelector('#timeout option[value=pass]')`, 10*time.Second))
	if got := eval[string](t, p, `document.querySelector('#timeout option[value=pass]').textContent`); !strings.Contains(got, "random move") {
		t.Errorf("the form's choice of passing out of time says %q: the server plays a random move where the seat cannot pass", got)
	}
}
