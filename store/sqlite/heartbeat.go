package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/internal/check"
)

// Heartbeat records that the server holding the live games is alive at
// at; a later time kept already stays.
func (s *Store) Heartbeat(ctx context.Context, at time.Time) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO heartbeat (id, at) VALUES (1, ?)
			ON CONFLICT (id) DO UPDATE SET at = max(at, excluded.at)`, micros(check.Time(at)))
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: heartbeat: %w", err)
	}
	return nil
}

// LastHeld returns the last heartbeat, the time the server that held game
// id was last known alive (zero if there was none); ErrNotFound if there
// is no such game.
func (s *Store) LastHeld(ctx context.Context, id string) (time.Time, error) {
	var at sql.NullInt64
	err := s.read.QueryRowContext(ctx, `SELECT h.at FROM games g LEFT JOIN heartbeat h ON h.id = 1
		WHERE g.id = ?`, id).Scan(&at)
	if err == nil {
		err = s.log.visible(ctx)
	}
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return time.Time{}, fmt.Errorf("sqlite: last held of game %q: %w", id, store.ErrNotFound)
	case err != nil:
		return time.Time{}, fmt.Errorf("sqlite: last held of game %q: %w", id, err)
	case !at.Valid:
		return time.Time{}, nil
	}
	return fromMicros(at.Int64), nil
}

// MaxPages is the most pages an SQLite database may have, the limit
// SetMaxPages restores.
const MaxPages = 4294967294

// SetMaxPages caps the database at n pages (PRAGMA max_page_count on the
// writing connection; a page is 4 KiB), or lifts the cap if n is 0: past
// it, a write that needs a new page fails with SQLITE_FULL, "database or
// disk is full", as it would on a full disk. A cap below the pages in use
// is the pages in use. It returns the cap now in force. Tests fill the
// disk with it; an operator may use it as a quota.
func (s *Store) SetMaxPages(ctx context.Context, n int64) (int64, error) {
	if n < 0 || n > MaxPages {
		return 0, fmt.Errorf("sqlite: max pages %d: want 0 (no cap) to %d", n, int64(MaxPages))
	}
	if n == 0 {
		n = MaxPages
	}
	var got int64
	if err := s.write.QueryRowContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, n)).Scan(&got); err != nil {
		return 0, fmt.Errorf("sqlite: max pages: %w", err)
	}
	return got, nil
}
