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

// A game's rating is a transaction of the one writer (BEGIN IMMEDIATE):
// its check that the game is not rated yet, its reads of the players'
// ratings and its writes cannot interleave with another rating's, of this
// process or another on the same file.

var _ store.Ratings = (*Store)(nil)

// RateGame rates finished game id once, all or nothing.
func (s *Store) RateGame(ctx context.Context, id string, accounts []string, rate func(map[string]store.Rating) ([]store.Played, error)) error {
	if err := check.RateAccounts(accounts); err != nil {
		return fmt.Errorf("sqlite: rate game %q: %w", id, err)
	}
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var rules, status string
		var rated bool
		var ratedAt sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT rules, status, rated, rated_at FROM games WHERE id = ?`, id).
			Scan(&rules, &status, &rated, &ratedAt)
		if errors.Is(err, sql.ErrNoRows) {
			return store.ErrNotFound
		} else if err != nil {
			return err
		}
		switch {
		case !rated:
			return fmt.Errorf("it is not a rated game: %w", store.ErrConflict)
		case ratedAt.Valid:
			return fmt.Errorf("it was rated at %s: %w", fromMicros(ratedAt.Int64).Format(time.RFC3339Nano), store.ErrConflict)
		case status != string(store.Finished):
			return fmt.Errorf("it is %s, not finished: %w", status, store.ErrConflict)
		}
		before := make(map[string]store.Rating, len(accounts))
		for _, a := range accounts {
			r := store.Rating{Account: a, Rules: rules}
			var played int64
			err := tx.QueryRowContext(ctx, `SELECT mu, sigma, games, firsts, score_sum, played FROM ratings
				WHERE account_id = ? AND rules = ?`, a, rules).Scan(&r.Mu, &r.Sigma, &r.Games, &r.Firsts, &r.Score, &played)
			if errors.Is(err, sql.ErrNoRows) {
				continue
			} else if err != nil {
				return err
			}
			r.Played = fromMicros(played)
			before[a] = r
		}
		points, err := rate(before)
		if err != nil {
			return err
		}
		now := time.Now()
		if err := check.Rated(id, rules, accounts, points, now); err != nil {
			return err
		}
		for _, p := range points {
			first := 0
			if p.Rank == 1 {
				first = 1
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO ratings (account_id, rules, mu, sigma, games, firsts, score_sum, played)
				VALUES (?, ?, ?, ?, 1, ?, ?, ?)
				ON CONFLICT (account_id, rules) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
					games = games + 1, firsts = firsts + excluded.firsts, score_sum = score_sum + excluded.score_sum,
					played = max(played, excluded.played)`,
				p.Account, rules, p.Mu, p.Sigma, first, p.Score, micros(p.At)); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO rating_history
				(account_id, game_id, rules, at, mu_before, sigma_before, mu, sigma, rank, score)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				p.Account, id, rules, micros(p.At), p.MuBefore, p.SigmaBefore, p.Mu, p.Sigma, p.Rank, p.Score); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE games SET rated_at = ? WHERE id = ?`, micros(check.Time(now)), id)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: rate game %q: %w", id, err)
	}
	return nil
}

// Unrated returns the finished rated games not yet rated, oldest first.
func (s *Store) Unrated(ctx context.Context, limit int) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id FROM games
		WHERE rated = 1 AND rated_at IS NULL AND status = 'finished'
		ORDER BY updated, id LIMIT ?`, check.RatingLimit(limit, store.DefaultUnrated))
	if err != nil {
		return nil, fmt.Errorf("sqlite: unrated games: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("sqlite: unrated games: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: unrated games: %w", err)
	}
	// Nothing a power cut could take back is shown (logsync.go).
	if err := s.log.visible(ctx); err != nil {
		return nil, fmt.Errorf("sqlite: unrated games: %w", err)
	}
	return ids, nil
}

// ratingColumns are the columns scanRating reads.
const ratingColumns = `r.account_id, r.rules, r.mu, r.sigma, r.games, r.firsts, r.score_sum, r.played`

// scanRating reads a row of ratingColumns, then into more.
func scanRating(rows *sql.Rows, more ...any) (store.Rating, error) {
	var r store.Rating
	var played int64
	err := rows.Scan(append([]any{&r.Account, &r.Rules, &r.Mu, &r.Sigma, &r.Games, &r.Firsts, &r.Score, &played}, more...)...)
	r.Played = fromMicros(played)
	return r, err
}

// AccountRatings returns an account's ratings, most recently played first.
func (s *Store) AccountRatings(ctx context.Context, account string) ([]store.Rating, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+ratingColumns+` FROM ratings r
		WHERE r.account_id = ? ORDER BY r.played DESC, r.rules`, account)
	if err != nil {
		return nil, fmt.Errorf("sqlite: ratings of %q: %w", account, err)
	}
	defer rows.Close()
	var rs []store.Rating
	for rows.Next() {
		r, err := scanRating(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: ratings of %q: %w", account, err)
		}
		rs = append(rs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: ratings of %q: %w", account, err)
	}
	// Nothing a power cut could take back is shown (logsync.go).
	if err := s.log.visible(ctx); err != nil {
		return nil, fmt.Errorf("sqlite: ratings: %w", err)
	}
	return rs, nil
}

// pointColumns are the columns scanPoint reads, of rating_history h.
const pointColumns = `h.account_id, h.game_id, h.rules, h.at, h.mu_before, h.sigma_before, h.mu, h.sigma, h.rank, h.score`

// RatingHistory returns an account's last points in a ruleset, oldest
// first.
func (s *Store) RatingHistory(ctx context.Context, account, rules string, limit int) ([]store.Played, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+pointColumns+` FROM (SELECT * FROM rating_history
			WHERE account_id = ? AND rules = ? ORDER BY at DESC, game_id DESC LIMIT ?) h
		ORDER BY h.at, h.game_id`, account, rules, check.RatingLimit(limit, store.DefaultHistory))
	if err != nil {
		return nil, fmt.Errorf("sqlite: rating history of %q in %q: %w", account, rules, err)
	}
	defer rows.Close()
	var ps []store.Played
	for rows.Next() {
		var p store.Played
		var at int64
		if err := rows.Scan(&p.Account, &p.Game, &p.Rules, &at, &p.MuBefore, &p.SigmaBefore, &p.Mu, &p.Sigma, &p.Rank, &p.Score); err != nil {
			return nil, fmt.Errorf("sqlite: rating history of %q in %q: %w", account, rules, err)
		}
		p.At = fromMicros(at)
		ps = append(ps, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: rating history of %q in %q: %w", account, rules, err)
	}
	// Nothing a power cut could take back is shown (logsync.go).
	if err := s.log.visible(ctx); err != nil {
		return nil, fmt.Errorf("sqlite: rating history: %w", err)
	}
	return ps, nil
}

// RecentGames returns the account's last games, most recently updated
// first, with its point in the rated ones.
func (s *Store) RecentGames(ctx context.Context, account string, limit int) ([]store.PlayedGame, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT g.id, g.rules, s.idx, g.status, g.result, g.rated, g.created, g.updated,
			h.game_id, h.at, h.mu_before, h.sigma_before, h.mu, h.sigma, h.rank, h.score
		FROM seats s JOIN games g ON g.id = s.game_id
		LEFT JOIN rating_history h ON h.account_id = s.account_id AND h.game_id = s.game_id
		WHERE s.account_id = ?
		ORDER BY g.updated DESC, g.id, s.idx LIMIT ?`, account, check.RatingLimit(limit, store.DefaultRecent))
	if err != nil {
		return nil, fmt.Errorf("sqlite: recent games of %q: %w", account, err)
	}
	defer rows.Close()
	var gs []store.PlayedGame
	for rows.Next() {
		var (
			g                store.PlayedGame
			status           string
			created, updated int64
			hGame            sql.NullString
			at               sql.NullInt64
			p                store.Played
			muB, sigB, mu    sql.NullFloat64
			sig              sql.NullFloat64
			rank, score      sql.NullInt64
		)
		if err := rows.Scan(&g.Game, &g.Rules, &g.Seat, &status, &g.Result, &g.Rated, &created, &updated,
			&hGame, &at, &muB, &sigB, &mu, &sig, &rank, &score); err != nil {
			return nil, fmt.Errorf("sqlite: recent games of %q: %w", account, err)
		}
		g.Status, g.Created, g.Updated = store.Status(status), fromMicros(created), fromMicros(updated)
		if hGame.Valid {
			p = store.Played{Account: account, Game: g.Game, Rules: g.Rules, At: fromMicros(at.Int64),
				MuBefore: muB.Float64, SigmaBefore: sigB.Float64, Mu: mu.Float64, Sigma: sig.Float64,
				Rank: int(rank.Int64), Score: int(score.Int64)}
			g.Point = &p
		}
		gs = append(gs, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: recent games of %q: %w", account, err)
	}
	// Nothing a power cut could take back is shown (logsync.go).
	if err := s.log.visible(ctx); err != nil {
		return nil, fmt.Errorf("sqlite: recent games: %w", err)
	}
	return gs, nil
}

// Leaderboard returns a page of a ruleset's leaderboard, best first.
func (s *Store) Leaderboard(ctx context.Context, q store.LeaderQuery) ([]store.Leader, error) {
	if err := check.Leaders(&q); err != nil {
		return nil, fmt.Errorf("sqlite: leaderboard: %w", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+ratingColumns+`, a.name FROM ratings r
		JOIN accounts a ON a.id = r.account_id
		WHERE r.rules = ? AND r.games >= ? AND r.played >= ? AND a.deleted IS NULL
		ORDER BY r.mu DESC, r.account_id LIMIT ? OFFSET ?`,
		q.Rules, q.MinGames, micros(q.Since), q.Limit, q.Offset)
	if err != nil {
		return nil, fmt.Errorf("sqlite: leaderboard of %q: %w", q.Rules, err)
	}
	defer rows.Close()
	var ls []store.Leader
	for rows.Next() {
		var l store.Leader
		if l.Rating, err = scanRating(rows, &l.Name); err != nil {
			return nil, fmt.Errorf("sqlite: leaderboard of %q: %w", q.Rules, err)
		}
		ls = append(ls, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: leaderboard of %q: %w", q.Rules, err)
	}
	// Nothing a power cut could take back is shown (logsync.go).
	if err := s.log.visible(ctx); err != nil {
		return nil, fmt.Errorf("sqlite: leaderboard: %w", err)
	}
	return ls, nil
}
