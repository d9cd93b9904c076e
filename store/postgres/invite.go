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

// An invitation is taken by one update that sets its seek only while it
// has none: a second taker's update waits for the first's row lock, then
// finds the seek set and changes nothing. OpenInvite takes the lobby's
// advisory lock of the inviter first, as seeks do, so that its count of
// the inviter's open invitations is exact.

var _ store.PairInvites = (*Store)(nil)

// OpenInvite stores a new open invitation.
func (s *Store) OpenInvite(ctx context.Context, inv *store.PairInvite, max int) error {
	n := *inv
	if err := check.Invite(&n, time.Now()); err != nil {
		return fmt.Errorf("postgres: open invitation: %w", err)
	}
	p := n.Inviter
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockPlayer(ctx, tx, p.Player); err != nil {
			return err
		}
		if max > 0 {
			var open int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM lobby_invites WHERE player = $1 AND seek IS NULL`, p.Player).Scan(&open); err != nil {
				return err
			}
			if open >= max {
				return fmt.Errorf("player %q has %d open: %w", p.Player, open, store.ErrTooMany)
			}
		}
		tag, err := tx.Exec(ctx, `INSERT INTO lobby_invites (hash, pool, bots, bot_wait_ms, player, name, guest, rating, mu, sigma,
			token_hash, node, created, updated) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (hash) DO NOTHING`,
			n.Hash, n.Pool, n.Bots, n.BotWait.Milliseconds(), p.Player, p.Name, p.Guest, p.Rating, p.Mu, p.Sigma,
			p.TokenHash, n.Node, n.Created, n.Updated)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("the hash is taken: %w", store.ErrConflict)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: open invitation: %w", err)
	}
	inv.BotWait, inv.Created, inv.Updated, inv.Seek = n.BotWait, n.Created, n.Updated, ""
	return nil
}

// inviteColumns are the columns scanInvite reads.
const inviteColumns = `hash, pool, bots, bot_wait_ms, player, name, guest, rating, mu, sigma, token_hash, node, created, updated, seek`

// TakeInvite takes the open invitation of hash for seek.
func (s *Store) TakeInvite(ctx context.Context, hash []byte, seek string) (*store.PairInvite, error) {
	if seek == "" {
		return nil, errors.New("postgres: take invitation: no seek given")
	}
	inv, err := scanInvite(s.pool.QueryRow(ctx, `UPDATE lobby_invites SET seek = $2, updated = $3
		WHERE hash = $1 AND seek IS NULL RETURNING `+inviteColumns, hash, seek, check.Time(time.Now())))
	if errors.Is(err, store.ErrNotFound) {
		var one int
		if s.pool.QueryRow(ctx, `SELECT 1 FROM lobby_invites WHERE hash = $1`, hash).Scan(&one) == nil {
			err = fmt.Errorf("it is taken already: %w", store.ErrConflict)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: take invitation: %w", err)
	}
	return inv, nil
}

// ReleaseInvite opens again the invitation seek took.
func (s *Store) ReleaseInvite(ctx context.Context, hash []byte, seek string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE lobby_invites SET seek = NULL WHERE hash = $1 AND seek = $2`, hash, seek)
	if err == nil && tag.RowsAffected() == 0 {
		err = store.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("postgres: release invitation of seek %q: %w", seek, err)
	}
	return nil
}

// DropInvite removes an invitation.
func (s *Store) DropInvite(ctx context.Context, hash []byte) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM lobby_invites WHERE hash = $1`, hash)
	if err == nil && tag.RowsAffected() == 0 {
		err = store.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("postgres: drop invitation: %w", err)
	}
	return nil
}

// RefreshInvites keeps node's open invitations alive, skipping those a
// taker holds.
func (s *Store) RefreshInvites(ctx context.Context, node string, at time.Time) (int, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE lobby_invites SET updated = $2
		WHERE hash IN (SELECT hash FROM lobby_invites WHERE node = $1 AND seek IS NULL AND updated < $2
			ORDER BY hash FOR UPDATE SKIP LOCKED)`, node, check.Time(at))
	if err != nil {
		return 0, fmt.Errorf("postgres: refresh the invitations of node %q: %w", node, err)
	}
	return int(tag.RowsAffected()), nil
}

// ExpireInvites removes the stale invitations, skipping those a taker
// holds.
func (s *Store) ExpireInvites(ctx context.Context, before time.Time) (int, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM lobby_invites
		WHERE hash IN (SELECT hash FROM lobby_invites WHERE updated < $1 ORDER BY hash FOR UPDATE SKIP LOCKED)`, check.Time(before))
	if err != nil {
		return 0, fmt.Errorf("postgres: expire invitations: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// scanInvite reads a row of inviteColumns; ErrNotFound if there is none.
func scanInvite(row pgx.Row) (*store.PairInvite, error) {
	var inv store.PairInvite
	p := &inv.Inviter
	var waitMS int64
	var seek *string
	err := row.Scan(&inv.Hash, &inv.Pool, &inv.Bots, &waitMS, &p.Player, &p.Name, &p.Guest, &p.Rating, &p.Mu, &p.Sigma,
		&p.TokenHash, &inv.Node, &inv.Created, &inv.Updated, &seek)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, store.ErrNotFound
	} else if err != nil {
		return nil, err
	}
	inv.BotWait = time.Duration(waitMS) * time.Millisecond
	inv.Created, inv.Updated = inv.Created.UTC(), inv.Updated.UTC()
	if seek != nil {
		inv.Seek = *seek
	}
	return &inv, nil
}
