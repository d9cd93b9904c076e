// Package check validates and normalizes what a Store is given, so that
// every backend accepts, refuses and rounds the same things the same way.
// Its errors are the backends' to prefix with their package's name.
package check

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// DefaultLimit is how many games Games lists when the filter gives no limit.
const DefaultLimit = 50

// Time returns t as the stores keep it: in UTC, truncated to the
// microsecond (PostgreSQL's precision; SQLite keeps integer microseconds).
func Time(t time.Time) time.Time {
	return t.UTC().Truncate(time.Microsecond)
}

// Game checks a new game and sets what CreateGame fills in: a zero Status
// becomes Live, a zero Created now, a zero Updated Created; both times as
// Time keeps them.
func Game(g *store.Game, now time.Time) error {
	if g == nil {
		return errors.New("no game given")
	}
	if g.ID == "" {
		return errors.New("the game has no id")
	}
	if g.LastEvent != 0 {
		return fmt.Errorf("new game %q has LastEvent %d; a new game has no events", g.ID, g.LastEvent)
	}
	if g.Status == "" {
		g.Status = store.Live
	}
	if err := Status(g.Status); err != nil {
		return err
	}
	if g.Created.IsZero() {
		g.Created = now
	}
	if g.Updated.IsZero() {
		g.Updated = g.Created
	}
	g.Created, g.Updated = Time(g.Created), Time(g.Updated)
	return nil
}

// Status checks that s is a status of a game.
func Status(s store.Status) error {
	switch s {
	case store.Live, store.Finished:
		return nil
	}
	return fmt.Errorf("unknown status %q", s)
}

// Events checks that events number on from after (after+1, after+2, ...)
// and returns a copy with zero At times set to now and every time as Time
// keeps it. Misnumbered events are ErrConflict, as AppendEvents promises.
func Events(after int64, events []store.Event, now time.Time) ([]store.Event, error) {
	if after < 0 {
		return nil, fmt.Errorf("append after event %d: %w", after, store.ErrConflict)
	}
	out := make([]store.Event, len(events))
	for i, e := range events {
		if want := after + int64(i) + 1; e.Seq != want {
			return nil, fmt.Errorf("event %d of the batch is numbered %d, want %d: %w", i+1, e.Seq, want, store.ErrConflict)
		}
		if e.At.IsZero() {
			e.At = now
		}
		e.At = Time(e.At)
		out[i] = e
	}
	return out, nil
}

// Limit returns how many games a filter lists.
func Limit(f store.Filter) int {
	if f.Limit <= 0 {
		return DefaultLimit
	}
	return f.Limit
}

// MaxSeekers is how many seekers one seek holds at most: one, or two
// partners.
const MaxSeekers = 2

// Seek checks a new seek and sets what AddSeek fills in: a zero Created
// becomes now, Updated becomes Created, both as Time keeps them; Table
// becomes "". BotWait is kept to the millisecond.
func Seek(s *store.Seek, now time.Time) error {
	if s == nil {
		return errors.New("no seek given")
	}
	if s.ID == "" {
		return errors.New("the seek has no id")
	}
	if s.Pool == "" {
		return fmt.Errorf("seek %q has no pool", s.ID)
	}
	if n := len(s.Seekers); n == 0 || n > MaxSeekers {
		return fmt.Errorf("seek %q has %d seekers, want 1 to %d", s.ID, n, MaxSeekers)
	}
	for i, p := range s.Seekers {
		if p.Player == "" {
			return fmt.Errorf("seeker %d of seek %q has no player id", i, s.ID)
		}
		for _, v := range []float64{p.Rating, p.Mu, p.Sigma} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("seeker %q of seek %q has a rating of %v, not a number", p.Player, s.ID, v)
			}
		}
		for _, q := range s.Seekers[:i] {
			if q.Player == p.Player {
				return fmt.Errorf("seek %q holds player %q twice", s.ID, p.Player)
			}
		}
	}
	if s.BotWait < 0 {
		return fmt.Errorf("seek %q has a negative bot wait %v", s.ID, s.BotWait)
	}
	s.BotWait = s.BotWait.Truncate(time.Millisecond)
	if s.Created.IsZero() {
		s.Created = now
	}
	s.Created = Time(s.Created)
	s.Updated = s.Created
	s.Table = ""
	return nil
}

// Seeks returns how many seeks Lobby.Seeks lists given limit.
func Seeks(limit int) int {
	if limit <= 0 {
		return store.DefaultSeeks
	}
	return limit
}

// Account checks a new account and returns its creation time as the
// stores keep it (now if it gives none).
func Account(a *store.Account, now time.Time) (time.Time, error) {
	if a == nil {
		return time.Time{}, errors.New("no account given")
	}
	if a.ID == "" || a.Name == "" || a.Folded == "" {
		return time.Time{}, errors.New("an account needs an id, a name and a folded name")
	}
	return created(a.Created, now), nil
}

// Passkey checks a new passkey and returns its creation time as the
// stores keep it (now if it gives none).
func Passkey(p *store.Passkey, now time.Time) (time.Time, error) {
	if p == nil || len(p.ID) == 0 || len(p.PublicKey) == 0 {
		return time.Time{}, errors.New("a passkey needs an id and a public key")
	}
	return created(p.Created, now), nil
}

// created is t as the stores keep it, or now if t is zero.
func created(t, now time.Time) time.Time {
	if t.IsZero() {
		t = now
	}
	return Time(t)
}

// OpenTable checks a new open table: an id, rules, seats, and its opener
// in one of them; its turn is kept to the millisecond.
func OpenTable(t *store.OpenTable) error {
	if t == nil {
		return errors.New("no table given")
	}
	if t.ID == "" || t.Rules == "" || t.Opener == "" {
		return fmt.Errorf("table %q: want an id, rules and an opener", t.ID)
	}
	if len(t.Seats) == 0 {
		return fmt.Errorf("table %q has no seats", t.ID)
	}
	if t.Turn < 0 {
		return fmt.Errorf("table %q has a negative turn %v", t.ID, t.Turn)
	}
	t.Turn = t.Turn.Truncate(time.Millisecond)
	sits := false
	for i, st := range t.Seats {
		for _, v := range []float64{st.Rating, st.Mu, st.Sigma} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("seat %d of table %q has a rating of %v, not a number", i, t.ID, v)
			}
		}
		if st.Player != "" && st.Player != t.Opener {
			return fmt.Errorf("seat %d of table %q is held by %q, not its opener", i, t.ID, st.Player)
		}
		sits = sits || st.Player == t.Opener
	}
	if !sits {
		return fmt.Errorf("table %q: its opener %q holds none of its seats", t.ID, t.Opener)
	}
	return nil
}

// Invite checks a new pair invitation and sets what OpenInvite fills
// in: Created and Updated become now, as Time keeps it; Seek becomes "".
// BotWait is kept to the millisecond.
func Invite(inv *store.PairInvite, now time.Time) error {
	if inv == nil {
		return errors.New("no invitation given")
	}
	if len(inv.Hash) == 0 || inv.Pool == "" || inv.Inviter.Player == "" || inv.Node == "" {
		return errors.New("an invitation needs a hash, a pool, an inviter and a node")
	}
	p := inv.Inviter
	for _, v := range []float64{p.Rating, p.Mu, p.Sigma} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("the inviter %q has a rating of %v, not a number", p.Player, v)
		}
	}
	if inv.BotWait < 0 {
		return fmt.Errorf("the invitation has a negative bot wait %v", inv.BotWait)
	}
	inv.BotWait = inv.BotWait.Truncate(time.Millisecond)
	inv.Created = Time(now)
	inv.Updated = inv.Created
	inv.Seek = ""
	return nil
}

// News checks a piece of news to add.
func News(n *store.News) error {
	if n == nil {
		return errors.New("no news given")
	}
	if n.ID == "" || n.Player == "" || len(n.Data) == 0 {
		return errors.New("news needs an id, a player and data")
	}
	return nil
}
