package rules

// makeTeam is Make for the presets with team rules (docs/rules.md §5): moves of
// a commanded army, points to the decider, throne bonuses, command, the team
// boat triumph and the king exchange. u is already reset.
func (p *Position) makeTeam(a Action, u *Undo) {
	pr := p.preset
	p.hash ^= p.teamHash()
	defer func() {
		if p.step == noStep {
			p.turn = 0 // only a pending decision keeps whose turn it is
		}
		p.hash ^= p.teamHash()
	}()
	d := p.seat // the decider: whoever the seat field names
	turn := p.TurnSeat()
	if p.step == noStep {
		d = p.decider(turn)
	}
	switch a.Type() {
	case Propose:
		p.step = stepAccept
		p.setSeat(p.kinglessSeat(1 - teamOf(d)))
		return
	case Waive, Decline:
		p.step = noStep
		p.endTeamTurn(u, turn, d, kill{})
		return
	case Accept:
		p.step = noStep
		p.placeExchangedKings(u, turn)
		return
	case NoReturn:
		p.continueTurn(u, turn)
		return
	case ReturnUs, ReturnThem:
		p.step = stepPlace
		t := teamOf(turn) // the capturer's team: he decided turn's turn
		if a.Type() == ReturnThem {
			t = 1 - t
		}
		p.setSeat(p.kinglessSeat(t))
		return
	case Drop:
		p.put(u, a.To(), MakePiece(p.seat, a.Promotion()))
		if p.step == stepBack { // the free return: the seat then rolls
			p.kingBack(p.seat)
			p.step = noStep
			p.checkTeamEnd(p.seat, kill{})
			return
		}
		if p.step == stepPlace {
			if o := p.kinglessSeat(1 - teamOf(p.seat)); !p.HasKing(o) {
				p.setSeat(o)
				return
			}
			p.continueTurn(u, turn)
			return
		}
		if p.step == noStep { // a drop right, used: it ends the turn
			p.drops &^= 1 << p.seat
			if p.roll.Len() == pr.Dice {
				p.clock++
			}
			p.endTeamTurn(u, turn, d, kill{})
			return
		}
		p.kingBack(p.seat)
		p.step = noStep
		p.placeExchangedKings(u, turn)
		return
	}
	first := p.roll.Len() == pr.Dice && !pr.CountUp // martian counts the turn at the roll
	reset, endTurn := false, true
	var taken Piece // a king captured by the move
	switch a.Type() {
	case Move:
		k := p.board[a.From()].Kind()
		owner := p.board[a.From()].Seat()
		reset, taken = p.teamMove(u, d, a)
		switch {
		case pr.CountUp:
			p.useMartianDie(k, owner != turn)
			endTurn = p.roll.empty()
		case pr.Dice > 1:
			p.useDie(k)
			endTurn = p.roll.Len() == 0
		}
	case Retire:
		p.remove(u, lowest(p.bySeat[d]&p.byKind[King]))
		if pr.Team.Exchange != NoExchange {
			p.retired |= 1 << d
		}
		endTurn = true
	}
	if pr.Team.Stakes {
		p.removeLoneKings(u)
	}
	p.dropLostCommands()
	if !endTurn && !p.takesTurn(turn) {
		endTurn = true // a command ended mid-turn, leaving turn's army frozen: its last die is lost
	}
	switch {
	case reset:
		p.clock = 0
	case first:
		p.clock++
	}
	if taken != NoPiece && pr.Team.Return && p.mayReturn(d) {
		p.step, p.turn = stepReturn, turn
		p.setSeat(d)
		if p.roll.empty() { // no die left for after the decision
			p.hash ^= rollKey(p.rolled, p.roll)
			p.roll, p.rolled = Roll{}, false
			p.setControl(NoSeat)
		}
		return
	}
	if taken != NoPiece && p.mayExchange(d) {
		p.hash ^= rollKey(p.rolled, p.roll)
		p.roll, p.rolled = Roll{}, false
		p.step, p.turn = stepPropose, turn
		p.setSeat(d)
		return
	}
	k := kill{}
	if taken != NoPiece {
		k = kill{taken, a.To()}
	}
	if endTurn {
		p.endTeamTurn(u, turn, d, k)
		return
	}
	p.checkTeamEnd(d, k)
}

// kill is a king captured by the last action, and where.
type kill struct {
	king Piece
	on   Square
}

// teamMove plays a move decided by seat d and reports whether it resets the
// clock and which king, if any, it captured.
func (p *Position) teamMove(u *Undo, d Seat, a Action) (bool, Piece) {
	pr := p.preset
	from, to := a.From(), a.To()
	priv := pr.Promotion.Rule == PromoteOnEnemyStart && p.board[from].Kind() == Pawn && p.privilegedPawn(p.board[from].Seat())
	pc := p.remove(u, from)
	owner, k := pc.Seat(), pc.Kind()
	reset := k == Pawn
	var taken Piece
	captured := NoPiece
	if p.board[to] != NoPiece {
		captured = p.remove(u, to)
		p.scores[d] += int32(pr.Pieces[captured.Kind()].Points)
		reset = true
		if captured.Kind() == King {
			taken = captured
			if pr.Team.Stakes { // each rajah capture collects a unit from its owner
				p.scores[d]++
				p.scores[captured.Seat()]--
			}
			if pr.Team.Drops {
				p.loseKing(d, captured.Seat())
			}
			if pr.Team.Bonuses && to == pr.thrones[captured.Seat()] {
				p.scores[d] += 2
			}
		}
	}
	if k == Pawn && pr.Promotion.Rule == PromoteOnEnemyStart {
		if promo := a.Promotion(); promo != NoKind {
			pc = MakePiece(owner, promo) // a privileged pawn's choice
		} else if e := pr.enemyStart[owner][to]; e != NoKind && !priv && p.lacks(owner, e) {
			pc = MakePiece(owner, e)
		}
	} else if k == Pawn && pr.lastLines[owner]&to.bit() != 0 {
		promo := a.Promotion()
		if promo == NoKind {
			promo = pr.promoteTo[owner][to]
		}
		if promo != NoKind && (!pr.Promotion.OnlyIfLacking || p.lacks(owner, promo)) {
			pc = MakePiece(owner, promo)
		}
	}
	p.put(u, to, pc)
	if pc.Kind() == King && k == Pawn {
		p.kingBack(owner)
	}
	if pr.Team.Stakes {
		for _, e := range pr.seats {
			if to == pr.thrones[e] && !pr.Teammates(e, owner) && p.thronesTaken&(1<<e) == 0 {
				p.thronesTaken |= 1 << e // the first enemy piece on a throne collects a unit, once
				p.scores[d]++
				p.scores[e]--
			}
		}
	}
	if k == King && pr.KingLeap && knightLeaps[from]&to.bit() != 0 {
		p.leaps |= 1 << owner
		p.hash ^= leapKeys[owner]
	}
	if k == King {
		for _, e := range pr.seats {
			if to == pr.thrones[e] && pr.Team.Bonuses && !pr.Teammates(e, owner) && p.thronesTaken&(1<<e) == 0 {
				p.thronesTaken |= 1 << e
				p.scores[d]++
			}
		}
		if pr.Team.Command != NoCommand && to == pr.thrones[Partner(owner)] {
			p.command |= 1 << owner
		}
	}
	if k == Boat && pr.Triumph && p.teamTriumph(u, d, owner, to) {
		reset = true
	}
	if k == Elephant && pr.Team.Unkindness && owner == d && captured == NoPiece && p.unkindness(u, owner, to) {
		reset = true
	}
	return reset, taken
}

// teamTriumph is the boat triumph of seat owner's boat arriving on sq, moved
// by d: the enemy boats of the full blocks are captured, d scoring them; the
// partner's boats pass to owner when the preset shares boats.
func (p *Position) teamTriumph(u *Undo, d, owner Seat, sq Square) bool {
	boats := p.byKind[Boat]
	var won uint64
	for _, block := range blocks[sq] {
		if block != 0 && boats&block == block {
			won |= block
		}
	}
	won &^= p.bySeat[owner]
	if p.preset.Team.Truce && p.command&(1<<owner|1<<Partner(owner)) != 0 {
		won &^= p.bySeat[Partner(owner)] // a truce spares the ally's boats
	}
	if p.preset.Team.ShareBoats {
		for w := won & p.bySeat[Partner(owner)]; w != 0; w &= w - 1 {
			p.replace(u, lowest(w), MakePiece(owner, Boat))
		}
		won &^= p.bySeat[owner]
	}
	for w := won; w != 0; w &= w - 1 {
		p.remove(u, lowest(w))
		p.scores[d] += int32(p.preset.Pieces[Boat].Points)
	}
	return won != 0
}

// loseKing counts a king of seat s lost to d's capture, and gives d's
// partner its drop right if it is kingless and has lost exactly one king.
func (p *Position) loseKing(d, s Seat) {
	if n := p.kingsLost(s); n < 2 {
		p.lost += 1 << (2 * s)
	}
	if o := Partner(d); !p.HasKing(o) && p.kingsLost(o) == 1 {
		p.drops |= 1 << o
	}
}

// kingBack ends the command over seat s when s gets a king again.
func (p *Position) kingBack(s Seat) { p.command &^= 1 << Partner(s) }

// dropLostCommands ends the command of every seat whose king no longer
// stands on its partner's throne.
func (p *Position) dropLostCommands() {
	for c := p.command; c != 0; c &= c - 1 {
		s := Seat(lowestKind(KindSet(c)))
		if p.board[p.preset.thrones[Partner(s)]] != MakePiece(s, King) {
			p.command &^= 1 << s
		}
	}
}

// kinglessSeat returns the seat of team t without a king (the team has one
// king when this is asked).
func (p *Position) kinglessSeat(t int) Seat {
	s := Seat(t)
	if p.HasKing(s) {
		return Partner(s)
	}
	return s
}

// mayExchange reports whether the king capture just decided by d offers a
// king exchange: each team has exactly one king left, and the king d's team
// is missing was not retired.
func (p *Position) mayExchange(d Seat) bool {
	if p.preset.Team.Exchange == NoExchange {
		return false
	}
	if a, b := p.teamKings(); a != 1 || b != 1 {
		return false
	}
	return p.retired&(1<<p.kinglessSeat(teamOf(d))) == 0
}

// placeExchangedKings places the missing kings of an accepted exchange: the
// proposing team's first (the team of the turn's decider), then the other,
// each on its throne if empty, else by its owner's drop. The turn passes on
// from turn once both stand.
func (p *Position) placeExchangedKings(u *Undo, turn Seat) {
	proposer := teamOf(turn) // the capturer decided turn's turn: turn or its partner
	for _, t := range [2]int{proposer, 1 - proposer} {
		s := p.kinglessSeat(t)
		if p.HasKing(s) {
			continue
		}
		if th := p.preset.thrones[s]; p.board[th] == NoPiece {
			p.put(u, th, MakePiece(s, King))
			p.kingBack(s)
			continue
		}
		p.step, p.turn = stepDrop, turn
		p.setSeat(s)
		return
	}
	p.endTeamTurn(u, turn, turn, kill{})
}

// endTeamTurn passes the turn on from seat turn and checks the end of the
// game after an action decided by d, which captured k.
func (p *Position) endTeamTurn(u *Undo, turn, d Seat, k kill) {
	if p.preset.Team.Stakes {
		p.removeLoneKings(u)
		p.dropLostCommands()
	}
	p.hash ^= rollKey(p.rolled, p.roll)
	p.roll, p.rolled = Roll{}, false
	p.setControl(NoSeat)
	pr := p.preset
	n := len(pr.Order)
	i := pr.turnIndex[turn]
	next := turn
	for range n {
		i++
		if i == n {
			i = 0
		}
		s := pr.Order[i]
		if pr.Promotion.Wait {
			had := p.HasKing(s)
			p.promoteWaiting(u, s)
			if !had && p.HasKing(s) {
				p.kingBack(s)
			}
		}
		if pr.Team.Stakes && p.freeReturnDue(s) && p.strippedTeams() == 0 { // a stripped team ends the game at once
			if th := pr.thrones[s]; p.board[th] == NoPiece {
				p.put(u, th, MakePiece(s, King))
				p.kingBack(s)
			} else {
				// Its owner places it next to the throne, then rolls; the
				// placing ends the turn that led to it.
				p.step, p.turn = stepBack, turn
				p.setSeat(s)
				p.checkTeamEnd(d, k)
				return
			}
		}
		if p.takesTurn(s) {
			next = s
			break
		}
	}
	p.setSeat(next)
	p.checkTeamEnd(d, k)
}

// checkTeamEnd decides whether the game is over after an action decided by
// d, and pays the empire (chaturaji-teams) if it is.
func (p *Position) checkTeamEnd(d Seat, k kill) {
	p.done = p.isOver()
	if p.done && p.rolled {
		p.hash ^= rollKey(p.rolled, p.roll)
		p.roll, p.rolled = Roll{}, false
		p.setControl(NoSeat)
	}
	if kings := p.byKind[King]; p.done && p.preset.Raise > 0 && popcount(kings) == 1 {
		owner := p.board[lowest(kings)].Seat()
		p.scores[owner] = max(p.scores[owner], int32(p.preset.Raise))
	}
	if p.done && p.preset.Team.Stakes {
		p.settleStakes()
		return
	}
	if !p.done || !p.preset.Team.Bonuses || p.endReason() != KingsTaken {
		return
	}
	// The empire goes to a commander of the team that still has a king:
	// the decider of the last action if he is one, else the first in seat
	// order.
	a, _ := p.teamKings()
	win := 0
	if a == 0 {
		win = 1
	}
	emperor := NoSeat
	if teamOf(d) == win && p.Commands(d) {
		emperor = d
	} else {
		for _, s := range p.preset.seats {
			if teamOf(s) == win && p.Commands(s) {
				emperor = s
				break
			}
		}
	}
	if emperor == NoSeat {
		return
	}
	bonus := int32(1)
	if k.king != NoPiece && emperor == d {
		bonus = 2
		for _, th := range p.preset.thrones {
			if th == k.on {
				bonus = 4
			}
		}
	}
	p.scores[emperor] += bonus
}

// settleStakes pays chaturanga-fr2's stakes at the end of the game: if a
// team lost, each winner commanding through a throne collects 2 from each
// opponent (the empire), and the pot of the four antes goes one unit to each
// winner from each loser; a draw refunds the antes.
func (p *Position) settleStakes() {
	lose := p.losingTeam()
	if p.endReason() != Stripped || lose < 0 {
		return
	}
	for _, c := range p.preset.seats {
		if teamOf(c) != lose && p.command&(1<<c) != 0 {
			for _, o := range p.preset.seats {
				if teamOf(o) == lose {
					p.scores[o] -= 2
					p.scores[c] += 2
				}
			}
		}
	}
	for _, s := range p.preset.seats {
		if teamOf(s) == lose {
			p.scores[s]--
		} else {
			p.scores[s]++
		}
	}
}
