package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/internal/check"
)

var _ store.LobbyNews = (*Store)(nil)

// AddNews stores a piece of news, at now.
func (s *Store) AddNews(ctx context.Context, n *store.News) error {
	if err := check.News(n); err != nil {
		return fmt.Errorf("sqlite: add news: %w", err)
	}
	at := check.Time(time.Now())
	rows, err := s.exec(ctx, `INSERT INTO lobby_news (id, player, data, at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		n.ID, n.Player, n.Data, micros(at))
	if err == nil && rows == 0 {
		err = fmt.Errorf("the id is taken: %w", store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("sqlite: add news %q: %w", n.ID, err)
	}
	n.At = at
	return nil
}

// News returns the news since since, oldest first.
func (s *Store) News(ctx context.Context, since time.Time, limit int) ([]*store.News, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, player, data, at FROM lobby_news WHERE at >= ? ORDER BY at, id LIMIT ?`,
		micros(check.Time(since)), check.Seeks(limit))
	if err != nil {
		return nil, fmt.Errorf("sqlite: news: %w", err)
	}
	defer rows.Close()
	var out []*store.News
	for rows.Next() {
		var n store.News
		var at int64
		if err := rows.Scan(&n.ID, &n.Player, &n.Data, &at); err != nil {
			return nil, fmt.Errorf("sqlite: news: %w", err)
		}
		n.At = fromMicros(at)
		out = append(out, &n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: news: %w", err)
	}
	return out, nil
}

// ExpireNews removes the news before before.
func (s *Store) ExpireNews(ctx context.Context, before time.Time) (int, error) {
	n, err := s.exec(ctx, `DELETE FROM lobby_news WHERE at < ?`, micros(check.Time(before)))
	if err != nil {
		return 0, fmt.Errorf("sqlite: expire news: %w", err)
	}
	return n, nil
}
