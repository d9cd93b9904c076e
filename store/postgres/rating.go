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

// Ratings are shared by the nodes. A game's rating locks the game's row
// first (FOR UPDATE): a second rating of the same game waits for the
// first's commit and then finds it rated. It then takes an advisory lock
// on each of its players' ratings in the ruleset, in the order of their
// keys, before it reads them: two games with a player in common are rated
// one after the other, the second reading what the first wrote, and no
// two ratings wait for each other in a circle (each holds one game's row,
// taken before any player's lock).

var _ store.Ratings = (*Store)(nil)

// ratingLock is the first key of the advisory locks on the players'
// ratings (the second is a hash of the account's id and the ruleset).
const ratingLock = 0x72617465 // "rate"

// RateGame rates finished game id once, all or nothing.
func (s *Store) RateGame(ctx context.Context, id string, accounts []string, rate func(map[string]store.Rating) ([]store.Played, error)) error {
	if err := check.RateAccounts(accounts); err != nil {
		return fmt.Errorf("postgres: rate game %q: %w", id, err)
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var rules, status string
		var rated bool
		var ratedAt *time.Time
		err := tx.QueryRow(ctx, `SELECT rules, status, rated, rated_at FROM games WHERE id = $1 FOR UPDATE`, id).
			Scan(&rules, &status, &rated, &ratedAt)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		} else if err != nil {
			return err
		}
		switch {
		case !rated:
			return fmt.Errorf("it is not a rated game: %w", store.ErrConflict)
		case ratedAt != nil:
			return fmt.Errorf("it was rated at %s: %w", ratedAt.UTC().Format(time.RFC3339Nano), store.ErrConflict)
		case status != string(store.Finished):
			return fmt.Errorf("it is %s, not finished: %w", status, store.ErrConflict)
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext(a || '/' || $3))
			FROM unnest($2::text[]) a ORDER BY hashtext(a || '/' || $3)`, ratingLock, accounts, rules); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT `+ratingColumns+` FROM ratings r
			WHERE r.rules = $1 AND r.account_id = ANY($2)`, rules, accounts)
		if err != nil {
			return err
		}
		before := make(map[string]store.Rating, len(accounts))
		for rows.Next() {
			r, err := scanRating(rows)
			if err != nil {
				rows.Close()
				return err
			}
			before[r.Account] = r
		}
		if err := rows.Err(); err != nil {
			return err
		}
		points, err := rate(before)
		if err != nil {
			return err
		}
		now := time.Now()
		if err := check.Rated(id, rules, accounts, points, now); err != nil {
			return err
		}
		var b pgx.Batch
		for _, p := range points {
			first := 0
			if p.Rank == 1 {
				first = 1
			}
			b.Queue(`INSERT INTO ratings (account_id, rules, mu, sigma, games, firsts, score_sum, played)
				VALUES ($1, $2, $3, $4, 1, $5, $6, $7)
				ON CONFLICT (account_id, rules) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
					games = ratings.games + 1, firsts = ratings.firsts + excluded.firsts,
					score_sum = ratings.score_sum + excluded.score_sum,
					played = greatest(ratings.played, excluded.played)`,
				p.Account, rules, p.Mu, p.Sigma, first, p.Score, p.At)
			b.Queue(`INSERT INTO rating_history
				(account_id, game_id, rules, at, mu_before, sigma_before, mu, sigma, rank, score)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
				p.Account, id, rules, p.At, p.MuBefore, p.SigmaBefore, p.Mu, p.Sigma, p.Rank, p.Score)
		}
		b.Queue(`UPDATE games SET rated_at = $1 WHERE id = $2`, check.Time(now), id)
		return tx.SendBatch(ctx, &b).Close()
	})
	if err != nil {
		return fmt.Errorf("postgres: rate game %q: %w", id, err)
	}
	return nil
}

// Unrated returns the finished rated games not yet rated, oldest first.
func (s *Store) Unrated(ctx context.Context, limit int) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT id FROM games
		WHERE rated AND rated_at IS NULL AND status = 'finished'
		ORDER BY updated, id LIMIT $1`, check.RatingLimit(limit, store.DefaultUnrated))
	if err != nil {
		return nil, fmt.Errorf("postgres: unrated games: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("postgres: unrated games: %w", err)
	}
	return ids, nil
}

// ratingColumns are the columns scanRating reads.
const ratingColumns = `r.account_id, r.rules, r.mu, r.sigma, r.games, r.firsts, r.score_sum, r.played`

// scanRating reads a row of ratingColumns, then into more.
func scanRating(rows pgx.Rows, more ...any) (store.Rating, error) {
	var r store.Rating
	err := rows.Scan(append([]any{&r.Account, &r.Rules, &r.Mu, &r.Sigma, &r.Games, &r.Firsts, &r.Score, &r.Played}, more...)...)
	r.Played = utc(r.Played)
	return r, err
}

// AccountRatings returns an account's ratings, most recently played first.
func (s *Store) AccountRatings(ctx context.Context, account string) ([]store.Rating, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+ratingColumns+` FROM ratings r
		WHERE r.account_id = $1 ORDER BY r.played DESC, r.rules`, account)
	if err != nil {
		return nil, fmt.Errorf("postgres: ratings of %q: %w", account, err)
	}
	defer rows.Close()
	var rs []store.Rating
	for rows.Next() {
		r, err := scanRating(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: ratings of %q: %w", account, err)
		}
		rs = append(rs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: ratings of %q: %w", account, err)
	}
	return rs, nil
}

// RatingHistory returns an account's last points in a ruleset, oldest
// first.
func (s *Store) RatingHistory(ctx context.Context, account, rules string, limit int) ([]store.Played, error) {
	rows, err := s.pool.Query(ctx, `SELECT account_id, game_id, rules, at, mu_before, sigma_before, mu, sigma, rank, score
		FROM (SELECT * FROM rating_history WHERE account_id = $1 AND rules = $2 ORDER BY at DESC, game_id DESC LIMIT $3) h
		ORDER BY at, game_id`, account, rules, check.RatingLimit(limit, store.DefaultHistory))
	if err != nil {
		return nil, fmt.Errorf("postgres: rating history of %q in %q: %w", account, rules, err)
	}
	defer rows.Close()
	var ps []store.Played
	for rows.Next() {
		var p store.Played
		if err := rows.Scan(&p.Account, &p.Game, &p.Rules, &p.At, &p.MuBefore, &p.SigmaBefore, &p.Mu, &p.Sigma, &p.Rank, &p.Score); err != nil {
			return nil, fmt.Errorf("postgres: rating history of %q in %q: %w", account, rules, err)
		}
		p.At = utc(p.At)
		ps = append(ps, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: rating history of %q in %q: %w", account, rules, err)
	}
	return ps, nil
}

// RecentGames returns the account's last games, most recently updated
// first, with its point in the rated ones.
func (s *Store) RecentGames(ctx context.Context, account string, limit int) ([]store.PlayedGame, error) {
	rows, err := s.pool.Query(ctx, `SELECT g.id, g.rules, s.idx, g.status, g.result, g.rated, g.created, g.updated,
			h.game_id, h.at, h.mu_before, h.sigma_before, h.mu, h.sigma, h.rank, h.score
		FROM seats s JOIN games g ON g.id = s.game_id
		LEFT JOIN rating_history h ON h.account_id = s.account_id AND h.game_id = s.game_id
		WHERE s.account_id = $1
		ORDER BY g.updated DESC, g.id, s.idx LIMIT $2`, account, check.RatingLimit(limit, store.DefaultRecent))
	if err != nil {
		return nil, fmt.Errorf("postgres: recent games of %q: %w", account, err)
	}
	defer rows.Close()
	var gs []store.PlayedGame
	for rows.Next() {
		var (
			g           store.PlayedGame
			status      string
			hGame       *string
			at          *time.Time
			muB, sigB   *float64
			mu, sig     *float64
			rank, score *int32
			idx         int32
		)
		if err := rows.Scan(&g.Game, &g.Rules, &idx, &status, &g.Result, &g.Rated, &g.Created, &g.Updated,
			&hGame, &at, &muB, &sigB, &mu, &sig, &rank, &score); err != nil {
			return nil, fmt.Errorf("postgres: recent games of %q: %w", account, err)
		}
		g.Seat, g.Status, g.Created, g.Updated = int(idx), store.Status(status), utc(g.Created), utc(g.Updated)
		if hGame != nil {
			g.Point = &store.Played{Account: account, Game: g.Game, Rules: g.Rules, At: utc(*at),
				MuBefore: *muB, SigmaBefore: *sigB, Mu: *mu, Sigma: *sig, Rank: int(*rank), Score: int(*score)}
		}
		gs = append(gs, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: recent games of %q: %w", account, err)
	}
	return gs, nil
}

// Leaderboard returns a page of a ruleset's leaderboard, best first.
func (s *Store) Leaderboard(ctx context.Context, q store.LeaderQuery) ([]store.Leader, error) {
	if err := check.Leaders(&q); err != nil {
		return nil, fmt.Errorf("postgres: leaderboard: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+ratingColumns+`, a.name FROM ratings r
		JOIN accounts a ON a.id = r.account_id
		WHERE r.rules = $1 AND r.games >= $2 AND r.played >= $3 AND a.deleted IS NULL
		ORDER BY r.mu DESC, r.account_id LIMIT $4 OFFSET $5`,
		q.Rules, q.MinGames, q.Since, q.Limit, q.Offset)
	if err != nil {
		return nil, fmt.Errorf("postgres: leaderboard of %q: %w", q.Rules, err)
	}
	defer rows.Close()
	var ls []store.Leader
	for rows.Next() {
		var l store.Leader
		if l.Rating, err = scanRating(rows, &l.Name); err != nil {
			return nil, fmt.Errorf("postgres: leaderboard of %q: %w", q.Rules, err)
		}
		ls = append(ls, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: leaderboard of %q: %w", q.Rules, err)
	}
	return ls, nil
}
