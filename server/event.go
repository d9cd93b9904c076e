package server

import (
	"time"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

// The kinds of events of a game, numbered from 1 by Seq.
const (
	KindStart  = "start"  // the table: rules, seats, the seed's hash, the start position
	KindRoll   = "roll"   // the server rolled the dice for a seat
	KindAction = "action" // a seat's action
	KindSeat   = "seat"   // a seat changed hands: a bot took an abandoned or timed-out seat
	KindEnd    = "end"    // the game is over: the ranking and the revealed seed
	KindClock  = "clock"  // the decider's deadline moved on: time no server could run the game is given back
)

// The kinds of messages that are not events (their Seq is 0).
const (
	KindHello = "hello" // first message of a WebSocket: the game, the seat, the last event
	KindError = "error" // a message of the client was refused; nothing changed
	// KindChat (chat.go): a player's message to the game's clients.
)

// What made an action, in an action event's By.
const (
	ByPlayer  = "player"  // the seat's holder
	ByBot     = "bot"     // the seat's bot
	ByAuto    = "auto"    // a forced pass, played at once (Table.AutoPass)
	ByTimeout = "timeout" // the server, for a player out of time
)

// Event is a message from the server: a numbered event of a game (Seq from
// 1, no gaps), as the store keeps it and every client receives it, or a
// hello or error message (Seq 0). Every event says what happened and the
// game after it: the position, who decides next and what they may do.
type Event struct {
	Seq  int64     `json:"seq,omitempty"` // the event's number, from 1; 0 for hello and error
	Kind string    `json:"kind"`          // KindStart ... KindEnd, KindHello or KindError
	At   time.Time `json:"at,omitzero"`   // when the event happened, UTC to the millisecond; zero for hello and error

	Seat   string `json:"seat,omitempty"`   // the seat that rolled, acted or changed hands
	Roll   string `json:"roll,omitempty"`   // roll: the faces rolled
	Action string `json:"action,omitempty"` // action: the action in notation
	By     string `json:"by,omitempty"`     // action: ByPlayer, ByBot, ByAuto or ByTimeout
	Player string `json:"player,omitempty"` // seat: the seat's new player
	// Reason says why a bot took a seat (seat: ReasonAbandoned,
	// ReasonTimeout, ReasonIdle...), why the server played an action itself
	// (action by ByAuto: ReasonNoMove; by ByTimeout: ReasonTimeout; by
	// ByPlayer: ReasonResigned, a resignation made off the seat's turn and
	// played at it, dead.go), or why
	// the server aborted a game whose last human seat a bot would have
	// taken, with no room for another game of bots alone (end, aborted,
	// with no seat: the seat event's reason it would have had).
	Reason string `json:"reason,omitempty"`

	// What an action did besides moving its piece (rules.Effect), so that
	// clients can say it without the rules.
	Captures []Capture `json:"captures,omitempty"` // action: the pieces it captured
	Removed  []Capture `json:"removed,omitempty"`  // action: pieces that left the board uncaptured (chaturanga-fr2's lone kings)
	// Gains are the score changes of an action, each with its cause; an
	// end event repeats those of the last action that the end itself
	// brought (the raise to 54, the empire), so that a client can say why.
	Gains   []Gain   `json:"gains,omitempty"`
	Frozen  []string `json:"frozen,omitempty"`  // action: the seats whose armies it froze (their turns are skipped)
	Revived []string `json:"revived,omitempty"` // action: the seats whose armies it brought back into play
	Out     []string `json:"out,omitempty"`     // action: the seats it left with no piece on the board

	Rules    string     `json:"rules,omitempty"`     // start
	SeedHash string     `json:"seed_hash,omitempty"` // start: SHA-256 of the seed, hex
	Seats    []SeatInfo `json:"seats,omitempty"`     // start
	Table    *Table     `json:"table,omitempty"`     // start

	Position string     `json:"position,omitempty"` // the position after the event
	ToAct    string     `json:"to_act,omitempty"`   // the seat that decides next; none once over
	Dice     string     `json:"dice,omitempty"`     // the dice left to use, "-" before the roll
	Scores   []int      `json:"scores,omitempty"`   // in seat order, South first
	Actions  []string   `json:"actions,omitempty"`  // the legal actions of ToAct
	Deadline *time.Time `json:"deadline,omitempty"` // when ToAct runs out of time
	// OutOfPlay names the seats with no part left in the game as its
	// position stands (rules.Position.InPlay): a king fallen, an army dead
	// or frozen, no piece left, a kingless army its partner plays. An
	// action may bring one back (revived). None once the game is over.
	OutOfPlay []string `json:"out_of_play,omitempty"`
	// Banks, at a bank table, is each seat's bank in milliseconds, in seat
	// order, as of the decision the event opens: ToAct's runs from the
	// event's At (after its delay) until Deadline (clock_bank.go).
	Banks []int64 `json:"banks_ms,omitempty"`
	// UsedMS, for an action at a timed table, is the time its decision
	// took as its clock counted it, in milliseconds.
	UsedMS *int64 `json:"used_ms,omitempty"`
	// WaitUntil, in the start event of a timed table with a seat nobody
	// holds yet, is when the start wait ends: the clocks start when every
	// human seat has its player, or then (clock_wait.go).
	WaitUntil *time.Time `json:"wait_until,omitempty"`
	Status    string     `json:"status,omitempty"` // "live" or "finished"

	Ranks  []int  `json:"ranks,omitempty"`  // end: each seat's rank, 1 the best, in seat order
	Result string `json:"result,omitempty"` // end: the record's Result tag
	End    string `json:"end,omitempty"`    // end: why it ended
	Seed   string `json:"seed,omitempty"`   // end: the revealed dice seed, hex

	Game string `json:"game,omitempty"` // hello: the game's id
	// Expected, in a hello, names the seats a timed game's clocks wait
	// for (State.Expected); WaitUntil then says until when.
	Expected []string `json:"expected,omitempty"`
	Last     int64    `json:"last,omitempty"`  // hello: the number of the game's last event
	Say      string   `json:"say,omitempty"`   // chat: the quick message's id (QuickMessages); empty for free text
	Text     string   `json:"text,omitempty"`  // chat: the text, a quick message's in English
	Error    *Error   `json:"error,omitempty"` // error: why the message was refused
	Echo     string   `json:"echo,omitempty"`  // error: the refused action, if any
}

// ReasonNoMove is the reason of a forced pass (an action by ByAuto): pass
// was the seat's only legal action, no piece being able to move with its
// roll (or at all, without dice).
const ReasonNoMove = "no-move"

// Capture is one piece an action took.
type Capture struct {
	Seat   string `json:"seat"`   // the piece's owner: "South", "West", "North", "East"
	Piece  string `json:"piece"`  // its letter in the preset's notation, such as "K"
	Square string `json:"square"` // where it stood, such as "e5"
	Points int    `json:"points"` // what it scored for the seat that decided the action
}

// Gain is one change of a seat's score and its cause.
type Gain struct {
	Seat   string `json:"seat"`   // whose score changed
	Points int    `json:"points"` // the change: negative only for stakes paid (chaturanga-fr2)
	// Cause is why: "capture" (the pieces' points), "throne" (+1, a king
	// entering an enemy throne), "throne-king" (+2, an enemy king taken on
	// its own throne), "stakes" (chaturanga-fr2), "raise" (the owner of the
	// last king raised to 54), "empire" (chaturaji-teams' bonus at the
	// end), "check" (chesscom-chaturaji: two or three kings attacked anew),
	// "kings" (chesscom-chaturaji: the last live army takes the standing
	// kings' points) or "clock" (chesscom-chaturaji: the quiet turns ran out,
	// each live army scoring); see rules.Cause.
	Cause string `json:"cause"`
}

// effect fills in what an action did, as the rules worked it out from the
// position before it.
func (e *Event) effect(pr *rules.Preset, fx rules.Effect) {
	captures := func(cs []rules.Capture) []Capture {
		var out []Capture
		for _, c := range cs {
			out = append(out, Capture{
				Seat: c.Piece.Seat().String(), Piece: string(pr.Pieces[c.Piece.Kind()].Letter),
				Square: c.Square.String(), Points: c.Points,
			})
		}
		return out
	}
	seats := func(ss []rules.Seat) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.String())
		}
		return out
	}
	e.Captures, e.Removed = captures(fx.Captures), captures(fx.Removed)
	for _, g := range fx.Scores {
		e.Gains = append(e.Gains, Gain{Seat: g.Seat.String(), Points: g.Points, Cause: g.Cause.String()})
	}
	e.Frozen, e.Revived, e.Out = seats(fx.Frozen), seats(fx.Revived), seats(fx.Out)
}

// endGains returns the gains of an action event that the end of the game
// brought: the raise, the empire, and chesscom-chaturaji's kings and
// clock.
func endGains(action *Event) []Gain {
	var out []Gain
	for _, g := range action.Gains {
		switch g.Cause {
		case rules.CauseRaise.String(), rules.CauseEmpire.String(), rules.CauseKings.String(), rules.CauseClock.String():
			out = append(out, g)
		}
	}
	return out
}

// SeatInfo is one seat as everyone sees it.
type SeatInfo struct {
	Seat   string `json:"seat"`           // "South", "West", "North", "East"
	Player string `json:"player"`         // "human" or "bot:SPEC"
	Name   string `json:"name,omitempty"` // the player's name, if given
	// Account is true for a seat a signed-in player holds: Name is then
	// its account's username (store.DeletedName once it is deleted),
	// where any other name is whatever its creator wrote.
	Account bool  `json:"account,omitempty"`
	Online  *bool `json:"online,omitempty"` // a human seat's holder is connected (live games, GET only)
	// Invited is true for a human seat that waits for its player to claim
	// it with its invite (live games, GET only).
	Invited bool `json:"invited,omitempty"`
}

// describe fills in the game after an event: the position, who is to act,
// with what, the scores and, once over, the ranking.
func describe(e *Event, g *rules.Game, deadline time.Time) {
	p := g.Position()
	pr := g.Preset()
	e.Position = p.String()
	e.Dice = p.Roll().String()
	e.Scores = scores(p)
	e.Status = "live"
	if p.Finished() {
		e.Status = "finished"
		return
	}
	for _, s := range pr.Seats() {
		if !p.InPlay(s) {
			e.OutOfPlay = append(e.OutOfPlay, s.String())
		}
	}
	if p.AwaitingRollOff() {
		return // nobody acts before martian's roll-off
	}
	e.ToAct = p.Decider().String()
	if !p.AwaitingRoll() {
		var buf [rules.MaxActions]rules.Action
		for _, a := range p.Actions(buf[:]) {
			e.Actions = append(e.Actions, a.Format(pr))
		}
	}
	if !deadline.IsZero() {
		d := deadline.UTC()
		e.Deadline = &d
	}
}

// finish fills in an end event.
func finish(e *Event, g *rules.Game) {
	p := g.Position()
	ranks := p.Ranks()
	for _, s := range g.Preset().Seats() {
		e.Ranks = append(e.Ranks, ranks[s])
	}
	e.Result = record.Result(p)
	e.End = p.EndReason().String()
	e.Seed = g.Seed().String()
}

func scores(p *rules.Position) []int {
	seats := p.Preset().Seats()
	s := make([]int, len(seats))
	for i, seat := range seats {
		s[i] = p.Score(seat)
	}
	return s
}

// seatIndex returns the place of seat s in the preset's seat order, -1 if
// it does not play.
func seatIndex(pr *rules.Preset, s rules.Seat) int {
	for i, t := range pr.Seats() {
		if t == s {
			return i
		}
	}
	return -1
}

// seatNamed returns the seat of the preset with the given name ("South").
func seatNamed(pr *rules.Preset, name string) (rules.Seat, bool) {
	for _, s := range pr.Seats() {
		if s.String() == name {
			return s, true
		}
	}
	return rules.NoSeat, false
}

// stamp returns the time of an event: now, in UTC, to the millisecond.
func stamp() time.Time {
	return time.Now().UTC().Truncate(time.Millisecond)
}
