package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/internal/check"
)

// Heartbeat records that the server holding the live games is alive at
// at; a later time kept already stays.
func (s *Store) Heartbeat(ctx context.Context, at time.Time) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO heartbeat (id, at) VALUES (1, $1)
		ON CONFLICT (id) DO UPDATE SET at = greatest(heartbeat.at, excluded.at)`, check.Time(at))
	if err != nil {
		return fmt.Errorf("postgres: heartbeat: %w", err)
	}
	return nil
}

// LastHeld returns the time the server that held game id was last known
// alive: the last renewal of its lease, if a node of a cluster held it
// (cluster.go), else the last heartbeat (zero if there was none);
// ErrNotFound if there is no such game.
func (s *Store) LastHeld(ctx context.Context, id string) (time.Time, error) {
	var at *time.Time
	err := s.pool.QueryRow(ctx, `SELECT coalesce(g.renewed, h.at) FROM games g LEFT JOIN heartbeat h ON h.id = 1
		WHERE g.id = $1`, id).Scan(&at)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return time.Time{}, fmt.Errorf("postgres: last held of game %q: %w", id, store.ErrNotFound)
	case err != nil:
		return time.Time{}, fmt.Errorf("postgres: last held of game %q: %w", id, err)
	case at == nil:
		return time.Time{}, nil
	}
	return utc(*at), nil
}
