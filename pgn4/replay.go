package pgn4

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

// Error is a game of a PGN4 file that does not replay under the rules of
// chesscom-chaturaji: where (the game, the line, the move number as written
// and the player whose move it is), the move as written, and why.
type Error struct {
	Game   int    // the game's place in its file, from 1; 0 if unknown
	Line   int    // the line, from 1; 0 if unknown
	Round  int    // the move number it was written under; 0 if none
	Ply    int    // the move's place in the game, from 1; 0 if the problem is in a tag
	Colour string // the colour whose move it is (Red, Blue, Yellow, Green)
	Tag    string // the tag, if the problem is in one
	Text   string // the offending text
	Err    error  // why
}

// Error returns the problem as one line, such as `pgn4: game 1: line 4:
// move 2, Blue's Nd10-f9 (the game's 6th move): why`.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("pgn4: ")
	if e.Game > 0 {
		fmt.Fprintf(&b, "game %d: ", e.Game)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	switch {
	case e.Tag != "":
		fmt.Fprintf(&b, "tag %s %q: ", e.Tag, e.Text)
	case e.Ply > 0:
		if e.Round > 0 {
			fmt.Fprintf(&b, "move %d, ", e.Round)
		}
		fmt.Fprintf(&b, "%s's %s (the game's %s move): ", e.Colour, e.Text, ordinal(e.Ply))
	}
	b.WriteString(strings.TrimPrefix(strings.TrimPrefix(e.Err.Error(), "pgn4: "), "rules: "))
	return b.String()
}

// Unwrap returns why.
func (e *Error) Unwrap() error { return e.Err }

// Start returns the position the game starts from: its StartFen4 tag's, or
// the preset's start position if it has none. A Variant tag of Teams is
// refused: chess.com's Chaturaji is each for himself.
func (g *Game) Start() (*rules.Position, error) {
	tagErr := func(name, value string, err error) error {
		return &Error{Game: g.Number, Line: g.Line, Tag: name, Text: value, Err: err}
	}
	if v, ok := g.Tags.Get("Variant"); ok && strings.EqualFold(v, "Teams") {
		return nil, tagErr("Variant", v, errors.New("a Teams game is not chesscom-chaturaji, where each plays for himself (FFA)"))
	}
	fen, ok := g.Tags.Get("StartFen4")
	if !ok {
		return rules.ChesscomChaturaji.StartPosition(), nil
	}
	if !strings.Contains(fen, "-") {
		return nil, tagErr("StartFen4", fen, errors.New("a named start position; only a FEN4 on Chaturaji's 8x8 board is read"))
	}
	p, err := ParseFEN4(fen)
	if err != nil {
		return nil, tagErr("StartFen4", fen, err)
	}
	if p.Finished() {
		return nil, tagErr("StartFen4", fen, fmt.Errorf("the game is over in it (%s)", p.EndReason()))
	}
	return p, nil
}

// Replay plays the game under chesscom-chaturaji from its start (Start),
// checking each move against the rules: its piece is the mover's and of the
// kind its letter names, x is written for a capture and - for a move onto an
// empty square, the captured piece's letter (if written) is that of the
// piece taken, =R only for a pawn reaching its last line (a promotion
// without it is read all the same), and the rules allow it. R and T are
// the rules' resign and timeout, pass and claim theirs too; # and S are
// refused. The + marks are not checked.
//
// An error is an *Error naming the move, the player whose move it was and
// why; Replay then returns the game as far as it got. A game that stops
// before the rules end it (chess.com's claims are not in its movetext)
// replays without error: its Result is then *.
func (g *Game) Replay() (*rules.Game, error) {
	start, err := g.Start()
	if err != nil {
		return nil, err
	}
	game := rules.NewGameFrom(start, rules.Seed{})
	for i, m := range g.Moves {
		p := game.Position()
		seat := p.TurnSeat()
		fail := func(format string, args ...any) error {
			return &Error{Game: g.Number, Line: m.Line, Round: m.Round, Ply: i + 1, Colour: colours[colourOf(seat)].name, Text: m.String(), Err: fmt.Errorf(format, args...)}
		}
		if p.Finished() {
			return game, fail("the game is already over (%s)", p.EndReason())
		}
		a, err := action(p, m)
		if err != nil {
			return game, fail("%v", err)
		}
		if err := game.Play(a); err != nil {
			return game, fail("%v", err)
		}
		if m.Promote && game.Position().At(m.To).Kind() == p.At(m.From).Kind() {
			return game, fail("=R, but the pawn does not reach its last line")
		}
	}
	return game, nil
}

// action returns the engine's action for move m in position p, or why it is
// not legal there.
func action(p *rules.Position, m Move) (rules.Action, error) {
	switch m.Kind {
	case Resign:
		return rules.ResignAction, nil
	case Timeout:
		return rules.TimeoutAction, nil
	case Pass:
		return rules.PassAction, nil
	case Claim:
		return rules.ClaimAction, nil
	case Checkmate:
		return 0, errors.New("# (checkmated) belongs to four-player chess: in Chaturaji kings are captured, never mated")
	case Stalemate:
		return 0, errors.New("S (stalemated) belongs to four-player chess: in Chaturaji a player without a move passes")
	}
	seat := p.TurnSeat()
	pr := p.Preset()
	pc := p.At(m.From)
	name := func(k rules.Kind) string { return pr.Pieces[k].Name }
	switch {
	case pc == rules.NoPiece:
		return 0, fmt.Errorf("there is no piece on %s", SquareName(m.From))
	case pc.Seat() != seat:
		return 0, fmt.Errorf("the %s on %s is %s's, not %s's", name(pc.Kind()), SquareName(m.From), colours[colourOf(pc.Seat())].name, colours[colourOf(seat)].name)
	case pc.Kind() != m.Piece:
		return 0, fmt.Errorf("the piece on %s is a %s (%s), not a %s", SquareName(m.From), name(pc.Kind()), letterOf(pc.Kind()), name(m.Piece))
	}
	target := p.At(m.To)
	switch {
	case m.Capture && target == rules.NoPiece:
		return 0, fmt.Errorf("written x, a capture, but %s is empty", SquareName(m.To))
	case !m.Capture && target != rules.NoPiece:
		return 0, fmt.Errorf("written -, but it would capture the %s on %s: a capture is written x", name(target.Kind()), SquareName(m.To))
	case m.Captured != rules.NoKind && target.Kind() != m.Captured:
		return 0, fmt.Errorf("the piece on %s is a %s (%s), not a %s", SquareName(m.To), name(target.Kind()), letterOf(target.Kind()), name(m.Captured))
	}
	a := rules.MoveAction(m.From, m.To)
	if !p.IsLegal(a) {
		var to []string
		for _, b := range p.Actions(nil) {
			if b.Type() == rules.Move && b.From() == m.From {
				to = append(to, SquareName(b.To()))
			}
		}
		if len(to) == 0 {
			return 0, fmt.Errorf("the %s on %s cannot move", name(pc.Kind()), SquareName(m.From))
		}
		return 0, fmt.Errorf("the %s on %s cannot go to %s; it may go to %s", name(pc.Kind()), SquareName(m.From), SquareName(m.To), strings.Join(to, ", "))
	}
	return a, nil
}

// letterOf returns chess.com's letter of kind k, "none" for a pawn, which
// moves are written without.
func letterOf(k rules.Kind) string {
	if k == rules.Pawn {
		return "no letter"
	}
	return string(pieceLetters[k])
}

// Record replays the game (Replay) and returns its record in the project's
// format (docs/notation.md): Rules chesscom-chaturaji; the players' names
// of the Red, Blue, Yellow and Green tags as South, West, North and East;
// the tags Event, Site, GameNr as they are, and Date, as YYYY.MM.DD where
// chess.com's form ("Wed Nov 28 2018 01:28:10 GMT+0000") can be read; a
// Start tag if the game began elsewhere than the start position; and the
// Result of the game as replayed. chess.com's own Result tag is not kept:
// it lists the players in an order that is not always the colours'.
func (g *Game) Record() (*record.Record, error) {
	game, err := g.Replay()
	if err != nil {
		return nil, err
	}
	var tags []record.Tag
	for _, c := range colours {
		if v, ok := g.Tags.Get(c.name); ok && v != "" {
			tags = append(tags, record.Tag{Name: c.seat.String(), Value: v})
		}
	}
	for _, name := range []string{"Event", "Site", "Date", "GameNr"} {
		if v, ok := g.Tags.Get(name); ok && v != "" {
			if name == "Date" {
				v = recordDate(v)
			}
			tags = append(tags, record.Tag{Name: name, Value: v})
		}
	}
	return record.FromGame(game, tags...), nil
}

// recordDate returns chess.com's date as YYYY.MM.DD if it can read it,
// otherwise as it is. chess.com writes JavaScript's Date: the day, then the
// time ("Wed Nov 28 2018 01:28:10 GMT+0000 (UTC)").
func recordDate(v string) string {
	if _, err := time.Parse("2006.01.02", v); err == nil {
		return v
	}
	if f := strings.Fields(v); len(f) >= 4 {
		if t, err := time.Parse("Mon Jan 2 2006", strings.Join(f[:4], " ")); err == nil {
			return t.Format("2006.01.02")
		}
	}
	return v
}
