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

// An open table's row is locked (FOR UPDATE) by every write that checks
// its state, so that a seat is taken once and nobody joins or leaves a
// table as it starts; a player's writes take the lobby's advisory lock of
// the player first, as seeks do, so that one player sits at one table.

var _ store.OpenTables = (*Store)(nil)

// lockPlayer takes the transaction's advisory lock of player.
func lockPlayer(ctx context.Context, tx pgx.Tx, player string) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, lobbyLock, player)
	return err
}

// seatedAt is ErrConflict, naming the table, if player sits at one.
func seatedAt(ctx context.Context, tx pgx.Tx, player string) error {
	var table string
	err := tx.QueryRow(ctx, `SELECT tbl FROM lobby_table_seats WHERE player = $1`, player).Scan(&table)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil
	case err != nil:
		return err
	}
	return fmt.Errorf("player %q sits at table %q: %w", player, table, store.ErrConflict)
}

// nullString is s, or NULL if it is empty.
func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// OpenTable stores a new open table, its opener in its seat. The limit
// of open tables is counted in the transaction: tables opened at once
// through several stores may pass it by a few.
func (s *Store) OpenTable(ctx context.Context, t *store.OpenTable, max int) error {
	if err := check.OpenTable(t); err != nil {
		return fmt.Errorf("postgres: open table: %w", err)
	}
	now := check.Time(time.Now())
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockPlayer(ctx, tx, t.Opener); err != nil {
			return err
		}
		if max > 0 {
			var n int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM lobby_tables WHERE started IS NULL`).Scan(&n); err != nil {
				return err
			}
			if n >= max {
				return fmt.Errorf("%d tables are open: %w", n, store.ErrTooMany)
			}
		}
		if err := seatedAt(ctx, tx, t.Opener); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO lobby_tables (id, rules, turn_ms, rated, min_rating, max_rating, opener, node, created, updated)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) ON CONFLICT (id) DO NOTHING`,
			t.ID, t.Rules, t.Turn.Milliseconds(), t.Rated, t.MinRating, t.MaxRating, t.Opener, t.Node, now)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("the id is taken: %w", store.ErrConflict)
		}
		var b pgx.Batch
		for i, st := range t.Seats {
			b.Queue(`INSERT INTO lobby_table_seats (tbl, idx, open, player, name, guest, rating, mu, sigma, token_hash, node, updated)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, t.ID, i, st.Open, nullString(st.Player), st.Name, st.Guest,
				st.Rating, st.Mu, st.Sigma, st.TokenHash, st.Node, now)
		}
		return tx.SendBatch(ctx, &b).Close()
	})
	if err != nil {
		return fmt.Errorf("postgres: open table %q: %w", t.ID, err)
	}
	t.Created, t.Updated, t.Started = now, now, time.Time{}
	return nil
}

// JoinTable seats p in seat of an open table.
func (s *Store) JoinTable(ctx context.Context, table string, seat int, p store.Seeker, node string) error {
	if p.Player == "" {
		return errors.New("postgres: join table: no player given")
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockPlayer(ctx, tx, p.Player); err != nil {
			return err
		}
		var started *time.Time
		err := tx.QueryRow(ctx, `SELECT started FROM lobby_tables WHERE id = $1 FOR UPDATE`, table).Scan(&started)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return store.ErrNotFound
		case err != nil:
			return err
		case started != nil:
			return fmt.Errorf("the table has started: %w", store.ErrConflict)
		}
		var open bool
		var holder *string
		err = tx.QueryRow(ctx, `SELECT open, player FROM lobby_table_seats WHERE tbl = $1 AND idx = $2`, table, seat).Scan(&open, &holder)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return fmt.Errorf("the table has no seat %d: %w", seat, store.ErrConflict)
		case err != nil:
			return err
		case !open:
			return fmt.Errorf("seat %d is not open: %w", seat, store.ErrConflict)
		case holder != nil:
			return fmt.Errorf("seat %d is taken: %w", seat, store.ErrConflict)
		}
		if err := seatedAt(ctx, tx, p.Player); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE lobby_table_seats SET player = $1, name = $2, guest = $3, rating = $4, mu = $5, sigma = $6,
			token_hash = $7, node = $8, updated = now() WHERE tbl = $9 AND idx = $10`,
			p.Player, p.Name, p.Guest, p.Rating, p.Mu, p.Sigma, p.TokenHash, node, table, seat)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: join table %q: %w", table, err)
	}
	return nil
}

// vacate is the update that empties a seat.
const vacate = `UPDATE lobby_table_seats SET player = NULL, name = '', guest = false, rating = 0, mu = 0, sigma = 0, token_hash = NULL, node = ''`

// LeaveTable takes player from its seat at a table not started.
func (s *Store) LeaveTable(ctx context.Context, player string) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockPlayer(ctx, tx, player); err != nil {
			return err
		}
		var table, opener string
		var started *time.Time
		err := tx.QueryRow(ctx, `SELECT t.id, t.opener, t.started FROM lobby_tables t
			WHERE t.id = (SELECT tbl FROM lobby_table_seats WHERE player = $1) FOR UPDATE`, player).Scan(&table, &opener, &started)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return store.ErrNotFound
		case err != nil:
			return err
		case started != nil:
			return fmt.Errorf("table %q has started: %w", table, store.ErrConflict)
		case opener == player:
			_, err = tx.Exec(ctx, `DELETE FROM lobby_tables WHERE id = $1`, table)
		default:
			_, err = tx.Exec(ctx, vacate+` WHERE player = $1`, player)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: %q leaving its table: %w", player, err)
	}
	return nil
}

// StartTable marks a table started and returns it.
func (s *Store) StartTable(ctx context.Context, table string) (*store.OpenTable, error) {
	var t *store.OpenTable
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE lobby_tables SET started = now(), updated = now() WHERE id = $1 AND started IS NULL`, table)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			var one int
			if err := tx.QueryRow(ctx, `SELECT 1 FROM lobby_tables WHERE id = $1`, table).Scan(&one); errors.Is(err, pgx.ErrNoRows) {
				return store.ErrNotFound
			}
			return fmt.Errorf("the table has started already: %w", store.ErrConflict)
		}
		ts, err := queryTables(ctx, tx, `WHERE t.id = $1`, table)
		if err != nil {
			return err
		}
		t = ts[0]
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: start table %q: %w", table, err)
	}
	return t, nil
}

// FindTable returns one table.
func (s *Store) FindTable(ctx context.Context, table string) (*store.OpenTable, error) {
	ts, err := queryTables(ctx, s.pool, `WHERE t.id = $1`, table)
	if err != nil {
		return nil, fmt.Errorf("postgres: table %q: %w", table, err)
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("postgres: table %q: %w", table, store.ErrNotFound)
	}
	return ts[0], nil
}

// ListTables returns the tables not started, oldest first.
func (s *Store) ListTables(ctx context.Context, limit int) ([]*store.OpenTable, error) {
	ts, err := queryTables(ctx, s.pool, `WHERE t.id IN (SELECT id FROM lobby_tables WHERE started IS NULL ORDER BY created, id LIMIT $1)`, check.Seeks(limit))
	if err != nil {
		return nil, fmt.Errorf("postgres: open tables: %w", err)
	}
	return ts, nil
}

// Started returns the started tables with a seat held through node.
func (s *Store) Started(ctx context.Context, node string) ([]*store.OpenTable, error) {
	ts, err := queryTables(ctx, s.pool, `WHERE t.started IS NOT NULL
		AND t.id IN (SELECT tbl FROM lobby_table_seats WHERE node = $1 AND player IS NOT NULL)`, node)
	if err != nil {
		return nil, fmt.Errorf("postgres: started tables of node %q: %w", node, err)
	}
	return ts, nil
}

// ForgetTableSeat removes player's seat of a started table.
func (s *Store) ForgetTableSeat(ctx context.Context, player string) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var table string
		var started *time.Time
		err := tx.QueryRow(ctx, `SELECT t.id, t.started FROM lobby_tables t
			WHERE t.id = (SELECT tbl FROM lobby_table_seats WHERE player = $1) FOR UPDATE`, player).Scan(&table, &started)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return store.ErrNotFound
		case err != nil:
			return err
		case started == nil:
			return fmt.Errorf("table %q has not started: %w", table, store.ErrConflict)
		}
		if _, err := tx.Exec(ctx, `UPDATE lobby_table_seats SET player = NULL, node = '' WHERE player = $1`, player); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM lobby_tables WHERE id = $1
			AND NOT EXISTS (SELECT 1 FROM lobby_table_seats WHERE tbl = $1 AND player IS NOT NULL)`, table)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: forget the seat of %q: %w", player, err)
	}
	return nil
}

// RefreshTables keeps node's open tables and seats alive.
func (s *Store) RefreshTables(ctx context.Context, node string, at time.Time) (int, error) {
	at = check.Time(at)
	var n int64
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		a, err := tx.Exec(ctx, `UPDATE lobby_tables SET updated = $2 WHERE node = $1 AND started IS NULL AND updated < $2`, node, at)
		if err != nil {
			return err
		}
		b, err := tx.Exec(ctx, `UPDATE lobby_table_seats SET updated = $2 WHERE node = $1 AND player IS NOT NULL AND updated < $2
			AND tbl IN (SELECT id FROM lobby_tables WHERE started IS NULL)`, node, at)
		if err != nil {
			return err
		}
		n = a.RowsAffected() + b.RowsAffected()
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: refresh the tables of node %q: %w", node, err)
	}
	return int(n), nil
}

// ExpireTables removes the stale tables, and empties the stale seats of
// open tables.
func (s *Store) ExpireTables(ctx context.Context, before time.Time) (int, error) {
	before = check.Time(before)
	var n int64
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		a, err := tx.Exec(ctx, `DELETE FROM lobby_tables WHERE updated < $1`, before)
		if err != nil {
			return err
		}
		b, err := tx.Exec(ctx, vacate+` WHERE player IS NOT NULL AND updated < $1
			AND tbl IN (SELECT id FROM lobby_tables WHERE started IS NULL)`, before)
		if err != nil {
			return err
		}
		n = a.RowsAffected() + b.RowsAffected()
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: expire tables: %w", err)
	}
	return int(n), nil
}

// rowsQuerier is a pool or a transaction.
type rowsQuerier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// queryTables reads the tables a condition on t selects, with their
// seats, oldest first.
func queryTables(ctx context.Context, q rowsQuerier, where string, args ...any) ([]*store.OpenTable, error) {
	rows, err := q.Query(ctx, `SELECT t.id, t.rules, t.turn_ms, t.rated, t.min_rating, t.max_rating, t.opener, t.node,
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
		var turnMS int64
		var started *time.Time
		var player *string
		if err := rows.Scan(&t.ID, &t.Rules, &turnMS, &t.Rated, &t.MinRating, &t.MaxRating, &t.Opener, &t.Node,
			&t.Created, &t.Updated, &started, &st.Open, &player, &st.Name, &st.Guest, &st.Rating, &st.Mu, &st.Sigma, &st.TokenHash, &st.Node); err != nil {
			return nil, err
		}
		if player != nil {
			st.Player = *player
		}
		if n := len(ts); n > 0 && ts[n-1].ID == t.ID {
			ts[n-1].Seats = append(ts[n-1].Seats, st)
			continue
		}
		t.Turn = time.Duration(turnMS) * time.Millisecond
		t.Created, t.Updated = utc(t.Created), utc(t.Updated)
		if started != nil {
			t.Started = utc(*started)
		}
		t.Seats = []store.TableSeat{st}
		ts = append(ts, &t)
	}
	return ts, rows.Err()
}
