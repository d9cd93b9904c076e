package web_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/web/webtest"
)

// TestPartnersComeAsPair: in a casual team pool, a guest presses "Play
// with a partner" and is shown a link to give; a partner's link the lobby
// does not know is refused on the page, saying why. Another guest, in a
// browser of its own, opens the inviter's link, and both pages show that
// they look for opponents together. When the partner closes its page, the
// inviter's page says that its partner left and that the seek was
// withdrawn. A second time, bots allowed after 1 s, the two are seated in
// one game, in the two seats of one team, each page holding its own
// seat's token, bots in the others. axe-core finds nothing on each state.
func TestPartnersComeAsPair(t *testing.T) {
	axeScript(t)
	site := newSite(t)
	inviter := newPage(t, 1366, 768, false)
	accessible := func(p *webtest.Page, state string) {
		t.Helper()
		if bad := axeCheck(t, p); len(bad) > 0 {
			t.Errorf("the lobby, %s: %d accessibility violations:\n%s", state, len(bad), strings.Join(bad, "\n"))
		}
	}
	// invite has the inviter ask for a partner in the team pool, bots
	// after the seconds given ("0": people only), and returns the link.
	invite := func(bots string) string {
		t.Helper()
		choosePool(t, inviter, "chaturaji-teams", "15s", "casual", bots)
		must(t, inviter.Wait(`!document.querySelector('#pair').hidden`, 5*time.Second))
		must(t, inviter.ClickElement("#pair"))
		must(t, inviter.Wait(`document.body.dataset.pair === 'inviting' && document.querySelector('#pair-link').value && !document.querySelector('#pair-invite').hidden`, 10*time.Second))
		if hidden := eval[[]bool](t, inviter, `['#seek', '#pair', '#cancel'].map(s => document.querySelector(s).hidden)`); !slices.Equal(hidden, []bool{true, true, false}) {
			t.Errorf("while inviting, Play, Play with a partner and Cancel are hidden %v, want only Cancel shown", hidden)
		}
		link := eval[string](t, inviter, `document.querySelector('#pair-link').value`)
		if !strings.HasPrefix(link, site.URL+"/play?partner=") || len(link) == len(site.URL+"/play?partner=") {
			t.Fatalf("the partner's link is %q, want %s/play?partner=CODE", link, site.URL)
		}
		return link
	}
	// paired waits until both pages seek together and checks what they say.
	paired := func(a, b *webtest.Page) {
		t.Helper()
		for _, p := range []*webtest.Page{a, b} {
			must(t, p.Wait(`document.body.dataset.pair === 'paired' && document.body.dataset.seeking === 'yes'`, 10*time.Second))
			status := eval[string](t, p, `document.querySelector('#seek-status').textContent`)
			if !strings.Contains(status, "with your partner Guest") || !strings.Contains(status, "chaturaji-teams, 15 s a move, casual") {
				t.Errorf("a partner's page says %q, want its partner and the pool named", status)
			}
		}
	}

	must(t, inviter.Go(site.URL+"/play"))
	choosePool(t, inviter, "chaturaji", "15s", "casual", "0")
	if !eval[bool](t, inviter, `document.querySelector('#pair').hidden`) {
		t.Errorf("Play with a partner is offered for chaturaji, whose seats play alone")
	}
	link := invite("0")
	accessible(inviter, "a partner invited")

	// A link the lobby does not know: refused, saying why, the code gone from the address.
	partner := newPage(t, 390, 844, true)
	must(t, partner.ColorScheme("dark"))
	must(t, partner.Go(site.URL+"/play?partner=nosuch"))
	must(t, partner.Wait(`document.querySelector('#lobby-error').textContent.includes('no pair invitation')`, 10*time.Second))
	if got := eval[string](t, partner, `location.search + '|' + document.body.dataset.seeking`); got != "|no" {
		t.Errorf("after a refused link the address's query and seeking are %q, want none and no", got)
	}
	accessible(partner, "a partner's link refused")

	must(t, partner.Go(link))
	paired(inviter, partner)
	accessible(inviter, "the inviter seeking with its partner")
	accessible(partner, "the partner seeking with its inviter")
	must(t, inviter.Wait(`document.querySelectorAll('#seekers li.lobby-item[data-pool="chaturaji-teams/15s/casual"]').length === 2`, 10*time.Second))

	// The partner closes its page: the inviter is told, plainly.
	partner.Close()
	must(t, inviter.Wait(`document.body.dataset.seeking === 'no' && !document.body.dataset.pair`, 10*time.Second))
	note := eval[string](t, inviter, `document.querySelector('#pair-note').textContent`)
	if note != "Your partner left the lobby, so the seek you made together was withdrawn." {
		t.Errorf("after its partner left, the inviter's page says %q", note)
	}
	if shown := eval[[]bool](t, inviter, `['#seek', '#pair', '#cancel', '#pair-invite'].map(s => !document.querySelector(s).hidden)`); !slices.Equal(shown, []bool{true, true, false, false}) {
		t.Errorf("after the withdrawal Play, Play with a partner, Cancel and the link are shown %v, want the first two", shown)
	}
	accessible(inviter, "the pair's seek withdrawn")

	// Again, bots after 1 s: one game, partners' seats, two bots.
	link = invite("1")
	if eval[string](t, inviter, `document.querySelector('#pair-note').textContent`) != "" {
		t.Errorf("the old withdrawal is still said after a new invitation")
	}
	partner = newPage(t, 390, 844, true)
	must(t, partner.Go(link))
	a, b := seatedGame(t, inviter, 15*time.Second), seatedGame(t, partner, 15*time.Second)
	if a != b {
		t.Fatalf("the inviter is in game %s, its partner in %s", a, b)
	}
	st, err := site.State(a)
	must(t, err)
	pr, err := rules.Lookup(st.Rules)
	must(t, err)
	var held []rules.Seat
	for _, p := range []*webtest.Page{inviter, partner} {
		tokens := eval[[]string](t, p, fmt.Sprintf(`import('/static/js/api.js').then(m => Object.keys(m.tokens(%q)))`, a))
		if len(tokens) != 1 {
			t.Fatalf("a partner's page holds the seats %v, want one", tokens)
		}
		i := slices.IndexFunc(pr.Seats(), func(s rules.Seat) bool { return s.String() == tokens[0] })
		if i < 0 {
			t.Fatalf("a partner's page holds seat %q, none of %s's", tokens[0], st.Rules)
		}
		held = append(held, pr.Seats()[i])
	}
	if held[0] == held[1] || !pr.Teammates(held[0], held[1]) {
		t.Errorf("the partners hold seats %v and %v, want the two seats of one team", held[0], held[1])
	}
	for _, s := range st.Seats {
		mine := s.Seat == held[0].String() || s.Seat == held[1].String()
		if bot := strings.HasPrefix(s.Player, "bot"); bot == mine {
			t.Errorf("seat %s is played by %q: want the partners in their seats and bots in the others", s.Seat, s.Player)
		}
	}
	must(t, inviter.Wait(`document.querySelectorAll('#seats .seat.you').length === 1`, 10*time.Second))
	must(t, partner.Wait(`document.querySelectorAll('#seats .seat.you').length === 1`, 10*time.Second))
}
