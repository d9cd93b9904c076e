package web_test

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/web/webtest"
)

// finishedBotGame plays games of four greedy bots of a preset through to the end
// until want accepts one's events, and returns that game's id and events;
// it gives up after tries games.
func finishedBotGame(t *testing.T, site *webtest.Site, preset string, want func([]server.Event) bool, tries int) (string, []server.Event) {
	t.Helper()
	for range tries {
		c, err := site.Create(server.NewGame{Rules: preset, Seats: []string{"bot:greedy", "bot:greedy", "bot:greedy", "bot:greedy"}})
		must(t, err)
		for end := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			st, err := site.State(c.ID)
			must(t, err)
			if st.Status == "finished" {
				break
			}
			if time.Now().After(end) {
				t.Fatalf("game %s of bots not over in a minute: %+v", c.ID, st)
			}
		}
		evs, err := site.Events(c.ID)
		must(t, err)
		if want(evs) {
			return c.ID, evs
		}
	}
	t.Fatalf("%d games of %s: none was the game wanted", tries, preset)
	return "", nil
}

// moveItems lists the actions of the move list, in order: each one's
// notation, its text, the pieces its marks show taken (colour and piece
// letters), its points and score changes, and why the server played it.
const moveItems = `[...document.querySelectorAll('#moves .move-line:not(.note) .move-item')].map(i => ({
	action: i.querySelector('.move-act').dataset.action,
	text: i.querySelector('.move-act').textContent,
	taken: [...i.querySelectorAll('.taken-piece')].map(e => e.dataset.piece),
	gains: [...i.querySelectorAll('.gain')].map(e => e.textContent),
	why: (i.querySelector('.act-why') || {textContent: ''}).textContent,
}))`

type moveItem struct {
	Action, Text string
	Taken        []string
	Gains        []string
	Why          string
}

// letters maps seat names to colour letters.
var letters = map[string]string{"South": "b", "West": "y", "North": "g", "East": "r"}

// TestMovesMarkCaptures opens a finished game of bots with captures: every
// action of the move list shows what it took (an x when it took on its
// destination, each piece taken as its army's token with its letter, the
// points) and why the server played it (a pass: no move); each seat's tray
// holds the pieces it took; the replay's move list is the same.
func TestMovesMarkCaptures(t *testing.T) {
	site := newSite(t)
	id, evs := finishedBotGame(t, site, "chaturaji", func(evs []server.Event) bool {
		auto := slices.ContainsFunc(evs, func(e server.Event) bool { return e.By == server.ByAuto })
		taken := slices.ContainsFunc(evs, func(e server.Event) bool { return len(e.Captures) > 0 })
		return auto && taken
	}, 10)
	var want []moveItem
	trays := map[string][]string{}
	for _, e := range evs {
		if e.Kind != server.KindAction {
			continue
		}
		w := moveItem{Action: e.Action, Text: e.Action, Taken: []string{}, Gains: []string{}}
		points := 0
		for _, c := range e.Captures {
			w.Taken = append(w.Taken, letters[c.Seat]+c.Piece)
			trays[e.Seat] = append(trays[e.Seat], letters[c.Seat]+c.Piece)
			points += c.Points
			if len(e.Action) >= 4 && c.Square == e.Action[2:4] {
				w.Text = e.Action[:2] + "x" + e.Action[2:]
			}
		}
		if points > 0 {
			w.Gains = append(w.Gains, fmt.Sprintf("+%d", points))
		}
		for _, g := range e.Gains {
			if g.Cause == "raise" {
				who := ""
				if g.Seat != e.Seat {
					who = g.Seat + " "
				}
				w.Gains = append(w.Gains, fmt.Sprintf("%sraised to 54 (+%d)", who, g.Points))
			}
		}
		if e.By == server.ByAuto {
			w.Why = "no move"
		}
		want = append(want, w)
	}
	p := newPage(t, 1280, 900, false)
	for _, page := range []string{"/game/", "/replay/"} {
		must(t, p.Go(site.URL+page+id))
		// The page may still be taking in the game's events: wait for as
		// many items as the game has actions (or fail on the count below).
		p.Wait(fmt.Sprintf(`document.querySelectorAll('#moves .move-item').length >= %d && document.querySelector('#captures .tray')`, len(want)), 20*time.Second)
		got := eval[[]moveItem](t, p, moveItems)
		if len(got) != len(want) {
			t.Fatalf("%s: the move list has %d actions, the game %d", page, len(got), len(want))
		}
		for i := range want {
			w, g := want[i], got[i]
			if g.Action != w.Action || g.Text != w.Text || !slices.Equal(g.Taken, w.Taken) || !slices.Equal(g.Gains, w.Gains) || g.Why != w.Why {
				t.Errorf("%s: action %d is shown %+v, want %+v", page, i+1, g, w)
			}
		}
		for _, seat := range []string{"South", "West", "North", "East"} {
			shown := eval[[]string](t, p, fmt.Sprintf(`[...document.querySelectorAll('#captures .tray[data-seat=%q] .tray-piece')].map(e => e.dataset.piece)`, seat))
			if !slices.Equal(shown, trays[seat]) && !(len(shown) == 0 && len(trays[seat]) == 0) {
				t.Errorf("%s: %s's tray holds %v, it took %v", page, seat, shown, trays[seat])
			}
		}
	}
}

// TestBannerSaysWhatHappened steps through a finished game in the replay:
// at a capture the banner says what took what for how many points, at a
// forced pass that no piece could move with the roll.
func TestBannerSaysWhatHappened(t *testing.T) {
	site := newSite(t)
	id, evs := finishedBotGame(t, site, "chaturaji", func(evs []server.Event) bool {
		auto := slices.ContainsFunc(evs, func(e server.Event) bool { return e.By == server.ByAuto })
		taken := slices.ContainsFunc(evs, func(e server.Event) bool { return len(e.Captures) == 1 && e.Captures[0].Piece != "K" })
		return auto && taken
	}, 10)
	pr, err := rules.Lookup("chaturaji")
	must(t, err)
	names := map[string]string{}
	for k := rules.Pawn; k <= rules.King; k++ {
		names[string(pr.Pieces[k].Letter)] = pr.Pieces[k].Name
	}
	p := newPage(t, 1280, 900, false)
	must(t, p.Go(site.URL+"/replay/"+id))
	must(t, p.Wait(`document.body.dataset.step`, 10*time.Second))
	// The replay's steps: the start, then every roll and action.
	step := 0
	var capture, pass int
	var captureWant, passWant string
	for _, e := range evs {
		switch e.Kind {
		case server.KindRoll, server.KindAction:
			step++
		default:
			continue
		}
		if e.Kind == server.KindAction && capture == 0 && len(e.Captures) == 1 && e.Captures[0].Piece != "K" {
			c := e.Captures[0]
			capture = step
			captureWant = fmt.Sprintf("took %s's %s: +%d", c.Seat, names[c.Piece], c.Points)
		}
		if e.By == server.ByAuto && pass == 0 {
			pass = step
			passWant = fmt.Sprintf("%s passes: no piece can move with the", e.Seat)
		}
	}
	for _, c := range []struct {
		step int
		want string
	}{{capture, captureWant}, {pass, passWant}} {
		eval[bool](t, p, fmt.Sprintf(`(() => { const s = document.querySelector('#slider'); s.value = %d; s.dispatchEvent(new Event('input')); return true; })()`, c.step))
		must(t, p.Wait(fmt.Sprintf(`Number(document.body.dataset.step) === %d`, c.step), 5*time.Second))
		if got := eval[string](t, p, `(document.querySelector('#turn-last') || {textContent: ''}).textContent`); !strings.Contains(got, c.want) {
			t.Errorf("at step %d the banner says %q, want %q", c.step, got, c.want)
		}
	}
}

// TestTimeoutSaid lets a player's time run out: the banner says the server
// played for them because they ran out of time, and the move list marks
// that action.
func TestTimeoutSaid(t *testing.T) {
	site := newSite(t)
	delay := int64(5000) // the bots wait: the banner keeps the timeout in view
	c, err := site.Create(server.NewGame{Seats: []string{"human", "bot:random", "bot:random", "bot:random"}, TurnMS: 1000, BotDelayMS: &delay, AutoPass: new(false)})
	must(t, err)
	p := newPage(t, 1280, 900, false)
	must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
	must(t, p.Wait(`(document.querySelector('#turn-last') || {textContent: ''}).textContent.includes('South ran out of time: the server ')`, 10*time.Second))
	if got := eval[string](t, p, `[...document.querySelectorAll('#moves .act-why')].map(e => e.textContent).join(',')`); !strings.Contains(got, "out of time") {
		t.Errorf("the move list marks %q, want South's action out of time", got)
	}
}

// TestRaiseExplained finishes a game whose last king's owner is raised to
// 54: the game-over card says from what to what and why, and so does the
// move list at the last action.
func TestRaiseExplained(t *testing.T) {
	site := newSite(t)
	var raise server.Gain
	id, evs := finishedBotGame(t, site, "chaturaji", func(evs []server.Event) bool {
		end := evs[len(evs)-1]
		if len(end.Gains) == 1 && end.Gains[0].Cause == "raise" {
			raise = end.Gains[0]
			return true
		}
		return false
	}, 10)
	end := evs[len(evs)-1]
	final := 0
	for i, s := range []string{"South", "West", "North", "East"} {
		if s == raise.Seat {
			final = end.Scores[i]
		}
	}
	p := newPage(t, 1280, 900, false)
	must(t, p.Go(site.URL+"/game/"+id))
	must(t, p.Wait(`document.querySelector('#over:not([hidden]) .ranking')`, 10*time.Second))
	card := eval[string](t, p, `document.querySelector('#over').textContent`)
	want := fmt.Sprintf("%s's score was raised from %d to %d (+%d)", raise.Seat, final-raise.Points, final, raise.Points)
	if !strings.Contains(card, want) || !strings.Contains(card, "three whole armies") {
		t.Errorf("the game-over card says %q; want %q and why", card, want)
	}
	last := eval[string](t, p, `[...document.querySelectorAll('#moves .move-item')].pop().textContent`)
	if !strings.Contains(last, fmt.Sprintf("raised to 54 (+%d)", raise.Points)) {
		t.Errorf("the last action of the move list reads %q, want the raise", last)
	}
}

// TestTeamsTurnOneLine opens a finished game of chaturaji-teams in which a
// partner decided a turn: the move list has one line per turn group of the
// record (`y 2 d1b3`, whoever decided it), the decider's token beside the
// action it decided for its partner.
func TestTeamsTurnOneLine(t *testing.T) {
	site := newSite(t)
	id, evs := finishedBotGame(t, site, "chaturaji-teams", func(evs []server.Event) bool {
		roller := ""
		for _, e := range evs {
			switch {
			case e.Kind == server.KindRoll:
				roller = e.Seat
			case e.Kind == server.KindAction && e.Seat != roller:
				return true
			}
		}
		return false
	}, 10)
	resp, err := http.Get(site.API.Base + "/api/games/" + id + "/record")
	must(t, err)
	text, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	must(t, err)
	recs, err := record.ParseString(string(text))
	must(t, err)
	pr, err := rules.Lookup("chaturaji-teams")
	must(t, err)
	var want []string
	for _, tn := range recs[0].Turns {
		var acts []string
		for _, a := range tn.Actions {
			acts = append(acts, a.Format(pr))
		}
		want = append(want, strings.TrimSpace(fmt.Sprintf("%c %s %s", tn.Seat.Letter(), tn.Roll, strings.Join(acts, ","))))
	}
	commanded := 0
	for i, e := range evs {
		if e.Kind == server.KindAction && i > 0 && evs[i-1].Kind == server.KindRoll && evs[i-1].Seat != e.Seat {
			commanded++
		}
	}
	p := newPage(t, 1280, 900, false)
	for _, page := range []string{"/game/", "/replay/"} {
		must(t, p.Go(site.URL+page+id))
		// The page shows a finished game's events one after another: wait
		// for every turn's line.
		must(t, p.Wait(fmt.Sprintf(`document.querySelectorAll('#moves .move-line:not(.note)').length >= %d`, len(want)), 30*time.Second))
		got := eval[[]string](t, p, `[...document.querySelectorAll('#moves .move-line:not(.note)')].map(l =>
			(l.querySelector('.army-badge').dataset.army + ' ' + l.querySelector('.move-roll').textContent + ' ' +
			[...l.querySelectorAll('.move-act')].map(a => a.dataset.action).join(',')).trim())`)
		if !slices.Equal(got, want) {
			for i := range max(len(got), len(want)) {
				g, w := "", ""
				if i < len(got) {
					g = got[i]
				}
				if i < len(want) {
					w = want[i]
				}
				if g != w {
					t.Errorf("%s: line %d reads %q, the record's turn %q", page, i+1, g, w)
					break
				}
			}
			t.Fatalf("%s: the move list has %d lines, the record %d turns", page, len(got), len(want))
		}
		if n := eval[int](t, p, `document.querySelectorAll('#moves .move-by').length`); n < commanded {
			t.Errorf("%s: %d actions show their decider, %d were decided by a partner", page, n, commanded)
		}
	}
}
