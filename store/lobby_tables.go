package store

import (
	"context"
	"errors"
	"time"
)

// ErrTooMany is OpenTables.OpenTable's refusal of a table past the limit
// of open tables given.
var ErrTooMany = errors.New("store: too many open tables")

// OpenTables keeps the lobby's open tables: a player opens a table of a
// ruleset and time control with some seats open to people, others take
// them, and the opener starts it, bots in the seats still empty. Rows in
// the database, so that every node lists the same tables and a seat is
// taken once. SQLite's and PostgreSQL's stores implement it
// (OpenTablesOf).
//
// A player holds at most one seat of the open tables at a time. A table
// lives while its node refreshes it (RefreshTables), a seat while its
// holder's node does; ExpireTables removes the stale ones.
type OpenTables interface {
	// OpenTable stores a new open table, its opener in its seat.
	// ErrConflict if the opener sits at a table already or the id is
	// taken; ErrTooMany if max tables (if max > 0) are open already;
	// nothing is then changed. Created and Updated are set to now.
	OpenTable(ctx context.Context, t *OpenTable, max int) error
	// JoinTable seats p, served by node, in seat of an open table.
	// ErrNotFound if there is no such table; ErrConflict, saying why, if
	// it is started, the seat is not open or taken, or p sits at a table
	// already.
	JoinTable(ctx context.Context, table string, seat int, p Seeker, node string) error
	// LeaveTable takes player from the seat it holds at a table not
	// started; the table's opener leaving closes the table. ErrNotFound
	// if the player sits at none; ErrConflict if its table is started.
	LeaveTable(ctx context.Context, player string) error
	// StartTable marks a table started, as its seats stand, and returns
	// it: no one joins or leaves it after. ErrNotFound if there is no
	// such table; ErrConflict if it is started already.
	StartTable(ctx context.Context, table string) (*OpenTable, error)
	// FindTable returns one table, open or started; ErrNotFound if
	// none.
	FindTable(ctx context.Context, table string) (*OpenTable, error)
	// ListTables returns the tables not started, oldest first, at most
	// limit (DefaultSeeks if 0).
	ListTables(ctx context.Context, limit int) ([]*OpenTable, error)
	// Started returns the started tables with a seat held through node,
	// oldest start first: the tables whose players node is to tell of
	// their game.
	Started(ctx context.Context, node string) ([]*OpenTable, error)
	// ForgetTableSeat removes player's seat of a started table, once its
	// node has told it of the game; the table goes with its last seat
	// held. ErrNotFound if the player holds none.
	ForgetTableSeat(ctx context.Context, player string) error
	// RefreshTables sets Updated to at for the open tables node opened
	// and the seats of open tables it serves, and returns how many.
	RefreshTables(ctx context.Context, node string, at time.Time) (int, error)
	// ExpireTables removes the tables, open or started, last updated
	// before before, and the seats of open tables last updated before
	// it, and returns how many of each.
	ExpireTables(ctx context.Context, before time.Time) (int, error)
}

// OpenTable is an open table of the lobby, as the store keeps it.
type OpenTable struct {
	ID        string        // chosen by the caller; the id of its game once started
	Rules     string        // the ruleset, canonical
	Turn      time.Duration // time per decision, kept to the millisecond
	Rated     bool          // rated (signed-in players only) or casual
	MinRating float64       // the lowest rating that may take a seat; 0 for none
	MaxRating float64       // the highest; 0 for none
	Opener    string        // the player who opened it
	Node      string        // the node that serves the opener and refreshes the table
	Seats     []TableSeat   // one per seat of the rules, in seat order
	Created   time.Time     // when it was opened
	Updated   time.Time     // its last refresh, or its start
	Started   time.Time     // when it was started; zero while open
}

// TableSeat is one seat of an open table.
type TableSeat struct {
	// Open: a person may take the seat; a closed one is a bot's.
	Open   bool
	Seeker        // who holds it; Player "" while it is empty
	Node   string // the node that serves its holder
}

// OpenTablesOf returns st's OpenTables, looking through wrappers such as
// Sealed, or nil if st keeps none.
func OpenTablesOf(st Store) OpenTables {
	for {
		if l, ok := st.(OpenTables); ok {
			return l
		}
		u, ok := st.(interface{ Unwrap() Store })
		if !ok {
			return nil
		}
		st = u.Unwrap()
	}
}
