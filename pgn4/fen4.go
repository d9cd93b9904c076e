package pgn4

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/chaturaji/chaturaji/rules"
)

// MaxFEN4 bounds the length of a FEN4 that ParseFEN4 reads: chess.com's
// longest Chaturaji FEN4 (every square written out, long extras) is under
// 1,000 bytes.
const MaxFEN4 = 4096

// fen4Extras is the options field chess.com writes in a Chaturaji FEN4 (seen
// in its files as the engines of docs/rules.md §9 keep them): the board is
// the 8x8 box of the 14x14 grid. ParseFEN4 reads any options field and
// checks only "dim".
const fen4Extras = "{'dim':'8x8','boxOffset':1}"

// ParseFEN4 reads a position of chesscom-chaturaji written in chess.com's
// FEN4 (see the package comment) and returns it as the engine's position.
// White space (FEN4 in a tag may be broken over lines) is ignored.
//
// It refuses what the preset cannot hold: castling rights, a piece off the
// 8x8 board, a piece of another kind than chess.com's Chaturaji has, an army
// neither eliminated nor with a king; and, through rules.ParsePosition,
// any position the rules refuse.
func ParseFEN4(s string) (*rules.Position, error) {
	if len(s) > MaxFEN4 {
		return nil, fen4Error("FEN4", fmt.Sprintf("%d bytes is longer than %d", len(s), MaxFEN4))
	}
	s = strings.Join(strings.Fields(s), "")
	pos, err := fen4Notation(s)
	if err != nil {
		return nil, err
	}
	p, err := rules.ParsePosition(rules.ChesscomChaturaji, pos)
	if err != nil {
		return nil, fmt.Errorf("pgn4: FEN4 %q: %w", s, err)
	}
	return p, nil
}

// fen4Error returns an error about a field of a FEN4.
func fen4Error(field, why string) error {
	return fmt.Errorf("pgn4: invalid FEN4: %s: %s", field, why)
}

// fen4Notation turns a FEN4 without white space into the engine's position
// notation (docs/notation.md), checking what only FEN4 can get wrong.
func fen4Notation(s string) (string, error) {
	// Six fields joined by '-', then an optional {options} field, then the
	// placement; neither the first six nor the placement hold a '-'.
	var f [6]string
	rest := s
	for i := range f {
		j := strings.IndexByte(rest, '-')
		if j < 0 {
			return "", fen4Error("FEN4", "want the fields turn-eliminated-castling-castling-points-clock-[options-]placement joined by '-'")
		}
		f[i], rest = rest[:j], rest[j+1:]
	}
	if strings.HasPrefix(rest, "{") {
		j := strings.Index(rest, "}-")
		if j < 0 {
			return "", fen4Error("options", "an options field {...} must be closed by } and followed by - and the placement")
		}
		if err := checkOptions(rest[:j+1]); err != nil {
			return "", err
		}
		rest = rest[j+2:]
	}
	turn := -1
	if len(f[0]) == 1 && f[0][0] >= 'A' && f[0][0] <= 'Z' {
		turn = colourOfLetter(f[0][0])
	}
	if turn < 0 {
		return "", fen4Error("turn", fmt.Sprintf("%q: want R, B, Y or G", f[0]))
	}
	elim, err := fen4Flags("eliminated", f[1])
	if err != nil {
		return "", err
	}
	for i, name := range []string{"kingside castling", "queenside castling"} {
		c, err := fen4Flags(name, f[2+i])
		if err != nil {
			return "", err
		}
		if c != [4]bool{} {
			return "", fen4Error(name, fmt.Sprintf("%q: chess.com's Chaturaji has no castling, so every flag is 0", f[2+i]))
		}
	}
	points := strings.Split(f[4], ",")
	if len(points) != 4 {
		return "", fen4Error("points", fmt.Sprintf("%q: want 4 whole numbers joined by commas, red first", f[4]))
	}
	var scores [rules.NumSeats]string
	for i, t := range points {
		if v, err := strconv.Atoi(t); err != nil || v < 0 || v > 9999 || t != strconv.Itoa(v) {
			return "", fen4Error("points", fmt.Sprintf("%q is not a whole number from 0 to 9999", t))
		}
		scores[colours[i].seat] = t
	}
	if v, err := strconv.Atoi(f[5]); err != nil || v < 0 || v > 9999 || f[5] != strconv.Itoa(v) {
		return "", fen4Error("clock", fmt.Sprintf("%q is not a whole number from 0 to 9999", f[5]))
	}
	board, kings, err := fen4Board(rest, elim)
	if err != nil {
		return "", err
	}
	var dead []byte
	for i, c := range colours {
		switch {
		case elim[i] && kings[i]:
			dead = append(dead, c.seat.Letter()) // resigned or timed out: its king stands
		case !elim[i] && !kings[i]:
			return "", fen4Error("eliminated", fmt.Sprintf("%s is not eliminated but has no king on the board", c.name))
		}
	}
	pos := board + " " + string(colours[turn].seat.Letter()) + " - " + strings.Join(scores[:], ",") + " " + f[5]
	if len(dead) > 0 {
		pos += " dead=" + sortedLetters(dead)
	}
	return pos, nil
}

// sortedLetters returns the engine's colour letters of the seats given, in
// seat order, as its notation writes a set of seats.
func sortedLetters(letters []byte) string {
	var b []byte
	for s := range rules.Seat(rules.NumSeats) {
		for _, l := range letters {
			if l == s.Letter() {
				b = append(b, l)
			}
		}
	}
	return string(b)
}

// checkOptions checks FEN4's options field: only its "dim", if present,
// matters, and must be the 8x8 board.
func checkOptions(opts string) error {
	i := strings.Index(opts, "'dim':")
	if i < 0 {
		return nil
	}
	if !strings.HasPrefix(opts[i+len("'dim':"):], "'8x8'") {
		return fen4Error("options", fmt.Sprintf("%s: chess.com's Chaturaji is played on the 8x8 board ('dim':'8x8')", opts))
	}
	return nil
}

// fen4Flags reads four 0/1 flags joined by commas, red first.
func fen4Flags(field, s string) ([4]bool, error) {
	var fl [4]bool
	t := strings.Split(s, ",")
	if len(t) != 4 {
		return fl, fen4Error(field, fmt.Sprintf("%q: want 4 flags 0 or 1 joined by commas, red first", s))
	}
	for i, v := range t {
		if v != "0" && v != "1" {
			return fl, fen4Error(field, fmt.Sprintf("%q: want 4 flags 0 or 1 joined by commas, red first", s))
		}
		fl[i] = v == "1"
	}
	return fl, nil
}

// fen4Board reads FEN4's placement, 14 ranks from the 14th down, and
// returns the engine's board field and which colours have a king on it.
func fen4Board(s string, elim [4]bool) (string, [4]bool, error) {
	var kings [4]bool
	ranks := strings.Split(s, "/")
	if len(ranks) != gridSize {
		return "", kings, fen4Error("placement", fmt.Sprintf("want %d ranks joined by /, from the 14th down, got %d", gridSize, len(ranks)))
	}
	var board [64]string
	for i, rank := range ranks {
		r := gridSize - 1 - i
		f := 0
		for _, cell := range strings.Split(rank, ",") {
			where := fmt.Sprintf("rank %d", r+1)
			switch {
			case cell == "x":
				if f >= gridSize {
					return "", kings, fen4Error("placement", where+" has more than 14 squares")
				}
				if _, err := boardSquare(f, r, ""); err == nil {
					return "", kings, fen4Error("placement", fmt.Sprintf("%s: x marks a square off the board, but %c%d is on Chaturaji's board", where, 'a'+f, r+1))
				}
				f++
			case cell != "" && cell[0] >= '0' && cell[0] <= '9':
				n, err := strconv.Atoi(cell)
				if err != nil || n < 1 || n > gridSize || cell != strconv.Itoa(n) {
					return "", kings, fen4Error("placement", fmt.Sprintf("%s: %q is not a count of empty squares from 1 to 14", where, cell))
				}
				f += n
				if f > gridSize {
					return "", kings, fen4Error("placement", where+" has more than 14 squares")
				}
			default:
				name := fmt.Sprintf("%c%d", 'a'+min(f, gridSize-1), r+1)
				if f >= gridSize {
					return "", kings, fen4Error("placement", where+" has more than 14 squares")
				}
				c, k, err := fen4Piece(cell, elim)
				if err != nil {
					return "", kings, fen4Error("placement", fmt.Sprintf("%s: %v", name, err))
				}
				sq, err := boardSquare(f, r, name)
				if err != nil {
					return "", kings, fen4Error("placement", fmt.Sprintf("a piece %s on %s, off the 8x8 board (d4 to k11)", cell, name))
				}
				if k == rules.King {
					if kings[c] {
						return "", kings, fen4Error("placement", fmt.Sprintf("%s has two kings", colours[c].name))
					}
					kings[c] = true
				}
				board[sq] = string(colours[c].seat.Letter()) + string(rules.ChesscomChaturaji.Pieces[k].Letter)
				f++
			}
		}
		if f != gridSize {
			return "", kings, fen4Error("placement", fmt.Sprintf("rank %d has %d squares, not 14", r+1, f))
		}
	}
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := range 8 {
			pc := board[rules.SquareAt(f, r)]
			if pc == "" {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteString(pc)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String(), kings, nil
}

// fen4Piece reads one piece of FEN4's placement: an optional d (dead), the
// colour's letter and the piece's letter, "rK" or "dyB".
func fen4Piece(cell string, elim [4]bool) (colour int, k rules.Kind, err error) {
	dead := strings.HasPrefix(cell, "d") && len(cell) == 3
	t := strings.TrimPrefix(cell, "d")
	if !dead {
		t = cell
	}
	if len(t) != 2 || t[0] < 'a' || t[0] > 'z' {
		return 0, 0, fmt.Errorf("%q is not a piece: want [d]colour (r, b, y, g) and piece (P, N, B, R, K), like rK or dyB", cell)
	}
	if colour = colourOfLetter(t[0]); colour < 0 {
		return 0, 0, fmt.Errorf("%q: %q is not a colour (r, b, y or g)", cell, t[:1])
	}
	if k = kindOfLetter(t[1]); k == rules.NoKind {
		return 0, 0, fmt.Errorf("%q: %q is not a piece of chess.com's Chaturaji (P, N, B, R or K)", cell, t[1:])
	}
	if dead && !elim[colour] {
		return 0, 0, fmt.Errorf("%q is a dead piece, but %s is not eliminated", cell, colours[colour].name)
	}
	return colour, k, nil
}

// FormatFEN4 writes position p of chesscom-chaturaji in chess.com's FEN4,
// on one line, as chess.com writes it for Chaturaji: the options field
// {'dim':'8x8','boxOffset':1}, x for each square of the 14x14 grid off the
// board, and d before each piece of an eliminated army.
func FormatFEN4(p *rules.Position) (string, error) {
	if p.Preset().Name != rules.ChesscomChaturaji.Name {
		return "", errors.New("pgn4: FEN4 writes positions of chesscom-chaturaji only, not " + p.Preset().Name)
	}
	var b strings.Builder
	b.WriteByte(colours[colourOf(p.Seat())].letter - 'a' + 'A')
	b.WriteByte('-')
	for i, c := range colours {
		if i > 0 {
			b.WriteByte(',')
		}
		if p.Dead(c.seat) {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	b.WriteString("-0,0,0,0-0,0,0,0-")
	for i, c := range colours {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(p.Score(c.seat)))
	}
	fmt.Fprintf(&b, "-%d-%s-", p.Clock(), fen4Extras)
	for r := gridSize - 1; r >= 0; r-- {
		var cells []string
		empty := 0
		flush := func() {
			if empty > 0 {
				cells = append(cells, strconv.Itoa(empty))
				empty = 0
			}
		}
		for f := range gridSize {
			sq, err := boardSquare(f, r, "")
			if err != nil {
				flush()
				cells = append(cells, "x")
				continue
			}
			pc := p.At(sq)
			if pc == rules.NoPiece {
				empty++
				continue
			}
			flush()
			cell := ""
			if p.Dead(pc.Seat()) {
				cell = "d"
			}
			cell += string(colours[colourOf(pc.Seat())].letter) + string(pieceLetters[pc.Kind()])
			cells = append(cells, cell)
		}
		flush()
		b.WriteString(strings.Join(cells, ","))
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String(), nil
}
