package store

import (
	"context"
	"time"
)

// LobbyNews keeps what the lobby has to tell a player on whichever node
// its sockets are: that its seek was seated, and where, for the other
// devices of an account; and, for partners whose sockets reach two
// nodes, what became of the pair's seek. The node that learns it adds
// the news; every node reads what is new (News) and tells the players
// whose sockets it holds. Rows in the database, read by time, never by
// one node alone: ExpireNews removes the old ones. SQLite's and
// PostgreSQL's stores implement it (LobbyNewsOf).
type LobbyNews interface {
	// AddNews stores a piece of news, its At set to the store's now.
	// ErrConflict if its ID is taken; nothing is then changed.
	AddNews(ctx context.Context, n *News) error
	// News returns the news of At at or after since, oldest first (by
	// At, then ID), at most limit of them (DefaultSeeks if 0). A piece
	// added while News reads may come with an At a little before the
	// latest read: a reader reads again from a while before.
	News(ctx context.Context, since time.Time, limit int) ([]*News, error)
	// ExpireNews removes the news of At before before, and returns how
	// many.
	ExpireNews(ctx context.Context, before time.Time) (int, error)
}

// News is a piece of the lobby's news, as the store keeps it.
type News struct {
	ID     string    // chosen by the caller; unique
	Player string    // whom it is for: an opaque player id, as a seek's
	Data   []byte    // what it says, as the server wrote it (opaque to the store)
	At     time.Time // when it was stored
}

// LobbyNewsOf returns st's LobbyNews, looking through wrappers such as
// Sealed, or nil if st keeps none.
func LobbyNewsOf(st Store) LobbyNews {
	for {
		if l, ok := st.(LobbyNews); ok {
			return l
		}
		u, ok := st.(interface{ Unwrap() Store })
		if !ok {
			return nil
		}
		st = u.Unwrap()
	}
}
