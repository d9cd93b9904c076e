package postgres

import (
	"context"
	"fmt"

	"github.com/chaturaji/chaturaji/store"
)

// SetRecord keeps the record text of a finished game, replacing any kept
// before; ErrNotFound if there is no such game, ErrConflict if it is live.
// It is one statement, fenced as UpdateSeat is; it locks the game's row
// FOR SHARE while it runs, so that the game's status and lease are checked
// as they are when the record is written.
func (s *Store) SetRecord(ctx context.Context, id string, text []byte) error {
	nd, epoch, err := s.fence(id)
	if err != nil {
		return fmt.Errorf("postgres: set record of game %q: %w", id, err)
	}
	owner := fenceOwner(nd)
	tag, err := s.pool.Exec(ctx, `WITH g AS (
			SELECT id FROM games WHERE id = $3 AND status = $4 AND `+fenceSQL+` FOR SHARE
		)
		INSERT INTO records (game_id, text) SELECT g.id, $5 FROM g
		ON CONFLICT (game_id) DO UPDATE SET text = excluded.text`,
		owner, epoch, id, string(store.Finished), string(text))
	if err == nil && tag.RowsAffected() == 0 {
		err = s.unwritten(ctx, nd, epoch, id, func(row gameRow) error {
			if row.status != store.Finished {
				return fmt.Errorf("the game is %s, and only a finished game's record is kept: %w", row.status, store.ErrConflict)
			}
			return nil
		})
	}
	if err != nil {
		return fmt.Errorf("postgres: set record of game %q: %w", id, err)
	}
	return nil
}

// Records returns the record texts kept for the games named, by id.
func (s *Store) Records(ctx context.Context, ids []string) (map[string][]byte, error) {
	out := make(map[string][]byte)
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT game_id, text FROM records WHERE game_id = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("postgres: records: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, text string
		if err := rows.Scan(&id, &text); err != nil {
			return nil, fmt.Errorf("postgres: records: %w", err)
		}
		out[id] = []byte(text)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: records: %w", err)
	}
	return out, nil
}
