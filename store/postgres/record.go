package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/store"
)

// SetRecord keeps the record text of a finished game, replacing any kept
// before; ErrNotFound if there is no such game, ErrConflict if it is live.
func (s *Store) SetRecord(ctx context.Context, id string, text []byte) error {
	nd, epoch, err := s.fence(id)
	if err != nil {
		return fmt.Errorf("postgres: set record of game %q: %w", id, err)
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		if err := checkFence(ctx, tx, nd, id, epoch); err != nil {
			return err
		}
		var status string
		// FOR SHARE: the game cannot go back to live meanwhile (it never
		// does, but the check then holds by the database's word).
		err := tx.QueryRow(ctx, `SELECT status FROM games WHERE id = $1 FOR SHARE`, id).Scan(&status)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		} else if err != nil {
			return err
		}
		if store.Status(status) != store.Finished {
			return fmt.Errorf("the game is %s, and only a finished game's record is kept: %w", status, store.ErrConflict)
		}
		_, err = tx.Exec(ctx, `INSERT INTO records (game_id, text) VALUES ($1, $2)
			ON CONFLICT (game_id) DO UPDATE SET text = excluded.text`, id, string(text))
		return err
	})
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
