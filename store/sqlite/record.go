package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chaturaji/chaturaji/store"
)

// SetRecord keeps the record text of a finished game, replacing any kept
// before; ErrNotFound if there is no such game, ErrConflict if it is live.
func (s *Store) SetRecord(ctx context.Context, id string, text []byte) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var status string
		err := tx.QueryRowContext(ctx, `SELECT status FROM games WHERE id = ?`, id).Scan(&status)
		if errors.Is(err, sql.ErrNoRows) {
			return store.ErrNotFound
		} else if err != nil {
			return err
		}
		if store.Status(status) != store.Finished {
			return fmt.Errorf("the game is %s, and only a finished game's record is kept: %w", status, store.ErrConflict)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO records (game_id, text) VALUES (?, ?)
			ON CONFLICT (game_id) DO UPDATE SET text = excluded.text`, id, string(text))
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: set record of game %q: %w", id, err)
	}
	return nil
}

// Records returns the record texts kept for the games named, by id.
func (s *Store) Records(ctx context.Context, ids []string) (map[string][]byte, error) {
	out := make(map[string][]byte)
	if len(ids) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ids) // one parameter, however many ids
	if err != nil {
		return nil, fmt.Errorf("sqlite: records: %w", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT game_id, text FROM records
		WHERE game_id IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, fmt.Errorf("sqlite: records: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, text string
		if err := rows.Scan(&id, &text); err != nil {
			return nil, fmt.Errorf("sqlite: records: %w", err)
		}
		out[id] = []byte(text)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: records: %w", err)
	}
	if err := s.log.visible(ctx); err != nil {
		return nil, fmt.Errorf("sqlite: records: %w", err)
	}
	return out, nil
}
