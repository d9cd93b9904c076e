package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// MaxConns returns the size of the store's pool of connections.
func MaxConns(s *Store) int32 {
	return s.pool.Config().MaxConns
}

// Setting returns a setting of a session of the store's pool (SHOW).
func Setting(ctx context.Context, s *Store, name string) (string, error) {
	var v string
	err := s.pool.QueryRow(ctx, "SHOW "+pgx.Identifier{name}.Sanitize()).Scan(&v)
	return v, err
}

// LockGame begins a transaction on a connection of the store's pool and
// locks game id's row in it, as a fenced write's first statement did
// when the writes were transactions of several statements, and returns
// the transaction, for the caller to leave as a paused node would.
func LockGame(ctx context.Context, s *Store, id string) (pgx.Tx, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	var one int
	if err := tx.QueryRow(ctx, `SELECT 1 FROM games WHERE id = $1 FOR UPDATE`, id).Scan(&one); err != nil {
		tx.Rollback(ctx)
		return nil, err
	}
	return tx, nil
}
