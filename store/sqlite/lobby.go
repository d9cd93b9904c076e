package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/internal/check"
)

// The lobby's writes are transactions of the one writer (BEGIN
// IMMEDIATE), so a claim's check that every seek is open and its marking
// them cannot interleave with another write, of this process or another
// on the same file.

var _ store.Lobby = (*Store)(nil)

// AddSeek stores a new open seek, withdrawing first any open seek of its
// seekers; ErrConflict if one of them is in a claimed seek or the id is
// taken.
func (s *Store) AddSeek(ctx context.Context, sk *store.Seek) error {
	if sk == nil {
		return errors.New("sqlite: add seek: no seek given")
	}
	n := *sk
	if err := check.Seek(&n, time.Now()); err != nil {
		return fmt.Errorf("sqlite: add seek: %w", err)
	}
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, p := range n.Seekers {
			var id string
			var table sql.NullString
			err := tx.QueryRowContext(ctx, `SELECT s.id, s.tbl FROM lobby_seekers k JOIN lobby_seeks s ON s.id = k.seek
				WHERE k.player = ?`, p.Player).Scan(&id, &table)
			if errors.Is(err, sql.ErrNoRows) {
				continue
			} else if err != nil {
				return err
			}
			if table.Valid {
				return fmt.Errorf("player %q is seated at table %q: %w", p.Player, table.String, store.ErrConflict)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM lobby_seeks WHERE id = ?`, id); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO lobby_seeks (id, pool, bots, bot_wait_ms, node, created, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
			n.ID, n.Pool, n.Bots, n.BotWait.Milliseconds(), n.Node, micros(n.Created), micros(n.Updated))
		if err != nil {
			return err
		}
		if rows, err := res.RowsAffected(); err != nil {
			return err
		} else if rows == 0 {
			return fmt.Errorf("the id is taken: %w", store.ErrConflict)
		}
		for i, p := range n.Seekers {
			if _, err := tx.ExecContext(ctx, `INSERT INTO lobby_seekers (player, seek, idx, name, guest, rating, mu, sigma, token_hash)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, p.Player, n.ID, i, p.Name, p.Guest, p.Rating, p.Mu, p.Sigma, p.TokenHash); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: add seek %q: %w", n.ID, err)
	}
	sk.Created, sk.Updated, sk.BotWait, sk.Table = n.Created, n.Updated, n.BotWait, ""
	return nil
}

// Withdraw removes the open seek that holds player.
func (s *Store) Withdraw(ctx context.Context, player string) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var id string
		var table sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT s.id, s.tbl FROM lobby_seekers k JOIN lobby_seeks s ON s.id = k.seek
			WHERE k.player = ?`, player).Scan(&id, &table)
		if errors.Is(err, sql.ErrNoRows) {
			return store.ErrNotFound
		} else if err != nil {
			return err
		}
		if table.Valid {
			return fmt.Errorf("the seek is claimed into table %q: %w", table.String, store.ErrConflict)
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM lobby_seeks WHERE id = ?`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: withdraw the seek of %q: %w", player, err)
	}
	return nil
}

// seekColumns are the columns scanSeeks reads: a seek's, then one
// seeker's.
const seekColumns = `s.id, s.pool, s.bots, s.bot_wait_ms, s.node, s.created, s.updated, s.tbl,
	k.player, k.name, k.guest, k.rating, k.mu, k.sigma, k.token_hash`

// SeekOf returns the seek that holds player; ErrNotFound if none.
func (s *Store) SeekOf(ctx context.Context, player string) (*store.Seek, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+seekColumns+` FROM lobby_seeks s JOIN lobby_seekers k ON k.seek = s.id
		WHERE s.id = (SELECT seek FROM lobby_seekers WHERE player = ?)
		ORDER BY k.idx`, player)
	if err != nil {
		return nil, fmt.Errorf("sqlite: seek of %q: %w", player, err)
	}
	seeks, err := scanSeeks(rows)
	if err != nil {
		return nil, fmt.Errorf("sqlite: seek of %q: %w", player, err)
	}
	if len(seeks) == 0 {
		return nil, fmt.Errorf("sqlite: seek of %q: %w", player, store.ErrNotFound)
	}
	return seeks[0], nil
}

// Seeks returns the open seeks of a pool, oldest first.
func (s *Store) Seeks(ctx context.Context, pool string, limit int) ([]*store.Seek, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+seekColumns+`
		FROM (SELECT * FROM lobby_seeks WHERE pool = ? AND tbl IS NULL ORDER BY created, id LIMIT ?) s
		JOIN lobby_seekers k ON k.seek = s.id
		ORDER BY s.created, s.id, k.idx`, pool, check.Seeks(limit))
	if err != nil {
		return nil, fmt.Errorf("sqlite: seeks of pool %q: %w", pool, err)
	}
	seeks, err := scanSeeks(rows)
	if err != nil {
		return nil, fmt.Errorf("sqlite: seeks of pool %q: %w", pool, err)
	}
	return seeks, nil
}

// Table returns the seeks claimed into table.
func (s *Store) Table(ctx context.Context, table string) ([]*store.Seek, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+seekColumns+` FROM lobby_seeks s JOIN lobby_seekers k ON k.seek = s.id
		WHERE s.tbl = ? ORDER BY s.created, s.id, k.idx`, table)
	if err != nil {
		return nil, fmt.Errorf("sqlite: seeks of table %q: %w", table, err)
	}
	seeks, err := scanSeeks(rows)
	if err != nil {
		return nil, fmt.Errorf("sqlite: seeks of table %q: %w", table, err)
	}
	return seeks, nil
}

// scanSeeks reads rows of seekColumns, a seek's seekers in consecutive
// rows, and closes them.
func scanSeeks(rows *sql.Rows) ([]*store.Seek, error) {
	defer rows.Close()
	var seeks []*store.Seek
	for rows.Next() {
		var sk store.Seek
		var p store.Seeker
		var waitMS, created, updated int64
		var table sql.NullString
		if err := rows.Scan(&sk.ID, &sk.Pool, &sk.Bots, &waitMS, &sk.Node, &created, &updated, &table,
			&p.Player, &p.Name, &p.Guest, &p.Rating, &p.Mu, &p.Sigma, &p.TokenHash); err != nil {
			return nil, err
		}
		if n := len(seeks); n > 0 && seeks[n-1].ID == sk.ID {
			seeks[n-1].Seekers = append(seeks[n-1].Seekers, p)
			continue
		}
		sk.BotWait = time.Duration(waitMS) * time.Millisecond
		sk.Created, sk.Updated, sk.Table = fromMicros(created), fromMicros(updated), table.String
		sk.Seekers = []store.Seeker{p}
		seeks = append(seeks, &sk)
	}
	return seeks, rows.Err()
}

// Claim marks the seeks named as claimed into table, all or nothing.
func (s *Store) Claim(ctx context.Context, table, pool string, seeks []string) error {
	if table == "" || len(seeks) == 0 {
		return fmt.Errorf("sqlite: claim: want a table id and seeks, have %q and %d seeks", table, len(seeks))
	}
	list, err := json.Marshal(seeks)
	if err != nil {
		return fmt.Errorf("sqlite: claim: %w", err)
	}
	err = s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := claimable(ctx, tx, pool, seeks, string(list)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE lobby_seeks SET tbl = ?, updated = ?
			WHERE id IN (SELECT value FROM json_each(?))`, table, micros(time.Now()), string(list))
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: claim %d seeks into table %q: %w", len(seeks), table, err)
	}
	return nil
}

// claimable checks that every seek named is open in pool: ErrConflict,
// naming the first that is not, if one is not.
func claimable(ctx context.Context, tx *sql.Tx, pool string, seeks []string, list string) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, pool, tbl FROM lobby_seeks WHERE id IN (SELECT value FROM json_each(?))`, list)
	if err != nil {
		return err
	}
	defer rows.Close()
	found := make(map[string]string, len(seeks))
	for rows.Next() {
		var id, p string
		var table sql.NullString
		if err := rows.Scan(&id, &p, &table); err != nil {
			return err
		}
		switch {
		case table.Valid:
			return fmt.Errorf("seek %q is claimed into table %q: %w", id, table.String, store.ErrConflict)
		case p != pool:
			return fmt.Errorf("seek %q is of pool %q, not %q: %w", id, p, pool, store.ErrConflict)
		}
		found[id] = p
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i, id := range seeks {
		if _, ok := found[id]; !ok {
			return fmt.Errorf("seek %q is gone: %w", id, store.ErrConflict)
		}
		for _, o := range seeks[:i] {
			if o == id {
				return fmt.Errorf("seek %q is named twice", id)
			}
		}
	}
	return nil
}

// Forget removes the seeks claimed into table.
func (s *Store) Forget(ctx context.Context, table string) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM lobby_seeks WHERE tbl = ?`, table)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: forget table %q: %w", table, err)
	}
	return nil
}

// Refresh sets Updated to at for node's open seeks (never moving it back).
func (s *Store) Refresh(ctx context.Context, node string, at time.Time) (int, error) {
	var n int64
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE lobby_seeks SET updated = ?
			WHERE node = ? AND tbl IS NULL AND updated < ?`, micros(check.Time(at)), node, micros(check.Time(at)))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: refresh the seeks of node %q: %w", node, err)
	}
	return int(n), nil
}

// Expire removes the seeks last updated before before.
func (s *Store) Expire(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM lobby_seeks WHERE updated < ?`, micros(check.Time(before)))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: expire seeks: %w", err)
	}
	return int(n), nil
}

// Claimed returns node's seeks claimed into tables.
func (s *Store) Claimed(ctx context.Context, node string) ([]*store.Seek, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+seekColumns+` FROM lobby_seeks s JOIN lobby_seekers k ON k.seek = s.id
		WHERE s.node = ? AND s.tbl IS NOT NULL ORDER BY s.tbl, s.created, s.id, k.idx`, node)
	if err != nil {
		return nil, fmt.Errorf("sqlite: claimed seeks of node %q: %w", node, err)
	}
	seeks, err := scanSeeks(rows)
	if err != nil {
		return nil, fmt.Errorf("sqlite: claimed seeks of node %q: %w", node, err)
	}
	return seeks, nil
}

// ForgetSeek removes one claimed seek.
func (s *Store) ForgetSeek(ctx context.Context, id string) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var table sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT tbl FROM lobby_seeks WHERE id = ?`, id).Scan(&table)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return store.ErrNotFound
		case err != nil:
			return err
		case !table.Valid:
			return fmt.Errorf("the seek is open: %w", store.ErrConflict)
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM lobby_seeks WHERE id = ?`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: forget seek %q: %w", id, err)
	}
	return nil
}
