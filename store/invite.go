package store

import (
	"context"
	"time"
)

// PairInvites keeps the lobby's pair invitations: in a team pool a player
// invites a partner to seek with it, and is given a code; the partner,
// whose lobby WebSocket may reach another node of the cluster, takes the
// invitation by the code, and the pair's seek is stored for both. Rows in
// the database, so that any node finds an invitation and exactly one
// partner takes it. SQLite's and PostgreSQL's stores implement it
// (PairInvitesOf).
//
// The store keeps only the code's SHA-256 (Hash), as it keeps a seat's
// invite. An invitation lives while its node refreshes it
// (RefreshInvites); ExpireInvites removes the stale ones, taken or not.
type PairInvites interface {
	// OpenInvite stores a new open invitation. ErrConflict if its hash
	// is taken; ErrTooMany if its inviter has max (if max > 0) open
	// invitations already; nothing is then changed. Created and Updated
	// are set to now, and Seek to "".
	OpenInvite(ctx context.Context, inv *PairInvite, max int) error
	// TakeInvite takes the open invitation of hash for the pair's seek,
	// and returns it, its Seek set. Of several takers, however many
	// stores take it at once, exactly one succeeds: ErrConflict for the
	// others (it is taken already); ErrNotFound if there is no such
	// invitation (never made, dropped or expired).
	TakeInvite(ctx context.Context, hash []byte, seek string) (*PairInvite, error)
	// ReleaseInvite opens again the invitation that seek took, whose
	// seek could not be stored. ErrNotFound if seek holds no invitation
	// of hash.
	ReleaseInvite(ctx context.Context, hash []byte, seek string) error
	// DropInvite removes an invitation, open or taken (its inviter
	// withdrew or left, or its node was told it was taken). ErrNotFound
	// if there is none.
	DropInvite(ctx context.Context, hash []byte) error
	// RefreshInvites sets Updated to at for node's open invitations
	// updated before at, and returns how many.
	RefreshInvites(ctx context.Context, node string, at time.Time) (int, error)
	// ExpireInvites removes the invitations, open or taken, last updated
	// before before, and returns how many.
	ExpireInvites(ctx context.Context, before time.Time) (int, error)
}

// PairInvite is a pair invitation, as the store keeps it.
type PairInvite struct {
	Hash    []byte        // the SHA-256 of its code; unique
	Pool    string        // the pool's key, of team rules
	Bots    bool          // as the pair's seek: bots after BotWait
	BotWait time.Duration // kept to the millisecond
	// Inviter is the inviting player as it seeks, with the hash of the
	// seat token its node holds for it.
	Inviter Seeker
	Node    string    // the node that serves the inviter and refreshes the invitation
	Created time.Time // when it was made
	Updated time.Time // its last refresh, or its taking
	Seek    string    // the pair's seek, once taken; "" while open
}

// PairInvitesOf returns st's PairInvites, looking through wrappers such
// as Sealed, or nil if st keeps none.
func PairInvitesOf(st Store) PairInvites {
	for {
		if l, ok := st.(PairInvites); ok {
			return l
		}
		u, ok := st.(interface{ Unwrap() Store })
		if !ok {
			return nil
		}
		st = u.Unwrap()
	}
}
