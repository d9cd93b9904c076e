package store

import (
	"context"
	"time"
)

// Cluster is what a store shared by several server nodes does besides
// Store (PostgreSQL's does; SQLite's does not: it stays one server's).
// Each live game is leased to the one node that drives it. Once a store
// has joined as a node, its writes of a live game (AppendEvents,
// UpdateSeat, Finish, SetRecord) are fenced: they succeed only while the
// game is leased to this node, at the epoch it was created or adopted
// at, and the lease has not lapsed by the database's clock; otherwise
// nothing is written and the error is ErrFenced. A store that has not
// joined writes as a Store always did.
type Cluster interface {
	// Join makes the store act as node id, reached by the other nodes
	// at addr (a base URL), with leases of the given length. A game
	// created after Join is leased to the node. keyID names the cluster
	// key with which the node signs the requests it forwards (a hash of
	// it: the key itself stays in the nodes' key file, out of the
	// store); if another node alive holds another, Join refuses with
	// ErrClusterKey, naming both.
	Join(ctx context.Context, id, addr string, lease time.Duration, keyID string) error
	// Renew renews, in one statement, the leases of every game the node
	// holds, and notes that the node is alive. It returns the games it
	// held that are no longer its own (another node adopted them); the
	// node holds them no more.
	Renew(ctx context.Context) (lost []string, err error)
	// Adopt takes at most n live games whose lease lapsed or that have
	// no owner, moving each one's epoch on, and returns them.
	Adopt(ctx context.Context, n int) ([]Adopted, error)
	// Orphans counts the live games whose lease lapsed or that have no
	// owner, the live games in all, and the nodes alive (seen within a
	// lease).
	Orphans(ctx context.Context) (games, live, nodes int, err error)
	// Release gives up the leases of every game the node holds, so that
	// other nodes adopt them at once (they hear of it: Listen), and
	// marks the node gone.
	Release(ctx context.Context) error
	// Drop forgets a game the node no longer drives (it is over, or it
	// was lost); its later writes are fenced.
	Drop(id string)
	// Holds reports whether the node holds game id's lease, as far as
	// it knows.
	Holds(id string) bool
	// Owner returns the node that holds game id's lease and its address;
	// node is "" if no lease is in force. ErrNotFound if there is no
	// such game.
	Owner(ctx context.Context, id string) (node, addr string, err error)
	// Listen calls f with each note the nodes send (events appended,
	// leases released), in order, until ctx is done. It holds one
	// connection of its own and reconnects after a failure, with a
	// backoff; each time it has (re)connected it calls f with a Note of
	// kind NoteConnected, after which the caller reads again what it
	// might have missed.
	Listen(ctx context.Context, f func(Note)) error
	// Home returns the node that keeps finished game id's rematch offer,
	// and its address: the node that drove the game last, if it is alive
	// (seen within a lease), else the alive node first by id; node is ""
	// if no node is alive. ErrNotFound if there is no such game.
	Home(ctx context.Context, id string) (node, addr string, err error)
	// Rematched tells every node (Listen: NoteRematch) that game id's
	// rematch offer changed.
	Rematched(ctx context.Context, id string) error
}

// Adopted is a game a node adopted (Cluster.Adopt).
type Adopted struct {
	ID       string    // the game
	From     string    // the node that held it before, "" if none
	Released bool      // its owner released it (a shutdown) rather than let the lease lapse
	LastHeld time.Time // when its lease was last renewed (or the last heartbeat); zero if unknown
}

// NoteKind is what a Note says.
type NoteKind int

// The kinds of notes.
const (
	NoteConnected NoteKind = iota + 1 // Listen (re)connected: notes may have been missed
	NoteEvents                        // events were appended to game ID, up to Seq
	NoteReleased                      // a node released its games
	NoteRematch                       // the rematch offer of finished game ID changed
)

// Note is one notification between nodes.
type Note struct {
	Kind NoteKind // what it says
	ID   string   // NoteEvents, NoteRematch: the game
	Seq  int64    // NoteEvents: its last event
}

// ClusterOf returns st's Cluster, looking through wrappers such as Sealed,
// or nil if st cannot be shared among nodes.
func ClusterOf(st Store) Cluster {
	for {
		if c, ok := st.(Cluster); ok {
			return c
		}
		u, ok := st.(interface{ Unwrap() Store })
		if !ok {
			return nil
		}
		st = u.Unwrap()
	}
}
