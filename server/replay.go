package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// replayed is a game rebuilt from the store: its table and seats as its
// events left them, its rules.Game, and its last event.
type replayed struct {
	info    *store.Game // the seats as the events left them
	table   Table
	creator string // creatorKey of the client that created the game
	hosts   []int  // the seats whose tokens the creator took
	game    *rules.Game
	seq     int64
	last    *Event // nil before the first event

	takeovers []takeover // the seats bots took, in order
	moved     []bool     // each seat has played an action of its holder's
	times     []int64    // the time each action's decision used, in ms; -1 where none was counted
	waitUntil time.Time  // when the start wait ends; zero if none
}

// replay rebuilds a game from its stored table and events: the dice are
// drawn again from the seed and must be the ones recorded, and every action
// must be legal, so a store that was tampered with is noticed.
func replay(info *store.Game, events []store.Event) (*replayed, error) {
	pr, err := rules.Lookup(info.Rules)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", info.ID, err)
	}
	if store.IsSealed(info.Seed) {
		return nil, fmt.Errorf("game %s: its seed is sealed with key %s, and %w: open it with store.Sealed (chaturaji: --key-file)", info.ID, store.SealedKeyID(info.Seed), errNoSeedKey)
	}
	if len(info.Seed) != len(rules.Seed{}) {
		return nil, fmt.Errorf("game %s: seed of %d bytes", info.ID, len(info.Seed))
	}
	var seed rules.Seed
	copy(seed[:], info.Seed)
	start, err := rules.ParsePosition(pr, info.Start)
	if err != nil {
		return nil, fmt.Errorf("game %s: start: %w", info.ID, err)
	}
	r := &replayed{info: cloneGame(info), game: rules.NewGameFrom(start, seed), moved: make([]bool, len(info.Seats))}
	set := settings{Table: Table{Help: true}} // games from before Help had it
	if err := json.Unmarshal(info.Settings, &set); err != nil {
		return nil, fmt.Errorf("game %s: settings: %w", info.ID, err)
	}
	r.table, r.creator, r.hosts = set.Table, set.Creator, set.Hosts
	for _, se := range events {
		if err := r.apply(se); err != nil {
			return nil, fmt.Errorf("game %s: event %d (%s): %w", info.ID, se.Seq, se.Kind, err)
		}
	}
	return r, nil
}

// apply plays one stored event on the game.
func (r *replayed) apply(se store.Event) error {
	if se.Seq != r.seq+1 {
		return fmt.Errorf("follows event %d", r.seq)
	}
	e := new(Event)
	if err := json.Unmarshal(se.Data, e); err != nil {
		return err
	}
	pr := r.game.Preset()
	switch e.Kind {
	case KindRoll:
		roll, err := r.game.Roll()
		if err != nil {
			return err
		}
		if roll.String() != e.Roll {
			return fmt.Errorf("recorded roll %s, the seed gives %s", e.Roll, roll)
		}
	case KindAction:
		if err := r.game.PlayString(e.Action); err != nil {
			return err
		}
		if s, ok := seatNamed(pr, e.Seat); ok && e.By == ByPlayer && seatIndex(pr, s) < len(r.moved) {
			r.moved[seatIndex(pr, s)] = true
		}
		r.times = append(r.times, usedOf(e))
	case KindSeat:
		s, ok := seatNamed(pr, e.Seat)
		if !ok {
			return fmt.Errorf("no seat %q", e.Seat)
		}
		i := seatIndex(pr, s)
		r.takeovers = append(r.takeovers, newTakeover(r.game, s, r.info.Seats[i].Player, e.Player, e.Reason))
		r.info.Seats[i].Player = e.Player
	case KindStart:
		// The seats as the game began; the stored table shows them as they
		// are now, after any takeover, which the seat events replay.
		if len(e.Seats) != len(r.info.Seats) {
			return fmt.Errorf("%d seats, the table has %d", len(e.Seats), len(r.info.Seats))
		}
		for i, si := range e.Seats {
			r.info.Seats[i].Player = si.Player
		}
		if e.WaitUntil != nil {
			r.waitUntil = *e.WaitUntil
		}
	case KindEnd, KindClock:
	default:
		return fmt.Errorf("unknown kind")
	}
	if e.Position != "" && e.Position != r.game.Position().String() {
		return fmt.Errorf("recorded position %s, replayed %s", e.Position, r.game.Position())
	}
	r.seq = se.Seq
	r.last = e
	return nil
}

// bankList returns each seat's bank as of the last event, for a bank
// table: the last event's, or the table's bank before the first.
func (r *replayed) bankList() []int64 {
	if r.table.BankMS == 0 {
		return nil
	}
	if r.last != nil && len(r.last.Banks) == len(r.info.Seats) {
		return slices.Clone(r.last.Banks)
	}
	return startBanks(r.table, len(r.info.Seats))
}

// usedOf returns the time an action event's decision used, in ms, -1 if
// none was counted.
func usedOf(e *Event) int64 {
	if e.UsedMS == nil {
		return -1
	}
	return *e.UsedMS
}

// deadline returns the decision deadline the last event set, zero if none.
func (r *replayed) deadline() time.Time {
	if r.last == nil || r.last.Deadline == nil {
		return time.Time{}
	}
	return *r.last.Deadline
}

// cloneGame copies a stored game deep enough that its seats can change.
func cloneGame(g *store.Game) *store.Game {
	c := *g
	c.Seats = append([]store.Seat(nil), g.Seats...)
	return &c
}
