// Package store keeps games for the server: their tables, seats and every
// accepted event, in SQLite (embedded, the default) or PostgreSQL. Both
// implement Store and pass the same test suite (package storetest).
//
// Events are append-only and numbered from 1 per game. AppendEvents commits
// before it returns, so an event the server has acknowledged survives a
// crash; the expected sequence number makes concurrent writers conflict
// instead of overwriting each other.
//
// Besides games and events, a store keeps the server's heartbeat (when the
// server holding the live games was last alive: LastHeld), and the record
// text of each finished game, built once when it finished (Records).
//
// Seeds at rest are sealed (seal.go): Sealed wraps a Store so that it keeps
// each game's dice seed encrypted with AES-256-GCM under a key held outside
// the database, and SealSeeds seals the plain seeds of a database from
// before. A copy of the database without the key reveals no live game's
// dice.
package store

import (
	"context"
	"errors"
	"time"
)

// Errors of every Store.
var (
	ErrNotFound = errors.New("store: not found")
	ErrConflict = errors.New("store: conflict") // an event number already taken, an id already used
	// ErrFenced is a write to a game refused because the node is no
	// longer the one that drives it (Cluster): its lease lapsed, or
	// another node adopted the game. Nothing was written.
	ErrFenced = errors.New("store: fenced: the game is not leased to this node")
	// ErrClusterKey is a node refused by Cluster.Join because another
	// node alive holds another cluster key: the two could not trust each
	// other's forwarded requests.
	ErrClusterKey = errors.New("store: another node of the cluster holds another cluster key")
)

// Status is where a game stands.
type Status string

// The statuses of a game.
const (
	Live     Status = "live"
	Finished Status = "finished"
)

// Seat is one seat of a table as the store keeps it.
type Seat struct {
	Player    string // "human", or a bot spec such as "bot:strong", "bot:3"
	Name      string // shown to others
	TokenHash []byte // SHA-256 of the seat's secret token; nil for bots, and for a human seat nobody has claimed yet
	// InviteHash is the SHA-256 of the one-time invite of a human seat
	// whose holder is yet to come; nil once it is claimed (TokenHash then
	// set), and for the seats whose tokens went to the game's creator.
	InviteHash []byte
	// Account is the id of the account that holds the seat, whose
	// sessions act for it from any device; "" for a guest's seat, a
	// bot's, and a seat nobody holds yet.
	Account string
}

// Game is a table and its game, without its events.
type Game struct {
	ID        string    // chosen by the caller; CreateGame refuses one already taken
	Rules     string    // preset name with house-rule options, as in the record's Rules tag
	Seed      []byte    // 32 bytes; revealed only when the game is over; sealed at rest by Sealed
	SeedHash  string    // hex SHA-256 of Seed, published at the start
	Start     string    // start position string
	Seats     []Seat    // one per seat of the preset, in seat order (South first)
	Settings  []byte    // table settings (time control, abandonment policy, ...) as JSON, owned by the server
	Status    Status    // Live, or Finished once Finish is called
	Result    string    // the record's Result tag once finished
	Created   time.Time // time the game was created
	Updated   time.Time // time of the last event or change
	LastEvent int64     // number of the last event, 0 if none
	// Rated: the game counts for its players' ratings, and is to be rated
	// once finished (Ratings.RateGame). Set at creation.
	Rated bool
}

// Event is one numbered event of a game: a roll, an action, a seat change,
// the end. Kind and Data are the server's; the store keeps them as given.
type Event struct {
	Seq  int64     // the event's number in its game, from 1, no gaps
	Kind string    // such as "roll" or "action"
	Data []byte    // JSON
	At   time.Time // time of the event
}

// Filter selects games to list.
type Filter struct {
	Status Status // "" for any
	Limit  int    // 0 for a default of 50
}

// Store keeps games and their events. Every method is safe for concurrent
// use.
type Store interface {
	// CreateGame stores a new game; ErrConflict if the id is taken.
	CreateGame(ctx context.Context, g *Game) error
	// Game returns the game with the given id, or ErrNotFound.
	Game(ctx context.Context, id string) (*Game, error)
	// Games lists games, most recently updated first.
	Games(ctx context.Context, f Filter) ([]*Game, error)
	// AppendEvents appends events to a game in one transaction. The first
	// event's Seq must be after+1 where after is the game's LastEvent, and
	// the rest must follow on; otherwise nothing is written and the error
	// is ErrConflict. It also sets the game's Updated time and LastEvent.
	AppendEvents(ctx context.Context, id string, after int64, events []Event) error
	// Events returns the game's events with Seq > after, in order.
	Events(ctx context.Context, id string, after int64) ([]Event, error)
	// UpdateSeat replaces one seat of a game (a bot taking over an
	// abandoned seat, a name change).
	UpdateSeat(ctx context.Context, id string, seat int, s Seat) error
	// Finish marks the game finished with its result and reveals the seed
	// (already stored; Finish only changes the status and result).
	Finish(ctx context.Context, id string, result string) error
	// ReplaceSeed replaces a game's stored seed with seed if it is old, as
	// SealSeeds does to seal a plain one; ErrConflict if it is not old
	// (another writer replaced it first), ErrNotFound if there is no such
	// game. Updated does not move: the game did not change.
	ReplaceSeed(ctx context.Context, id string, old, seed []byte) error
	// Heartbeat records that the server holding the store's live games is
	// alive at the given time. A later call with an earlier time leaves the
	// later one kept.
	Heartbeat(ctx context.Context, at time.Time) error
	// LastHeld returns when a server last held game id, as far as the
	// store knows: for a single server, its last Heartbeat (zero if there
	// was none); ErrNotFound if there is no such game. The time between it
	// and a restart is time no server ran the game, which the server does
	// not charge to a player's clock. (With several servers sharing a
	// database, it is to be the last renewal of the game's lease.)
	LastHeld(ctx context.Context, id string) (time.Time, error)
	// SetRecord keeps the record text of a finished game, built once when
	// it finished, in place of any kept before; ErrNotFound if there is no
	// such game, ErrConflict if it is not finished.
	SetRecord(ctx context.Context, id string, text []byte) error
	// Records returns the record texts kept for the games named, by id; a
	// game with none kept, or no such game, is left out.
	Records(ctx context.Context, ids []string) (map[string][]byte, error)
	// Close releases the store's resources.
	Close() error
}
