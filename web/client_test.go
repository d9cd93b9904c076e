package web_test

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/web/webtest"
)

// TestHomeLists creates a game for two friends on the home page: the
// creator's seat is South, and North gets an invite link to copy, holding
// the invite in the fragment; the game shows among the live games, and
// once over among the recent ones, with a link to its replay.
func TestHomeLists(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1280, 900, false)
	must(t, p.Go(site.URL+"/"))
	must(t, p.Wait(`document.querySelector('#seat-West')`, 5*time.Second))
	eval[bool](t, p, `(() => {
		const set = (sel, v) => { const e = document.querySelector(sel); e.value = v; e.dispatchEvent(new Event('change')); };
		set('#preset', 'winther');
		set('#seat-North', 'human');
		set('#seat-East', 'bot:5');
		set('#time', '30000');
		set('#timeout', 'bot');
		return true;
	})()`)
	must(t, p.ClickElement("#create"))
	must(t, p.Wait(`document.querySelectorAll('#created button[data-invite]').length === 1`, 5*time.Second))
	if yours := eval[string](t, p, `document.querySelector('#your-seats').textContent`); yours != "Your seat: South." {
		t.Errorf("the page says %q of the creator's seats, want South's", yours)
	}
	links := eval[[]string](t, p, `[...document.querySelectorAll('#created button[data-invite]')].map(b => b.dataset.invite + ' ' + b.dataset.link)`)
	re := regexp.MustCompile(`^(North) http://[^/]+/game/([a-z0-9]{16})#seat=(North)&invite=[A-Za-z0-9_-]{22}$`)
	id := ""
	for _, l := range links {
		m := re.FindStringSubmatch(l)
		if m == nil || m[1] != m[3] {
			t.Fatalf("invite link %q", l)
		}
		id = m[2]
	}
	st, err := site.State(id)
	must(t, err)
	if st.Rules != "winther" || st.Table.TurnMS != 30000 || st.Table.OnTimeout != "bot" || st.Seats[2].Player != "human" || st.Seats[3].Player != "bot:5" {
		t.Errorf("the form made %s with table %+v and seats %+v", st.Rules, st.Table, st.Seats)
	}
	must(t, p.ClickElement(`#created button[data-invite="North"]`))
	must(t, p.Wait(`[...document.querySelectorAll('#toasts .toast')].some(e => e.textContent.includes('North'))`, 5*time.Second))
	must(t, p.Wait(fmt.Sprintf(`document.querySelector('#live-games li[data-game=%q] a[href="/game/%s"]')`, id, id), 10*time.Second))

	// A game played to its end elsewhere is listed at the next refresh.
	st, err = site.Finish("chaturaji", 4, 'K', 3)
	must(t, err)
	must(t, p.Wait(fmt.Sprintf(`document.querySelector('#recent-games li[data-game=%q] a[href="/replay/%s"]')`, st.ID, st.ID), 10*time.Second))

	// The download link gives the finished games' records, that one with them.
	text := eval[string](t, p, `fetch(document.querySelector('#download-all').href).then(r => r.text())`)
	recs, err := record.ParseString(text)
	must(t, err)
	if len(recs) != 1 {
		t.Fatalf("the download holds %d records, want the one finished game", len(recs))
	}
	if id, _ := recs[0].Tags.Get("Game"); id != st.ID {
		t.Errorf("the download holds game %s, want %s", id, st.ID)
	}
}

// TestTwoPlayer plays chaturanga-2p, a two-seat preset without dice: two
// seats listed, the whole army movable, a move by click-click.
func TestTwoPlayer(t *testing.T) {
	site := newSite(t)
	c, err := site.Create(server.NewGame{Rules: "chaturanga-2p", Seats: []string{"human", "bot:greedy"}})
	must(t, err)
	p := newPage(t, 1100, 800, false)
	must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
	must(t, p.Wait(myTurn, 10*time.Second))
	if n := eval[int](t, p, `document.querySelectorAll('#seats .seat').length`); n != 2 {
		t.Errorf("%d seats listed, want 2", n)
	}
	if n := eval[int](t, p, `document.querySelectorAll('#board g.piece').length`); n != 32 {
		t.Errorf("%d pieces on the board, want 32", n)
	}
	if note := eval[string](t, p, `document.querySelector('#dice').textContent`); !strings.Contains(note, "No dice") {
		t.Errorf("the dice panel says %q", note)
	}
	from := eval[string](t, p, `document.querySelector('#board rect.movable').dataset.square`)
	must(t, p.ClickSquare(from))
	must(t, p.Wait(`document.querySelector('#board circle.dest')`, 5*time.Second))
	to := eval[string](t, p, `document.querySelector('#board circle.dest').dataset.square`)
	must(t, p.ClickSquare(to))
	must(t, p.Wait(fmt.Sprintf(`document.querySelector('#board rect.last-move.to[data-seat="b"][data-square=%q]')`, to), 5*time.Second))
	// The bot answers: both seats' last moves are marked.
	must(t, p.Wait(`document.querySelector('#board rect.last-move.to[data-seat="g"]')`, 10*time.Second))
}

// TestClock shows the time left of the seat to act, counting down.
func TestClock(t *testing.T) {
	site := newSite(t)
	c, err := site.Create(server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}, TurnMS: 90000, AutoPass: new(false)})
	must(t, err)
	p := newPage(t, 1100, 800, false)
	must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
	must(t, p.Wait(`document.querySelector('#seats .seat.to-act[data-seat="South"] .seat-clock .clock-time').textContent !== ''`, 10*time.Second))
	clock := func() int {
		text := eval[string](t, p, `document.querySelector('#seats .seat.to-act .seat-clock .clock-time').textContent`)
		var m, s int
		if _, err := fmt.Sscanf(text, "%d:%d", &m, &s); err != nil {
			t.Fatalf("the clock shows %q", text)
		}
		return 60*m + s
	}
	first := clock()
	if first < 80 || first > 90 {
		t.Errorf("the clock starts at %ds of a 90s turn", first)
	}
	must(t, p.Wait(fmt.Sprintf(`document.querySelector('#seats .seat.to-act .seat-clock .clock-time').textContent !== %q`, eval[string](t, p, `document.querySelector('#seats .seat.to-act .seat-clock .clock-time').textContent`)), 3*time.Second))
	if next := clock(); next >= first {
		t.Errorf("the clock went from %ds to %ds", first, next)
	}
	if n := eval[int](t, p, `document.querySelectorAll('#seats .seat-clock.running').length`); n != 1 {
		t.Errorf("%d clocks running, want the seat to act's only", n)
	}
}

// TestEverySeatsClock shows a clock for every human seat of a timed game,
// not only the one to act: the running one counts down and says so, the
// others show the time they will have, and a seat that has moved shows
// how long it took.
func TestEverySeatsClock(t *testing.T) {
	site := newSite(t)
	c, err := site.Create(server.NewGame{Seats: []string{"human", "human", "bot:greedy", "bot:greedy"}, HostSeats: []string{"South", "West"}, TurnMS: 90000, AutoPass: new(false)})
	must(t, err)
	p := newPage(t, 1100, 800, false)
	must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
	clock := func(seat string) (text, state string) {
		t.Helper()
		v := eval[[]string](t, p, fmt.Sprintf(`(() => { const c = document.querySelector('#seats .seat[data-seat=%q] .seat-clock'); return c ? [c.innerText, c.classList.contains('running') ? 'running' : 'waiting'] : ['', 'none']; })()`, seat))
		return v[0], v[1]
	}
	must(t, p.Wait(`document.querySelector('#seats .seat.to-act[data-seat="South"] .seat-clock.running')`, 10*time.Second))
	if text, state := clock("West"); state != "waiting" || !strings.Contains(text, "1:30") {
		t.Errorf("while South moves, West's clock shows %q (%s), want its 1:30 waiting", text, state)
	}
	for _, bot := range []string{"North", "East"} {
		if text, _ := clock(bot); strings.TrimSpace(text) != "" {
			t.Errorf("the bot %s has a clock: %q", bot, text)
		}
	}
	// South moves (or passes); West's clock runs, South's shows its time again
	// and how long it took.
	must(t, p.Wait(`!document.querySelector('#play-move').disabled || document.querySelector('#act-pass')`, 10*time.Second))
	if eval[bool](t, p, `!document.querySelector('#play-move').disabled`) {
		must(t, p.ClickElement("#play-move"))
	} else {
		must(t, p.ClickElement("#act-pass"))
	}
	tokens := map[string]string{"West": c.Seats[1].Token}
	st := waitForHuman(t, site, c.ID, tokens)
	must(t, p.Wait(fmt.Sprintf(`Number(document.body.dataset.seq) >= %d`, st.Seq), 10*time.Second))
	if text, state := clock("West"); state != "running" {
		t.Errorf("while West moves its clock shows %q, %s", text, state)
	}
	text, state := clock("South")
	if state != "waiting" || !strings.Contains(text, "1:30") || !regexp.MustCompile(`took \d+s`).MatchString(text) {
		t.Errorf("after its move South's clock shows %q (%s), want 1:30 waiting and the time it took", text, state)
	}
}

// TestAnalysisBar turns on the bar of expected final scores: one segment a
// seat, each with its number, redrawn as the game goes on. The page is
// drawn again and again meanwhile (as presence changes and events do), more
// often than an analysis takes: the position is still asked about once.
func TestAnalysisBar(t *testing.T) {
	site := newSite(t)
	c, err := site.Create(server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}})
	must(t, err)
	p := newPage(t, 1280, 900, false)
	must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
	if err := p.Wait(`document.querySelectorAll('#board rect.movable').length > 0`, 10*time.Second); err != nil {
		t.Fatalf("%v\nthe game's events:\n%s", err, eventLines(t, site, c.ID))
	}
	if !eval[bool](t, p, `document.querySelector('#evalbar').hidden`) {
		t.Errorf("the bar shows before it is asked for")
	}
	// Count the page's requests for an analysis, and draw the page every
	// 200 ms by changing the side the board is seen from.
	eval[bool](t, p, `(() => {
		window.analyses = 0;
		const f = window.fetch;
		window.fetch = (url, opts) => { if (String(url).includes('/web/analyze')) window.analyses++; return f(url, opts); };
		const sel = document.querySelector('#view-select');
		let i = 0;
		window.redraw = setInterval(() => { sel.value = ++i % 2 ? 'South' : 'auto'; sel.dispatchEvent(new Event('change')); }, 200);
		return true;
	})()`)
	must(t, p.ClickElement("#analysis-toggle"))
	must(t, p.Wait(`document.querySelectorAll('#evalbar .eval-seg').length === 4`, 15*time.Second))
	eval[bool](t, p, `(clearInterval(window.redraw), true)`)
	if n := eval[int](t, p, `window.analyses`); n != 1 {
		t.Errorf("%d requests for the analysis of one position, want 1", n)
	}
	vals := eval[[]string](t, p, `[...document.querySelectorAll('#evalbar .eval-seg span')].map(e => e.textContent)`)
	for _, v := range vals {
		if !regexp.MustCompile(`^-?\d+\.\d$`).MatchString(v) {
			t.Errorf("expected scores %v: want numbers", vals)
			break
		}
	}
}

// TestArmiesByShapeAndLetter checks what colour-blind players rely on: each
// army has its own token shape, and every piece carries its letter.
func TestArmiesByShapeAndLetter(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1200, 900, false)
	for _, name := range []string{"chaturaji", "martian", "chaturanga-fr1"} {
		must(t, p.Go(site.URL+"/rules/"+name))
		must(t, p.Wait(`document.querySelector('#start-board g.piece')`, 10*time.Second))
		shapes := eval[map[string]string](t, p, `(() => {
			const out = {};
			for (const g of document.querySelectorAll('#start-board g.piece')) {
				const t = g.querySelector('.token');
				const shape = t.tagName + (t.getAttribute('points') || '') + (t.getAttribute('rx') || '');
				const seat = g.dataset.piece[0];
				if (out[seat] && out[seat] !== shape) return {error: 'two shapes for ' + seat};
				out[seat] = shape;
			}
			return out;
		})()`)
		seen := map[string]string{}
		for seat, shape := range shapes {
			if other, dup := seen[shape]; dup {
				t.Errorf("%s: armies %s and %s have the same token", name, seat, other)
			}
			seen[shape] = seat
		}
		if len(shapes) != 4 {
			t.Errorf("%s: token shapes %v, want 4", name, shapes)
		}
		if bad := eval[string](t, p, `[...document.querySelectorAll('#start-board g.piece')].filter(g => g.querySelector('.piece-letter').textContent !== g.dataset.piece[1]).map(g => g.dataset.square).join(' ')`); bad != "" {
			t.Errorf("%s: pieces without their letter on %s", name, bad)
		}
	}
}

// TestSpectator watches a game of bots: no move is offered, every seat's
// last move is marked, and the board turns to the seat chosen.
func TestSpectator(t *testing.T) {
	site := newSite(t)
	c, err := site.Create(server.NewGame{Seats: []string{"bot:greedy", "bot:greedy", "bot:greedy", "bot:greedy"}})
	must(t, err)
	p := newPage(t, 1100, 800, false)
	must(t, p.Go(site.URL+"/game/"+c.ID))
	must(t, p.Wait(`new Set([...document.querySelectorAll('#board rect.last-move.to')].map(r => r.dataset.seat)).size >= 3 || document.body.dataset.status === 'finished'`, 20*time.Second))
	if eval[bool](t, p, `!!document.querySelector('svg.board.can-act')`) {
		t.Errorf("a spectator is offered moves")
	}
	eval[bool](t, p, `(() => { const v = document.querySelector('#view-select'); v.value = 'North'; v.dispatchEvent(new Event('change')); return true; })()`)
	must(t, p.Wait(`document.querySelector('svg.board').dataset.bottom === 'g'`, 3*time.Second))
	// North's army is at the bottom: its king's throne, e8, is drawn in the bottom row.
	x, y, err := p.SquareCenter("e8")
	must(t, err)
	_, y1, err := p.SquareCenter("e1")
	must(t, err)
	if y <= y1 || x <= 0 {
		t.Errorf("from North, e8 is drawn at y=%.0f, above e1 at y=%.0f", y, y1)
	}
}

// TestFrozenArmy greys out an army whose king was taken, in the board and
// in the seat list.
func TestFrozenArmy(t *testing.T) {
	site := newSite(t)
	// frozen is the army without its king that has pieces left, if one.
	frozenArmy := func(st *server.State) string {
		board := st.Position[:strings.Index(st.Position, " ")]
		for _, l := range "bygr" {
			if !strings.Contains(board, string(l)+"K") && strings.Contains(board, string(l)) {
				return string(l)
			}
		}
		return ""
	}
	kingless := func(st *server.State) bool {
		return strings.Count(st.Position[:strings.Index(st.Position, " ")], "K") == 3 && frozenArmy(st) != ""
	}
	c, st, err := site.Steer("chaturaji", 4, 'K', kingless, 5, 50)
	must(t, err)
	p := newPage(t, 1100, 800, false)
	must(t, p.Go(site.URL+"/game/"+c.ID))
	must(t, p.Wait(fmt.Sprintf(`Number(document.body.dataset.seq) === %d`, st.Seq), 10*time.Second))
	frozen := frozenArmy(st)
	seat := map[string]string{"b": "South", "y": "West", "g": "North", "r": "East"}[frozen]
	if !eval[bool](t, p, fmt.Sprintf(`!!document.querySelector('#seats .seat.frozen[data-seat=%q]')`, seat)) {
		t.Errorf("%s has no king but is not shown frozen", seat)
	}
	if got := eval[string](t, p, `[...new Set([...document.querySelectorAll('#board g.piece.frozen')].map(g => g.dataset.piece[0]))].join('')`); got != frozen {
		t.Errorf("the pieces greyed are of armies %q, want %q", got, frozen)
	}
}

// TestEveryRulesPage opens the rules of every preset: the engine's text,
// with the start position drawn.
func TestEveryRulesPage(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1200, 900, false)
	for _, name := range rules.Names() {
		pr, err := rules.Lookup(name)
		must(t, err)
		must(t, p.Go(site.URL+"/rules/"+name))
		must(t, p.Wait(`document.querySelector('#rules-text h2') && document.querySelector('#start-board g.piece')`, 10*time.Second))
		start := pr.StartPosition()
		want := 0
		for sq := rules.Square(0); sq < 64; sq++ {
			if start.At(sq) != rules.NoPiece {
				want++
			}
		}
		if n := eval[int](t, p, `document.querySelectorAll('#start-board g.piece').length`); n != want {
			t.Errorf("%s: the start diagram has %d pieces, want %d", name, n, want)
		}
		if title := eval[string](t, p, `document.title`); !strings.HasPrefix(title, name+" ") {
			t.Errorf("%s: the page is titled %q", name, title)
		}
	}
}

// TestTakeoverNoted shows a bot taking a seat whose player ran out of time:
// a note in the move list, just above the turn the bot plays first, which
// is the turn the record's Takeover tag names; the replay shows the same,
// and numbers its turns as the record does.
func TestTakeoverNoted(t *testing.T) {
	site := newSite(t)
	c, err := site.Create(server.NewGame{Seats: []string{"human", "bot:random", "bot:random", "bot:random"}, TurnMS: 500, OnTimeout: "bot", Takeover: "random", AutoPass: new(false)})
	must(t, err)
	p := newPage(t, 1100, 800, false)
	must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
	const note = "South: bot:random takes over (out of time)"
	noted := fmt.Sprintf(`[...document.querySelectorAll('#moves .move-line.note')].some(e => e.textContent === %q)`, note)
	must(t, p.Wait(noted, 10*time.Second))
	if next := eval[string](t, p, `document.querySelector('#moves .move-line.note').nextElementSibling?.querySelector('.move-no')?.textContent || ''`); next != "1" {
		t.Errorf("the note stands above turn %q, want 1 (South's first)", next)
	}

	var st *server.State
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		st, err = site.State(c.ID)
		must(t, err)
		if st.Status != "live" || time.Now().After(end) {
			break
		}
	}
	if st.Status != "finished" {
		t.Fatalf("the bots did not finish the game: %+v", st)
	}
	resp, err := http.Get(site.API.Base + "/api/games/" + c.ID + "/record")
	must(t, err)
	text, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	must(t, err)
	recs, err := record.ParseString(string(text))
	must(t, err)
	if tag, _ := recs[0].Tags.Get("Takeover"); tag != "South: bot:random from turn 1 (timeout)" {
		t.Errorf("the record's Takeover tag is %q", tag)
	}

	must(t, p.Go(site.URL+"/replay/"+c.ID))
	must(t, p.Wait(noted, 10*time.Second))
	if next := eval[string](t, p, `document.querySelector('#moves .move-line.note').nextElementSibling?.querySelector('.move-no')?.textContent || ''`); next != "1" {
		t.Errorf("in the replay the note stands above turn %q, want 1", next)
	}
	// The seats panel shows the seat's player as it was at the step shown.
	who := `document.querySelector('#seats .seat[data-seat="South"]').textContent`
	if got := eval[string](t, p, who); !strings.Contains(got, "Random bot") {
		t.Errorf("at the end the replay shows South as %q, want the bot", got)
	}
	must(t, p.Key("Home"))
	must(t, p.Wait(`document.querySelector('#slider').value === '0'`, 5*time.Second))
	if got := eval[string](t, p, who); !strings.Contains(got, "Human") || strings.Contains(got, "bot") {
		t.Errorf("at the start the replay shows South as %q, want human", got)
	}
	nums := eval[[]string](t, p, `[...document.querySelectorAll('#moves .move-no')].map(e => e.textContent)`)
	if len(nums) != len(recs[0].Turns) || len(nums) > 0 && nums[len(nums)-1] != strconv.Itoa(len(recs[0].Turns)) {
		t.Errorf("the replay numbers %d turns, up to %v; the record has %d", len(nums), nums[len(nums)-1:], len(recs[0].Turns))
	}
}

// TestSeatMenusSayHowBotsPlay checks the home page's seat menus: every
// strength level and bot, each saying how it plays (the ai package's own
// descriptions), under the menu for the choice made and as the option's
// tooltip.
func TestSeatMenusSayHowBotsPlay(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1280, 900, false)
	must(t, p.Go(site.URL+"/"))
	must(t, p.Wait(`document.querySelector('#about-West') && document.querySelector('#about-West').textContent !== ''`, 5*time.Second))
	if got, want := eval[string](t, p, `document.querySelector('#about-West').textContent`), ai.Levels[2].About; got != want {
		t.Errorf("under level 3 the page says %q, want %q", got, want)
	}
	eval[bool](t, p, `(() => { const s = document.querySelector('#seat-West'); s.value = 'bot:greedy'; s.dispatchEvent(new Event('change')); return true; })()`)
	greedy := ""
	for _, k := range ai.Kinds {
		if k.Name == "greedy" {
			greedy = k.About
		}
	}
	if got := eval[string](t, p, `document.querySelector('#about-West').textContent`); got != greedy || greedy == "" {
		t.Errorf("under greedy the page says %q, want %q", got, greedy)
	}
	options := eval[[]string](t, p, `[...document.querySelectorAll('#seat-North option')].map(o => o.value + ' ' + o.title)`)
	levels := 0
	for _, o := range options {
		spec, about, _ := strings.Cut(o, " ")
		if about == "" && spec != "human" {
			t.Errorf("option %s has no description", spec)
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(spec, "bot:")); err == nil {
			levels++
			if about != ai.Levels[n-1].About {
				t.Errorf("option %s says %q, want %q", spec, about, ai.Levels[n-1].About)
			}
		}
	}
	if levels != len(ai.Levels)-1 || !slices.ContainsFunc(options, func(o string) bool { return strings.HasPrefix(o, "bot:strong ") }) {
		t.Errorf("the menu offers %v: want levels 1..%d and strong", options, len(ai.Levels)-1)
	}
}

// TestScoreChart draws a finished game's scores: in the replay, a line per
// seat whose steps are the seat's score changes and whose end, read back
// through the chart's own gridlines, is its final score; a click on the
// chart jumps to that part of the game; the game-over panel has it too.
func TestScoreChart(t *testing.T) {
	site := newSite(t)
	st, err := site.Finish("chaturaji", 4, 'K', 5)
	must(t, err)
	evs, err := site.Events(st.ID)
	must(t, err)
	// Each seat's score changes, from the events: what each line must show.
	changes := make([]int, 4)
	prev := make([]int, 4)
	for _, e := range evs {
		for i, v := range e.Scores {
			if v != prev[i] {
				changes[i]++
				prev[i] = v
			}
		}
	}

	p := newPage(t, 1280, 900, false)
	must(t, p.Go(site.URL+"/replay/"+st.ID))
	must(t, p.Wait(`document.querySelectorAll('#score-chart .score-line').length === 4`, 10*time.Second))
	type line struct {
		D      string
		Y0, YM float64 // the gridlines of 0 and of the top value
		Max    float64
	}
	for i, seat := range []string{"South", "West", "North", "East"} {
		l := eval[line](t, p, fmt.Sprintf(`(() => {
			const grid = [...document.querySelectorAll('#score-chart .chart-grid')];
			const y = (g) => Number(g.querySelector('line').getAttribute('y1'));
			const top = grid.reduce((a, g) => Number(g.dataset.value) > Number(a.dataset.value) ? g : a);
			const zero = grid.find((g) => g.dataset.value === '0');
			return { D: document.querySelector('#score-chart .score-line[data-seat=%q] .score-fill').getAttribute('d'),
				Y0: y(zero), YM: y(top), Max: Number(top.dataset.value) };
		})()`, seat))
		fields := strings.Fields(l.D)
		last, steps := "", 0
		for _, f := range fields {
			if strings.HasPrefix(f, "V") {
				last = f[1:]
				steps++
			}
		}
		y := l.Y0
		if last != "" {
			y, err = strconv.ParseFloat(last, 64)
			must(t, err)
		}
		score := (l.Y0 - y) / (l.Y0 - l.YM) * l.Max
		if math.Abs(score-float64(st.Scores[i])) > 0.01 {
			t.Errorf("%s's line ends at %.2f points, the game at %d (path %s)", seat, score, st.Scores[i], l.D)
		}
		if steps != changes[i] {
			t.Errorf("%s's line changes %d times, its score %d times", seat, steps, changes[i])
		}
	}
	if label := eval[string](t, p, `document.querySelector('#score-chart svg').getAttribute('aria-label')`); !strings.Contains(label, fmt.Sprintf("South %d", st.Scores[0])) {
		t.Errorf("the chart's label says %q", label)
	}

	// A click near the chart's left edge goes back to the opening.
	last := eval[int](t, p, `Number(document.querySelector('#slider').value)`)
	x, yy, err := p.Center("#score-chart svg")
	must(t, err)
	width := eval[float64](t, p, `document.querySelector('#score-chart svg').getBoundingClientRect().width`)
	must(t, p.Click(x-width/2+width*0.12, yy))
	must(t, p.Wait(fmt.Sprintf(`Number(document.querySelector('#slider').value) < %d`, last/4+1), 5*time.Second))
	if n := eval[int](t, p, `document.querySelectorAll('#score-chart .chart-current').length`); n != 1 {
		t.Errorf("%d marks of the step shown, want 1", n)
	}

	// The game-over panel shows it too.
	must(t, p.Go(site.URL+"/game/"+st.ID))
	must(t, p.Wait(`document.querySelectorAll('#over .score-chart .score-line').length === 4`, 10*time.Second))
}

// eventLines lists a game's events, one a line (its number, kind, seat,
// roll or action, who made it and why), for the message of a failed test.
func eventLines(t *testing.T, site *webtest.Site, id string) string {
	t.Helper()
	evs, err := site.Events(id)
	if err != nil {
		return "the events cannot be read: " + err.Error()
	}
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "%d %s %s %s%s %s %s %s\n", e.Seq, e.Kind, e.Seat, e.Roll, e.Action, e.By, e.Player, e.Reason)
	}
	return b.String()
}
