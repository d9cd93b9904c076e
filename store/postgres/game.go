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

// CreateGame stores a new game and its seats; ErrConflict if the id is
// taken. A zero Status is stored as Live, a zero Created as now and a zero
// Updated as Created; on success g's Status, Created and Updated are set to
// what was stored (times in UTC, to the microsecond).
func (s *Store) CreateGame(ctx context.Context, g *store.Game) error {
	if g == nil {
		return errors.New("postgres: create game: no game given")
	}
	n := *g
	if err := check.Game(&n, time.Now()); err != nil {
		return fmt.Errorf("postgres: create game: %w", err)
	}
	// A node's new live game is leased to it, at epoch 1 (cluster.go).
	var owner *string
	var lease float64
	nd := s.node.Load()
	if nd != nil && n.Status == store.Live {
		owner, lease = &nd.id, seconds(nd.lease)
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO games
			(id, rules, seed, seed_hash, start, settings, status, result, created, updated, last_event,
			 owner, epoch, lease_until, renewed, rated)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0,
			 $11, 1, CASE WHEN $11::text IS NULL THEN NULL ELSE now() + make_interval(secs => $12) END,
			 CASE WHEN $11::text IS NULL THEN NULL ELSE now() END, $13)
			ON CONFLICT (id) DO NOTHING`,
			n.ID, n.Rules, orNull(n.Seed), n.SeedHash, n.Start, orNull(n.Settings),
			string(n.Status), n.Result, n.Created, n.Updated, owner, lease, n.Rated)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("the id is taken: %w", store.ErrConflict)
		}
		if len(n.Seats) == 0 {
			return nil
		}
		var b pgx.Batch
		for i, seat := range n.Seats {
			b.Queue(`INSERT INTO seats (game_id, idx, player, name, token_hash, invite_hash, account_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				n.ID, i, seat.Player, seat.Name, orNull(seat.TokenHash), orNull(seat.InviteHash), text(seat.Account))
		}
		return tx.SendBatch(ctx, &b).Close()
	})
	if err != nil {
		return fmt.Errorf("postgres: create game %q: %w", n.ID, err)
	}
	if owner != nil {
		nd.mu.Lock()
		nd.held[n.ID] = 1
		nd.mu.Unlock()
	}
	g.Status, g.Created, g.Updated = n.Status, n.Created, n.Updated
	return nil
}

// gameColumns are the columns scanGames reads: a game's, then one seat's
// (NULL for a game without seats).
const gameColumns = `g.id, g.rules, g.seed, g.seed_hash, g.start, g.settings, g.status, g.result,
	g.created, g.updated, g.last_event, g.rated, s.idx, s.player, s.name, s.token_hash, s.invite_hash, s.account_id`

// Game returns the game with the given id, or ErrNotFound.
func (s *Store) Game(ctx context.Context, id string) (*store.Game, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+gameColumns+`
		FROM games g LEFT JOIN seats s ON s.game_id = g.id
		WHERE g.id = $1
		ORDER BY s.idx`, id)
	if err != nil {
		return nil, fmt.Errorf("postgres: game %q: %w", id, err)
	}
	games, err := scanGames(rows)
	if err != nil {
		return nil, fmt.Errorf("postgres: game %q: %w", id, err)
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("postgres: game %q: %w", id, store.ErrNotFound)
	}
	return games[0], nil
}

// Games lists games, most recently updated first (then by id), of the
// filter's status if it gives one, at most the filter's limit (50 if it
// gives none).
func (s *Store) Games(ctx context.Context, f store.Filter) ([]*store.Game, error) {
	where, args := "", []any{check.Limit(f)}
	if f.Status != "" {
		if err := check.Status(f.Status); err != nil {
			return nil, fmt.Errorf("postgres: games: %w", err)
		}
		where, args = "WHERE status = $2", append(args, string(f.Status))
	}
	// One statement, so the games and their seats are one snapshot.
	rows, err := s.pool.Query(ctx, `SELECT `+gameColumns+`
		FROM (SELECT * FROM games `+where+` ORDER BY updated DESC, id LIMIT $1) g
		LEFT JOIN seats s ON s.game_id = g.id
		ORDER BY g.updated DESC, g.id, s.idx`, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: games: %w", err)
	}
	games, err := scanGames(rows)
	if err != nil {
		return nil, fmt.Errorf("postgres: games: %w", err)
	}
	return games, nil
}

// scanGames reads rows of gameColumns, a game's seats in consecutive rows,
// and closes them.
func scanGames(rows pgx.Rows) ([]*store.Game, error) {
	defer rows.Close()
	var games []*store.Game
	for rows.Next() {
		var (
			g            store.Game
			status       string
			idx          *int32
			player, name *string
			tokenHash    []byte
			inviteHash   []byte
			accountID    *string
		)
		if err := rows.Scan(&g.ID, &g.Rules, &g.Seed, &g.SeedHash, &g.Start, &g.Settings, &status, &g.Result,
			&g.Created, &g.Updated, &g.LastEvent, &g.Rated, &idx, &player, &name, &tokenHash, &inviteHash, &accountID); err != nil {
			return nil, err
		}
		last := len(games) - 1
		if last < 0 || games[last].ID != g.ID {
			g.Status = store.Status(status)
			g.Created, g.Updated = utc(g.Created), utc(g.Updated)
			games = append(games, &g)
			last++
		}
		if idx != nil {
			games[last].Seats = append(games[last].Seats, store.Seat{
				Player: *player, Name: *name, TokenHash: tokenHash, InviteHash: inviteHash,
			})
			if accountID != nil {
				games[last].Seats[len(games[last].Seats)-1].Account = *accountID
			}
		}
	}
	return games, rows.Err()
}

// UpdateSeat replaces seat number seat (from 0) of a game and moves its
// Updated time on to now. ErrNotFound if the game or the seat does not
// exist.
//
// It is one statement, fenced in its WHERE as appends are (fenceSQL):
// no row of the game stays locked while the node waits for an answer, so
// a node paused between two round trips keeps no other node from
// adopting the game.
func (s *Store) UpdateSeat(ctx context.Context, id string, seat int, st store.Seat) error {
	now := check.Time(time.Now())
	nd, epoch, err := s.fence(id)
	if err != nil {
		return fmt.Errorf("postgres: update seat of game %q: %w", id, err)
	}
	owner := fenceOwner(nd)
	tag, err := s.pool.Exec(ctx, `WITH g AS (
			UPDATE games SET updated = greatest(updated, $3)
			WHERE id = $4 AND `+fenceSQL+`
				AND EXISTS (SELECT 1 FROM seats WHERE game_id = $4 AND idx = $5)
			RETURNING id
		)
		UPDATE seats s SET player = $6, name = $7, token_hash = $8, invite_hash = $9, account_id = $10
		FROM g WHERE s.game_id = g.id AND s.idx = $5`,
		owner, epoch, now, id, seat, st.Player, st.Name, orNull(st.TokenHash), orNull(st.InviteHash), text(st.Account))
	if err == nil && tag.RowsAffected() == 0 {
		err = s.unwritten(ctx, nd, epoch, id, func(row gameRow) error {
			if seat < 0 || seat >= row.seats {
				return fmt.Errorf("no seat %d: %w", seat, store.ErrNotFound)
			}
			return nil
		})
	}
	if err != nil {
		return fmt.Errorf("postgres: update seat of game %q: %w", id, err)
	}
	return nil
}

// Finish marks a game finished with its result and moves its Updated time
// on to now. Finishing a finished game again with the same result does
// nothing; with another result it is ErrConflict, since a result is final.
// It is one statement, fenced as UpdateSeat is: of two racing Finishes,
// the second waits for the first's row lock, then finds the game finished.
func (s *Store) Finish(ctx context.Context, id string, result string) error {
	now := check.Time(time.Now())
	nd, epoch, err := s.fence(id)
	if err != nil {
		return fmt.Errorf("postgres: finish game %q: %w", id, err)
	}
	owner := fenceOwner(nd)
	tag, err := s.pool.Exec(ctx, `UPDATE games SET status = $3, result = $4, updated = greatest(updated, $5)
		WHERE id = $6 AND status <> $3 AND `+fenceSQL,
		owner, epoch, string(store.Finished), result, now, id)
	if err == nil && tag.RowsAffected() == 0 {
		err = s.unwritten(ctx, nd, epoch, id, func(row gameRow) error {
			switch {
			case row.status != store.Finished:
				return nil
			case row.result == result:
				return errWritten
			}
			return fmt.Errorf("already finished with result %q: %w", row.result, store.ErrConflict)
		})
	}
	if err != nil {
		return fmt.Errorf("postgres: finish game %q: %w", id, err)
	}
	return nil
}

// querier is a pool, a connection or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// exists returns nil if the game exists, ErrNotFound if it does not.
func exists(ctx context.Context, q querier, id string) error {
	var one int
	err := q.QueryRow(ctx, `SELECT 1 FROM games WHERE id = $1`, id).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ErrNotFound
	}
	return err
}

// ReplaceSeed replaces a game's seed with seed if it is old; ErrConflict
// if it is not, ErrNotFound if there is no such game.
func (s *Store) ReplaceSeed(ctx context.Context, id string, old, seed []byte) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE games SET seed = $1 WHERE id = $2 AND seed IS NOT DISTINCT FROM $3`, orNull(seed), id, orNull(old))
		if err != nil {
			return err
		}
		if tag.RowsAffected() > 0 {
			return nil
		}
		if err := exists(ctx, tx, id); err != nil {
			return err
		}
		return fmt.Errorf("the seed is not the one to replace: %w", store.ErrConflict)
	})
	if err != nil {
		return fmt.Errorf("postgres: replace seed of game %q: %w", id, err)
	}
	return nil
}

// Scrub rewrites the games table (VACUUM FULL), so that the old versions
// of its rows, such as plain seeds sealed since, are no longer in its
// files. It locks the table while it runs: SealSeeds calls it once, at the
// server's start, and only if it sealed anything. Copies made before (base
// backups, an archive of the write-ahead log) keep what they hold.
func (s *Store) Scrub(ctx context.Context) error {
	if _, err := s.pool.Exec(ctx, `VACUUM FULL games`); err != nil {
		return fmt.Errorf("postgres: scrub: %w", err)
	}
	return nil
}
