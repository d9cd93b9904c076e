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

// The lobby is shared by the nodes, so its writes lock what they check.
// A claim locks the rows of the seeks it names, in the order of their
// ids, then checks that every one is still open and marks them, in one
// transaction: a second claimer of one of them waits for the first's
// commit and then finds it claimed. AddSeek and Withdraw lock the seeks
// they replace or remove the same way, after an advisory lock on each of
// their players (in order), so that two seeks of one player made at once
// follow each other. Forget locks its table's seeks in id order too.
// Refresh and Expire skip the rows a claim holds
// (SKIP LOCKED) rather than wait for it, and take them in id order too:
// no two of these writes wait for each other in a circle.

var _ store.Lobby = (*Store)(nil)

// lobbyLock is the first key of the advisory locks on the lobby's players
// (the second is a hash of the player's id).
const lobbyLock = 0x6c6f6279 // "loby"

// AddSeek stores a new open seek, withdrawing first any open seek of its
// seekers; ErrConflict if one of them is in a claimed seek or the id is
// taken.
func (s *Store) AddSeek(ctx context.Context, sk *store.Seek) error {
	if sk == nil {
		return errors.New("postgres: add seek: no seek given")
	}
	n := *sk
	if err := check.Seek(&n, time.Now()); err != nil {
		return fmt.Errorf("postgres: add seek: %w", err)
	}
	players := make([]string, len(n.Seekers))
	for i, p := range n.Seekers {
		players[i] = p.Player
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext(p)) FROM unnest($2::text[]) p ORDER BY hashtext(p)`,
			lobbyLock, players); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT id, tbl FROM lobby_seeks
			WHERE id IN (SELECT seek FROM lobby_seekers WHERE player = ANY($1))
			ORDER BY id FOR UPDATE`, players)
		if err != nil {
			return err
		}
		var open []string
		for rows.Next() {
			var id string
			var table *string
			if err := rows.Scan(&id, &table); err != nil {
				return err
			}
			if table != nil {
				rows.Close()
				return fmt.Errorf("a player of it is seated at table %q: %w", *table, store.ErrConflict)
			}
			open = append(open, id)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM lobby_seeks WHERE id = ANY($1)`, open); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO lobby_seeks (id, pool, bots, bot_wait_ms, node, created, updated)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
			n.ID, n.Pool, n.Bots, n.BotWait.Milliseconds(), n.Node, n.Created, n.Updated)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("the id is taken: %w", store.ErrConflict)
		}
		var b pgx.Batch
		for i, p := range n.Seekers {
			b.Queue(`INSERT INTO lobby_seekers (player, seek, idx, name, guest, rating, mu, sigma, token_hash)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, p.Player, n.ID, i, p.Name, p.Guest, p.Rating, p.Mu, p.Sigma, p.TokenHash)
		}
		return tx.SendBatch(ctx, &b).Close()
	})
	if err != nil {
		return fmt.Errorf("postgres: add seek %q: %w", n.ID, err)
	}
	sk.Created, sk.Updated, sk.BotWait, sk.Table = n.Created, n.Updated, n.BotWait, ""
	return nil
}

// Withdraw removes the open seek that holds player.
func (s *Store) Withdraw(ctx context.Context, player string) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, lobbyLock, player); err != nil {
			return err
		}
		var id string
		var table *string
		err := tx.QueryRow(ctx, `SELECT id, tbl FROM lobby_seeks
			WHERE id = (SELECT seek FROM lobby_seekers WHERE player = $1) FOR UPDATE`, player).Scan(&id, &table)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		} else if err != nil {
			return err
		}
		if table != nil {
			return fmt.Errorf("the seek is claimed into table %q: %w", *table, store.ErrConflict)
		}
		_, err = tx.Exec(ctx, `DELETE FROM lobby_seeks WHERE id = $1`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: withdraw the seek of %q: %w", player, err)
	}
	return nil
}

// seekColumns are the columns scanSeeks reads: a seek's, then one
// seeker's.
const seekColumns = `s.id, s.pool, s.bots, s.bot_wait_ms, s.node, s.created, s.updated, s.tbl,
	k.player, k.name, k.guest, k.rating, k.mu, k.sigma, k.token_hash`

// SeekOf returns the seek that holds player; ErrNotFound if none.
func (s *Store) SeekOf(ctx context.Context, player string) (*store.Seek, error) {
	seeks, err := s.querySeeks(ctx, `SELECT `+seekColumns+` FROM lobby_seeks s JOIN lobby_seekers k ON k.seek = s.id
		WHERE s.id = (SELECT seek FROM lobby_seekers WHERE player = $1)
		ORDER BY k.idx`, player)
	if err != nil {
		return nil, fmt.Errorf("postgres: seek of %q: %w", player, err)
	}
	if len(seeks) == 0 {
		return nil, fmt.Errorf("postgres: seek of %q: %w", player, store.ErrNotFound)
	}
	return seeks[0], nil
}

// Seeks returns the open seeks of a pool, oldest first.
func (s *Store) Seeks(ctx context.Context, pool string, limit int) ([]*store.Seek, error) {
	seeks, err := s.querySeeks(ctx, `SELECT `+seekColumns+`
		FROM (SELECT * FROM lobby_seeks WHERE pool = $1 AND tbl IS NULL ORDER BY created, id LIMIT $2) s
		JOIN lobby_seekers k ON k.seek = s.id
		ORDER BY s.created, s.id, k.idx`, pool, check.Seeks(limit))
	if err != nil {
		return nil, fmt.Errorf("postgres: seeks of pool %q: %w", pool, err)
	}
	return seeks, nil
}

// Table returns the seeks claimed into table.
func (s *Store) Table(ctx context.Context, table string) ([]*store.Seek, error) {
	seeks, err := s.querySeeks(ctx, `SELECT `+seekColumns+` FROM lobby_seeks s JOIN lobby_seekers k ON k.seek = s.id
		WHERE s.tbl = $1 ORDER BY s.created, s.id, k.idx`, table)
	if err != nil {
		return nil, fmt.Errorf("postgres: seeks of table %q: %w", table, err)
	}
	return seeks, nil
}

// querySeeks runs a query of seekColumns, a seek's seekers in consecutive
// rows, and reads its seeks.
func (s *Store) querySeeks(ctx context.Context, sql string, args ...any) ([]*store.Seek, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var seeks []*store.Seek
	for rows.Next() {
		var sk store.Seek
		var p store.Seeker
		var waitMS int64
		var table *string
		if err := rows.Scan(&sk.ID, &sk.Pool, &sk.Bots, &waitMS, &sk.Node, &sk.Created, &sk.Updated, &table,
			&p.Player, &p.Name, &p.Guest, &p.Rating, &p.Mu, &p.Sigma, &p.TokenHash); err != nil {
			return nil, err
		}
		if n := len(seeks); n > 0 && seeks[n-1].ID == sk.ID {
			seeks[n-1].Seekers = append(seeks[n-1].Seekers, p)
			continue
		}
		sk.BotWait = time.Duration(waitMS) * time.Millisecond
		sk.Created, sk.Updated = utc(sk.Created), utc(sk.Updated)
		if table != nil {
			sk.Table = *table
		}
		sk.Seekers = []store.Seeker{p}
		seeks = append(seeks, &sk)
	}
	return seeks, rows.Err()
}

// Claim marks the seeks named as claimed into table, all or nothing.
func (s *Store) Claim(ctx context.Context, table, pool string, seeks []string) error {
	if table == "" || len(seeks) == 0 {
		return fmt.Errorf("postgres: claim: want a table id and seeks, have %q and %d seeks", table, len(seeks))
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// Locked in id order: two claims that share seeks wait for each
		// other in one direction only, never in a circle.
		rows, err := tx.Query(ctx, `SELECT id, pool, tbl FROM lobby_seeks WHERE id = ANY($1) ORDER BY id FOR UPDATE`, seeks)
		if err != nil {
			return err
		}
		found := make(map[string]bool, len(seeks))
		for rows.Next() {
			var id, p string
			var claimed *string
			if err := rows.Scan(&id, &p, &claimed); err != nil {
				return err
			}
			switch {
			case claimed != nil:
				rows.Close()
				return fmt.Errorf("seek %q is claimed into table %q: %w", id, *claimed, store.ErrConflict)
			case p != pool:
				rows.Close()
				return fmt.Errorf("seek %q is of pool %q, not %q: %w", id, p, pool, store.ErrConflict)
			}
			found[id] = true
		}
		if err := rows.Err(); err != nil {
			return err
		}
		for i, id := range seeks {
			if !found[id] {
				return fmt.Errorf("seek %q is gone: %w", id, store.ErrConflict)
			}
			for _, o := range seeks[:i] {
				if o == id {
					return fmt.Errorf("seek %q is named twice", id)
				}
			}
		}
		_, err = tx.Exec(ctx, `UPDATE lobby_seeks SET tbl = $1, updated = $2 WHERE id = ANY($3)`, table, time.Now(), seeks)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: claim %d seeks into table %q: %w", len(seeks), table, err)
	}
	return nil
}

// Forget removes the seeks claimed into table.
func (s *Store) Forget(ctx context.Context, table string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM lobby_seeks
		WHERE id IN (SELECT id FROM lobby_seeks WHERE tbl = $1 ORDER BY id FOR UPDATE)`, table); err != nil {
		return fmt.Errorf("postgres: forget table %q: %w", table, err)
	}
	return nil
}

// Refresh sets Updated to at for node's open seeks updated before it,
// skipping those a claim holds.
func (s *Store) Refresh(ctx context.Context, node string, at time.Time) (int, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE lobby_seeks SET updated = $2
		WHERE id IN (SELECT id FROM lobby_seeks WHERE node = $1 AND tbl IS NULL AND updated < $2
			ORDER BY id FOR UPDATE SKIP LOCKED)`, node, check.Time(at))
	if err != nil {
		return 0, fmt.Errorf("postgres: refresh the seeks of node %q: %w", node, err)
	}
	return int(tag.RowsAffected()), nil
}

// Expire removes the seeks last updated before before, skipping those a
// claim holds.
func (s *Store) Expire(ctx context.Context, before time.Time) (int, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM lobby_seeks
		WHERE id IN (SELECT id FROM lobby_seeks WHERE updated < $1 ORDER BY id FOR UPDATE SKIP LOCKED)`, check.Time(before))
	if err != nil {
		return 0, fmt.Errorf("postgres: expire seeks: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// Claimed returns node's seeks claimed into tables.
func (s *Store) Claimed(ctx context.Context, node string) ([]*store.Seek, error) {
	seeks, err := s.querySeeks(ctx, `SELECT `+seekColumns+` FROM lobby_seeks s JOIN lobby_seekers k ON k.seek = s.id
		WHERE s.node = $1 AND s.tbl IS NOT NULL ORDER BY s.tbl, s.created, s.id, k.idx`, node)
	if err != nil {
		return nil, fmt.Errorf("postgres: claimed seeks of node %q: %w", node, err)
	}
	return seeks, nil
}

// ForgetSeek removes one claimed seek.
func (s *Store) ForgetSeek(ctx context.Context, id string) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var table *string
		err := tx.QueryRow(ctx, `SELECT tbl FROM lobby_seeks WHERE id = $1 FOR UPDATE`, id).Scan(&table)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return store.ErrNotFound
		case err != nil:
			return err
		case table == nil:
			return fmt.Errorf("the seek is open: %w", store.ErrConflict)
		}
		_, err = tx.Exec(ctx, `DELETE FROM lobby_seeks WHERE id = $1`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: forget seek %q: %w", id, err)
	}
	return nil
}
