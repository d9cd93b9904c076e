package store

import (
	"context"
	"time"
)

// Lobby keeps the lobby's seeks (package lobby): who asks to be seated in
// which pool, until a pairing claims them into a table. It lives in the
// database so that the nodes of a cluster pair the same seekers, and a
// seek is claimed into at most one table however many nodes pair at once.
// SQLite's and PostgreSQL's stores implement it (LobbyOf).
//
// A seek holds one seeker, or two partners who come as a pair. A player
// is in at most one seek at a time: AddSeek replaces the player's open
// seek, with its partner's place in it, and is refused while the player's
// seek is claimed into a table and not yet forgotten (Forget) or expired.
type Lobby interface {
	// AddSeek stores a new open seek, withdrawing first any open seek
	// of its seekers (the whole seek, a partner's too). ErrConflict if
	// one of them is in a claimed seek, or the seek's ID is taken;
	// nothing is then changed. A zero Created is stored as now, and
	// Updated as Created; on success s's Created and Updated are set to
	// what was stored, and its Table to "".
	AddSeek(ctx context.Context, s *Seek) error
	// Withdraw removes the open seek that holds player, with its
	// partner's place in it. ErrNotFound if the player has none;
	// ErrConflict, naming the table, if it is claimed.
	Withdraw(ctx context.Context, player string) error
	// SeekOf returns the seek that holds player, open or claimed;
	// ErrNotFound if there is none.
	SeekOf(ctx context.Context, player string) (*Seek, error)
	// Seeks returns the open seeks of a pool, oldest first (by Created,
	// then ID), at most limit of them (DefaultSeeks if 0).
	Seeks(ctx context.Context, pool string, limit int) ([]*Seek, error)
	// Claim marks the seeks named as claimed into table, all or
	// nothing, in one transaction: if any of them is gone, claimed
	// already or of another pool, nothing changes and the error is
	// ErrConflict naming it. Of several claims of one seek, however
	// many stores make them at once, exactly one succeeds.
	Claim(ctx context.Context, table, pool string, seeks []string) error
	// Table returns the seeks claimed into table, in the order Seeks
	// would give; none if there is no such table.
	Table(ctx context.Context, table string) ([]*Seek, error)
	// Forget removes the seeks claimed into table, once the caller has
	// made its game and told its players: they may seek again.
	Forget(ctx context.Context, table string) error
	// Claimed returns node's seeks that are claimed into a table, by
	// table then as Seeks orders them: the seeks whose seekers the node
	// is to tell of their game, wherever the claim was made.
	Claimed(ctx context.Context, node string) ([]*Seek, error)
	// ForgetSeek removes one claimed seek, once its node has told its
	// seekers of their game: they may seek again. ErrNotFound if there is
	// no such seek; ErrConflict if it is open (Withdraw removes those).
	ForgetSeek(ctx context.Context, id string) error
	// Refresh sets Updated to at for node's open seeks updated before
	// at (their seekers are still there), and returns how many it
	// refreshed. A seek that another store is claiming at that moment
	// may be skipped.
	Refresh(ctx context.Context, node string, at time.Time) (int, error)
	// Expire removes the seeks, open or claimed, last updated before
	// before (their node stopped refreshing them, or their table was
	// never forgotten), and returns how many.
	Expire(ctx context.Context, before time.Time) (int, error)
}

// DefaultSeeks is how many seeks Lobby.Seeks returns when no limit is
// given.
const DefaultSeeks = 1000

// Seek is one request to be seated in a pool, as the store keeps it.
type Seek struct {
	ID      string   // chosen by the caller; AddSeek refuses one taken
	Pool    string   // the pool's key (package lobby's Pool.String)
	Seekers []Seeker // one, or two partners, in the order given
	// Bots: once BotWait has passed, bots may fill the seats no person
	// takes; otherwise the seek waits for people only.
	Bots    bool
	BotWait time.Duration // kept to the millisecond
	Node    string        // the node that serves the seekers and refreshes the seek
	Created time.Time     // when the seek was made: its wait counts from it
	Updated time.Time     // its last refresh, or its claim
	Table   string        // the table it was claimed into; "" while open
}

// Seeker is one player of a seek.
type Seeker struct {
	Player string  // an opaque player id (an account's or a guest's); one seek at a time
	Name   string  // shown to others
	Guest  bool    // not signed in
	Rating float64 // one number for closeness, such as the displayed rating
	Mu     float64 // the rating's mean, if known
	Sigma  float64 // its uncertainty, if known
	// TokenHash is the SHA-256 of the seat token the seeker's node holds
	// for it: the seat the seeker takes in the table's game is held by
	// it, whichever node makes the game. Nil if none.
	TokenHash []byte
}

// LobbyOf returns st's Lobby, looking through wrappers such as Sealed, or
// nil if st keeps no lobby.
func LobbyOf(st Store) Lobby {
	for {
		if l, ok := st.(Lobby); ok {
			return l
		}
		u, ok := st.(interface{ Unwrap() Store })
		if !ok {
			return nil
		}
		st = u.Unwrap()
	}
}
