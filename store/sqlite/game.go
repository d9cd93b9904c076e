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

// CreateGame stores a new game and its seats; ErrConflict if the id is
// taken. A zero Status is stored as Live, a zero Created as now and a zero
// Updated as Created; on success g's Status, Created and Updated are set to
// what was stored (times in UTC, to the microsecond).
func (s *Store) CreateGame(ctx context.Context, g *store.Game) error {
	if g == nil {
		return errors.New("sqlite: create game: no game given")
	}
	n := *g
	if err := check.Game(&n, time.Now()); err != nil {
		return fmt.Errorf("sqlite: create game: %w", err)
	}
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO games
			(id, rules, seed, seed_hash, start, settings, status, result, created, updated, last_event, rated)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)
			ON CONFLICT (id) DO NOTHING`,
			n.ID, n.Rules, blob(n.Seed), n.SeedHash, n.Start, jsonText(n.Settings),
			string(n.Status), n.Result, micros(n.Created), micros(n.Updated), n.Rated)
		if err != nil {
			return err
		}
		if rows, err := res.RowsAffected(); err != nil {
			return err
		} else if rows == 0 {
			return fmt.Errorf("the id is taken: %w", store.ErrConflict)
		}
		for i, seat := range n.Seats {
			if _, err := tx.ExecContext(ctx, `INSERT INTO seats (game_id, idx, player, name, token_hash, invite_hash, account_id)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, n.ID, i, seat.Player, seat.Name, blob(seat.TokenHash), blob(seat.InviteHash), text(seat.Account)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: create game %q: %w", n.ID, err)
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
	rows, err := s.read.QueryContext(ctx, `SELECT `+gameColumns+`
		FROM games g LEFT JOIN seats s ON s.game_id = g.id
		WHERE g.id = ?
		ORDER BY s.idx`, id)
	if err != nil {
		return nil, fmt.Errorf("sqlite: game %q: %w", id, err)
	}
	games, err := scanGames(rows)
	if err == nil {
		err = s.log.visible(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: game %q: %w", id, err)
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("sqlite: game %q: %w", id, store.ErrNotFound)
	}
	return games[0], nil
}

// Games lists games, most recently updated first (then by id), of the
// filter's status if it gives one, at most the filter's limit (50 if it
// gives none).
func (s *Store) Games(ctx context.Context, f store.Filter) ([]*store.Game, error) {
	where, args := "", []any{}
	if f.Status != "" {
		if err := check.Status(f.Status); err != nil {
			return nil, fmt.Errorf("sqlite: games: %w", err)
		}
		where, args = "WHERE status = ?", append(args, string(f.Status))
	}
	args = append(args, check.Limit(f))
	// One statement, so the games and their seats are one snapshot.
	rows, err := s.read.QueryContext(ctx, `SELECT `+gameColumns+`
		FROM (SELECT * FROM games `+where+` ORDER BY updated DESC, id LIMIT ?) g
		LEFT JOIN seats s ON s.game_id = g.id
		ORDER BY g.updated DESC, g.id, s.idx`, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: games: %w", err)
	}
	games, err := scanGames(rows)
	if err == nil {
		err = s.log.visible(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: games: %w", err)
	}
	return games, nil
}

// scanGames reads rows of gameColumns, a game's seats in consecutive rows,
// and closes them.
func scanGames(rows *sql.Rows) ([]*store.Game, error) {
	defer rows.Close()
	var games []*store.Game
	for rows.Next() {
		var (
			g                store.Game
			status           string
			created, updated int64
			idx              sql.NullInt64
			player, name     sql.NullString
			accountID        sql.NullString
			tokenHash        []byte
			inviteHash       []byte
		)
		if err := rows.Scan(&g.ID, &g.Rules, &g.Seed, &g.SeedHash, &g.Start, &g.Settings, &status, &g.Result,
			&created, &updated, &g.LastEvent, &g.Rated, &idx, &player, &name, &tokenHash, &inviteHash, &accountID); err != nil {
			return nil, err
		}
		last := len(games) - 1
		if last < 0 || games[last].ID != g.ID {
			g.Status = store.Status(status)
			g.Created, g.Updated = fromMicros(created), fromMicros(updated)
			games = append(games, &g)
			last++
		}
		if idx.Valid {
			games[last].Seats = append(games[last].Seats, store.Seat{
				Player: player.String, Name: name.String, TokenHash: tokenHash, InviteHash: inviteHash,
				Account: accountID.String,
			})
		}
	}
	return games, rows.Err()
}

// UpdateSeat replaces seat number seat (from 0) of a game and moves its
// Updated time on to now. ErrNotFound if the game or the seat does not
// exist.
func (s *Store) UpdateSeat(ctx context.Context, id string, seat int, st store.Seat) error {
	now := micros(check.Time(time.Now()))
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE seats SET player = ?, name = ?, token_hash = ?, invite_hash = ?, account_id = ?
			WHERE game_id = ? AND idx = ?`, st.Player, st.Name, blob(st.TokenHash), blob(st.InviteHash), text(st.Account), id, seat)
		if err != nil {
			return err
		}
		if rows, err := res.RowsAffected(); err != nil {
			return err
		} else if rows == 0 {
			if err := exists(ctx, tx, id); err != nil {
				return err
			}
			return fmt.Errorf("no seat %d: %w", seat, store.ErrNotFound)
		}
		_, err = tx.ExecContext(ctx, `UPDATE games SET updated = max(updated, ?) WHERE id = ?`, now, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: update seat of game %q: %w", id, err)
	}
	return nil
}

// Finish marks a game finished with its result and moves its Updated time
// on to now. Finishing a finished game again with the same result does
// nothing; with another result it is ErrConflict, since a result is final.
func (s *Store) Finish(ctx context.Context, id string, result string) error {
	now := micros(check.Time(time.Now()))
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var status, was string
		err := tx.QueryRowContext(ctx, `SELECT status, result FROM games WHERE id = ?`, id).Scan(&status, &was)
		if errors.Is(err, sql.ErrNoRows) {
			return store.ErrNotFound
		} else if err != nil {
			return err
		}
		if store.Status(status) == store.Finished {
			if was == result {
				return nil
			}
			return fmt.Errorf("already finished with result %q: %w", was, store.ErrConflict)
		}
		_, err = tx.ExecContext(ctx, `UPDATE games SET status = ?, result = ?, updated = max(updated, ?)
			WHERE id = ?`, string(store.Finished), result, now, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: finish game %q: %w", id, err)
	}
	return nil
}

// ReplaceSeed replaces a game's seed with seed if it is old; ErrConflict
// if it is not, ErrNotFound if there is no such game. The old bytes are
// overwritten on disk, not just unlinked (secure_delete, see Open).
func (s *Store) ReplaceSeed(ctx context.Context, id string, old, seed []byte) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET seed = ? WHERE id = ? AND seed IS ?`, blob(seed), id, blob(old))
		if err != nil {
			return err
		}
		if rows, err := res.RowsAffected(); err != nil {
			return err
		} else if rows == 0 {
			if err := exists(ctx, tx, id); err != nil {
				return err
			}
			return fmt.Errorf("the seed is not the one to replace: %w", store.ErrConflict)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: replace seed of game %q: %w", id, err)
	}
	return nil
}

// Scrub moves every committed change from the write-ahead log into the
// database file and empties the log (a TRUNCATE checkpoint), so that no
// replaced content, such as a plain seed sealed since, is left in the log.
// It waits for readers up to the busy timeout.
func (s *Store) Scrub(ctx context.Context) error {
	var busy, logged, moved int
	err := s.ckpt.exclusive(func() error {
		return s.write.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logged, &moved)
	})
	switch {
	case err != nil:
		return fmt.Errorf("sqlite: scrub: %w", err)
	case busy != 0:
		return errors.New("sqlite: scrub: the checkpoint could not finish: other connections are reading or writing")
	}
	return nil
}

// exists returns nil if the game exists, ErrNotFound if it does not.
func exists(ctx context.Context, q interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}, id string) error {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM games WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	}
	return err
}
