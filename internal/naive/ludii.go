package naive

import "sort"

// ludii (docs/rules.md §6, with the project's notation decisions): section 4's
// setup and pieces, one long die, turns South -> East -> North -> West;
// boats may take boats; no boat triumph, retire, 54 raise or honourable
// peace; kingless armies keep moving and every seat takes its turn, even
// with no pieces (then it can only pass). A pawn reaching its last line
// chooses a kind of which its army has no piece on the board ("=B", "=E",
// "=H", "=K"); with none lacking it stays a pawn for ever, and so it does
// when its move takes the last enemy piece (Ludii ends the game before the
// choice). The clock counts every turn since the start; the game ends when
// at most one seat has pieces, or at a clock of 5000 (a draw).

// ludiiPromotions are the kinds a ludii pawn may choose, in letter order.
var ludiiPromotions = []byte{Boat, Elephant, Horse, King}

// takesLastEnemy reports whether a move of the seat to act onto sq takes
// the last piece on the board that is not its own.
func (p *Position) takesLastEnemy(sq int) bool {
	for i, pc := range p.Board {
		if pc.Kind != Empty && pc.Seat != p.Seat && i != sq {
			return false
		}
	}
	return p.Board[sq].Kind != Empty
}

// ludiiActions lists the moves of the seat's pieces of the rolled kind, a
// promoting pawn's move once per kind its army lacks, or "pass" if there
// are none.
func (p *Position) ludiiActions() []string {
	var acts []string
	for sq := 0; sq < 64; sq++ {
		pc := p.Board[sq]
		if pc.Kind == Empty || pc.Seat != p.Seat || !dieAllows(p.Die, pc.Kind) {
			continue
		}
		for _, m := range p.pieceMoves(sq) {
			if pc.Kind != Pawn || !onLastLine(pc.Seat, m.to) {
				acts = append(acts, m.String())
				continue
			}
			chose := false
			for _, kind := range ludiiPromotions {
				if !p.takesLastEnemy(m.to) && !p.hasKind(pc.Seat, kind) {
					acts = append(acts, m.String()+"="+string(kind))
					chose = true
				}
			}
			if !chose {
				acts = append(acts, m.String())
			}
		}
	}
	if len(acts) == 0 {
		acts = append(acts, "pass")
	}
	sort.Strings(acts)
	return acts
}
