package naive

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Notation (docs/rules.md §7).

// Parse reads a position string of the default preset; see ParseRules.
func Parse(s string) (*Position, error) { return ParseRules(Chaturaji, s) }

// ParseRules reads a position string "<board> <seat> <dice> <scores>
// <clock> [<extra>]" of the named preset ("" names the default). It is
// strict: fields separated by single spaces; eight ranks of eight squares
// each (empty runs may be non-canonical, like "44", but each digit must be
// 1..8); only the preset's colours and kinds; the seat one of the preset's seats; the dice field as
// the preset rolls ("-", one face 2..5, or for chaturaji-2dice one or two
// faces 1..6 ascending; chaturanga-2p always "-"); one score per seat joined
// by ","; scores and clock non-negative decimal integers without sign or
// leading zeros; the sixth field only in chaturanga-2p ("leaps=" and the
// colour letters of the seats that have leapt, in seat order). It does not
// check that the position is reachable.
func ParseRules(rules, s string) (*Position, error) {
	pr, ok := lookup(rules)
	if !ok {
		return nil, fmt.Errorf("naive: unknown rules %q", rules)
	}
	fields := strings.Split(s, " ")
	if len(fields) != 5 && !((pr.leap || pr.teams || pr.winther || pr.martian || pr.fr || pr.dead) && len(fields) == 6) {
		return nil, fmt.Errorf("naive: want 5 space-separated fields, got %d in %q", len(fields), s)
	}
	p := &Position{Rules: pr.field}
	if err := parseBoard(fields[0], p, pr); err != nil {
		return nil, err
	}
	seat, ok := pr.seatOf(fields[1])
	switch {
	case pr.martian && fields[1] == "-":
		p.RollOff = true
	case !ok:
		return nil, fmt.Errorf("naive: bad seat %q", fields[1])
	}
	p.Seat = seat
	if pr.martian {
		if err := parseMartianDice(fields[2], p); err != nil {
			return nil, err
		}
	} else if err := parseDice(fields[2], p, pr); err != nil {
		return nil, err
	}
	scores := strings.Split(fields[3], ",")
	if len(scores) != len(pr.order) {
		return nil, fmt.Errorf("naive: want %d scores, got %q", len(pr.order), fields[3])
	}
	for i, sc := range scores {
		neg := false
		if pr.field == ChaturangaFR2 && strings.HasPrefix(sc, "-") && sc != "-0" {
			neg, sc = true, sc[1:] // stakes: net units, possibly negative
		}
		v, err := parseCount(sc)
		if neg {
			v = -v
		}
		if err != nil {
			return nil, fmt.Errorf("naive: bad score %q: %v", sc, err)
		}
		p.Scores[pr.scoreSeats()[i]] = v
	}
	clock, err := parseCount(fields[4])
	if err != nil {
		return nil, fmt.Errorf("naive: bad clock %q: %v", fields[4], err)
	}
	p.Clock = clock
	if len(fields) == 6 && pr.fr {
		if err := parseFRExtra(fields[5], p); err != nil {
			return nil, err
		}
	} else if len(fields) == 6 && pr.dead {
		if err := parseDead(fields[5], p); err != nil {
			return nil, err
		}
	} else if len(fields) == 6 && pr.martian {
		if err := parseMartianExtra(fields[5], p); err != nil {
			return nil, err
		}
	} else if len(fields) == 6 && pr.winther {
		if err := parseWintherExtra(fields[5], p); err != nil {
			return nil, err
		}
	} else if len(fields) == 6 && pr.teams {
		if err := parseTeamExtra(fields[5], p); err != nil {
			return nil, err
		}
	} else if len(fields) == 6 {
		if err := parseLeaps(fields[5], p, pr); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// parseDice fills p.Die or p.Dice from the dice field.
func parseDice(d string, p *Position, pr *preset) error {
	if d == "-" {
		return nil
	}
	bad := fmt.Errorf("naive: bad dice %q", d)
	switch pr.dice {
	case longDie:
		if len(d) != 1 || d[0] < '2' || d[0] > '5' {
			return bad
		}
		p.Die = int(d[0] - '0')
	case cubeBlank:
		if len(d) != 1 || d[0] < '1' || d[0] > '6' {
			return bad
		}
		p.Die = int(d[0] - '0')
	case twoCubes, twoLong:
		lo, hi := byte('1'), byte('6')
		if pr.dice == twoLong {
			lo, hi = '2', '5'
		}
		if len(d) < 1 || len(d) > 2 {
			return bad
		}
		for i := 0; i < len(d); i++ {
			if d[i] < lo || d[i] > hi || (i > 0 && d[i] < d[i-1]) {
				return bad
			}
			p.Dice[i] = int(d[i] - '0')
		}
	default:
		return bad
	}
	return nil
}

// parseLeaps reads chaturanga-2p's extra field "leaps=<letters>": at least
// one letter, each a seat of the game, in seat order without repeats.
func parseLeaps(f string, p *Position, pr *preset) error {
	letters, ok := strings.CutPrefix(f, "leaps=")
	if !ok || letters == "" {
		return fmt.Errorf("naive: bad extra field %q", f)
	}
	last := -1
	for i := 0; i < len(letters); i++ {
		seat, ok := pr.seatOf(letters[i : i+1])
		if !ok || seat <= last {
			return fmt.Errorf("naive: bad extra field %q", f)
		}
		p.Leaps[seat] = true
		last = seat
	}
	return nil
}

// parseCount parses a non-negative decimal integer in canonical form.
func parseCount(s string) (int, error) {
	if s == "" {
		return 0, errors.New("empty")
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, errors.New("not a decimal digit")
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return 0, errors.New("leading zero")
	}
	return strconv.Atoi(s)
}

// parseBoard fills p.Board from the board field (ranks 8 down to 1).
func parseBoard(b string, p *Position, pr *preset) error {
	ranks := strings.Split(b, "/")
	if len(ranks) != 8 {
		return fmt.Errorf("naive: want 8 ranks, got %d in %q", len(ranks), b)
	}
	for i, r := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(r); {
			c := r[j]
			switch {
			case c >= '1' && c <= '8':
				file += int(c - '0')
				j++
			case strings.IndexByte(seatLetters, c) >= 0:
				seat, ok := pr.seatOf(string(c))
				if !ok || j+1 >= len(r) || strings.IndexByte(pr.kinds, r[j+1]) < 0 {
					return fmt.Errorf("naive: bad piece in rank %q", r)
				}
				if file >= 8 {
					return fmt.Errorf("naive: rank %q is longer than 8 squares", r)
				}
				kind := r[j+1]
				if pr.martian {
					kind = martianKind(kind)
				}
				p.Board[square(file, rank)] = Piece{Seat: seat, Kind: kind}
				file++
				j += 2
			default:
				return fmt.Errorf("naive: bad character %q in rank %q", c, r)
			}
			if file > 8 {
				return fmt.Errorf("naive: rank %q is longer than 8 squares", r)
			}
		}
		if file != 8 {
			return fmt.Errorf("naive: rank %q has %d squares, want 8", r, file)
		}
	}
	return nil
}

// String prints the position in canonical notation.
func (p *Position) String() string {
	pr := p.preset()
	var sb strings.Builder
	for rank := 7; rank >= 0; rank-- {
		if rank != 7 {
			sb.WriteByte('/')
		}
		run := 0
		for file := 0; file < 8; file++ {
			pc := p.Board[square(file, rank)]
			if pc.Kind == Empty {
				run++
				continue
			}
			if run > 0 {
				sb.WriteByte(byte('0' + run))
				run = 0
			}
			sb.WriteByte(seatLetters[pc.Seat])
			if pr.martian {
				sb.WriteByte(martianLetter(pc.Kind))
			} else {
				sb.WriteByte(pc.Kind)
			}
		}
		if run > 0 {
			sb.WriteByte(byte('0' + run))
		}
	}
	sb.WriteByte(' ')
	if p.RollOff {
		sb.WriteByte('-')
	} else {
		sb.WriteByte(seatLetters[p.Seat])
	}
	sb.WriteByte(' ')
	if pr.martian {
		sb.WriteString(p.martianDice())
	} else {
		sb.WriteString(p.DiceString())
	}
	sb.WriteByte(' ')
	for i, seat := range pr.scoreSeats() {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(p.Scores[seat]))
	}
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(p.Clock))
	if pr.leap {
		var leapt []byte
		for _, seat := range pr.scoreSeats() {
			if p.Leaps[seat] {
				leapt = append(leapt, seatLetters[seat])
			}
		}
		if len(leapt) > 0 {
			sb.WriteString(" leaps=")
			sb.Write(leapt)
		}
	}
	if extra := p.formatTeamExtra(); pr.teams && extra != "" {
		sb.WriteString(" " + extra)
	}
	if extra := p.formatWintherExtra(); pr.winther && extra != "" {
		sb.WriteString(" " + extra)
	}
	if extra := p.formatMartianExtra(); pr.martian && extra != "" {
		sb.WriteString(" " + extra)
	}
	if extra := p.formatFRExtra(); pr.fr && extra != "" {
		sb.WriteString(" " + extra)
	}
	if extra := p.formatDead(); pr.dead && extra != "" {
		sb.WriteString(" " + extra)
	}
	return sb.String()
}

// DiceString is the dice field: "-" while awaiting the roll (and always in a
// diceless preset), else the unused faces ascending.
func (p *Position) DiceString() string {
	switch {
	case p.Die != 0:
		return strconv.Itoa(p.Die)
	case p.Dice[0] != 0:
		s := strconv.Itoa(p.Dice[0])
		if p.Dice[1] != 0 {
			s += strconv.Itoa(p.Dice[1])
		}
		return s
	}
	return "-"
}
