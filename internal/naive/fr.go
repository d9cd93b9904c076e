package naive

import (
	"sort"
	"strings"
)

// chaturanga-fr1 (docs/rules.md §6, [French v1]): South and North against
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

// chaturanga-fr2 ([French v2]) is fr1 with: one cube-blank die (1 and
// 6 move nothing); no leap; the commander moves either army on both turns;
// a soldier arriving on an enemy tour's or cavalier's starting square
// becomes that kind if its army lacks it; a privileged soldier (the army's
// other pieces but rajahs: one elephant) arriving on an enemy cavalier's,
// tour's or rajah's starting square becomes a lacking one of those, by
// choice; a rajah left alone in its army is removed (extra "retired="); a
// kingless seat with pieces whose team has one rajah while the other has
// none gets its rajah back on its throne at its turn, or places it next to
// the throne ("return=back"); stakes in the scores: a rajah captured and
// the first enemy piece on a throne ("thrones=") each move a unit from the
// owner to the decider; the team left with nothing but rajahs loses: an
// empire pays 2 from each loser to a winner commanding through a throne,
// then each winner gains 1 and each loser pays 1. No seat able to play is
// a draw.

// ChaturangaFR1 and ChaturangaFR2 name the presets.
const (
	ChaturangaFR1 = "chaturanga-fr1"
	ChaturangaFR2 = "chaturanga-fr2"
)

// isFR reports whether the position plays a preset of this file.
func (p *Position) isFR() bool { return p.Rules == ChaturangaFR1 || p.Rules == ChaturangaFR2 }

// frStart are the setup's squares of each seat's cavalier, tour and rajah.
var frStart = [4]map[int]byte{
	{1: Horse, 2: Elephant, 3: King},    // South b1 c1 d1
	{48: Horse, 40: Elephant, 32: King}, // West a7 a6 a5
	{62: Horse, 61: Elephant, 60: King}, // North g8 f8 e8
	{15: Horse, 23: Elephant, 31: King}, // East h2 h3 h4
}

// blankAllows reports whether a cube-blank face lets a kind move.
func blankAllows(face int, kind byte) bool { return face >= 2 && face <= 5 && dieAllows(face, kind) }

// isMajor reports whether a kind is a major piece of [French].
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
	if p.Exchange == "back" {
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
	t := p.Seat // fr1: only the seat's own pieces move, whoever decides
	fr2 := p.Rules == ChaturangaFR2
	d := p.frDecider(t)
	for sq := 0; sq < 64; sq++ {
		pc := p.Board[sq]
		if pc.Kind == Empty {
			continue
		}
		if !fr2 && pc.Seat != t {
			continue
		}
		if fr2 && (pc.Seat != d && !(pc.Seat == partner(d) && p.Command[d]) || !blankAllows(p.Die, pc.Kind)) {
			continue
		}
		for _, m := range p.pieceMoves(sq) {
			if fr2 && pc.Kind == Pawn && p.privileged(pc.Seat) {
				if _, ok := p.enemyStartKind(pc.Seat, m.to, true); ok {
					chose := false
					for _, c := range []byte{Elephant, Horse, King} {
						if !p.hasKind(pc.Seat, c) {
							acts = append(acts, m.String()+"="+string(c))
							chose = true
						}
					}
					if !chose {
						acts = append(acts, m.String())
					}
					continue
				}
			}
			acts = append(acts, m.String())
		}
		if !fr2 && pc.Kind == King && !p.Leaps[t] && !p.frAttacked(sq) {
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
	if strings.HasPrefix(action, "K@") && q.Exchange == "back" {
		q.Board[square(int(action[2]-'a'), int(action[3]-'1'))] = Piece{Seat: q.Seat, Kind: King}
		q.Command[partner(q.Seat)] = false
		q.Exchange = ""
		return q
	}
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
	fr2 := q.Rules == ChaturangaFR2
	kingTaken := false
	reset := false
	q.Die = 0
	if action != "pass" {
		m, choice := parseMove(action)
		pc := q.Board[m.from]
		target := q.Board[m.to]
		priv := fr2 && pc.Kind == Pawn && q.privileged(pc.Seat)
		reset = pc.Kind == Pawn || target.Kind != Empty
		kingTaken = target.Kind == King
		if fr2 && kingTaken {
			q.Scores[d]++
			q.Scores[target.Seat]--
		}
		q.Board[m.from] = Piece{}
		q.Board[m.to] = pc
		if fr2 && choice != Empty {
			q.Board[m.to].Kind = choice
		} else if k, ok := q.enemyStartKind(pc.Seat, m.to, false); fr2 && pc.Kind == Pawn && !priv && ok && !q.hasKind(pc.Seat, k) {
			q.Board[m.to].Kind = k
		}
		if fr2 {
			for e := 0; e < 4; e++ {
				if m.to == thrones[e] && e != pc.Seat && e != partner(pc.Seat) && !q.Thrones[e] {
					q.Thrones[e] = true
					q.Scores[d]++
					q.Scores[e]--
				}
			}
		}
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
	if fr2 {
		q.removeLone()
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
	if kingTaken && q.teamKings(0) == 1 && q.teamKings(1) == 1 && !q.Retired[q.kinglessOf(d)] {
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
// under command (and pieces); in fr2 a seat due its free return gets its
// rajah back first. The game over, fr2 settles the stakes.
func (q *Position) frNextTurn(t int) {
	fr2 := q.Rules == ChaturangaFR2
	if fr2 {
		q.removeLone()
		for c := 0; c < 4; c++ {
			if q.Command[c] && q.Board[thrones[partner(c)]] != (Piece{Seat: c, Kind: King}) {
				q.Command[c] = false
			}
		}
	}
	q.Seat = t
	q.Die = 0
	for i := 1; i <= 4; i++ {
		s := (t + i) % 4
		if fr2 && !q.hasKind(s, King) && q.pieceCount(s) > 0 && q.teamKings(s) == 1 && q.teamKings((s+1)%4) == 0 && !q.stripped(0) && !q.stripped(1) {
			if q.Board[thrones[s]].Kind == Empty {
				q.Board[thrones[s]] = Piece{Seat: s, Kind: King}
				q.Command[partner(s)] = false
			} else {
				q.Exchange, q.Turn, q.Seat = "back", t, s
				return
			}
		}
		if q.hasKind(s, King) || (q.pieceCount(s) > 0 && q.Command[partner(s)]) {
			q.Seat = s
			break
		}
	}
	if fr2 && q.Finished() {
		q.settle()
	}
}

// privileged reports whether seat's army other than rajahs is exactly one
// soldier and one elephant.
func (p *Position) privileged(seat int) bool {
	soldiers, elephants, others := 0, 0, 0
	for _, pc := range p.Board {
		switch {
		case pc.Kind == Empty || pc.Seat != seat || pc.Kind == King:
		case pc.Kind == Pawn:
			soldiers++
		case pc.Kind == Boat:
			elephants++
		default:
			others++
		}
	}
	return soldiers == 1 && elephants == 1 && others == 0
}

// enemyStartKind returns the kind that started on sq in an enemy army of
// seat: a cavalier or tour, or (withRajah) a rajah too.
func (p *Position) enemyStartKind(seat, sq int, withRajah bool) (byte, bool) {
	for e := 0; e < 4; e++ {
		if e == seat || e == partner(seat) {
			continue
		}
		if k, ok := frStart[e][sq]; ok && (k != King || withRajah) {
			return k, true
		}
	}
	return 0, false
}

// removeLone removes every rajah that is its army's only piece.
func (q *Position) removeLone() {
	for s := 0; s < 4; s++ {
		if q.pieceCount(s) == 1 && q.hasKind(s, King) {
			q.Board[q.kingOf(s)] = Piece{}
			q.Retired[s] = true
		}
	}
}

// stripped reports whether the team of seat has nothing but rajahs.
func (p *Position) stripped(seat int) bool {
	for _, pc := range p.Board {
		if pc.Kind != Empty && pc.Kind != King && (pc.Seat == seat || pc.Seat == partner(seat)) {
			return false
		}
	}
	return true
}

// frFinished: no end while a decision is pending; fr2: a team stripped to
// its rajahs, or no seat able to play; fr1: a team without rajahs; both: the
// clock.
func (p *Position) frFinished() bool {
	if p.Exchange != "" {
		return false
	}
	if p.Clock >= 200 {
		return true
	}
	if p.Rules == ChaturangaFR1 {
		return p.teamKings(0) == 0 || p.teamKings(1) == 0
	}
	if p.stripped(0) || p.stripped(1) {
		return true
	}
	for s := 0; s < 4; s++ {
		if p.hasKind(s, King) || (p.pieceCount(s) > 0 && (p.Command[partner(s)] || p.teamKings(s) == 1 && p.teamKings((s+1)%4) == 0)) {
			return false
		}
	}
	return true
}

// settle pays the empire and the pot when a team is stripped and the other
// is not.
func (q *Position) settle() {
	loser := -1
	switch {
	case q.stripped(0) && !q.stripped(1):
		loser = 0
	case q.stripped(1) && !q.stripped(0):
		loser = 1
	}
	if loser < 0 || q.Clock >= 200 {
		return
	}
	for c := 0; c < 4; c++ {
		if c%2 != loser && q.Command[c] {
			for o := loser; o < 4; o += 2 {
				q.Scores[o] -= 2
				q.Scores[c] += 2
			}
		}
	}
	for s := 0; s < 4; s++ {
		if s%2 == loser {
			q.Scores[s]--
		} else {
			q.Scores[s]++
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
	if p.Exchange != "" && p.Exchange != "back" {
		pairs = append(pairs, "exchange="+p.Exchange)
	}
	if l := letters(p.Leaps); l != "" {
		pairs = append(pairs, "leaps="+l)
	}
	if r := letters(p.Retired); r != "" {
		pairs = append(pairs, "retired="+r)
	}
	if p.Exchange == "back" {
		pairs = append(pairs, "return=back")
	}
	if th := letters(p.Thrones); th != "" {
		pairs = append(pairs, "thrones="+th)
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
		case "command", "leaps", "retired", "thrones":
			for i := 0; i < len(value); i++ {
				s := strings.IndexByte(seatLetters, value[i])
				if s < 0 {
					return errBadExtra(f)
				}
				map[string]*[4]bool{"command": &p.Command, "leaps": &p.Leaps, "retired": &p.Retired, "thrones": &p.Thrones}[key][s] = true
			}
		case "return":
			if value != "back" {
				return errBadExtra(f)
			}
			p.Exchange = value
		case "exchange":
			p.Exchange = value
		case "turn":
			p.Turn = strings.IndexByte(seatLetters, value[0])
		default:
			return errBadExtra(f)
		}
	}
	if p.formatFRExtra() != f || (p.Exchange != "propose" && p.Exchange != "accept" && p.Exchange != "drop" && p.Exchange != "back" && p.Exchange != "") {
		return errBadExtra(f)
	}
	return nil
}
