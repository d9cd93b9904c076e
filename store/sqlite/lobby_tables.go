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

// The open tables' writes are transactions of the one writer, as the
// seeks' are: a seat's check and its taking cannot interleave with
// another write.

var _ store.OpenTables = (*Store)(nil)

// OpenTable stores a new open table, its opener in its seat.
func (s *Store) OpenTable(ctx context.Context, t *store.OpenTable, max int) error {
	if err := check.OpenTable(t); err != nil {
		return fmt.Errorf("sqlite: open table: %w", err)
	}
	now := check.Time(time.Now())
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if max > 0 {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM lobby_tables WHERE started IS NULL`).Scan(&n); err != nil {
				return err
			}
			if n >= max {
				return fmt.Errorf("%d tables are open: %w", n, store.ErrTooMany)
			}
		}
		if err := seatedAt(ctx, tx, t.Opener); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO lobby_tables (id, rules, turn_ms, rated, min_rating, max_rating, opener, node, created, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
			t.ID, t.Rules, t.Turn.Milliseconds(), t.Rated, t.MinRating, t.MaxRating, t.Opener, t.Node, micros(now), micros(now))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("the id is taken: %w", store.ErrConflict)
		}
		for i, st := range t.Seats {
			if _, err := tx.ExecContext(ctx, `INSERT INTO lobby_table_seats (tbl, idx, open, player, name, guest, rating, mu, sigma, token_hash, node, updated)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, i, st.Open, nullString(st.Player), st.Name, st.Guest,
				st.Rating, st.Mu, st.Sigma, st.TokenHash, st.Node, micros(now)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: open table %q: %w", t.ID, err)
	}
	t.Created, t.Updated, t.Started = now, now, time.Time{}
	return nil
}

// seatedAt is ErrConflict, naming the table, if player sits at one.
func seatedAt(ctx context.Context, tx *sql.Tx, player string) error {
	var table string
	err := tx.QueryRowContext(ctx, `SELECT tbl FROM lobby_table_seats WHERE player = ?`, player).Scan(&table)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return err
	}
	return fmt.Errorf("player %q sits at table %q: %w", player, table, store.ErrConflict)
}

// nullString is s, or NULL if it is empty.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// JoinTable seats p in seat of an open table.
func (s *Store) JoinTable(ctx context.Context, table string, seat int, p store.Seeker, node string) error {
	if p.Player == "" {
		return errors.New("sqlite: join table: no player given")
	}
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var started sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT started FROM lobby_tables WHERE id = ?`, table).Scan(&started)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return store.ErrNotFound
		case err != nil:
			return err
		case started.Valid:
			return fmt.Errorf("the table has started: %w", store.ErrConflict)
		}
		var open bool
		var holder sql.NullString
		err = tx.QueryRowContext(ctx, `SELECT open, player FROM lobby_table_seats WHERE tbl = ? AND idx = ?`, table, seat).Scan(&open, &holder)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("the table has no seat %d: %w", seat, store.ErrConflict)
		case err != nil:
			return err
		case !open:
			return fmt.Errorf("seat %d is not open: %w", seat, store.ErrConflict)
		case holder.Valid:
			return fmt.Errorf("seat %d is taken: %w", seat, store.ErrConflict)
		}
		if err := seatedAt(ctx, tx, p.Player); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE lobby_table_seats SET player = ?, name = ?, guest = ?, rating = ?, mu = ?, sigma = ?,
			token_hash = ?, node = ?, updated = ? WHERE tbl = ? AND idx = ?`,
			p.Player, p.Name, p.Guest, p.Rating, p.Mu, p.Sigma, p.TokenHash, node, micros(time.Now()), table, seat)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: join table %q: %w", table, err)
	}
	return nil
}

// vacate is the update that empties a seat.
const vacate = `UPDATE lobby_table_seats SET player = NULL, name = '', guest = 0, rating = 0, mu = 0, sigma = 0, token_hash = NULL, node = ''`

// LeaveTable takes player from its seat at a table not started.
func (s *Store) LeaveTable(ctx context.Context, player string) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var table, opener string
		var started sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT t.id, t.opener, t.started FROM lobby_table_seats s JOIN lobby_tables t ON t.id = s.tbl
			WHERE s.player = ?`, player).Scan(&table, &opener, &started)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return store.ErrNotFound
		case err != nil:
			return err
		case started.Valid:
			return fmt.Errorf("table %q has started: %w", table, store.ErrConflict)
		case opener == player:
			_, err = tx.ExecContext(ctx, `DELETE FROM lobby_tables WHERE id = ?`, table)
		default:
			_, err = tx.ExecContext(ctx, vacate+` WHERE player = ?`, player)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: %q leaving its table: %w", player, err)
	}
	return nil
}

// StartTable marks a table started and returns it.
func (s *Store) StartTable(ctx context.Context, table string) (*store.OpenTable, error) {
	var t *store.OpenTable
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		now := micros(time.Now())
		res, err := tx.ExecContext(ctx, `UPDATE lobby_tables SET started = ?, updated = ? WHERE id = ? AND started IS NULL`, now, now, table)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			var one int
			if err := tx.QueryRowContext(ctx, `SELECT 1 FROM lobby_tables WHERE id = ?`, table).Scan(&one); errors.Is(err, sql.ErrNoRows) {
				return store.ErrNotFound
			}
			return fmt.Errorf("the table has started already: %w", store.ErrConflict)
		}
		ts, err := queryTables(ctx, tx, `WHERE t.id = ?`, table)
		if err != nil {
			return err
		}
		t = ts[0]
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: start table %q: %w", table, err)
	}
	return t, nil
}

// FindTable returns one table.
func (s *Store) FindTable(ctx context.Context, table string) (*store.OpenTable, error) {
	ts, err := queryTables(ctx, s.read, `WHERE t.id = ?`, table)
	if err != nil {
		return nil, fmt.Errorf("sqlite: table %q: %w", table, err)
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("sqlite: table %q: %w", table, store.ErrNotFound)
	}
	return ts[0], nil
}

// ListTables returns the tables not started, oldest first.
func (s *Store) ListTables(ctx context.Context, limit int) ([]*store.OpenTable, error) {
	ts, err := queryTables(ctx, s.read, `WHERE t.id IN (SELECT id FROM lobby_tables WHERE started IS NULL ORDER BY created, id LIMIT ?)`, check.Seeks(limit))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open tables: %w", err)
	}
	return ts, nil
}

// Started returns the started tables with a seat held through node.
func (s *Store) Started(ctx context.Context, node string) ([]*store.OpenTable, error) {
	ts, err := queryTables(ctx, s.read, `WHERE t.started IS NOT NULL
		AND t.id IN (SELECT tbl FROM lobby_table_seats WHERE node = ? AND player IS NOT NULL)`, node)
	if err != nil {
		return nil, fmt.Errorf("sqlite: started tables of node %q: %w", node, err)
	}
	return ts, nil
}

// ForgetTableSeat removes player's seat of a started table.
func (s *Store) ForgetTableSeat(ctx context.Context, player string) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var table string
		var started sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT t.id, t.started FROM lobby_table_seats s JOIN lobby_tables t ON t.id = s.tbl
			WHERE s.player = ?`, player).Scan(&table, &started)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return store.ErrNotFound
		case err != nil:
			return err
		case !started.Valid:
			return fmt.Errorf("table %q has not started: %w", table, store.ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE lobby_table_seats SET player = NULL, node = '' WHERE player = ?`, player); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM lobby_tables WHERE id = ?
			AND NOT EXISTS (SELECT 1 FROM lobby_table_seats WHERE tbl = ? AND player IS NOT NULL)`, table, table)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: forget the seat of %q: %w", player, err)
	}
	return nil
}

// RefreshTables keeps node's open tables and seats alive.
func (s *Store) RefreshTables(ctx context.Context, node string, at time.Time) (int, error) {
	var n int64
	us := micros(check.Time(at))
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE lobby_tables SET updated = ? WHERE node = ? AND started IS NULL AND updated < ?`, us, node, us)
		if err != nil {
			return err
		}
		a, _ := res.RowsAffected()
		res, err = tx.ExecContext(ctx, `UPDATE lobby_table_seats SET updated = ? WHERE node = ? AND player IS NOT NULL AND updated < ?
			AND tbl IN (SELECT id FROM lobby_tables WHERE started IS NULL)`, us, node, us)
		if err != nil {
			return err
		}
		b, _ := res.RowsAffected()
		n = a + b
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: refresh the tables of node %q: %w", node, err)
	}
	return int(n), nil
}

// ExpireTables removes the stale tables, and empties the stale seats of
// open tables.
func (s *Store) ExpireTables(ctx context.Context, before time.Time) (int, error) {
	var n int64
	us := micros(check.Time(before))
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM lobby_tables WHERE updated < ?`, us)
		if err != nil {
			return err
		}
		a, _ := res.RowsAffected()
		res, err = tx.ExecContext(ctx, vacate+` WHERE player IS NOT NULL AND updated < ?
			AND tbl IN (SELECT id FROM lobby_tables WHERE started IS NULL)`, us)
		if err != nil {
			return err
		}
		b, _ := res.RowsAffected()
		n = a + b
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: expire tables: %w", err)
	}
	return int(n), nil
}

// querier is a database or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryTables reads the tables a condition on t selects, with their
// seats, oldest first.
func queryTables(ctx context.Context, q querier, where string, args ...any) ([]*store.OpenTable, error) {
	rows, err := q.QueryContext(ctx, `SELECT t.id, t.rules, t.turn_ms, t.rated, t.min_rating, t.max_rating, t.opener, t.node,
		t.created, t.updated, t.started, s.open, s.player, s.name, s.guest, s.rating, s.mu, s.sigma, s.token_hash, s.node
		FROM lobby_tables t JOIN lobby_table_seats s ON s.tbl = t.id `+where+`
		ORDER BY t.created, t.id, s.idx`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ts []*store.OpenTable
	for rows.Next() {
		var t store.OpenTable
		var st store.TableSeat
		var turnMS, created, updated int64
		var started sql.NullInt64
		var player sql.NullString
		if err := rows.Scan(&t.ID, &t.Rules, &turnMS, &t.Rated, &t.MinRating, &t.MaxRating, &t.Opener, &t.Node,
			&created, &updated, &started, &st.Open, &player, &st.Name, &st.Guest, &st.Rating, &st.Mu, &st.Sigma, &st.TokenHash, &st.Node); err != nil {
			return nil, err
		}
		st.Player = player.String
		if n := len(ts); n > 0 && ts[n-1].ID == t.ID {
			ts[n-1].Seats = append(ts[n-1].Seats, st)
			continue
		}
		t.Turn = time.Duration(turnMS) * time.Millisecond
		t.Created, t.Updated = fromMicros(created), fromMicros(updated)
		if started.Valid {
			t.Started = fromMicros(started.Int64)
		}
		t.Seats = []store.TableSeat{st}
		ts = append(ts, &t)
	}
	return ts, rows.Err()
}
