package rules

// TeamRules are a preset's rules of partnership (docs/rules.md §5): partners sit
// opposite, South with North and West with East. The zero value is play each
// for himself.
type TeamRules struct {
	// Partners: the two teams win or lose together.
	Partners bool
	// Safe are the kinds of the partner's army that a piece never captures
	// (all kinds: partners' pieces cannot be captured).
	Safe KindSet
	// Command: a king that moves onto its partner's throne commands both
	// armies until it leaves the throne or the partner gets a king back.
	Command CommandRule
	// KinglessPlays: an army without a king is not frozen; its seat still
	// takes its turn and the partner decides it (chaturaji-teams).
	KinglessPlays bool
	// Bonuses: chaturaji-teams' throne bonuses (+1 a king on an enemy throne,
	// +2 an enemy king taken on its own throne) and the empire.
	Bonuses bool
	// Exchange: after a king capture that leaves each team one king, the
	// capturer may propose a king exchange.
	Exchange ExchangeRule
	// ShareBoats: in a boat triumph the partner's boats pass to the moving
	// boat's owner instead of being captured.
	ShareBoats bool
	// Truce: while one of two partners commands the other, their armies
	// cannot capture each other (biruni's sinhasana).
	Truce bool
	// Drops: a kingless seat that has lost exactly one king gets the right
	// to drop a king when its partner captures an enemy king (winther).
	Drops bool
	// MustTakeKing: when a remaining die allows capturing an enemy king,
	// only such captures are legal, and pass is not (winther's mustking).
	MustTakeKing bool
	// Control: a player whose king stands, at the start of his turn, on the
	// throne of a kingless seat rolls a second pair of dice for that army
	// (martian); a kingless seat whose partner holds its throne plays.
	Control bool
	// Unkindness: a raven (the kind Elephant) moving onto the last empty
	// square of the centre, the other three holding the other seats'
	// ravens, captures those three (martian).
	Unkindness bool
	// Return: after a king capture that does not end the game, while the
	// capturer's team misses a king, the capturer may return both (martian).
	Return bool
	// Stakes (chaturanga-fr2): scores are stakes in units; a team with
	// nothing but kings left loses at once, one without kings is only
	// frozen; a lone king is removed; a seat whose team lacks one king while
	// the other lacks both gets its king back at its turn.
	Stakes bool
	// LastForces (chaturaji-teams' house rule lastforces): points are
	// ignored and play goes on, a team without a king frozen, until one
	// team has no pieces; that team loses.
	LastForces bool
}

// CommandRule says what command through the partner's throne allows.
type CommandRule uint8

// The command rules.
const (
	NoCommand    CommandRule = iota
	CommandBoth              // the commander moves pieces of both armies on both seats' turns
	CommandTurns             // the commander decides both turns, each seat's turn moving only that seat's army
)

// ExchangeRule says where an exchanged king may be dropped when its throne
// is occupied.
type ExchangeRule uint8

// The exchange rules.
const (
	NoExchange       ExchangeRule = iota
	ExchangeAnywhere              // on any empty square
	ExchangeAdjacent              // on an empty square next to the throne, else any
)

// The steps of a pending decision.
const (
	noStep      uint8 = iota
	stepPropose       // the capturer proposes or waives
	stepAccept        // the owner of the king captured accepts or declines
	stepDrop          // an owner drops his exchanged king
	stepReturn        // the capturer decides the kings' return (martian)
	stepPlace         // an owner places his returning king
	stepBack          // a seat places its king by the free return (chaturanga-fr2)
)

var stepNames = [...]string{"", "propose", "accept", "drop", "decide", "place", "back"}

// Partner returns the seat opposite s, its partner in team presets.
func Partner(s Seat) Seat { return s ^ 2 }

// Teammates reports whether seats a and b are one team in preset pr: the
// same seat, or partners when the preset plays in teams.
func (pr *Preset) Teammates(a, b Seat) bool {
	return a == b || pr.Team.Partners && a == Partner(b)
}

// Throne returns seat s's throne: the square its king starts on, NoSquare if
// it has none.
func (pr *Preset) Throne(s Seat) Square { return pr.thrones[s] }

// Commands reports whether seat c commands its partner's army: its king
// stands on the partner's throne, having moved there (docs/rules.md §5), or, in
// presets where a kingless army plays, the partner has no king and c has.
func (p *Position) Commands(c Seat) bool {
	if p.command&(1<<c) != 0 {
		return true
	}
	o := Partner(c)
	return p.preset.Team.KinglessPlays && p.bySeat[o] != 0 && !p.HasKing(o) && p.HasKing(c)
}

// TurnSeat returns the seat whose turn it is. It is Seat() except while a
// decision of a king exchange is pending, when Seat() names the player who
// must decide.
func (p *Position) TurnSeat() Seat {
	if p.step != noStep {
		return p.turn
	}
	return p.seat
}

// Pending names the decision awaited from Seat() within the turn of
// TurnSeat(): "propose", "accept" or "drop" during a king exchange; "" when
// none is.
func (p *Position) Pending() string { return stepNames[p.step] }

// decider returns who decides the turn of seat s: its partner if the partner
// commands s and s does not command the partner, else s.
func (p *Position) decider(s Seat) Seat {
	if p.preset.Team.Command == NoCommand && !p.preset.Team.KinglessPlays {
		return s
	}
	if o := Partner(s); p.Commands(o) && !p.Commands(s) {
		return o
	}
	return s
}

// movers returns the armies whose pieces may move on the turn of seat s.
func (p *Position) movers(s Seat) uint8 {
	d := p.decider(s)
	if p.preset.Team.Command == CommandTurns {
		return 1 << s
	}
	if p.Commands(d) {
		return 1<<d | 1<<Partner(d)
	}
	return 1 << d
}

// takesTurn reports whether seat s takes its turn when the turn passes to
// it: it has a king, or (with pieces) its army plays without one or is under
// its partner's command.
func (p *Position) takesTurn(s Seat) bool {
	if p.HasKing(s) {
		return p.dead&(1<<s) == 0
	}
	if p.drops&(1<<s) != 0 || p.preset.Team.Stakes && p.freeReturnDue(s) && p.strippedTeams() == 0 {
		return true
	}
	if p.bySeat[s] == 0 {
		return false
	}
	if p.preset.Team.Control && p.board[p.preset.thrones[s]] == MakePiece(Partner(s), King) {
		return true
	}
	if p.preset.Team.LastForces && !p.HasKing(Partner(s)) {
		return p.command&(1<<Partner(s)) != 0 // a team without a king is frozen
	}
	return p.preset.Team.KinglessPlays || p.command&(1<<Partner(s)) != 0
}

// kingsLost returns how many kings seat s has lost (at most 2 are counted).
func (p *Position) kingsLost(s Seat) int { return int(p.lost >> (2 * s) & 3) }

// foes returns the squares a piece of seat s may capture on, before its
// kind's own restrictions.
func (p *Position) foes(s Seat) uint64 {
	c := p.occ &^ p.bySeat[s]
	if p.preset.Team.Truce && p.command&(1<<s|1<<Partner(s)) != 0 {
		c &^= p.bySeat[Partner(s)]
	}
	if safe := p.preset.Team.Safe; safe != 0 {
		o := p.bySeat[Partner(s)]
		if safe != p.preset.used {
			var k uint64
			for ks := safe; ks != 0; ks &= ks - 1 {
				k |= p.byKind[lowestKind(ks)]
			}
			o &= k
		}
		c &^= o
	}
	return c
}

// teamKings returns how many kings each team has: South's team, then
// West's.
func (p *Position) teamKings() (int, int) {
	k := p.byKind[King]
	return popcount(k & (p.bySeat[South] | p.bySeat[North])), popcount(k & (p.bySeat[West] | p.bySeat[East]))
}

// teamOf returns 0 for South's team, 1 for West's.
func teamOf(s Seat) int { return int(s & 1) }

// teamActions appends the legal actions of a team preset's position.
func (p *Position) teamActions(buf []Action) []Action {
	switch p.step {
	case stepPropose:
		return append(buf, ProposeAction, WaiveAction)
	case stepAccept:
		return append(buf, AcceptAction, DeclineAction)
	case stepDrop:
		e := ^p.occ
		if p.preset.Team.Exchange == ExchangeAdjacent && kingSteps[p.preset.thrones[p.seat]]&^p.occ != 0 {
			e = kingSteps[p.preset.thrones[p.seat]] &^ p.occ
		}
		for ; e != 0; e &= e - 1 {
			buf = append(buf, DropAction(King, lowest(e)))
		}
		return buf
	case stepReturn:
		return append(buf, NoReturnAction, ReturnUsAction, ReturnThemAction)
	case stepPlace:
		for e := p.returnSquares(p.seat); e != 0; e &= e - 1 {
			buf = append(buf, DropAction(King, lowest(e)))
		}
		return buf
	case stepBack:
		e := kingSteps[p.preset.thrones[p.seat]] &^ p.occ
		if e == 0 {
			e = ^p.occ
		}
		for ; e != 0; e &= e - 1 {
			buf = append(buf, DropAction(King, lowest(e)))
		}
		return buf
	}
	if p.preset.Team.Control {
		return p.martianActions(buf)
	}
	if p.drops&(1<<p.seat) != 0 && !p.HasKing(p.seat) {
		for e := ^p.occ; e != 0; e &= e - 1 {
			buf = append(buf, DropAction(King, lowest(e)))
		}
		return append(buf, PassAction)
	}
	allowed := p.allowed()
	for m := p.movers(p.seat); m != 0; m &= m - 1 {
		s := Seat(lowestKind(KindSet(m)))
		buf = p.appendMoves(buf, s, allowed, p.foes(s))
	}
	if p.preset.Team.MustTakeKing {
		n := 0
		for _, a := range buf {
			if pc := p.board[a.To()]; pc != NoPiece && pc.Kind() == King {
				buf[n] = a
				n++
			}
		}
		if n > 0 {
			return buf[:n]
		}
	}
	if len(buf) == 0 || p.preset.PassAlways {
		buf = append(buf, PassAction)
	}
	if p.mayRetire() && p.decider(p.seat) == p.seat { // only a player deciding his own turn retires
		buf = append(buf, RetireAction)
	}
	return buf
}

// teamHash returns the hash of the team state.
func (p *Position) teamHash() uint64 {
	var h uint64
	for s := range Seat(NumSeats) {
		if p.command&(1<<s) != 0 {
			h ^= commandKeys[s]
		}
		if p.thronesTaken&(1<<s) != 0 {
			h ^= throneKeys[s]
		}
		if p.retired&(1<<s) != 0 {
			h ^= retiredKeys[s]
		}
	}
	if p.step != noStep {
		h ^= stepKeys[p.step] ^ turnKeys[p.turn]
	}
	for s := range Seat(NumSeats) {
		if p.drops&(1<<s) != 0 {
			h ^= dropKeys[s]
		}
		h ^= lostKeys[p.kingsLost(s)][s]
	}
	return h
}

// freeReturnDue reports whether seat s's king returns at its turn
// (chaturanga-fr2): s has no king but other pieces, its team has one king
// and the other team none.
func (p *Position) freeReturnDue(s Seat) bool {
	if p.HasKing(s) || p.bySeat[s] == 0 {
		return false
	}
	a, b := p.teamKings()
	if teamOf(s) == 1 {
		a, b = b, a
	}
	return a == 1 && b == 0
}

// teamPieces returns the squares of team t's pieces (0: South's, 1: West's).
func (p *Position) teamPieces(t int) uint64 {
	return p.bySeat[Seat(t)] | p.bySeat[Partner(Seat(t))]
}

// strippedTeams counts the teams with nothing but kings left.
func (p *Position) strippedTeams() int {
	n := 0
	for t := range 2 {
		if p.teamPieces(t)&^p.byKind[King] == 0 {
			n++
		}
	}
	return n
}

// losingTeam returns the team that has nothing but kings left while the
// other has more (chaturanga-fr2), or -1.
func (p *Position) losingTeam() int {
	a := p.teamPieces(0)&^p.byKind[King] == 0
	b := p.teamPieces(1)&^p.byKind[King] == 0
	switch {
	case a && !b:
		return 0
	case b && !a:
		return 1
	}
	return -1
}

// anySeatPlays reports whether some seat can take a turn.
func (p *Position) anySeatPlays() bool {
	for _, s := range p.preset.seats {
		if p.takesTurn(s) {
			return true
		}
	}
	return false
}

// removeLoneKings removes every king that is its army's only piece
// (chaturanga-fr2): no stake is paid, and it cannot be exchanged.
func (p *Position) removeLoneKings(u *Undo) {
	for _, s := range p.preset.seats {
		if own := p.bySeat[s]; own != 0 && own&(own-1) == 0 && own&p.byKind[King] != 0 {
			p.remove(u, lowest(own))
			p.retired |= 1 << s
		}
	}
}

// privilegedPawn reports whether seat s's pawn is privileged
// (chaturanga-fr2): the army's pieces other than kings are exactly one pawn
// and one boat (the sheet's soldier and elephant).
func (p *Position) privilegedPawn(s Seat) bool {
	own := p.bySeat[s] &^ p.byKind[King]
	return popcount(own) == 2 && popcount(own&p.byKind[Pawn]) == 1 && popcount(own&p.byKind[Boat]) == 1
}
