package rules

// maxChanges bounds the journal entries of one action: a move with its
// capture (3), a triumph (8) and waiting promotions while the turn passes
// (at most 4 pawns an army, 4 armies: 16) make 27; the rest is room for
// presets that place more (drops, exchanges).
const maxChanges = 48

// Undo records what Make changed, so that Unmake can restore it. Keep one per
// ply; it holds no pointers and needs no allocation.
type Undo struct {
	action  Action
	saved   state
	bonus   int32 // the check bonus a move scored (set by Make in presets with Checks only)
	n       uint8
	changes [maxChanges]change
}

// change is one square's previous content.
type change struct {
	sq  Square
	old Piece
}

func (u *Undo) record(sq Square, old Piece) {
	u.changes[u.n] = change{sq, old}
	u.n++
}

// Action returns the action that was made.
func (u *Undo) Action() Action { return u.action }

// Unmake takes back the action recorded in u, which must be the last one made
// on p.
func (p *Position) Unmake(u *Undo) {
	for i := int(u.n) - 1; i >= 0; i-- {
		c := u.changes[i]
		if cur := p.board[c.sq]; cur != NoPiece {
			p.unplace(c.sq, cur)
		}
		if c.old != NoPiece {
			p.place(c.sq, c.old)
		}
	}
	p.state = u.saved
}
