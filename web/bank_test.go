package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// TestBankFromTheForm creates a game with a chess clock and free chat from
// the home page's form, as a player would: the form explains the time
// control, the server keeps it, the game page runs South's bank down while
// South decides and shows it standing, with the time the move took, once
// South has moved, and the long name beside it is not cut short at 1366
// px.
func TestBankFromTheForm(t *testing.T) {
	site := newSite(t)
	p := newPage(t, 1366, 768, false)
	must(t, p.Go(site.URL+"/"))
	must(t, p.Wait(`document.querySelector('#seat-East') && document.querySelector('#time optgroup')`, 10*time.Second))
	eval[bool](t, p, `(() => {
		const t = document.querySelector('#time');
		t.value = 'bank:180000:2000:0';
		t.dispatchEvent(new Event('change', {bubbles: true}));
		document.querySelector('#chat').checked = true;
		for (const s of ['West', 'North', 'East']) document.querySelector('#seat-' + s).value = 'bot:greedy';
		document.querySelector('#name-South').value = 'Meenakshi Sundaram';
		return true;
	})()`)
	about := eval[string](t, p, `document.querySelector('#time-about').textContent`)
	for _, want := range []string{"3 min", "2 s after each move", "costs no one time"} {
		if !strings.Contains(about, want) {
			t.Errorf("the form explains the time control as %q, want %q in it", about, want)
		}
	}
	must(t, p.ClickElement("#create"))
	if err := p.Wait(`document.querySelector("#open-game")`, 10*time.Second); err != nil {
		t.Fatalf("%v: %s", err, eval[string](t, p, `document.querySelector("#created").textContent`))
	}
	id := eval[string](t, p, `document.querySelector('#open-game').getAttribute('href').split('/')[2]`)
	st, err := site.State(id)
	must(t, err)
	if st.Table.BankMS != 180000 || st.Table.IncrementMS != 2000 || st.Table.DelayMS != 0 || st.Table.TurnMS != 0 || !st.Table.Chat {
		t.Fatalf("the form made the table %+v, want a bank of 180000 ms, an increment of 2000 ms and chat", st.Table)
	}

	must(t, p.ClickElement("#open-game"))
	if !awaitTurn(t, p) {
		t.Fatal("the bots took South's king before South's first move")
	}
	south := `document.querySelector('#seats .seat[data-seat="South"] .seat-clock')`
	must(t, p.Wait(south+` && `+south+`.classList.contains('running') && /^\d+:\d\d$/.test(`+south+`.textContent)`, 5*time.Second))
	first := eval[string](t, p, south+`.textContent`)
	if first > "3:00" || first < "2:50" {
		t.Errorf("South's bank reads %s as its first decision opens, want under 3:00 and over 2:50", first)
	}
	if err := p.Wait(south+`.textContent !== `+quoteJS(first), 5*time.Second); err != nil {
		t.Errorf("South's bank stood at %s while South decided", first)
	}
	for _, seat := range []string{"West", "North", "East"} {
		if s := eval[string](t, p, `document.querySelector('#seats .seat[data-seat="`+seat+`"] .seat-clock').textContent`); s != "" {
			t.Errorf("the bot %s shows a clock %q", seat, s)
		}
	}
	clipped := eval[bool](t, p, `(() => { const n = document.querySelector('#seats .seat[data-seat="South"] .player-name'); return n.scrollWidth > n.clientWidth + 1; })()`)
	if clipped {
		t.Errorf("South's name is cut short at 1366 px: %q", eval[string](t, p, `document.querySelector('#seats .seat[data-seat="South"] .seat-who').textContent`))
	}

	// South moves: its bank stands, with the increment, and says how long
	// the move took, as the server's clock counted it.
	before := seq(t, p)
	must(t, p.ClickElement("#play-move"))
	must(t, p.Wait(`Number(document.body.dataset.seq) > `+fmt.Sprint(before), 10*time.Second))
	evs, err := site.Events(id)
	must(t, err)
	var used *int64
	var bank int64
	for _, e := range evs {
		// South's move, not a pass the server made for it earlier
		// (auto_pass), which takes no time and earns no increment.
		if e.Kind == server.KindAction && e.Seat == "South" && e.By == server.ByPlayer && e.UsedMS != nil {
			used, bank = e.UsedMS, e.Banks[0]
			break
		}
	}
	if used == nil {
		t.Fatalf("no action of South's with the time it used in %d events", len(evs))
	}
	if bank != 180000+2000-max(*used, 0) {
		t.Errorf("South's bank after a move of %d ms is %d, want 180000 + 2000 - %d", *used, bank, *used)
	}
	// The page shows the bank of the latest event: South's, standing with
	// the time the move took, or (the bots play at once, so South's turn
	// may be back) running down from it.
	if err := p.Wait(south+`.classList.contains('running') || `+south+`.textContent.startsWith(`+quoteJS(clockText(bank)+"took ")+`)`, 5*time.Second); err != nil {
		t.Errorf("South's clock reads %q after its move, want its bank %s and the time the move took", eval[string](t, p, south+`.textContent`), clockText(bank))
	}
	if eval[bool](t, p, south+`.classList.contains('running')`) {
		if shown := eval[string](t, p, south+`.textContent`); shown > clockText(bank) || shown < clockText(bank-10000) {
			t.Errorf("South's bank runs from %s, want at most its bank %s", shown, clockText(bank))
		}
	}
}

// clockText writes a bank as the page's seats do: minutes and seconds,
// the seconds rounded up.
func clockText(ms int64) string {
	s := (ms + 999) / 1000
	if s < 60 {
		return fmt.Sprintf("%ds", s)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// quoteJS quotes a string for a JavaScript expression.
func quoteJS(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// TestBankInReplay replays a finished game with a chess clock: each step
// shows every seat's bank as the server's events kept it.
func TestBankInReplay(t *testing.T) {
	site := newSite(t)
	ng := server.NewGame{Rules: "chaturaji", BankMS: 300000, DelayMS: 5000}
	tokens := map[string]string{}
	for _, seat := range []string{"South", "West", "North", "East"} {
		ng.Seats = append(ng.Seats, "human")
		ng.HostSeats = append(ng.HostSeats, seat)
	}
	c, err := site.Create(ng)
	must(t, err)
	for _, s := range c.Seats {
		tokens[s.Seat] = s.Token
	}
	_, err = site.PlayOut(c.ID, tokens, 'K', 7)
	must(t, err)
	evs, err := site.Events(c.ID)
	must(t, err)

	p := newPage(t, 1366, 768, false)
	must(t, p.Go(site.URL+"/replay/"+c.ID))
	must(t, p.Wait(`document.body.dataset.step`, 10*time.Second))
	// The steps are the start, then every roll and action: the events of
	// those kinds, in order.
	var steps []server.Event
	for _, e := range evs {
		if e.Kind == server.KindStart || e.Kind == server.KindRoll || e.Kind == server.KindAction {
			steps = append(steps, e)
		}
	}
	if max := eval[int](t, p, `Number(document.querySelector('#slider').max)`); max != len(steps)-1 {
		t.Fatalf("the replay has %d steps, the game's events %d", max+1, len(steps))
	}
	checked := 0
	for i := len(steps) / 3; i < len(steps) && checked < 3; i++ {
		if steps[i].Kind != server.KindAction || steps[i].Banks == nil {
			continue
		}
		checked++
		eval[bool](t, p, fmt.Sprintf(`(() => { const s = document.querySelector('#slider'); s.value = %d; s.dispatchEvent(new Event('input')); return true; })()`, i))
		must(t, p.Wait(fmt.Sprintf(`Number(document.body.dataset.step) === %d`, i), 3*time.Second))
		for j, seat := range []string{"South", "West", "North", "East"} {
			got := eval[string](t, p, `document.querySelector('#seats .seat[data-seat="`+seat+`"] .clock-time').textContent`)
			if want := clockText(steps[i].Banks[j]); got != want {
				t.Errorf("step %d: %s's bank reads %q, want %s", i, seat, got, want)
			}
		}
	}
	if checked == 0 {
		t.Fatalf("no action of the game's %d steps had its seats' banks", len(steps))
	}
}
