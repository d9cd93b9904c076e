package rules

// Position is the state of a game between actions: the board, the seat to
// act, the dice, the scores and the clock. Make and Unmake change it in
// place; copy the value to keep a snapshot.
type Position struct {
	preset *Preset
	board  [64]Piece
	bySeat [NumSeats]uint64
	byKind [NumKinds]uint64
	occ    uint64
	state
}

// state is the part of a position that Make saves whole and Unmake restores.
type state struct {
	scores [NumSeats]int32
	clock  int32
	seat   Seat
	rolled bool
	roll   Roll
	done   bool
	leaps  uint8 // seats whose king has made its knight's leap (bit per seat)
	// Team play (bit per seat): seats commanding their partner through its
	// throne, thrones entered by an enemy king, seats whose king retired.
	command, thronesTaken, retired uint8
	step                           uint8 // a pending decision (noStep, stepPropose, ...)
	turn                           Seat  // while a decision is pending, whose turn it is
	// Drop rights (winther): kings lost by each seat (two bits a seat, at
	// most 2) and the seats holding a right to drop a king.
	lost, drops uint8
	// Martian: the army controlled this turn through a throne (seat + 1;
	// 0: none), and the roll-off still to come.
	ctrl    uint8
	rollOff bool
	// Armies dead by resign or timeout, their kings standing (bit per
	// seat; presets with Dead).
	dead uint8
	hash uint64
}

// Preset returns the ruleset the position is played under.
func (p *Position) Preset() *Preset { return p.preset }

// At returns the piece on sq, NoPiece if it is empty.
func (p *Position) At(sq Square) Piece { return p.board[sq] }

// Seat returns the seat to act: to roll, or to choose an action.
func (p *Position) Seat() Seat { return p.seat }

// AwaitingRoll reports whether the seat to act must roll before it acts.
func (p *Position) AwaitingRoll() bool {
	return !p.rolled && !p.done && p.preset.Die != nil && p.step == noStep
}

// Roll returns the faces of the current turn not yet used; the zero Roll
// while the roll is awaited.
func (p *Position) Roll() Roll { return p.roll }

// Score returns the points of seat s.
func (p *Position) Score(s Seat) int { return int(p.scores[s]) }

// Clock returns the number of turns since the last capture or pawn move.
func (p *Position) Clock() int { return int(p.clock) }

// Finished reports whether the game is over.
func (p *Position) Finished() bool { return p.done }

// Hash returns the Zobrist hash of the board, the seat to act and its dice.
func (p *Position) Hash() uint64 { return p.hash }

// Pieces returns the squares of seat s's pieces of kind k as a bitboard.
func (p *Position) Pieces(s Seat, k Kind) uint64 { return p.bySeat[s] & p.byKind[k] }

// Army returns the squares of every piece of seat s as a bitboard.
func (p *Position) Army(s Seat) uint64 { return p.bySeat[s] }

// HasKing reports whether seat s has a king on the board; an army without
// one is frozen.
func (p *Position) HasKing(s Seat) bool { return p.bySeat[s]&p.byKind[King] != 0 }

// SetRoll sets the dice of the seat to act. It is how a chance node is
// resolved; the roll must be one of the preset's outcomes.
func (p *Position) SetRoll(r Roll) {
	if p.preset.specialRolls {
		p.setSpecialRoll(r)
		return
	}
	p.hash ^= rollKey(p.rolled, p.roll)
	p.roll, p.rolled = r, true
	p.hash ^= rollKey(p.rolled, p.roll)
}

// ClearRoll undoes SetRoll: the position awaits its roll again. It does not
// undo a roll-off.
func (p *Position) ClearRoll() {
	if p.preset.specialRolls && p.rolled {
		p.clock--
		p.setControl(NoSeat)
	}
	p.hash ^= rollKey(p.rolled, p.roll)
	p.roll, p.rolled = Roll{}, false
}

// put places pc on the empty square sq, recording the change in u.
func (p *Position) put(u *Undo, sq Square, pc Piece) {
	u.record(sq, NoPiece)
	p.place(sq, pc)
}

// remove empties sq, recording the change in u, and returns what stood there.
func (p *Position) remove(u *Undo, sq Square) Piece {
	pc := p.board[sq]
	u.record(sq, pc)
	p.unplace(sq, pc)
	return pc
}

// replace puts pc on the occupied square sq in place of what stood there,
// recording the change in u as one entry.
func (p *Position) replace(u *Undo, sq Square, pc Piece) {
	u.record(sq, p.board[sq])
	p.unplace(sq, p.board[sq])
	p.place(sq, pc)
}

// place and unplace change the board and its bitboards without journaling.
func (p *Position) place(sq Square, pc Piece) {
	b := sq.bit()
	p.board[sq] = pc
	p.bySeat[pc.Seat()] |= b
	p.byKind[pc.Kind()] |= b
	p.occ |= b
	p.hash ^= pieceKeys[pc][sq]
}

func (p *Position) unplace(sq Square, pc Piece) {
	b := sq.bit()
	p.board[sq] = NoPiece
	p.bySeat[pc.Seat()] &^= b
	p.byKind[pc.Kind()] &^= b
	p.occ &^= b
	p.hash ^= pieceKeys[pc][sq]
}

// setSeat changes the seat to act, keeping the hash.
func (p *Position) setSeat(s Seat) {
	p.hash ^= seatKeys[p.seat] ^ seatKeys[s]
	p.seat = s
}

// Equal reports whether two positions are the same game state.
func (p *Position) Equal(q *Position) bool {
	return p.preset == q.preset && p.board == q.board && p.state == q.state
}
