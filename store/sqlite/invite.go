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

// The invitations' writes are transactions of the one writer, as the
// seeks' are: a taking's check that the invitation is open and its
// marking it cannot interleave with another taking.

var _ store.PairInvites = (*Store)(nil)

// OpenInvite stores a new open invitation.
func (s *Store) OpenInvite(ctx context.Context, inv *store.PairInvite, max int) error {
	n := *inv
	if err := check.Invite(&n, time.Now()); err != nil {
		return fmt.Errorf("sqlite: open invitation: %w", err)
	}
	p := n.Inviter
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if max > 0 {
			var open int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM lobby_invites WHERE player = ? AND seek IS NULL`, p.Player).Scan(&open); err != nil {
				return err
			}
			if open >= max {
				return fmt.Errorf("player %q has %d open: %w", p.Player, open, store.ErrTooMany)
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO lobby_invites (hash, pool, bots, bot_wait_ms, player, name, guest, rating, mu, sigma,
			token_hash, node, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING`,
			n.Hash, n.Pool, n.Bots, n.BotWait.Milliseconds(), p.Player, p.Name, p.Guest, p.Rating, p.Mu, p.Sigma,
			p.TokenHash, n.Node, micros(n.Created), micros(n.Updated))
		if err != nil {
			return err
		}
		if rows, err := res.RowsAffected(); err != nil {
			return err
		} else if rows == 0 {
			return fmt.Errorf("the hash is taken: %w", store.ErrConflict)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: open invitation: %w", err)
	}
	inv.BotWait, inv.Created, inv.Updated, inv.Seek = n.BotWait, n.Created, n.Updated, ""
	return nil
}

// TakeInvite takes the open invitation of hash for seek.
func (s *Store) TakeInvite(ctx context.Context, hash []byte, seek string) (*store.PairInvite, error) {
	if seek == "" {
		return nil, errors.New("sqlite: take invitation: no seek given")
	}
	var inv *store.PairInvite
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if inv, err = scanInvite(tx.QueryRowContext(ctx, `SELECT `+inviteColumns+` FROM lobby_invites WHERE hash = ?`, hash)); err != nil {
			return err
		}
		if inv.Seek != "" {
			return fmt.Errorf("it is taken already: %w", store.ErrConflict)
		}
		now := check.Time(time.Now())
		if _, err := tx.ExecContext(ctx, `UPDATE lobby_invites SET seek = ?, updated = ? WHERE hash = ?`, seek, micros(now), hash); err != nil {
			return err
		}
		inv.Seek, inv.Updated = seek, now
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: take invitation: %w", err)
	}
	return inv, nil
}

// ReleaseInvite opens again the invitation seek took.
func (s *Store) ReleaseInvite(ctx context.Context, hash []byte, seek string) error {
	res, err := s.exec(ctx, `UPDATE lobby_invites SET seek = NULL WHERE hash = ? AND seek = ?`, hash, seek)
	if err == nil && res == 0 {
		err = store.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("sqlite: release invitation of seek %q: %w", seek, err)
	}
	return nil
}

// DropInvite removes an invitation.
func (s *Store) DropInvite(ctx context.Context, hash []byte) error {
	res, err := s.exec(ctx, `DELETE FROM lobby_invites WHERE hash = ?`, hash)
	if err == nil && res == 0 {
		err = store.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("sqlite: drop invitation: %w", err)
	}
	return nil
}

// RefreshInvites keeps node's open invitations alive.
func (s *Store) RefreshInvites(ctx context.Context, node string, at time.Time) (int, error) {
	us := micros(check.Time(at))
	n, err := s.exec(ctx, `UPDATE lobby_invites SET updated = ? WHERE node = ? AND seek IS NULL AND updated < ?`, us, node, us)
	if err != nil {
		return 0, fmt.Errorf("sqlite: refresh the invitations of node %q: %w", node, err)
	}
	return n, nil
}

// ExpireInvites removes the stale invitations.
func (s *Store) ExpireInvites(ctx context.Context, before time.Time) (int, error) {
	n, err := s.exec(ctx, `DELETE FROM lobby_invites WHERE updated < ?`, micros(check.Time(before)))
	if err != nil {
		return 0, fmt.Errorf("sqlite: expire invitations: %w", err)
	}
	return n, nil
}

// exec runs one statement in a transaction of the writer, and returns
// how many rows it changed.
func (s *Store) exec(ctx context.Context, query string, args ...any) (int, error) {
	var n int64
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}

// inviteColumns are the columns scanInvite reads.
const inviteColumns = `hash, pool, bots, bot_wait_ms, player, name, guest, rating, mu, sigma, token_hash, node, created, updated, seek`

// scanInvite reads a row of inviteColumns; ErrNotFound if there is none.
func scanInvite(row *sql.Row) (*store.PairInvite, error) {
	var inv store.PairInvite
	p := &inv.Inviter
	var waitMS, created, updated int64
	var seek sql.NullString
	err := row.Scan(&inv.Hash, &inv.Pool, &inv.Bots, &waitMS, &p.Player, &p.Name, &p.Guest, &p.Rating, &p.Mu, &p.Sigma,
		&p.TokenHash, &inv.Node, &created, &updated, &seek)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	} else if err != nil {
		return nil, err
	}
	inv.BotWait = time.Duration(waitMS) * time.Millisecond
	inv.Created, inv.Updated, inv.Seek = fromMicros(created), fromMicros(updated), seek.String
	return &inv, nil
}
