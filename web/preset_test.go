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

// has reports whether a game waits for one of the given actions.
func has(actions ...string) func(*server.State) bool {
	return func(st *server.State) bool {
		for _, a := range st.Actions {
			if slices.Contains(actions, a) {
				return true
			}
		}
		return false
	}
}

// hasDrop reports whether a game waits for a drop such as K@e4.
func hasDrop(st *server.State) bool {
	return slices.ContainsFunc(st.Actions, func(a string) bool { return strings.Contains(a, "@") })
}

// steer plays games of a preset through the API (every seat human) until
// one waits for a decision want accepts, and opens it in a page that holds
// the given seats ("" for the one to act).
func steer(t *testing.T, site *webtest.Site, rules string, seats int, royal byte, want func(*server.State) bool, hold ...string) (*webtest.Page, *server.Created, *server.State) {
	t.Helper()
	c, st, err := site.Steer(rules, seats, royal, want, 1, 100)
	must(t, err)
	if len(hold) == 0 {
		hold = []string{st.ToAct}
	}
	p := newPage(t, 1200, 900, false)
	must(t, p.Go(site.URL+"/"))
	for _, s := range c.Seats {
		if slices.Contains(hold, s.Seat) {
			eval[bool](t, p, fmt.Sprintf(`(localStorage.setItem('chaturaji.tokens.%s', JSON.stringify(Object.assign(JSON.parse(localStorage.getItem('chaturaji.tokens.%s') || '{}'), {%q: %q}))), true)`, c.ID, c.ID, s.Seat, s.Token))
		}
	}
	must(t, p.Go(site.URL+"/game/"+c.ID))
	must(t, p.Wait(fmt.Sprintf(`Number(document.body.dataset.seq) === %d`, st.Seq), 10*time.Second))
	return p, c, st
}

// TestTeamExchange plays chaturaji-teams' king exchange in one browser that
// holds every seat: the capturer proposes, the owner of the king taken
// accepts, each with the button the page offers; the kingless armies are
// not frozen (their partners command them) and the team scores add up.
func TestTeamExchange(t *testing.T) {
	site := newSite(t)
	p, c, st := steer(t, site, "chaturaji-teams", 4, 'K', has("propose"), "South", "West", "North", "East")
	// (An army with no piece left is out, a different matter.)
	if n := eval[int](t, p, `document.querySelectorAll('#seats .seat.frozen:not(.out)').length`); n != 0 {
		t.Errorf("%d seats shown frozen: in chaturaji-teams a kingless army plays, commanded by its partner", n)
	}
	teams := eval[string](t, p, `[...document.querySelectorAll('#seats .team-score')].map(e => e.textContent).join(',')`)
	if want := fmt.Sprintf("%d,%d", st.Scores[0]+st.Scores[2], st.Scores[1]+st.Scores[3]); teams != want {
		t.Errorf("team scores %s, want %s (scores %v)", teams, want, st.Scores)
	}
	must(t, p.Wait(`document.querySelector('#turn').textContent.includes('propose a king exchange')`, 5*time.Second))
	if n := eval[int](t, p, `document.querySelectorAll('#actions button[data-action="propose"]:not(:disabled), #actions button[data-action="waive"]:not(:disabled)').length`); n != 2 {
		t.Fatalf("%d buttons to propose or waive, want 2", n)
	}
	must(t, p.ClickElement(`#actions button[data-action="propose"]`))
	must(t, p.Wait(`document.querySelector('#actions button[data-action="accept"]')`, 10*time.Second))
	if got := eval[string](t, p, `document.body.dataset.toAct`); got == st.ToAct {
		t.Errorf("after the proposal %s still decides", got)
	}
	must(t, p.Wait(`document.querySelector('#turn').textContent.includes('accept or decline')`, 5*time.Second))
	must(t, p.ClickElement(`#actions button[data-action="accept"]`))
	must(t, p.Wait(`[...document.querySelectorAll('#moves .move-act')].some(e => e.textContent === 'accept')`, 10*time.Second))
	after, err := site.State(c.ID)
	must(t, err)
	if !strings.Contains(strings.Join(recordActions(t, site, c.ID), " "), "propose accept") {
		t.Errorf("the game did not record propose then accept: %v", recordActions(t, site, c.ID))
	}
	if hasDrop(after) {
		// The king's throne is taken: its owner drops it on a square.
		must(t, p.Wait(`document.querySelector('#board g.drop-target')`, 5*time.Second))
	}
}

// recordActions lists a game's actions, in order, from its events.
func recordActions(t *testing.T, site *webtest.Site, id string) []string {
	t.Helper()
	evs, err := site.Events(id)
	must(t, err)
	var out []string
	for _, e := range evs {
		if e.Kind == "action" {
			out = append(out, e.Action)
		}
	}
	return out
}

// TestDrop plays winther's drop right: the page marks every square where
// the king may be dropped, ignores a click elsewhere, and drops the king
// where the player clicks.
func TestDrop(t *testing.T) {
	site := newSite(t)
	p, c, st := steer(t, site, "winther", 4, 'K', hasDrop)
	var drops []string
	for _, a := range st.Actions {
		if strings.Contains(a, "@") {
			drops = append(drops, a)
		}
	}
	must(t, p.Wait(`document.querySelector('svg.board.can-act')`, 5*time.Second))
	got := eval[[]string](t, p, `[...document.querySelectorAll('#board g.drop-target')].map(g => g.querySelector('text').textContent + '@' + g.dataset.square).sort()`)
	slices.Sort(drops)
	if !slices.Equal(got, drops) {
		t.Fatalf("the page marks drops %v, want %v", got, drops)
	}
	if banner := eval[string](t, p, `document.querySelector('#turn').textContent`); !strings.Contains(banner, "drop a king on a marked square") {
		t.Errorf("the banner says %q", banner)
	}
	// A click on an occupied square drops nothing.
	board := webtest.Board(st.Position)
	for sq := range board {
		must(t, p.ClickSquare(sq))
		break
	}
	time.Sleep(200 * time.Millisecond)
	if s := seq(t, p); s != int(st.Seq) {
		t.Fatalf("a click on an occupied square played something: event %d", s)
	}
	to := drops[len(drops)/2][2:]
	must(t, p.ClickSquare(to))
	waitSeqAfter(t, p, int(st.Seq))
	after, err := site.State(c.ID)
	must(t, err)
	letter := map[string]string{"South": "b", "West": "y", "North": "g", "East": "r"}[st.ToAct]
	if got := webtest.Board(after.Position)[to]; got != letter+"K" {
		t.Errorf("after the drop on %s the square holds %q, want %sK", to, got, letter)
	}
}

// TestMartian shows martian's roll-off, its own colours (South blue) and
// a monarch placed after a return, by a click on a marked square; then the
// replay of a finished martian game verifies its dice, roll-off included.
func TestMartian(t *testing.T) {
	site := newSite(t)
	p, c, st := steer(t, site, "martian", 4, 'M', hasDrop)
	if n := eval[int](t, p, `document.querySelectorAll('#moves .move-line.note').length`); n != 1 {
		t.Errorf("%d roll-off lines in the move list, want 1", n)
	}
	if note := eval[string](t, p, `document.querySelector('#moves .move-line.note').textContent`); !strings.HasPrefix(note, "Roll-off: ") {
		t.Errorf("the roll-off line says %q", note)
	}
	if colour := eval[string](t, p, `document.querySelector('#seats .seat[data-seat="South"] .colour-name').textContent`); !strings.Contains(colour, "Blue") {
		t.Errorf("martian's South is shown %q, want Blue", colour)
	}
	var to string
	for _, a := range st.Actions {
		if strings.HasPrefix(a, "M@") {
			to = a[2:]
		}
	}
	must(t, p.Wait(fmt.Sprintf(`document.querySelector('#board g.drop-target[data-square=%q]')`, to), 5*time.Second))
	must(t, p.ClickSquare(to))
	waitSeqAfter(t, p, int(st.Seq))
	if acts := recordActions(t, site, c.ID); acts[len(acts)-1] != "M@"+to && !slices.Contains(acts, "M@"+to) {
		t.Errorf("the placement M@%s was not played: %v", to, acts)
	}

	id := finish(t, site, "martian", 4, 'M')
	must(t, p.Go(site.URL+"/replay/"+id))
	must(t, p.Wait(`document.body.dataset.step`, 10*time.Second))
	must(t, p.ClickElement("#verify"))
	must(t, p.Wait(`document.querySelector('#verify-result.ok, #verify-result.bad')`, 20*time.Second))
	if msg := eval[string](t, p, `document.querySelector('#verify-result').textContent`); !strings.HasPrefix(msg, "✓") {
		t.Errorf("verifying martian's dice: %s", msg)
	}
}

// finish plays a game of a preset to its end through the API and returns
// its id.
func finish(t *testing.T, site *webtest.Site, rules string, seats int, royal byte) string {
	t.Helper()
	st, err := site.Finish(rules, seats, royal, 2)
	must(t, err)
	if st.Status != "finished" {
		t.Fatalf("game %s of %s is %s", st.ID, rules, st.Status)
	}
	return st.ID
}

// TestPromotionChoice plays a promotion where the player chooses the piece
// (ludii's rules): the page asks which, and plays the one chosen.
func TestPromotionChoice(t *testing.T) {
	site := newSite(t)
	// A move with at least two pieces to choose from (sometimes only one
	// is left to promote to: then there is nothing to ask).
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
	byMove := map[string][]string{}
	var choices []string
	for _, a := range st.Actions {
		if strings.Contains(a, "=") {
			byMove[a[:4]] = append(byMove[a[:4]], a)
			if len(byMove[a[:4]]) > len(choices) {
				choices = byMove[a[:4]]
			}
		}
	}
	must(t, p.Wait(`document.querySelector('svg.board.can-act')`, 5*time.Second))
	must(t, p.Drag(choices[0][:2], choices[0][2:4]))
	if err := p.Wait(`!document.querySelector('#board .chooser').hidden`, 5*time.Second); err != nil {
		acts := recordActions(t, site, c.ID)
		t.Fatalf("%v\nthe choices were %v at event %d (%s to act); the game's last actions: %v", err, choices, st.Seq, st.ToAct, acts[max(0, len(acts)-4):])
	}
	offered := eval[int](t, p, `document.querySelectorAll('#board .chooser button:not(.quiet)').length`)
	if offered != len(choices) {
		t.Errorf("the page offers %d pieces, want %d (%v)", offered, len(choices), choices)
	}
	if s := seq(t, p); s != int(st.Seq) {
		t.Fatalf("the move was played before the choice: event %d", s)
	}
	last := choices[len(choices)-1]
	letter := last[strings.Index(last, "=")+1:]
	must(t, p.ClickElement(fmt.Sprintf(`#board .chooser button:nth-of-type(%d)`, len(choices))))
	waitSeqAfter(t, p, int(st.Seq))
	acts := recordActions(t, site, c.ID)
	if !slices.Contains(acts, last) {
		t.Errorf("the page played %v, want %s (the piece %s chosen)", acts[len(acts)-3:], last, letter)
	}
}

// TestDicePairs draws martian's roll with a second pair (13/24: the seat's
// own dice, then those of the army it controls through a throne), the dice
// used dimmed.
func TestDicePairs(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 800, 600, false)
	must(t, p.Go(site.URL+"/rules/martian"))
	got := eval[[]string](t, p, `(async () => {
		const api = await import('/static/js/api.js');
		const { Dice } = await import('/static/js/dice.js');
		const host = document.createElement('div');
		document.body.append(host);
		new Dice(host, await api.preset('martian')).show({ seat: 'b', rolled: '13/24', left: '3/4', animate: false, control: 'g' });
		return [...host.querySelectorAll('.die-box')].map(b => b.dataset.face + b.dataset.seat + (b.classList.contains('used') ? ' used' : '') + ' ' + b.querySelector('.die-word').textContent);
	})()`)
	want := []string{"1b used monarch", "3b raven", "2g used paladin", "4g squire"}
	if !slices.Equal(got, want) {
		t.Errorf("the dice of 13/24 with 3/4 left: %q, want %q", got, want)
	}
}

// TestCommandedTurn shows a chaturaji-teams turn that the partner of a
// kingless seat decides: the banner says whose roll the player moves with,
// and the partner's pieces of that kind are offered.
func TestCommandedTurn(t *testing.T) {
	site := newSite(t)
	letters := map[string]string{"South": "b", "West": "y", "North": "g", "East": "r"}
	commanded := func(st *server.State) bool {
		f := strings.Fields(st.Position)
		return len(st.Actions) > 1 && f[1] != letters[st.ToAct] && f[2] != "-" && (len(f) < 6 || !strings.Contains(f[5], "exchange"))
	}
	p, _, st := steer(t, site, "chaturaji-teams", 4, 'K', commanded)
	turn := map[string]string{"b": "South", "y": "West", "g": "North", "r": "East"}[strings.Fields(st.Position)[1]]
	must(t, p.Wait(`document.querySelector('svg.board.can-act')`, 5*time.Second))
	if banner := eval[string](t, p, `document.querySelector('#turn').textContent`); !strings.Contains(banner, "you decide "+turn+"'s turn, who rolled") {
		t.Errorf("%s decides %s's turn; the banner says %q", st.ToAct, turn, banner)
	}
	armies := eval[string](t, p, `[...new Set([...document.querySelectorAll('#board g.piece.movable-piece')].map(g => g.dataset.piece[0]))].sort().join('')`)
	want := map[byte]bool{}
	board := webtest.Board(st.Position)
	for _, a := range st.Actions {
		if len(a) >= 4 && a[2] >= 'a' && a[2] <= 'h' {
			want[board[a[:2]][0]] = true
		}
	}
	for l := range want {
		if !strings.ContainsRune(armies, rune(l)) {
			t.Errorf("pieces of army %c may move but are not highlighted (highlighted: %s)", l, armies)
		}
	}
}

// TestLoneKing offers a lone king's choices when the roll does not name it:
// Pass and Retire buttons, and no piece to move; Pass plays.
func TestLoneKing(t *testing.T) {
	site := newSite(t)
	p, c, st := steer(t, site, "chaturaji", 4, 'K', func(st *server.State) bool {
		return slices.Equal(st.Actions, []string{"pass", "retire"})
	})
	must(t, p.Wait(`document.querySelector('svg.board.can-act') && document.querySelector('#act-pass') && document.querySelector('#act-retire')`, 5*time.Second))
	if n := eval[int](t, p, `document.querySelectorAll('#board rect.movable').length`); n != 0 {
		t.Errorf("%d pieces highlighted with no move to play", n)
	}
	if banner := eval[string](t, p, `document.querySelector('#turn').textContent`); !strings.Contains(banner, "Choose an action") {
		t.Errorf("the banner says %q", banner)
	}
	must(t, p.ClickElement("#act-pass"))
	waitSeqAfter(t, p, int(st.Seq))
	if acts := recordActions(t, site, c.ID); !slices.Contains(acts[len(acts)-4:], "pass") {
		t.Errorf("Pass did not play pass: %v", acts[len(acts)-4:])
	}
}

// TestScores captures a piece by clicks and sees the capturer's score go up
// by the piece's points, as the server counts them.
func TestScores(t *testing.T) {
	site := newSite(t)
	var capture string
	canCapture := func(st *server.State) bool {
		board := webtest.Board(st.Position)
		for _, a := range st.Actions {
			if len(a) == 4 && board[a[2:4]] != "" {
				capture = a
				return true
			}
		}
		return false
	}
	p, c, st := steer(t, site, "chaturaji", 4, 'K', canCapture)
	seat := st.ToAct
	score := fmt.Sprintf(`document.querySelector('#seats .seat[data-seat=%q] .seat-score').textContent`, seat)
	before := eval[string](t, p, score)
	must(t, p.Wait(`document.querySelector('svg.board.can-act')`, 5*time.Second))
	must(t, p.ClickSquare(capture[:2]))
	must(t, p.Wait(fmt.Sprintf(`document.querySelector('#board circle.dest[data-square=%q]')`, capture[2:]), 5*time.Second))
	must(t, p.ClickSquare(capture[2:]))
	waitSeqAfter(t, p, int(st.Seq))
	after, err := site.State(c.ID)
	must(t, err)
	i := map[string]int{"South": 0, "West": 1, "North": 2, "East": 3}[seat]
	if after.Scores[i] <= st.Scores[i] {
		t.Fatalf("the server scored the capture %s: %d, was %d", capture, after.Scores[i], st.Scores[i])
	}
	must(t, p.Wait(fmt.Sprintf(`%s === %q`, score, fmt.Sprint(after.Scores[i])), 5*time.Second))
	if before != fmt.Sprint(st.Scores[i]) {
		t.Errorf("before the capture the page showed %s, the server %d", before, st.Scores[i])
	}
}
