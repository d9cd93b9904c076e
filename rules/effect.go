package rules

// Effect is what an action did besides moving its piece, as a player
// watching the game needs to be told: the pieces it captured, whose score
// changed and why, and which armies it froze, brought back or put out of
// the game. Position.Effect works it out.
type Effect struct {
	Decider  Seat          // the seat that decided the action, who scores its captures
	Captures []Capture     // the pieces taken, in the order the rules take them
	Removed  []Capture     // pieces that left the board uncaptured: chaturanga-fr2's lone kings (Points 0)
	Scores   []ScoreChange // each seat's score changes, by cause, in the order of the causes
	Frozen   []Seat        // armies that took turns before the action and are skipped after it
	Revived  []Seat        // armies that were skipped before the action and take turns after it
	Out      []Seat        // armies left with no piece on the board
}

// Capture is one piece an action took off the board.
type Capture struct {
	Square Square // where it stood
	Piece  Piece  // its owner and kind
	Points int    // what it scored for the decider: the preset's points of its kind (nothing for a dead army's piece other than its king)
}

// ScoreChange is a change of one seat's score and its cause.
type ScoreChange struct {
	Seat   Seat  // the seat whose score changed
	Points int   // the change, negative for stakes paid
	Cause  Cause // why
}

// Cause says why a score changed.
type Cause uint8

// The causes of a score change, in the order Effect lists them.
const (
	CauseCapture    Cause = iota + 1 // the points of the pieces captured (docs/rules.md §4.2, the triumph §4.3)
	CauseThrone                      // chaturaji-teams: +1, a king entering an enemy throne for the first time
	CauseThroneKing                  // chaturaji-teams: +2, an enemy king captured on its own throne
	CauseStakes                      // chaturanga-fr2: stakes collected or paid
	CauseRaise                       // the game ended with this seat's king the last: its score raised to the preset's Raise (54)
	CauseEmpire                      // chaturaji-teams: the empire, paid at the end to a commander of the winning team
	CauseCheck                       // chesscom-chaturaji: two or three live enemy kings attacked anew
	CauseKings                       // chesscom-chaturaji: the last live army takes every standing king's points
	CauseClock                       // chesscom-chaturaji: the clock ended the game, each live army scoring
)

var causeNames = [...]string{"", "capture", "throne", "throne-king", "stakes", "raise", "empire", "check", "kings", "clock"}

// String names the cause as the server's events do: "capture", "throne",
// "throne-king", "stakes", "raise", "empire", "check", "kings" or "clock".
func (c Cause) String() string {
	if int(c) < len(causeNames) {
		return causeNames[c]
	}
	return "unknown"
}

// Effect returns what the legal action a does in position p, which it
// leaves unchanged. It plays a on a copy and reads the engine's journal of
// the squares the action changed, so that every capture is found however
// the rules make it (on the destination, by a boat triumph, by the
// unkindness of ravens), while a partner's boats passing to the mover in a
// team triumph, promotions and drops are not captures. Score changes are
// told apart by cause; their sum for each seat is the change of its score.
func (p *Position) Effect(a Action) Effect {
	pr := p.preset
	q := *p
	var u Undo
	q.Make(a, &u)
	e := Effect{Decider: p.Decider()}
	d := e.Decider

	var known [NumSeats]int
	var captured [NumSeats]int
	for i := range int(u.n) {
		c := u.changes[i]
		if c.old == NoPiece || !removed(&u, i, &q) {
			continue
		}
		switch {
		case i == 0 && (a.Type() == Move || a.Type() == Retire):
			continue // the piece that moved, or the king that retired
		case c.old.Kind() == King && pr.Team.Stakes && !(i == 1 && c.sq == a.To()):
			// Only the move's own capture takes a king; fr2 removes a lone
			// king without a capture.
			e.Removed = append(e.Removed, Capture{Square: c.sq, Piece: c.old})
			continue
		}
		pts := int(p.worth(c.old))
		e.Captures = append(e.Captures, Capture{Square: c.sq, Piece: c.old, Points: pts})
		captured[d] += pts
	}
	add := func(s Seat, n int, cause Cause) {
		if n != 0 {
			e.Scores = append(e.Scores, ScoreChange{Seat: s, Points: n, Cause: cause})
			known[s] += n
		}
	}
	add(d, captured[d], CauseCapture)
	add(d, int(u.bonus), CauseCheck)
	delta := func(s Seat) int { return int(q.scores[s] - p.scores[s]) }
	if pr.Team.Stakes {
		for _, s := range pr.seats {
			add(s, delta(s)-known[s], CauseStakes)
		}
	} else if pr.Team.Bonuses {
		add(d, popcount(uint64(q.thronesTaken&^p.thronesTaken)), CauseThrone)
		if len(e.Captures) > 0 && a.Type() == Move {
			if c := e.Captures[0]; c.Square == a.To() && c.Piece.Kind() == King && a.To() == pr.thrones[c.Piece.Seat()] {
				add(d, 2, CauseThroneKing)
			}
		}
	}
	// What is left can only come with the end of the game: the raise of
	// the last king's owner, or the empire.
	for _, s := range pr.seats {
		rest := delta(s) - known[s]
		switch {
		case rest == 0 || !q.done:
		case pr.Raise > 0:
			add(s, rest, CauseRaise)
		case pr.Team.Bonuses:
			add(s, rest, CauseEmpire)
		case pr.Dead && q.EndReason() == ClockOut:
			add(s, rest, CauseClock)
		case pr.Dead:
			add(s, rest, CauseKings)
		}
	}

	for _, s := range pr.seats {
		was, is := p.bySeat[s] != 0, q.bySeat[s] != 0
		switch {
		case was && !is:
			e.Out = append(e.Out, s)
		case !was || pr.Kingless:
		case p.takesTurn(s) && !q.takesTurn(s):
			e.Frozen = append(e.Frozen, s)
		case !p.takesTurn(s) && q.takesTurn(s):
			e.Revived = append(e.Revived, s)
		}
	}
	return e
}

// removed reports whether journal entry i of u, an occupied square's
// previous content, records the piece leaving the board (rather than
// being replaced in place by a promotion or a change of owner): the
// square's next entry finds it empty, or, if none follows, it is empty in
// the final position q.
func removed(u *Undo, i int, q *Position) bool {
	sq := u.changes[i].sq
	for j := i + 1; j < int(u.n); j++ {
		if u.changes[j].sq == sq {
			return u.changes[j].old == NoPiece
		}
	}
	return q.board[sq] == NoPiece
}

// Points returns the score changes of seat s, summed.
func (e *Effect) Points(s Seat) int {
	n := 0
	for _, c := range e.Scores {
		if c.Seat == s {
			n += c.Points
		}
	}
	return n
}
