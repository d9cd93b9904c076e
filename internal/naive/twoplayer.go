package naive

import "sort"

// chaturanga-2p (docs/rules.md §5.1 king presets and §6.10, with the project's
// notation decisions): South (b) against North (g), diceless, no points.
// Soldiers (P) step forward to an empty square and capture straight or
// diagonally forward; tours (E) are rooks, cavaliers (H) knights, elephants
// (B) alfils that may take elephants, the vizir (V) steps one square
// diagonally, the rajah (K) one square any way. A soldier on its last rank
// promotes to the kind that started on its file if the army has fewer of it
// than at the start, else it waits (for ever on the rajah's file). Once per
// game each rajah may leap like a knight, capturing too, when no enemy
// piece could take it by an ordinary move; the extra field "leaps=" lists
// the seats that have leapt. No legal move: "pass". The game ends when a
// seat has no rajah, or at a clock of 200 (a draw).

// twoPlayerStartCount is how many pieces of kind each army starts with.
func twoPlayerStartCount(kind byte) int {
	switch kind {
	case Elephant, Horse, Boat:
		return 2
	case Vizir, King:
		return 1
	}
	return 8 // soldiers
}

// twoPlayerActions lists every move of the seat's pieces, the rajah's leaps
// while it may leap, or "pass" if there is nothing.
func (p *Position) twoPlayerActions() []string {
	var acts []string
	for sq := 0; sq < 64; sq++ {
		pc := p.Board[sq]
		if pc.Kind == Empty || pc.Seat != p.Seat {
			continue
		}
		for _, m := range p.pieceMoves(sq) {
			acts = append(acts, m.String())
		}
		if pc.Kind == King && !p.Leaps[p.Seat] && !p.attacked(sq) {
			file, rank := sq%8, sq/8
			for _, d := range knightSteps {
				if p.canLand(pc, file+d[0], rank+d[1]) {
					acts = append(acts, move{sq, square(file+d[0], rank+d[1])}.String())
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

// attacked reports whether some enemy piece of the piece on sq could take
// it by one ordinary move (a rajah's leap is not an ordinary move).
func (p *Position) attacked(sq int) bool {
	owner := p.Board[sq].Seat
	for from := 0; from < 64; from++ {
		pc := p.Board[from]
		if pc.Kind == Empty || pc.Seat == owner {
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
