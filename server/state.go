package server

import (
	"time"

	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// State is a game as GET /api/games/{id} shows it: the table, the position,
// who is to act with which legal actions, the dice, the scores, and once the
// game is over its ranking and seed.
type State struct {
	ID       string     `json:"id"`        // the game's id
	Rules    string     `json:"rules"`     // the preset's name
	Status   string     `json:"status"`    // "live" or "finished"
	Seats    []SeatInfo `json:"seats"`     // in seat order, South first
	SeedHash string     `json:"seed_hash"` // SHA-256 of the dice seed, hex
	Table    Table      `json:"table"`     // the game's settings
	Seq      int64      `json:"seq"`       // the number of the last event
	Created  time.Time  `json:"created"`   // when the game was created
	Updated  time.Time  `json:"updated"`   // when the game last changed

	Position string     `json:"position"`           // the position after the last event, or the start position
	ToAct    string     `json:"to_act,omitempty"`   // the seat that decides next; none once over or before martian's roll-off
	Dice     string     `json:"dice"`               // the dice left to use, "-" before the roll
	Scores   []int      `json:"scores"`             // in seat order, South first
	Actions  []string   `json:"actions"`            // the legal actions of ToAct; empty before the roll and once over
	Deadline *time.Time `json:"deadline,omitempty"` // when ToAct runs out of time; nil if untimed (a bot, before the roll, an untimed table, the start wait)
	// OutOfPlay names the seats with no part left in the game as its
	// position stands: a king fallen, an army dead or frozen, no piece
	// left (Event.OutOfPlay). None once the game is over.
	OutOfPlay []string `json:"out_of_play,omitempty"`
	// Banks, at a bank table, is each seat's bank in milliseconds as of
	// the open decision, in seat order; ToAct's runs down to Deadline.
	Banks []int64 `json:"banks_ms,omitempty"`
	// Expected, while a timed game's clocks wait for its players, names
	// the human seats nobody holds yet, and WaitUntil when bots take them
	// if still nobody does (clock_wait.go).
	Expected  []string   `json:"expected,omitempty"`
	WaitUntil *time.Time `json:"wait_until,omitempty"` // when the start wait ends

	Ranks  []int  `json:"ranks,omitempty"`  // once over: each seat's rank, 1 the best, in seat order
	Result string `json:"result,omitempty"` // once over: the record's Result tag
	End    string `json:"end,omitempty"`    // once over: why it ended
	Seed   string `json:"seed,omitempty"`   // once over: the revealed dice seed, hex
}

// Summary is one game of the list GET /api/games answers.
type Summary struct {
	ID       string     `json:"id"`               // the game's id
	Rules    string     `json:"rules"`            // the preset's name
	Status   string     `json:"status"`           // "live" or "finished"
	Seats    []SeatInfo `json:"seats"`            // in seat order, South first, without Online
	Seq      int64      `json:"seq"`              // the number of the last event
	ToAct    string     `json:"to_act,omitempty"` // the seat that decides next; only for a game the server is running
	Scores   []int      `json:"scores,omitempty"` // in seat order; only for a game the server is running
	Result   string     `json:"result,omitempty"` // once over: the record's Result tag
	Created  time.Time  `json:"created"`          // when the game was created
	Updated  time.Time  `json:"updated"`          // when the game last changed
	SeedHash string     `json:"seed_hash"`        // SHA-256 of the dice seed, hex
}

// seatInfos lists a game's seats as everyone may see them; online, if not
// nil, says which human seats are connected, and they say which wait for
// their invite to be claimed.
func seatInfos(pr *rules.Preset, seats []store.Seat, online []bool) []SeatInfo {
	out := make([]SeatInfo, len(seats))
	for i, s := range seats {
		out[i] = SeatInfo{Seat: pr.Seats()[i].String(), Player: s.Player, Name: s.Name, Account: s.Account != ""}
		if online != nil && s.Player == Human {
			on := online[i]
			out[i].Online = &on
			out[i].Invited = s.InviteHash != nil
		}
	}
	return out
}

// newState builds a game's state from its table, seats and last event.
func newState(pr *rules.Preset, info *store.Game, table Table, seq int64, last *Event, online []bool, updated time.Time) *State {
	st := &State{
		ID:       info.ID,
		Rules:    info.Rules,
		Status:   string(store.Live),
		Seats:    seatInfos(pr, info.Seats, online),
		SeedHash: info.SeedHash,
		Table:    table,
		Seq:      seq,
		Created:  info.Created,
		Updated:  updated,
		Actions:  []string{},
	}
	if last == nil {
		st.Position = info.Start
		return st
	}
	st.Position, st.ToAct, st.Dice, st.Scores = last.Position, last.ToAct, last.Dice, last.Scores
	if last.Actions != nil {
		st.Actions = last.Actions
	}
	st.Deadline, st.Banks, st.OutOfPlay = last.Deadline, last.Banks, last.OutOfPlay
	if last.Kind == KindEnd {
		st.Status = string(store.Finished)
		st.Ranks, st.Result, st.End, st.Seed = last.Ranks, last.Result, last.End, last.Seed
	}
	return st
}

func (st *State) summary() Summary {
	s := Summary{
		ID: st.ID, Rules: st.Rules, Status: st.Status, Seats: st.Seats, Seq: st.Seq,
		ToAct: st.ToAct, Scores: st.Scores, Result: st.Result,
		Created: st.Created, Updated: st.Updated, SeedHash: st.SeedHash,
	}
	s.Seats = append([]SeatInfo(nil), st.Seats...)
	for i := range s.Seats {
		s.Seats[i].Online, s.Seats[i].Invited = nil, false
	}
	return s
}
