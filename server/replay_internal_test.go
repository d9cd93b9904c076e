package server

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// storedGame returns a game's table as the store keeps it and the JSON of
// its first n events (a start, then rolls and actions) as the server
// writes them.
func storedGame(tb testing.TB, n int) (*store.Game, [][]byte) {
	tb.Helper()
	seed := rules.SeedFromInt(7)
	pr := rules.Chaturaji
	info := &store.Game{
		ID: "fuzzed", Rules: pr.Name, Seed: seed[:], SeedHash: seed.Commitment(), Start: pr.Start,
		Settings: []byte(`{"turn_ms":0,"on_timeout":"pass","abandon_ms":120000,"takeover":"greedy","auto_pass":true}`),
		Seats:    []store.Seat{{Player: Human}, {Player: "bot:greedy"}, {Player: Human}, {Player: Human}},
		Status:   store.Live, Created: time.Unix(0, 0).UTC(), Updated: time.Unix(0, 0).UTC(),
	}
	g := rules.NewGame(pr, seed)
	start := &Event{Kind: KindStart, Rules: pr.Name, SeedHash: info.SeedHash}
	for i, s := range pr.Seats() {
		start.Seats = append(start.Seats, SeatInfo{Seat: s.String(), Player: info.Seats[i].Player})
	}
	evs := []*Event{start}
	for len(evs) < n && !g.Finished() {
		p := g.Position()
		e := &Event{Seat: p.TurnSeat().String()}
		if p.AwaitingRoll() {
			r, err := g.Roll()
			if err != nil {
				tb.Fatal(err)
			}
			e.Kind, e.Roll = KindRoll, r.String()
		} else {
			var buf [rules.MaxActions]rules.Action
			a := p.Actions(buf[:])[0]
			if err := g.Play(a); err != nil {
				tb.Fatal(err)
			}
			e.Kind, e.Action, e.By = KindAction, a.Format(pr), ByPlayer
		}
		describe(e, g, time.Time{})
		evs = append(evs, e)
	}
	var data [][]byte
	for i, e := range evs {
		e.Seq = int64(i + 1)
		b, err := json.Marshal(e)
		if err != nil {
			tb.Fatal(err)
		}
		data = append(data, b)
	}
	return info, data
}

// FuzzReplay gives replay any stored events, one JSON text a line, as a
// damaged or tampered database would: it rebuilds the game or says which
// event is wrong, never panics, and what it rebuilds it rebuilds the same
// way again.
func FuzzReplay(f *testing.F) {
	info, good := storedGame(f, 12)
	var genuine []store.Event
	for i, d := range good {
		genuine = append(genuine, store.Event{Seq: int64(i + 1), Kind: "genuine", Data: d})
	}
	if r, err := replay(info, genuine); err != nil || r.seq != int64(len(good)) {
		f.Fatalf("the genuine events do not replay: %v", err)
	}
	f.Add(bytes.Join(good, []byte("\n")))
	f.Add(bytes.Join(good[:3], []byte("\n")))
	f.Add(bytes.Join(append(good[:4:4], []byte(`{"seq":5,"kind":"roll","roll":"2"}`)), []byte("\n")))
	f.Add(bytes.Join(append(good[:4:4], []byte(`{"seq":5,"kind":"seat","seat":"Nowhere","player":"bot:1"}`)), []byte("\n")))
	f.Add(bytes.Join(append(good[:2:2], []byte(`{"seq":3,"kind":"action","action":"h8h1"}`)), []byte("\n")))
	f.Add(bytes.Join(append(good[:1:1], []byte(`{"seq":2,"kind":"start","seats":[{"seat":"South","player":"human"}]}`)), []byte("\n")))
	f.Add([]byte(`{"seq":1,"kind":"end"}` + "\n" + `not json`))
	f.Fuzz(func(t *testing.T, text []byte) {
		var evs []store.Event
		for i, line := range bytes.Split(text, []byte("\n")) {
			evs = append(evs, store.Event{Seq: int64(i + 1), Kind: "fuzzed", Data: line})
		}
		r, err := replay(info, evs)
		if err != nil {
			return
		}
		if r.seq != int64(len(evs)) {
			t.Fatalf("replayed %d events of %d", r.seq, len(evs))
		}
		again, err := replay(info, evs)
		if err != nil || again.game.Position().String() != r.game.Position().String() {
			t.Fatalf("replayed to %s, then to %v (%v)", r.game.Position(), again, err)
		}
	})
}

// TestReplayTables checks what replay reads of the stored settings: a
// game from before a table could turn engine help off has help, and
// one whose table turned it off has none; the seats the creator took and
// which seats moved, from the actions of their holders.
func TestReplayTables(t *testing.T) {
	info, data := storedGame(t, 6)
	var evs []store.Event
	for i, d := range data {
		evs = append(evs, store.Event{Seq: int64(i + 1), Kind: "stored", Data: d})
	}
	for _, c := range []struct {
		settings string
		help     bool
		hosts    []int
	}{
		{`{"turn_ms":0,"on_timeout":"pass","abandon_ms":120000,"takeover":"greedy","auto_pass":true}`, true, nil},
		{`{"turn_ms":0,"on_timeout":"pass","help":false,"abandon_ms":120000,"takeover":"greedy","auto_pass":true,"hosts":[0,3]}`, false, []int{0, 3}},
		{`{"turn_ms":0,"on_timeout":"pass","help":true,"abandon_ms":120000,"takeover":"greedy","auto_pass":true}`, true, nil},
	} {
		info.Settings = []byte(c.settings)
		r, err := replay(info, evs)
		if err != nil {
			t.Fatal(err)
		}
		if r.table.Help != c.help || len(r.hosts) != len(c.hosts) || len(c.hosts) > 0 && (r.hosts[0] != c.hosts[0] || r.hosts[1] != c.hosts[1]) {
			t.Errorf("%s: help %v, hosts %v; want %v, %v", c.settings, r.table.Help, r.hosts, c.help, c.hosts)
		}
		// South and West played an action each (the bot West's, by the
		// fixture's table, counts too: it was written as its player's).
		if !r.moved[0] || !r.moved[1] || r.moved[2] || r.moved[3] {
			t.Errorf("moved %v after %d events, want South and West only", r.moved, len(evs))
		}
	}
}
