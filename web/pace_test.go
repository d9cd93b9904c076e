package web_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/server"
)

// recordFrames makes the page note, at every event it shows (its data-seq
// changing), the event's number and what the page shows then: the board,
// the banner's sentence, the last action of the move list; window.frames_
// holds them.
const recordFrames = `(() => {
	window.frames_ = [];
	const note = () => window.frames_.push({
		seq: Number(document.body.dataset.seq || 0),
		board: ` + boardSnapshot + `,
		said: (document.querySelector('#turn-last') || {textContent: ''}).textContent,
		last: ([...document.querySelectorAll('#moves .move-act')].pop() || {dataset: {}}).dataset.action || '',
	});
	new MutationObserver(note).observe(document.body, {attributes: true, attributeFilter: ['data-seq']});
	return true;
})()`

type frame struct {
	Seq   int64
	Board string
	Said  string
	Last  string
}

// boardOf writes a position's board as boardSnapshot does: "d2:bP ...".
func boardOf(t *testing.T, pr *rules.Preset, pos string) string {
	t.Helper()
	p := rules.MustParsePosition(pr, pos)
	var out []string
	for sq := rules.Square(0); sq < 64; sq++ {
		if pc := p.At(sq); pc != rules.NoPiece {
			out = append(out, fmt.Sprintf("%s:%c%c", sq, pc.Seat().Letter(), pr.Pieces[pc.Kind()].Letter))
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// TestEventsShownInOrder watches a game in which bots play a little faster
// than the page's animations, and South (the test, through the API) at
// once: the page shows its events one after another, none skipped, each
// drawn in its end state (the board is the event's position, the move list
// ends with the last action, the banner says it) before the next, though
// they come in bursts.
func TestEventsShownInOrder(t *testing.T) {
	site := newSite(t)
	delay := int64(150)
	c, err := site.Create(server.NewGame{Seats: []string{"human", "bot:random", "bot:greedy", "bot:random"}, BotDelayMS: &delay})
	must(t, err)
	pr, err := rules.Lookup(c.Rules)
	must(t, err)
	p := newPage(t, 1280, 900, false)
	must(t, p.Motion(true))
	must(t, p.OnNewDocument(`document.addEventListener('DOMContentLoaded', () => { window.framesReady = `+recordFrames+`; });`))
	must(t, p.Go(site.URL+"/game/"+c.ID))
	// The page has caught up with the game, which waits for South: what it
	// shows from now on comes live.
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		st, err := site.State(c.ID)
		must(t, err)
		if st.ToAct == "South" && eval[bool](t, p, fmt.Sprintf(`!!window.framesReady && Number(document.body.dataset.seq) === %d`, st.Seq)) {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the page did not catch up with the game, waiting for South:\n%s", p.Describe())
		}
	}
	eval[bool](t, p, `(window.frames_ = window.frames_.slice(-1), true)`)
	rng := rand.New(rand.NewPCG(3, 4))
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if eval[bool](t, p, `window.frames_.length >= 40 || document.body.dataset.status === 'finished'`) {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the page showed %d events in a minute", eval[int](t, p, `window.frames_.length`))
		}
		st, err := site.State(c.ID)
		must(t, err)
		if st.ToAct == "South" && len(st.Actions) > 0 {
			site.Act(c.ID, c.Seats[0].Token, st.Actions[rng.IntN(len(st.Actions))]) // refused if too late: tried again
		}
	}
	frames := eval[[]frame](t, p, `window.frames_`)
	evs, err := site.Events(c.ID)
	must(t, err)
	bySeq := map[int64]server.Event{}
	for _, e := range evs {
		bySeq[e.Seq] = e
	}
	lastAction := ""
	for _, e := range evs {
		if e.Seq > frames[0].Seq {
			break
		}
		if e.Kind == server.KindAction {
			lastAction = e.Action
		}
	}
	for i, f := range frames[1:] {
		prev := frames[i]
		if f.Seq == prev.Seq {
			continue // another attribute change, the same event
		}
		if f.Seq != prev.Seq+1 {
			t.Fatalf("the page showed event %d after event %d: the events between were not shown", f.Seq, prev.Seq)
		}
		e, ok := bySeq[f.Seq]
		if !ok {
			t.Fatalf("the page showed event %d, which the server does not have", f.Seq)
		}
		if e.Position != "" {
			if want := boardOf(t, pr, e.Position); f.Board != want {
				t.Errorf("at event %d (%s) the board shows\n%s\nwant\n%s", f.Seq, e.Kind, f.Board, want)
			}
		}
		if e.Kind == server.KindAction {
			lastAction = e.Action
			if e.By == server.ByAuto && !strings.Contains(f.Said, e.Seat+" passes: no piece can move") {
				t.Errorf("at event %d, %s's forced pass, the banner says %q", f.Seq, e.Seat, f.Said)
			}
			for _, cp := range e.Captures {
				if !strings.Contains(f.Said, " took ") || !strings.Contains(f.Said, cp.Seat+"'s ") {
					t.Errorf("at event %d, %s's %s taking %s's %s, the banner says %q", f.Seq, e.Seat, e.Action, cp.Seat, cp.Piece, f.Said)
				}
			}
		}
		if f.Last != lastAction {
			t.Errorf("at event %d the move list ends with %q, want %q", f.Seq, f.Last, lastAction)
		}
	}
}

// TestArrowsOfLivingSeats opens games whose last position has a frozen
// army that moved before: the board marks the last move of each living
// army, none of a frozen one's.
func TestArrowsOfLivingSeats(t *testing.T) {
	site := newSite(t)
	var frozen string
	id, evs := finishedBotGame(t, site, "chaturaji", func(evs []server.Event) bool {
		// A seat without a king, with pieces, that moved in the game.
		last := evs[len(evs)-1].Position
		board := last[:strings.Index(last, " ")]
		for seat, l := range letters {
			moved := slices.ContainsFunc(evs, func(e server.Event) bool {
				return e.Kind == server.KindAction && e.Seat == seat && len(e.Action) >= 4 && e.Action[0] >= 'a' && e.Action[0] <= 'h'
			})
			if moved && !strings.Contains(board, l+"K") && strings.Contains(board, l) {
				frozen = l
				return true
			}
		}
		return false
	}, 10)
	_ = evs
	p := newPage(t, 1280, 900, false)
	for _, page := range []string{"/game/", "/replay/"} {
		must(t, p.Go(site.URL+page+id))
		must(t, p.Wait(`document.querySelector('#board rect.last-move') && (document.body.dataset.status === 'finished' || document.body.dataset.step)`, 10*time.Second))
		shown := eval[string](t, p, `[...new Set([...document.querySelectorAll('#board rect.last-move')].map(r => r.dataset.seat))].sort().join('')`)
		if strings.Contains(shown, frozen) {
			t.Errorf("%s: the board marks the last moves of %q, %q among them, whose army is frozen", page, shown, frozen)
		}
		arrows := eval[int](t, p, `document.querySelectorAll('#board line.last-arrow').length`)
		if arrows != len(shown) {
			t.Errorf("%s: %d arrows for the last moves of %q", page, arrows, shown)
		}
	}
}

// soundLog records the sounds the page plays (the sound module's
// chaturaji:sound events) and the oscillators it starts (through the Web
// Audio API), in every document the tab loads; and, as window.history0,
// the last event of the game when the page's first socket opened (its
// hello): the events up to it are the game's past, which makes no sound.
const soundLog = `(() => {
	window.sounds = [];
	window.oscillators = 0;
	document.addEventListener('chaturaji:sound', (e) => window.sounds.push(e.detail));
	window.WebSocket = new Proxy(window.WebSocket, {construct(target, args) {
		const ws = new target(...args);
		ws.addEventListener('message', (m) => {
			try {
				const e = JSON.parse(m.data);
				if (e.kind === 'hello' && window.history0 === undefined) window.history0 = e.last || 0;
			} catch {}
		});
		return ws;
	}});
	const make = AudioContext.prototype.createOscillator;
	AudioContext.prototype.createOscillator = function () { window.oscillators++; return make.call(this); };
})()`

// TestSoundsAndTitle plays against bots: a move sounds, the turn coming
// back sounds and titles the tab "Your turn", which it no longer says once
// the move is made; a capture, a king taken and the end sound as they come
// (the bots decide which come); the mute switch silences them, and a page
// opened later remembers it.
func TestSoundsAndTitle(t *testing.T) {
	site := newSite(t)
	delay := int64(600) // the bots take their time: the tab is seen not to be South's turn
	c, err := site.Create(server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}, BotDelayMS: &delay})
	must(t, err)
	p := newPage(t, 1280, 900, false)
	must(t, p.OnNewDocument(soundLog))
	must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
	must(t, p.Wait(`document.body.dataset.seq && window.history0 !== undefined`, 10*time.Second))
	// The events of the game before the page connected make no sound: on a
	// loaded machine the page may still be drawing them when it first
	// shows a seq.
	opened := int64(eval[int](t, p, `window.history0`))
	sounds := func() []string { return eval[[]string](t, p, `window.sounds`) }
	title := func() string { return eval[string](t, p, `document.title`) }
	turns := 0
	for turns < 3 && awaitTurn(t, p) {
		if got := title(); !strings.HasPrefix(got, "Your turn") {
			t.Errorf("on South's turn the tab says %q", got)
		}
		before := seq(t, p)
		must(t, p.ClickElement("#play-move"))
		waitSeqAfter(t, p, before)
		if got := title(); strings.HasPrefix(got, "Your turn") {
			t.Errorf("after South's move the tab still says %q", got)
		}
		turns++
	}
	heard := sounds()
	if turns > 0 && !slices.Contains(heard, "move") {
		t.Errorf("sounds %v: want a move", heard)
	}
	if turns > 1 && !slices.Contains(heard, "turn") {
		t.Errorf("sounds %v after %d turns of South: want your turn", heard, turns)
	}
	if n := eval[int](t, p, `window.oscillators`); n == 0 {
		t.Errorf("sounds %v, but no oscillator started", heard)
	}
	evs, err := site.Events(c.ID)
	must(t, err)
	shown := int64(seq(t, p))
	for _, e := range evs {
		if e.Seq > shown {
			break
		}
		want := ""
		switch {
		case e.Kind == server.KindEnd:
			want = "end"
		case slices.ContainsFunc(e.Captures, func(c server.Capture) bool { return c.Piece == "K" }):
			want = "king"
		case len(e.Captures) > 0:
			want = "capture"
		}
		if want != "" && e.Seq > opened && !slices.Contains(heard, want) {
			t.Errorf("event %d (%s %s, captures %+v) made no %s sound: heard %v", e.Seq, e.Seat, e.Action, e.Captures, want, heard)
		}
	}

	// Muted: nothing more, and the next page remembers.
	must(t, p.ClickElement("#mute"))
	if got := eval[string](t, p, `document.querySelector('#mute').getAttribute('aria-pressed')`); got != "true" {
		t.Fatalf("the mute switch says aria-pressed=%q after a click", got)
	}
	eval[bool](t, p, `(window.sounds = [], window.oscillators = 0, true)`)
	if awaitTurn(t, p) {
		before := seq(t, p)
		must(t, p.ClickElement("#play-move"))
		waitSeqAfter(t, p, before)
		awaitTurn(t, p)
		if got := sounds(); len(got) > 0 {
			t.Errorf("muted, the page played %v", got)
		}
		if n := eval[int](t, p, `window.oscillators`); n > 0 {
			t.Errorf("muted, the page started %d oscillators", n)
		}
	}
	must(t, p.Go(site.URL+"/game/"+c.ID))
	must(t, p.Wait(`document.querySelector('#mute')`, 10*time.Second))
	if got := eval[string](t, p, `document.querySelector('#mute').getAttribute('aria-pressed')`); got != "true" {
		t.Errorf("a page opened after muting has aria-pressed=%q", got)
	}
}

// TestBotPaceChosen creates games on the home page: the bots' pace chosen
// is the table's bot delay, and left at its first choice the server's.
func TestBotPaceChosen(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1280, 900, false)
	for _, c := range []struct {
		choice string
		want   int64
	}{{"1500", 1500}, {"0", 0}, {"", 0}} { // the tests' server has no bot delay
		must(t, p.Go(site.URL+"/"))
		must(t, p.Wait(`document.querySelector('#seat-East') && document.querySelector('#bot-pace')`, 10*time.Second))
		eval[bool](t, p, fmt.Sprintf(`(() => {
			document.querySelector('#bot-pace').value = %q;
			for (const s of ['West', 'North', 'East']) document.querySelector('#seat-' + s).value = 'bot:greedy';
			return true;
		})()`, c.choice))
		must(t, p.ClickElement("#create"))
		must(t, p.Wait(`document.querySelector('#open-game')`, 10*time.Second))
		id := eval[string](t, p, `document.querySelector('#open-game').getAttribute('href').split('/')[2]`)
		st, err := site.State(id)
		must(t, err)
		if st.Table.BotDelayMS != c.want {
			t.Errorf("bots' pace %q: the table's bot_delay_ms is %d, want %d", c.choice, st.Table.BotDelayMS, c.want)
		}
	}
}
