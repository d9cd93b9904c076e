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

// The news's At is the database's clock (clock_timestamp), so that the
// nodes read it by one clock whatever their own say.

var _ store.LobbyNews = (*Store)(nil)

// AddNews stores a piece of news, at the database's now.
func (s *Store) AddNews(ctx context.Context, n *store.News) error {
	if err := check.News(n); err != nil {
		return fmt.Errorf("postgres: add news: %w", err)
	}
	var at time.Time
	err := s.pool.QueryRow(ctx, `INSERT INTO lobby_news (id, player, data) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO NOTHING RETURNING at`, n.ID, n.Player, n.Data).Scan(&at)
	if err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			err = fmt.Errorf("the id is taken: %w", store.ErrConflict)
		}
		return fmt.Errorf("postgres: add news %q: %w", n.ID, err)
	}
	n.At = at.UTC()
	return nil
}

// News returns the news since since, oldest first.
func (s *Store) News(ctx context.Context, since time.Time, limit int) ([]*store.News, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, player, data, at FROM lobby_news WHERE at >= $1 ORDER BY at, id LIMIT $2`,
		check.Time(since), check.Seeks(limit))
	if err != nil {
		return nil, fmt.Errorf("postgres: news: %w", err)
	}
	defer rows.Close()
	var out []*store.News
	for rows.Next() {
		var n store.News
		if err := rows.Scan(&n.ID, &n.Player, &n.Data, &n.At); err != nil {
			return nil, fmt.Errorf("postgres: news: %w", err)
		}
		n.At = n.At.UTC()
		out = append(out, &n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: news: %w", err)
	}
	return out, nil
}

// ExpireNews removes the news before before.
func (s *Store) ExpireNews(ctx context.Context, before time.Time) (int, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM lobby_news WHERE at < $1`, check.Time(before))
	if err != nil {
		return 0, fmt.Errorf("postgres: expire news: %w", err)
	}
	return int(tag.RowsAffected()), nil
}
