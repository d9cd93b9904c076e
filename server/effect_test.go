package server_test

import (
	"slices"
	"testing"

	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/server"
)

// TestEventsSayWhatHappened watches whole games of bots and checks that
// every action event says what it did: each capture names a piece that
// stood on its square before, with its kind's points; the gains add up to
// the change of every score, and over the game to the final scores; a
// forced pass says why; the end repeats the raise, the empire, or
// chesscom-chaturaji's kings or clock, that the last action brought. (The rules package checks the effects themselves,
// situation by situation.)
func TestEventsSayWhatHappened(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	for _, body := range []string{
		`{"seats": ["bot:greedy", "bot:greedy", "bot:greedy", "bot:greedy"]}`,
		`{"seats": ["bot:random", "bot:greedy", "bot:random", "bot:greedy"]}`,
		`{"rules": "chaturaji-teams", "seats": ["bot:greedy", "bot:greedy", "bot:greedy", "bot:greedy"]}`,
		`{"rules": "martian", "seats": ["bot:greedy", "bot:greedy", "bot:greedy", "bot:greedy"]}`,
		`{"rules": "chesscom-chaturaji", "seats": ["bot:greedy", "bot:greedy", "bot:greedy", "bot:greedy"]}`,
		// Four quiet turns end the game by its clock, each live army scoring.
		`{"rules": "chesscom-chaturaji+clock=4", "seats": ["bot:random", "bot:random", "bot:random", "bot:random"]}`,
	} {
		g := ts.create(body)
		pr, err := rules.Lookup(g.Rules)
		if err != nil {
			t.Fatal(err)
		}
		c := ts.dial(g.ID, "", 0)
		end := c.until(func(e server.Event) bool { return e.Kind == server.KindEnd })
		index := map[string]int{}
		for i, s := range pr.Seats() {
			index[s.String()] = i
		}
		total := make([]int, len(pr.Seats()))
		var last *server.Event
		captures := 0
		for i := 1; i < len(c.events); i++ {
			e, prev := &c.events[i], &c.events[i-1]
			if e.Kind != server.KindAction {
				if len(e.Captures)+len(e.Gains) > 0 && e.Kind != server.KindEnd {
					t.Errorf("%s: %s event %d has captures or gains: %+v", g.Rules, e.Kind, e.Seq, e)
				}
				continue
			}
			last = e
			where := func() string { return g.Rules + ": event " + itoa(e.Seq) + " " + e.Seat + " " + e.Action }
			before := rules.MustParsePosition(pr, prev.Position)
			for _, cp := range e.Captures {
				sq, err := rules.ParseSquare(cp.Square)
				if err != nil {
					t.Fatalf("%s: capture %+v: %v", where(), cp, err)
				}
				pc := before.At(sq)
				points := 0
				if pc != rules.NoPiece {
					points = pr.Pieces[pc.Kind()].Points
					if pr.Dead && before.Dead(pc.Seat()) && pc.Kind() != rules.King {
						points = 0 // a dead army's piece scores nothing but its king
					}
				}
				if pc == rules.NoPiece || pc.Seat().String() != cp.Seat || string(pr.Pieces[pc.Kind()].Letter) != cp.Piece || points != cp.Points {
					t.Errorf("%s: capture %+v, but %s stood on %s", where(), cp, pc, cp.Square)
				}
				captures++
			}
			if a, err := rules.ParseAction(pr, e.Action); err == nil && a.Type() == rules.Move {
				if pc := before.At(a.To()); pc != rules.NoPiece && !slices.ContainsFunc(e.Captures, func(c server.Capture) bool { return c.Square == a.To().String() }) {
					t.Errorf("%s: the move took %s on %s, the event says no capture there: %+v", where(), pc, a.To(), e.Captures)
				}
			}
			change := make([]int, len(total))
			for _, gn := range e.Gains {
				change[index[gn.Seat]] += gn.Points
				total[index[gn.Seat]] += gn.Points
			}
			for i := range change {
				if change[i] != e.Scores[i]-prev.Scores[i] {
					t.Errorf("%s: gains %+v, but the scores went from %v to %v", where(), e.Gains, prev.Scores, e.Scores)
					break
				}
			}
			switch e.By {
			case server.ByAuto:
				if e.Action != "pass" || e.Reason != server.ReasonNoMove {
					t.Errorf("%s: a forced action by %s with reason %q, want a pass with reason %q", where(), e.By, e.Reason, server.ReasonNoMove)
				}
			case server.ByBot:
				if e.Reason != "" {
					t.Errorf("%s: a bot's action with reason %q", where(), e.Reason)
				}
			}
		}
		if !slices.Equal(total, end.Scores) {
			t.Errorf("%s: the gains of the game add up to %v, its final scores are %v", g.Rules, total, end.Scores)
		}
		var want []server.Gain
		for _, gn := range last.Gains {
			if gn.Cause == "raise" || gn.Cause == "empire" || gn.Cause == "kings" || gn.Cause == "clock" {
				want = append(want, gn)
			}
		}
		if !slices.Equal(end.Gains, want) {
			t.Errorf("%s: the end's gains %+v, want the last action's raise, empire, kings or clock %+v", g.Rules, end.Gains, want)
		}
		t.Logf("%s: %d events, %d captures, end %q, scores %v, end gains %+v", g.Rules, len(c.events), captures, end.End, end.Scores, end.Gains)
	}
}
