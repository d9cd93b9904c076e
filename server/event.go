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
	Reason string `json:"reason,omitempty"` // seat: why ("abandoned", "timeout")

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
	Status   string     `json:"status,omitempty"`   // "live" or "finished"

	Ranks  []int  `json:"ranks,omitempty"`  // end: each seat's rank, 1 the best, in seat order
	Result string `json:"result,omitempty"` // end: the record's Result tag
	End    string `json:"end,omitempty"`    // end: why it ended
	Seed   string `json:"seed,omitempty"`   // end: the revealed dice seed, hex

	Game  string `json:"game,omitempty"`  // hello: the game's id
	Last  int64  `json:"last,omitempty"`  // hello: the number of the game's last event
	Error *Error `json:"error,omitempty"` // error: why the message was refused
	Echo  string `json:"echo,omitempty"`  // error: the refused action, if any
}

// SeatInfo is one seat as everyone sees it.
type SeatInfo struct {
	Seat   string `json:"seat"`             // "South", "West", "North", "East"
	Player string `json:"player"`           // "human" or "bot:SPEC"
	Name   string `json:"name,omitempty"`   // the player's name, if given
	Online *bool  `json:"online,omitempty"` // a human seat's holder is connected (live games, GET only)
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
