package naive

import (
	"fmt"
	"sort"
	"strings"
)

// chaturaji-teams and chaturaji-diceless (docs/rules.md §5 and §6): South and
// North play against West and East. Partners' pieces cannot be taken. A
// king that moves onto its partner's throne commands both armies until it
// leaves the throne or the partner gets a king back; the commander decides
// both seats' turns and moves pieces of either army. In chaturaji-teams a
// kingless army still plays, its partner deciding, and scores carry throne
// bonuses and the empire; chaturaji-diceless has no dice and no points, and
// a kingless army is frozen unless commanded. After a king capture that
// leaves each team one king, the capturer may propose an exchange.
//
// The extra field: command=<seats commanding through the throne>,
// exchange=propose|accept|drop with turn=<seat whose turn it is>,
// retired=<seats whose king retired>, thrones=<thrones whose +1 was paid>.

// thrones are the kings' starting squares: d1, a5, e8, h4.
var thrones = [4]int{3, 32, 60, 31}

func partner(seat int) int { return (seat + 2) % 4 }

// isTeams reports whether the position plays one of the team presets.
func (p *Position) isTeams() bool {
	return p.Rules == ChaturajiTeams || p.Rules == ChaturajiDiceless || p.Rules == ChaturajiTeamsLF
}

// ChaturajiTeamsLF is chaturaji-teams with its house rule lastforces: no
// points or bonuses; a team without a king is frozen (a kingless seat plays
// only while its partner has a king); the team left without pieces loses;
// only kings on the board, the clock, or no seat able to play: a draw.
const ChaturajiTeamsLF = "chaturaji-teams+lastforces"

// rolls reports whether the team preset rolls the long die (and retires).
func (p *Position) rolls() bool { return p.Rules == ChaturajiTeams || p.Rules == ChaturajiTeamsLF }

// kingOf returns the square of seat's king, or -1.
func (p *Position) kingOf(seat int) int {
	for sq, pc := range p.Board {
		if pc.Kind == King && pc.Seat == seat {
			return sq
		}
	}
	return -1
}

// commands reports whether seat c commands its partner: through the throne,
// or (chaturaji-teams) because the partner, with pieces, lost its king.
func (p *Position) commands(c int) bool {
	if p.Command[c] || p.Rules == Biruni {
		return p.Command[c]
	}
	if p.Command[c] {
		return true
	}
	o := partner(c)
	return p.rolls() && p.pieceCount(o) > 0 && !p.hasKind(o, King) && p.hasKind(c, King)
}

// turnSeat is the seat whose turn it is.
func (p *Position) turnSeat() int {
	if p.Exchange != "" {
		return p.Turn
	}
	return p.Seat
}

// deciderOf returns who decides seat t's turn.
func (p *Position) deciderOf(t int) int {
	if p.commands(partner(t)) && !p.commands(t) {
		return partner(t)
	}
	return t
}

// teamActions lists the actions of a team preset's position, sorted.
func (p *Position) teamActions() []string {
	var acts []string
	switch p.Exchange {
	case "propose":
		return []string{"propose", "waive"}
	case "accept":
		return []string{"accept", "decline"}
	case "drop":
		for sq := 0; sq < 64; sq++ {
			if p.Board[sq].Kind == Empty {
				acts = append(acts, "K@"+squareName(sq))
			}
		}
		sort.Strings(acts)
		return acts
	}
	t := p.Seat
	d := p.deciderOf(t)
	armies := []int{d}
	if p.commands(d) {
		armies = append(armies, partner(d))
	}
	for sq := 0; sq < 64; sq++ {
		pc := p.Board[sq]
		if pc.Kind == Empty || (pc.Seat != armies[0] && (len(armies) == 1 || pc.Seat != armies[1])) {
			continue
		}
		if p.rolls() && !dieAllows(p.Die, pc.Kind) {
			continue
		}
		for _, m := range p.pieceMoves(sq) {
			acts = append(acts, m.String())
		}
	}
	if len(acts) == 0 {
		acts = append(acts, "pass")
	}
	if p.rolls() && d == t && p.loneKing(t) {
		acts = append(acts, "retire")
	}
	sort.Strings(acts)
	return acts
}

// applyTeam performs a legal action of a team preset.
func (p *Position) applyTeam(action string) *Position {
	q := p.copyPos()
	q.Die = 0 // whatever happens, this turn's die is used
	switch action {
	case "propose":
		q.Exchange = "accept"
		enemy := (q.Turn + 1) % 4 // a seat of the other team
		q.Seat = q.kinglessOf(enemy)
		return q
	case "waive", "decline":
		q.Exchange = ""
		q.nextTeamTurn(q.Turn, -1, -1)
		return q
	case "accept":
		q.Exchange = ""
		q.placeKings()
		return q
	}
	if strings.HasPrefix(action, "K@") {
		sq := square(int(action[2]-'a'), int(action[3]-'1'))
		q.Board[sq] = Piece{Seat: q.Seat, Kind: King}
		q.Command[partner(q.Seat)] = false
		q.Exchange = ""
		q.placeKings()
		return q
	}
	t := q.Seat
	d := q.deciderOf(t)
	reset := false
	kingTakenOn := -1
	if action == "retire" {
		q.Board[q.kingOf(t)] = Piece{}
		q.Retired[t] = true
	} else if action != "pass" {
		m, _ := parseMove(action)
		reset, kingTakenOn = q.teamMove(d, m)
	}
	// Commands end when the commander's king is off the partner's throne.
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
	if kingTakenOn >= 0 && q.teamKings(0) == 1 && q.teamKings(1) == 1 && !q.Retired[q.kinglessOf(d)] {
		q.Exchange, q.Turn, q.Seat = "propose", t, d
		return q
	}
	q.nextTeamTurn(t, d, kingTakenOn)
	return q
}

// teamMove plays move m decided by d; it returns whether the clock resets
// and the square a king was captured on (-1 if none).
func (q *Position) teamMove(d int, m move) (bool, int) {
	pc := q.Board[m.from]
	owner := pc.Seat
	points := q.Rules == ChaturajiTeams
	reset := pc.Kind == Pawn
	kingTakenOn := -1
	if target := q.Board[m.to]; target.Kind != Empty {
		reset = true
		if points {
			q.Scores[d] += pointsOf(target.Kind)
			if target.Kind == King && m.to == thrones[target.Seat] {
				q.Scores[d] += 2
			}
		}
		if target.Kind == King {
			kingTakenOn = m.to
		}
	}
	q.Board[m.from] = Piece{}
	q.Board[m.to] = pc
	if pc.Kind == Pawn && onLastLine(owner, m.to) {
		if k := promotionKind(owner, m.to); !q.hasKind(owner, k) {
			q.Board[m.to].Kind = k
			if k == King {
				q.Command[partner(owner)] = false
			}
		}
	}
	if pc.Kind == King {
		for e := 0; e < 4; e++ {
			if points && m.to == thrones[e] && e != owner && e != partner(owner) && !q.Thrones[e] {
				q.Thrones[e] = true
				q.Scores[d]++
			}
		}
		if m.to == thrones[partner(owner)] {
			q.Command[owner] = true
		}
	}
	if pc.Kind == Boat && q.teamTriumph(d, owner, m.to) {
		reset = true
	}
	return reset, kingTakenOn
}

func pointsOf(kind byte) int { return points(kind) }

// teamTriumph: every 2x2 block of boats around dest; the partner's boats
// there become owner's, the enemies' are captured (d scores them in
// chaturaji-teams). It reports whether any boat was captured.
func (q *Position) teamTriumph(d, owner, dest int) bool {
	file, rank := dest%8, dest/8
	var in [64]bool
	for cf := file - 1; cf <= file; cf++ {
		for cr := rank - 1; cr <= rank; cr++ {
			if cf < 0 || cr < 0 || cf+1 > 7 || cr+1 > 7 {
				continue
			}
			sqs := []int{square(cf, cr), square(cf+1, cr), square(cf, cr+1), square(cf+1, cr+1)}
			full := true
			for _, sq := range sqs {
				full = full && q.Board[sq].Kind == Boat
			}
			if full {
				for _, sq := range sqs {
					in[sq] = true
				}
			}
		}
	}
	captured := false
	for sq := range in {
		if !in[sq] || q.Board[sq].Seat == owner {
			continue
		}
		if q.Board[sq].Seat == partner(owner) {
			q.Board[sq].Seat = owner
			continue
		}
		q.Board[sq] = Piece{}
		captured = true
		if q.Rules == ChaturajiTeams {
			q.Scores[d] += points(Boat)
		}
	}
	return captured
}

// teamKings counts the kings of the team of seat.
func (p *Position) teamKings(seat int) int {
	return p.countKind(seat, King) + p.countKind(partner(seat), King)
}

// kinglessOf returns the seat of seat's team that has no king (seat itself
// if both lack one).
func (p *Position) kinglessOf(seat int) int {
	if p.hasKind(seat, King) {
		return partner(seat)
	}
	return seat
}

// placeKings places the missing kings of an accepted exchange, the turn's
// team first: on the throne if it is empty, else the owner drops it (the
// position then awaits the drop).
func (q *Position) placeKings() {
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
	q.nextTeamTurn(q.Turn, -1, -1)
}

// nextTeamTurn passes the turn on from seat t (waiting promotions at each
// visited seat) and pays the empire if the game is then over. d decided the
// last action and took a king on kingTakenOn (-1: none).
func (q *Position) nextTeamTurn(t, d, kingTakenOn int) {
	q.Seat = t
	for i := 1; i <= 4; i++ {
		s := (t + i) % 4
		had := q.hasKind(s, King)
		q.promoteWaiting(s)
		if !had && q.hasKind(s, King) {
			q.Command[partner(s)] = false
		}
		kinglessPlays := q.Rules == ChaturajiTeams || q.Rules == ChaturajiTeamsLF && q.hasKind(partner(s), King)
		plays := q.hasKind(s, King) || (q.pieceCount(s) > 0 && (kinglessPlays || q.Command[partner(s)]))
		if plays {
			q.Seat = s
			break
		}
	}
	if q.Rules != ChaturajiTeams || !q.Finished() || (q.teamKings(0) > 0 && q.teamKings(1) > 0) {
		return
	}
	winner := 0
	if q.teamKings(0) == 0 {
		winner = 1
	}
	emperor := -1
	if d >= 0 && d%2 == winner && q.commands(d) {
		emperor = d
	} else {
		for _, s := range []int{winner, winner + 2} {
			if q.commands(s) {
				emperor = s
				break
			}
		}
	}
	switch {
	case emperor < 0:
	case emperor == d && kingTakenOn >= 0 && (kingTakenOn == thrones[0] || kingTakenOn == thrones[1] || kingTakenOn == thrones[2] || kingTakenOn == thrones[3]):
		q.Scores[emperor] += 4
	case emperor == d && kingTakenOn >= 0:
		q.Scores[emperor] += 2
	default:
		q.Scores[emperor]++
	}
}

// teamsFinished: a team without a king, only kings (chaturaji-teams), or
// the clock; never while an exchange is being decided.
func (p *Position) teamsFinished() bool {
	if p.Exchange != "" {
		return false
	}
	if p.Rules == ChaturajiTeamsLF {
		if p.pieceCount(0)+p.pieceCount(2) == 0 || p.pieceCount(1)+p.pieceCount(3) == 0 || p.Clock >= 200 || p.onlyKings() {
			return true
		}
		for s := 0; s < 4; s++ { // some seat can still take a turn?
			if p.hasKind(s, King) || p.pieceCount(s) > 0 && (p.hasKind(partner(s), King) || p.Command[partner(s)]) {
				return false
			}
		}
		return true
	}
	if p.teamKings(0) == 0 || p.teamKings(1) == 0 || p.Clock >= 200 {
		return true
	}
	return p.Rules == ChaturajiTeams && p.onlyKings()
}

// formatTeamExtra returns the team presets' extra field ("" if empty).
func (p *Position) formatTeamExtra() string {
	letters := func(set [4]bool) string {
		s := ""
		for seat, in := range set {
			if in {
				s += string(seatLetters[seat])
			}
		}
		return s
	}
	var pairs []string
	if c := letters(p.Command); c != "" {
		pairs = append(pairs, "command="+c)
	}
	if p.Exchange != "" {
		pairs = append(pairs, "exchange="+p.Exchange)
	}
	if r := letters(p.Retired); r != "" {
		pairs = append(pairs, "retired="+r)
	}
	if th := letters(p.Thrones); th != "" {
		pairs = append(pairs, "thrones="+th)
	}
	if p.Exchange != "" {
		pairs = append(pairs, "turn="+string(seatLetters[p.Turn]))
	}
	return strings.Join(pairs, ";")
}

// parseTeamExtra reads the team presets' extra field.
func parseTeamExtra(f string, p *Position) error {
	bad := fmt.Errorf("naive: bad extra field %q", f)
	for _, pair := range strings.Split(f, ";") {
		key, value, ok := strings.Cut(pair, "=")
		if !ok || value == "" {
			return bad
		}
		var set *[4]bool
		switch key {
		case "command":
			set = &p.Command
		case "retired":
			set = &p.Retired
		case "thrones":
			set = &p.Thrones
		case "exchange":
			if value != "propose" && value != "accept" && value != "drop" {
				return bad
			}
			p.Exchange = value
			continue
		case "turn":
			i := strings.IndexByte(seatLetters, value[0])
			if len(value) != 1 || i < 0 {
				return bad
			}
			p.Turn = i
			continue
		default:
			return bad
		}
		for i := 0; i < len(value); i++ {
			s := strings.IndexByte(seatLetters, value[i])
			if s < 0 {
				return bad
			}
			set[s] = true
		}
	}
	if p.formatTeamExtra() != f || (p.Rules == Biruni && (p.Exchange != "" || p.Retired != [4]bool{} || p.Thrones != [4]bool{})) {
		return bad
	}
	return nil
}
