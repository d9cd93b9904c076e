package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/internal/check"
)

var _ store.Accounts = (*Store)(nil)

// CreateAccount stores a new account with the hashes of its recovery
// codes; ErrConflict if its id or folded name is taken.
func (s *Store) CreateAccount(ctx context.Context, a *store.Account, recovery [][]byte) error {
	created, err := check.Account(a, time.Now())
	if err != nil {
		return fmt.Errorf("postgres: create account: %w", err)
	}
	for _, h := range recovery {
		if len(h) == 0 {
			return fmt.Errorf("postgres: create account %q: an empty recovery code hash", a.ID)
		}
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO accounts (id, name, folded, password, password_changed, created)
			VALUES ($1, $2, $3, $4, $5, $6)`,
			a.ID, a.Name, a.Folded, nullText(a.Password), nullTime(a.PasswordChanged), created)
		if isUniqueViolation(err) {
			return fmt.Errorf("the id or the name is taken: %w", store.ErrConflict)
		} else if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO recovery_codes (account_id, hash) SELECT $1, unnest($2::bytea[])
			ON CONFLICT DO NOTHING`, a.ID, recovery)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: create account %q: %w", a.ID, err)
	}
	a.Created = created
	return nil
}

// accountColumns are the columns scanAccount reads.
const accountColumns = `id, name, folded, password, password_changed, created, deleted`

// scanAccount reads a row of accountColumns.
func scanAccount(row pgx.Row) (*store.Account, error) {
	var (
		a                      store.Account
		name, folded, password *string
		changed, deleted       *time.Time
	)
	if err := row.Scan(&a.ID, &name, &folded, &password, &changed, &a.Created, &deleted); errors.Is(err, pgx.ErrNoRows) {
		return nil, store.ErrNotFound
	} else if err != nil {
		return nil, err
	}
	a.Name, a.Folded, a.Password = deref(name), deref(folded), deref(password)
	a.PasswordChanged, a.Created, a.Deleted = derefTime(changed), utc(a.Created), derefTime(deleted)
	if deleted != nil {
		a.Name = store.DeletedName
	}
	return &a, nil
}

// Account returns the account with the given id, deleted or not.
func (s *Store) Account(ctx context.Context, id string) (*store.Account, error) {
	a, err := scanAccount(s.pool.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE id = $1`, id))
	if err != nil {
		return nil, fmt.Errorf("postgres: account %q: %w", id, err)
	}
	return a, nil
}

// AccountNamed returns the account, not deleted, of the folded name.
func (s *Store) AccountNamed(ctx context.Context, folded string) (*store.Account, error) {
	a, err := scanAccount(s.pool.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE folded = $1`, folded))
	if err != nil {
		return nil, fmt.Errorf("postgres: account named %q: %w", folded, err)
	}
	return a, nil
}

// SetPassword replaces the account's password hash.
func (s *Store) SetPassword(ctx context.Context, id, hash string, at time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE accounts SET password = $1, password_changed = $2
		WHERE id = $3 AND deleted IS NULL`, nullText(hash), at, id)
	if err := oneRow(tag.RowsAffected(), err); err != nil {
		return fmt.Errorf("postgres: set password of account %q: %w", id, err)
	}
	return nil
}

// UseRecoveryCode spends one of the account's recovery codes.
func (s *Store) UseRecoveryCode(ctx context.Context, id string, hash []byte) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM recovery_codes WHERE account_id = $1 AND hash = $2`, id, hash)
	if err := oneRow(tag.RowsAffected(), err); err != nil {
		return fmt.Errorf("postgres: use a recovery code of account %q: %w", id, err)
	}
	return nil
}

// SetRecoveryCodes replaces all of the account's recovery codes.
func (s *Store) SetRecoveryCodes(ctx context.Context, id string, hashes [][]byte) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := live(ctx, tx, id); err != nil {
			return err
		}
		for _, h := range hashes {
			if len(h) == 0 {
				return errors.New("an empty recovery code hash")
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM recovery_codes WHERE account_id = $1`, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO recovery_codes (account_id, hash) SELECT $1, unnest($2::bytea[])
			ON CONFLICT DO NOTHING`, id, hashes)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: set recovery codes of account %q: %w", id, err)
	}
	return nil
}

// RecoveryCodesLeft counts the account's recovery codes not spent.
func (s *Store) RecoveryCodesLeft(ctx context.Context, id string) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `SELECT count(c.hash) FROM accounts a
		LEFT JOIN recovery_codes c ON c.account_id = a.id
		WHERE a.id = $1 AND a.deleted IS NULL GROUP BY a.id`, id).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("postgres: recovery codes of account %q: %w", id, err)
	}
	return n, nil
}

// CreateSession stores a new session. It is one statement: the account
// must be there, not deleted, as the row goes in.
func (s *Store) CreateSession(ctx context.Context, ses *store.Session) error {
	if ses == nil || len(ses.TokenHash) == 0 {
		return errors.New("postgres: create session: no token hash given")
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO sessions (token_hash, account_id, created, seen, expires)
		SELECT $1, id, $3, $4, $5 FROM accounts WHERE id = $2 AND deleted IS NULL FOR SHARE`,
		ses.TokenHash, ses.AccountID, ses.Created, ses.Seen, ses.Expires)
	if isUniqueViolation(err) {
		err = fmt.Errorf("the token is taken: %w", store.ErrConflict)
	} else if err == nil && tag.RowsAffected() == 0 {
		err = fmt.Errorf("no account %q: %w", ses.AccountID, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("postgres: create session of account %q: %w", ses.AccountID, err)
	}
	return nil
}

// sessionColumns are the columns scanSession reads.
const sessionColumns = `token_hash, account_id, created, seen, expires`

// scanSession reads a row of sessionColumns.
func scanSession(row pgx.Row) (*store.Session, error) {
	var ses store.Session
	if err := row.Scan(&ses.TokenHash, &ses.AccountID, &ses.Created, &ses.Seen, &ses.Expires); err != nil {
		return nil, err
	}
	ses.Created, ses.Seen, ses.Expires = utc(ses.Created), utc(ses.Seen), utc(ses.Expires)
	return &ses, nil
}

// Session returns the session whose token hash is given.
func (s *Store) Session(ctx context.Context, tokenHash []byte) (*store.Session, error) {
	ses, err := scanSession(s.pool.QueryRow(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE token_hash = $1`, tokenHash))
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: session: %w", err)
	}
	return ses, nil
}

// TouchSession notes a session used at seen, to end at expires.
func (s *Store) TouchSession(ctx context.Context, tokenHash []byte, seen, expires time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE sessions SET seen = greatest(seen, $1), expires = $2 WHERE token_hash = $3`,
		seen, expires, tokenHash)
	if err := oneRow(tag.RowsAffected(), err); err != nil {
		return fmt.Errorf("postgres: touch session: %w", err)
	}
	return nil
}

// DeleteSession ends a session.
func (s *Store) DeleteSession(ctx context.Context, tokenHash []byte) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, tokenHash); err != nil {
		return fmt.Errorf("postgres: delete session: %w", err)
	}
	return nil
}

// DeleteSessions ends every session of the account but keep.
func (s *Store) DeleteSessions(ctx context.Context, accountID string, keep []byte) (int, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE account_id = $1 AND token_hash IS DISTINCT FROM $2`,
		accountID, orNull(keep))
	if err != nil {
		return 0, fmt.Errorf("postgres: delete sessions of account %q: %w", accountID, err)
	}
	return int(tag.RowsAffected()), nil
}

// Sessions returns the account's sessions, oldest first.
func (s *Store) Sessions(ctx context.Context, accountID string) ([]*store.Session, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE account_id = $1
		ORDER BY created, token_hash`, accountID)
	if err != nil {
		return nil, fmt.Errorf("postgres: sessions of account %q: %w", accountID, err)
	}
	defer rows.Close()
	var out []*store.Session
	for rows.Next() {
		ses, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: sessions of account %q: %w", accountID, err)
		}
		out = append(out, ses)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: sessions of account %q: %w", accountID, err)
	}
	return out, nil
}

// DeleteExpired removes the sessions and ceremonies expired before now.
func (s *Store) DeleteExpired(ctx context.Context, now time.Time) (sessions, ceremonies int, err error) {
	err = s.pool.QueryRow(ctx, `WITH s AS (DELETE FROM sessions WHERE expires <= $1 RETURNING 1),
			c AS (DELETE FROM ceremonies WHERE expires <= $1 RETURNING 1)
		SELECT (SELECT count(*) FROM s), (SELECT count(*) FROM c)`, now).Scan(&sessions, &ceremonies)
	if err != nil {
		return 0, 0, fmt.Errorf("postgres: delete expired: %w", err)
	}
	return sessions, ceremonies, nil
}

// AddPasskey registers a passkey.
func (s *Store) AddPasskey(ctx context.Context, p *store.Passkey) error {
	created, err := check.Passkey(p, time.Now())
	if err != nil {
		return fmt.Errorf("postgres: add passkey: %w", err)
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO passkeys (id, account_id, public_key, sign_count, transports, aaguid,
			user_verified, backup_eligible, backup_state, name, created, last_used)
		SELECT $1, id, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 FROM accounts WHERE id = $2 AND deleted IS NULL FOR SHARE`,
		p.ID, p.AccountID, p.PublicKey, int64(p.SignCount), strings.Join(p.Transports, ","), orNull(p.AAGUID),
		p.UserVerified, p.BackupEligible, p.BackupState, p.Name, created, nullTime(p.LastUsed))
	if isUniqueViolation(err) {
		err = fmt.Errorf("the credential is registered already: %w", store.ErrConflict)
	} else if err == nil && tag.RowsAffected() == 0 {
		err = fmt.Errorf("no account %q: %w", p.AccountID, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("postgres: add passkey to account %q: %w", p.AccountID, err)
	}
	p.Created = created
	return nil
}

// Passkeys returns the account's passkeys, oldest first.
func (s *Store) Passkeys(ctx context.Context, accountID string) ([]*store.Passkey, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, account_id, public_key, sign_count, transports, aaguid,
			user_verified, backup_eligible, backup_state, name, created, last_used
		FROM passkeys WHERE account_id = $1 ORDER BY created, id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("postgres: passkeys of account %q: %w", accountID, err)
	}
	defer rows.Close()
	var out []*store.Passkey
	for rows.Next() {
		var (
			p          store.Passkey
			count      int64
			transports string
			lastUsed   *time.Time
		)
		if err := rows.Scan(&p.ID, &p.AccountID, &p.PublicKey, &count, &transports, &p.AAGUID,
			&p.UserVerified, &p.BackupEligible, &p.BackupState, &p.Name, &p.Created, &lastUsed); err != nil {
			return nil, fmt.Errorf("postgres: passkeys of account %q: %w", accountID, err)
		}
		p.SignCount = uint32(count)
		if transports != "" {
			p.Transports = strings.Split(transports, ",")
		}
		p.Created, p.LastUsed = utc(p.Created), derefTime(lastUsed)
		out = append(out, &p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: passkeys of account %q: %w", accountID, err)
	}
	return out, nil
}

// UpdatePasskey notes a sign-in with a passkey.
func (s *Store) UpdatePasskey(ctx context.Context, p *store.Passkey) error {
	tag, err := s.pool.Exec(ctx, `UPDATE passkeys SET sign_count = $1, user_verified = $2, backup_eligible = $3,
		backup_state = $4, last_used = $5 WHERE account_id = $6 AND id = $7`,
		int64(p.SignCount), p.UserVerified, p.BackupEligible, p.BackupState, nullTime(p.LastUsed), p.AccountID, p.ID)
	if err := oneRow(tag.RowsAffected(), err); err != nil {
		return fmt.Errorf("postgres: update passkey of account %q: %w", p.AccountID, err)
	}
	return nil
}

// DeletePasskey removes one of the account's passkeys, unless it is the
// last way to sign in. The account's row is locked while it counts, so
// that two removals at once cannot both leave the other passkey.
func (s *Store) DeletePasskey(ctx context.Context, accountID string, id []byte) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var password *string
		err := tx.QueryRow(ctx, `SELECT password FROM accounts WHERE id = $1 FOR UPDATE`, accountID).Scan(&password)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		} else if err != nil {
			return err
		}
		var mine, others int
		err = tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE id = $2), count(*) FILTER (WHERE id != $2)
			FROM passkeys WHERE account_id = $1`, accountID, id).Scan(&mine, &others)
		if err != nil {
			return err
		}
		if mine == 0 {
			return store.ErrNotFound
		}
		if others == 0 && deref(password) == "" {
			return fmt.Errorf("it is the account's last passkey and the account has no password: %w", store.ErrConflict)
		}
		_, err = tx.Exec(ctx, `DELETE FROM passkeys WHERE account_id = $1 AND id = $2`, accountID, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: delete passkey of account %q: %w", accountID, err)
	}
	return nil
}

// ceremonyLock is the key of the advisory lock that makes counting the
// ceremonies and adding one atomic among the nodes.
const ceremonyLock = 0x63657265 // "cere"

// PutCeremony keeps a ceremony under way, within limit.
func (s *Store) PutCeremony(ctx context.Context, c *store.Ceremony, limit int) error {
	if c == nil || c.ID == "" {
		return errors.New("postgres: put ceremony: no id given")
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, ceremonyLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM ceremonies WHERE expires <= now()`); err != nil {
			return err
		}
		if limit > 0 {
			var n int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM ceremonies`).Scan(&n); err != nil {
				return err
			}
			if n >= limit {
				return fmt.Errorf("%d ceremonies under way, the limit: %w", n, store.ErrFull)
			}
		}
		if c.AccountID != "" {
			if err := live(ctx, tx, c.AccountID); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO ceremonies (id, kind, account_id, data, expires) VALUES ($1, $2, $3, $4, $5)`,
			c.ID, c.Kind, nullText(c.AccountID), string(c.Data), c.Expires)
		if isUniqueViolation(err) {
			return fmt.Errorf("the id is taken: %w", store.ErrConflict)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: put ceremony: %w", err)
	}
	return nil
}

// TakeCeremony returns the ceremony with the given id and removes it; an
// expired one is removed too, and is ErrNotFound.
func (s *Store) TakeCeremony(ctx context.Context, id string, now time.Time) (*store.Ceremony, error) {
	var (
		c       store.Ceremony
		account *string
		data    string
	)
	err := s.pool.QueryRow(ctx, `DELETE FROM ceremonies WHERE id = $1 RETURNING id, kind, account_id, data::text, expires`, id).
		Scan(&c.ID, &c.Kind, &account, &data, &c.Expires)
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	} else if err == nil && !now.Before(c.Expires) {
		err = fmt.Errorf("it expired at %s: %w", c.Expires.UTC().Format(time.RFC3339), store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: take ceremony: %w", err)
	}
	c.AccountID, c.Data, c.Expires = deref(account), []byte(data), utc(c.Expires)
	return &c, nil
}

// DeleteAccount deletes an account, keeping its row under no name.
func (s *Store) DeleteAccount(ctx context.Context, id string, at time.Time) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE accounts SET name = NULL, folded = NULL, password = NULL,
			password_changed = NULL, deleted = $1 WHERE id = $2 AND deleted IS NULL`, at, id)
		if err := oneRow(tag.RowsAffected(), err); err != nil {
			return err
		}
		for _, table := range []string{"recovery_codes", "sessions", "passkeys", "ceremonies"} {
			if _, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE account_id = $1`, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: delete account %q: %w", id, err)
	}
	return nil
}

// live checks, in a transaction, that an account exists and is not
// deleted, and keeps it so until the transaction ends: ErrNotFound if not.
func live(ctx context.Context, tx pgx.Tx, id string) error {
	var one int
	err := tx.QueryRow(ctx, `SELECT 1 FROM accounts WHERE id = $1 AND deleted IS NULL FOR SHARE`, id).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("no account %q: %w", id, store.ErrNotFound)
	}
	return err
}

// oneRow checks that a statement changed a row: ErrNotFound if none.
func oneRow(rows int64, err error) error {
	if err != nil {
		return err
	}
	if rows == 0 {
		return store.ErrNotFound
	}
	return nil
}

// nullText is text as the database keeps it: NULL if empty.
func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// nullTime is a time as the database keeps it: NULL if zero.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// deref is the text of a nullable column, "" for NULL.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// derefTime is a nullable time in UTC, zero for NULL.
func derefTime(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}
