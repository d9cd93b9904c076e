package pgn4

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

// FromRecord returns the PGN4 of a game record of chesscom-chaturaji (see
// FromGame), after replaying it. A record of another preset, or of this one
// with house rules, which PGN4 cannot say, is refused.
func FromRecord(r *record.Record) (*Game, error) {
	name, _ := r.Tags.Get("Rules")
	if name != rules.ChesscomChaturaji.Name {
		return nil, fmt.Errorf("pgn4: a game of %s cannot be written in PGN4: only %s games, without house rules, can", name, rules.ChesscomChaturaji.Name)
	}
	g, err := r.Replay()
	if err != nil {
		return nil, err
	}
	return FromGame(g, r.Tags)
}

// FromGame returns the PGN4 of game g of chesscom-chaturaji, finished or
// not, with the players' names and other tags taken from tags, a record's
// tags. Its tags are: Variant FFA; StartFen4, the FEN4 of the game's start;
// Red, Blue, Yellow and Green, the names of the South, West, North and East
// tags, where given; Event, Site, Date and GameNr, where given; and, once
// the game is over, Result, each player's score in colour order, as
// "name: points - ...", with Termination, why it ended. Its moves are one a
// turn, each move number starting a round at the first colour to play in
// it: a piece's move with its letter (none for a pawn), squares joined by -
// or by x and the captured piece's letter, =R for a promotion, and a + for
// each live enemy king the mover's pieces attack after it; resign and
// timeout as R and T, pass and claim as those words.
func FromGame(g *rules.Game, tags record.Tags) (*Game, error) {
	pr := g.Preset()
	if pr.Name != rules.ChesscomChaturaji.Name {
		return nil, fmt.Errorf("pgn4: a game of %s cannot be written in PGN4: only %s games, without house rules, can", pr.Name, rules.ChesscomChaturaji.Name)
	}
	fen, err := FormatFEN4(g.Start())
	if err != nil {
		return nil, err
	}
	out := &Game{Tags: record.Tags{{Name: "Variant", Value: "FFA"}, {Name: "StartFen4", Value: fen}}}
	names := [rules.NumSeats]string{}
	for i, c := range colours {
		names[i] = c.name
		if v, ok := tags.Get(c.seat.String()); ok && v != "" {
			out.Tags.Set(c.name, v)
			names[i] = v
		}
	}
	for _, name := range []string{"Event", "Site", "Date", "GameNr"} {
		if v, ok := tags.Get(name); ok && v != "" {
			out.Tags.Set(name, v)
		}
	}
	replay := rules.NewGameFrom(g.Start(), rules.Seed{})
	round, last := 0, len(colours)
	for _, t := range g.Turns() {
		for _, a := range t.Actions {
			p := replay.Position()
			c := colourOf(p.TurnSeat())
			if c <= last {
				round++
			}
			last = c
			m := moveOf(p, a)
			if err := replay.Play(a); err != nil {
				return nil, fmt.Errorf("pgn4: the game does not replay: %w", err)
			}
			if m.Kind == Ordinary {
				m.Checks = checks(replay.Position(), p.TurnSeat())
			}
			m.Round = round
			out.Moves = append(out.Moves, m)
		}
	}
	if p := g.Position(); p.Finished() {
		var parts []string
		for i, c := range colours {
			parts = append(parts, fmt.Sprintf("%s: %d", names[i], p.Score(c.seat)))
		}
		out.Tags.Set("Result", strings.Join(parts, " - "))
		out.Tags.Set("Termination", p.EndReason().String())
	}
	return out, nil
}

// moveOf returns the PGN4 move of the legal action a in position p.
func moveOf(p *rules.Position, a rules.Action) Move {
	switch a.Type() {
	case rules.Resign:
		return Move{Kind: Resign}
	case rules.Timeout:
		return Move{Kind: Timeout}
	case rules.Pass:
		return Move{Kind: Pass}
	case rules.Claim:
		return Move{Kind: Claim}
	}
	pc, target := p.At(a.From()), p.At(a.To())
	m := Move{Piece: pc.Kind(), From: a.From(), To: a.To(), Capture: target != rules.NoPiece}
	if m.Capture {
		m.Captured = target.Kind()
	}
	q := *p
	var u rules.Undo
	q.Make(a, &u)
	m.Promote = pc.Kind() == rules.Pawn && q.At(a.To()).Kind() != rules.Pawn
	return m
}

// checks returns how many live enemy kings of mover its pieces attack in
// position p: the position is read again with mover to act, and its moves
// onto those kings counted.
func checks(p *rules.Position, mover rules.Seat) int {
	if p.Finished() || p.Dead(mover) {
		return 0
	}
	f := strings.Fields(p.String())
	f[1] = string(mover.Letter())
	q, err := rules.ParsePosition(p.Preset(), strings.Join(f, " "))
	if err != nil {
		return 0
	}
	var kings []rules.Square
	for _, a := range q.Actions(nil) {
		if a.Type() != rules.Move {
			continue
		}
		if t := q.At(a.To()); t.Kind() == rules.King && !q.Dead(t.Seat()) && !slices.Contains(kings, a.To()) {
			kings = append(kings, a.To())
		}
	}
	return len(kings)
}

// String returns the game in PGN4: its tag pairs, one a line, a blank line,
// then its moves, each move number on a new line and the moves after it
// separated by "..", then its result marker, if it has one.
func (g *Game) String() string {
	var b strings.Builder
	for _, t := range g.Tags {
		b.WriteString(t.String())
		b.WriteByte('\n')
	}
	if len(g.Moves) == 0 && g.Result == "" {
		return b.String()
	}
	if len(g.Tags) > 0 {
		b.WriteByte('\n')
	}
	for i, m := range g.Moves {
		switch {
		case i > 0 && m.Round == g.Moves[i-1].Round:
			b.WriteString(" .. ")
		case i > 0:
			b.WriteByte('\n')
			fallthrough
		default:
			if m.Round > 0 {
				b.WriteString(strconv.Itoa(m.Round))
				b.WriteString(". ")
			}
		}
		b.WriteString(m.String())
	}
	if g.Result != "" {
		if len(g.Moves) > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.Result)
	}
	b.WriteByte('\n')
	return b.String()
}

// WriteAll writes games to w in PGN4, a blank line between two.
func WriteAll(w io.Writer, games []*Game) error {
	for i, g := range games {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, g.String()); err != nil {
			return err
		}
	}
	return nil
}
