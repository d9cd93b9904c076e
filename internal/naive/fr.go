package naive

import (
	"sort"
	"strings"
)

// chaturanga-fr1 (RULES.md 5.1, [004] variant 1): South and North against
// West and East, no dice, no points, no promotion. Soldiers (P) step
// forward and capture straight or diagonally forward; elephants (B) are
// alfils; soldiers and elephants never take cavaliers (H), tours (E) or
// rajahs (K); partners' pieces are never taken. Once a game each rajah may
// leap like a knight (capturing too) when no major piece of an enemy army
// that can move could take it. A rajah that moves onto its partner's throne
// commands until it leaves it or the partner gets a rajah back: it decides
// the partner's turns, moving only the partner's pieces then; a kingless
// army is frozen unless commanded. Elephant combat: an elephant completing
// a 2x2 block of elephants takes the enemy elephants there and the ally's
// pass to its owner. King exchange as in the team presets, the dropped rajah
// going next to its throne if it can. The team without rajahs loses.
//
// The extra field: command=, exchange= and turn= as in teams.go, and
// leaps= as in chaturanga-2p.

// ChaturangaFR1 names the preset.
const ChaturangaFR1 = "chaturanga-fr1"

// isMajor reports whether a kind is a major piece of [004].
func isMajor(kind byte) bool { return kind == Horse || kind == Elephant || kind == King }

// frCanMove reports whether seat's army can move: it has a rajah, or its
// partner commands it through its throne.
func (p *Position) frCanMove(seat int) bool {
	return p.hasKind(seat, King) || p.Command[partner(seat)]
}

// frAttacked reports whether a major piece of an enemy army that can move
// could take the piece on sq by an ordinary move.
func (p *Position) frAttacked(sq int) bool {
	owner := p.Board[sq].Seat
	for from := 0; from < 64; from++ {
		pc := p.Board[from]
		if pc.Kind == Empty || !isMajor(pc.Kind) || pc.Seat == owner || pc.Seat == partner(owner) || !p.frCanMove(pc.Seat) {
			continue
		}
		for _, m := range p.pieceMoves(from) {
			if m.to == sq {
				return true
			}
		}
	}
	return false
}

// frActions lists the actions of a chaturanga-fr1 position, sorted.
func (p *Position) frActions() []string {
	var acts []string
	switch p.Exchange {
	case "propose":
		return []string{"propose", "waive"}
	case "accept":
		return []string{"accept", "decline"}
	case "drop":
		th := thrones[p.Seat]
		for _, d := range kingSteps {
			f, r := th%8+d[0], th/8+d[1]
			if onBoard(f, r) && p.Board[square(f, r)].Kind == Empty {
				acts = append(acts, "K@"+squareName(square(f, r)))
			}
		}
		if len(acts) == 0 {
			for sq := 0; sq < 64; sq++ {
				if p.Board[sq].Kind == Empty {
					acts = append(acts, "K@"+squareName(sq))
				}
			}
		}
		sort.Strings(acts)
		return acts
	}
	t := p.Seat // only the seat's own pieces move, whoever decides
	for sq := 0; sq < 64; sq++ {
		pc := p.Board[sq]
		if pc.Kind == Empty || pc.Seat != t {
			continue
		}
		for _, m := range p.pieceMoves(sq) {
			acts = append(acts, m.String())
		}
		if pc.Kind == King && !p.Leaps[t] && !p.frAttacked(sq) {
			for _, d := range knightSteps {
				if p.canLand(pc, sq%8+d[0], sq/8+d[1]) {
					acts = append(acts, move{sq, square(sq%8+d[0], sq/8+d[1])}.String())
				}
			}
		}
	}
	if len(acts) == 0 {
		acts = append(acts, "pass")
	}
	sort.Strings(acts)
	return acts
}

// frDecider returns who decides seat t's turn.
func (p *Position) frDecider(t int) int {
	if p.Command[partner(t)] && !p.Command[t] {
		return partner(t)
	}
	return t
}

// applyFR performs a legal action of chaturanga-fr1.
func (p *Position) applyFR(action string) *Position {
	q := p.copyPos()
	switch {
	case action == "propose":
		q.Exchange = "accept"
		q.Seat = q.kinglessOf((q.Turn + 1) % 4)
		return q
	case action == "waive" || action == "decline":
		q.Exchange = ""
		q.frNextTurn(q.Turn)
		return q
	case action == "accept":
		q.Exchange = ""
		q.frPlaceKings()
		return q
	case strings.HasPrefix(action, "K@"):
		q.Board[square(int(action[2]-'a'), int(action[3]-'1'))] = Piece{Seat: q.Seat, Kind: King}
		q.Command[partner(q.Seat)] = false
		q.Exchange = ""
		q.frPlaceKings()
		return q
	}
	t := q.Seat
	d := q.frDecider(t)
	kingTaken := false
	reset := false
	if action != "pass" {
		m, _ := parseMove(action)
		pc := q.Board[m.from]
		target := q.Board[m.to]
		reset = pc.Kind == Pawn || target.Kind != Empty
		kingTaken = target.Kind == King
		q.Board[m.from] = Piece{}
		q.Board[m.to] = pc
		if pc.Kind == King && isKnightStep(m) {
			q.Leaps[pc.Seat] = true
		}
		if pc.Kind == King && m.to == thrones[partner(pc.Seat)] {
			q.Command[pc.Seat] = true
		}
		if pc.Kind == Boat && q.teamTriumph(d, pc.Seat, m.to) {
			reset = true
		}
	}
	for c := 0; c < 4; c++ {
		if q.Command[c] && q.Board[thrones[partner(c)]] != (Piece{Seat: c, Kind: King}) {
			q.Command[c] = false
		}
	}
	if reset {
		q.Clock = 0
	} else {
		q.Clock++
	}
	if kingTaken && q.teamKings(0) == 1 && q.teamKings(1) == 1 {
		q.Exchange, q.Turn, q.Seat = "propose", t, d
		return q
	}
	q.frNextTurn(t)
	return q
}

// frPlaceKings places the missing rajahs of an accepted exchange, the
// turn's team first: on the throne if empty, else the owner drops it.
func (q *Position) frPlaceKings() {
	for _, seat := range []int{q.Turn, (q.Turn + 1) % 4} {
		s := q.kinglessOf(seat)
		if q.hasKind(s, King) {
			continue
		}
		if q.Board[thrones[s]].Kind == Empty {
			q.Board[thrones[s]] = Piece{Seat: s, Kind: King}
			q.Command[partner(s)] = false
			continue
		}
		q.Exchange, q.Seat = "drop", s
		return
	}
	q.frNextTurn(q.Turn)
}

// frNextTurn passes the turn on from t to the next seat with a rajah or
// under command (and pieces).
func (q *Position) frNextTurn(t int) {
	q.Seat = t
	for i := 1; i <= 4; i++ {
		s := (t + i) % 4
		if q.hasKind(s, King) || (q.pieceCount(s) > 0 && q.Command[partner(s)]) {
			q.Seat = s
			return
		}
	}
}

// formatFRExtra returns the extra field ("" if empty).
func (p *Position) formatFRExtra() string {
	var pairs []string
	letters := func(set [4]bool) string {
		s := ""
		for seat, in := range set {
			if in {
				s += string(seatLetters[seat])
			}
		}
		return s
	}
	if c := letters(p.Command); c != "" {
		pairs = append(pairs, "command="+c)
	}
	if p.Exchange != "" {
		pairs = append(pairs, "exchange="+p.Exchange)
	}
	if l := letters(p.Leaps); l != "" {
		pairs = append(pairs, "leaps="+l)
	}
	if p.Exchange != "" {
		pairs = append(pairs, "turn="+string(seatLetters[p.Turn]))
	}
	return strings.Join(pairs, ";")
}

// parseFRExtra reads the extra field.
func parseFRExtra(f string, p *Position) error {
	for _, pair := range strings.Split(f, ";") {
		key, value, _ := strings.Cut(pair, "=")
		if value == "" {
			return errBadExtra(f)
		}
		switch key {
		case "command", "leaps":
			for i := 0; i < len(value); i++ {
				s := strings.IndexByte(seatLetters, value[i])
				if s < 0 {
					return errBadExtra(f)
				}
				if key == "command" {
					p.Command[s] = true
				} else {
					p.Leaps[s] = true
				}
			}
		case "exchange":
			p.Exchange = value
		case "turn":
			p.Turn = strings.IndexByte(seatLetters, value[0])
		default:
			return errBadExtra(f)
		}
	}
	if p.formatFRExtra() != f || (p.Exchange != "propose" && p.Exchange != "accept" && p.Exchange != "drop" && p.Exchange != "") {
		return errBadExtra(f)
	}
	return nil
}
