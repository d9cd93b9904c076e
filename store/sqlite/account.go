package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/internal/check"
)

var _ store.Accounts = (*Store)(nil)

// CreateAccount stores a new account with the hashes of its recovery
// codes; ErrConflict if its id or folded name is taken.
func (s *Store) CreateAccount(ctx context.Context, a *store.Account, recovery [][]byte) error {
	created, err := check.Account(a, time.Now())
	if err != nil {
		return fmt.Errorf("sqlite: create account: %w", err)
	}
	err = s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO accounts (id, name, folded, password, password_changed, created)
			VALUES (?, ?, ?, ?, ?, ?)`,
			a.ID, a.Name, a.Folded, nullText(a.Password), nullMicros(a.PasswordChanged), micros(created))
		if isUniqueViolation(err) {
			return fmt.Errorf("the id or the name is taken: %w", store.ErrConflict)
		} else if err != nil {
			return err
		}
		return insertCodes(ctx, tx, a.ID, recovery)
	})
	if err != nil {
		return fmt.Errorf("sqlite: create account %q: %w", a.ID, err)
	}
	a.Created = created
	return nil
}

// insertCodes stores recovery code hashes of an account.
func insertCodes(ctx context.Context, tx *sql.Tx, id string, hashes [][]byte) error {
	for _, h := range hashes {
		if len(h) == 0 {
			return errors.New("an empty recovery code hash")
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO recovery_codes (account_id, hash) VALUES (?, ?)
			ON CONFLICT DO NOTHING`, id, h); err != nil {
			return err
		}
	}
	return nil
}

// accountColumns are the columns scanAccount reads.
const accountColumns = `id, name, folded, password, password_changed, created, deleted`

// scanAccount reads a row of accountColumns.
func scanAccount(row *sql.Row) (*store.Account, error) {
	var (
		a                      store.Account
		name, folded, password sql.NullString
		changed, deleted       sql.NullInt64
		created                int64
	)
	if err := row.Scan(&a.ID, &name, &folded, &password, &changed, &created, &deleted); errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	} else if err != nil {
		return nil, err
	}
	a.Name, a.Folded, a.Password = name.String, folded.String, password.String
	a.PasswordChanged, a.Created, a.Deleted = fromNullMicros(changed), fromMicros(created), fromNullMicros(deleted)
	if deleted.Valid {
		a.Name = store.DeletedName
	}
	return &a, nil
}

// Account returns the account with the given id, deleted or not.
func (s *Store) Account(ctx context.Context, id string) (*store.Account, error) {
	a, err := scanAccount(s.read.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE id = ?`, id))
	if err != nil {
		return nil, fmt.Errorf("sqlite: account %q: %w", id, err)
	}
	return a, nil
}

// AccountNamed returns the account, not deleted, of the folded name.
func (s *Store) AccountNamed(ctx context.Context, folded string) (*store.Account, error) {
	a, err := scanAccount(s.read.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE folded = ?`, folded))
	if err != nil {
		return nil, fmt.Errorf("sqlite: account named %q: %w", folded, err)
	}
	return a, nil
}

// SetPassword replaces the account's password hash.
func (s *Store) SetPassword(ctx context.Context, id, hash string, at time.Time) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE accounts SET password = ?, password_changed = ?
			WHERE id = ? AND deleted IS NULL`, nullText(hash), micros(at), id)
		return oneRow(res, err)
	})
	if err != nil {
		return fmt.Errorf("sqlite: set password of account %q: %w", id, err)
	}
	return nil
}

// UseRecoveryCode spends one of the account's recovery codes.
func (s *Store) UseRecoveryCode(ctx context.Context, id string, hash []byte) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM recovery_codes WHERE account_id = ? AND hash = ?`, id, hash)
		return oneRow(res, err)
	})
	if err != nil {
		return fmt.Errorf("sqlite: use a recovery code of account %q: %w", id, err)
	}
	return nil
}

// SetRecoveryCodes replaces all of the account's recovery codes.
func (s *Store) SetRecoveryCodes(ctx context.Context, id string, hashes [][]byte) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := live(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM recovery_codes WHERE account_id = ?`, id); err != nil {
			return err
		}
		return insertCodes(ctx, tx, id, hashes)
	})
	if err != nil {
		return fmt.Errorf("sqlite: set recovery codes of account %q: %w", id, err)
	}
	return nil
}

// RecoveryCodesLeft counts the account's recovery codes not spent.
func (s *Store) RecoveryCodesLeft(ctx context.Context, id string) (int, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT count(c.hash) FROM accounts a
		LEFT JOIN recovery_codes c ON c.account_id = a.id
		WHERE a.id = ? AND a.deleted IS NULL GROUP BY a.id`, id).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("sqlite: recovery codes of account %q: %w", id, err)
	}
	return n, nil
}

// CreateSession stores a new session.
func (s *Store) CreateSession(ctx context.Context, ses *store.Session) error {
	if ses == nil || len(ses.TokenHash) == 0 {
		return errors.New("sqlite: create session: no token hash given")
	}
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := live(ctx, tx, ses.AccountID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions (token_hash, account_id, created, seen, expires)
			VALUES (?, ?, ?, ?, ?)`, ses.TokenHash, ses.AccountID, micros(ses.Created), micros(ses.Seen), micros(ses.Expires))
		if isUniqueViolation(err) {
			return fmt.Errorf("the token is taken: %w", store.ErrConflict)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: create session of account %q: %w", ses.AccountID, err)
	}
	return nil
}

// sessionColumns are the columns scanSession reads.
const sessionColumns = `token_hash, account_id, created, seen, expires`

// scanSession reads a row of sessionColumns.
func scanSession(scan func(...any) error) (*store.Session, error) {
	var (
		ses                    store.Session
		created, seen, expires int64
	)
	if err := scan(&ses.TokenHash, &ses.AccountID, &created, &seen, &expires); err != nil {
		return nil, err
	}
	ses.Created, ses.Seen, ses.Expires = fromMicros(created), fromMicros(seen), fromMicros(expires)
	return &ses, nil
}

// Session returns the session whose token hash is given.
func (s *Store) Session(ctx context.Context, tokenHash []byte) (*store.Session, error) {
	ses, err := scanSession(s.read.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE token_hash = ?`, tokenHash).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: session: %w", err)
	}
	return ses, nil
}

// TouchSession notes a session used at seen, to end at expires.
func (s *Store) TouchSession(ctx context.Context, tokenHash []byte, seen, expires time.Time) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET seen = max(seen, ?), expires = ? WHERE token_hash = ?`,
			micros(seen), micros(expires), tokenHash)
		return oneRow(res, err)
	})
	if err != nil {
		return fmt.Errorf("sqlite: touch session: %w", err)
	}
	return nil
}

// DeleteSession ends a session.
func (s *Store) DeleteSession(ctx context.Context, tokenHash []byte) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = ?`, tokenHash)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: delete session: %w", err)
	}
	return nil
}

// DeleteSessions ends every session of the account but keep.
func (s *Store) DeleteSessions(ctx context.Context, accountID string, keep []byte) (int, error) {
	var n int64
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE account_id = ? AND token_hash IS NOT ?`, accountID, blob(keep))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: delete sessions of account %q: %w", accountID, err)
	}
	return int(n), nil
}

// Sessions returns the account's sessions, oldest first.
func (s *Store) Sessions(ctx context.Context, accountID string) ([]*store.Session, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE account_id = ?
		ORDER BY created, token_hash`, accountID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: sessions of account %q: %w", accountID, err)
	}
	defer rows.Close()
	var out []*store.Session
	for rows.Next() {
		ses, err := scanSession(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("sqlite: sessions of account %q: %w", accountID, err)
		}
		out = append(out, ses)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: sessions of account %q: %w", accountID, err)
	}
	return out, nil
}

// DeleteExpired removes the sessions and ceremonies expired before now.
func (s *Store) DeleteExpired(ctx context.Context, now time.Time) (sessions, ceremonies int, err error) {
	err = s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, q := range []struct {
			table string
			n     *int
		}{{"sessions", &sessions}, {"ceremonies", &ceremonies}} {
			res, err := tx.ExecContext(ctx, `DELETE FROM `+q.table+` WHERE expires <= ?`, micros(now))
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			*q.n = int(n)
		}
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("sqlite: delete expired: %w", err)
	}
	return sessions, ceremonies, nil
}

// AddPasskey registers a passkey.
func (s *Store) AddPasskey(ctx context.Context, p *store.Passkey) error {
	created, err := check.Passkey(p, time.Now())
	if err != nil {
		return fmt.Errorf("sqlite: add passkey: %w", err)
	}
	err = s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := live(ctx, tx, p.AccountID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO passkeys (id, account_id, public_key, sign_count, transports, aaguid,
			user_verified, backup_eligible, backup_state, name, created, last_used)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			p.ID, p.AccountID, p.PublicKey, int64(p.SignCount), strings.Join(p.Transports, ","), blob(p.AAGUID),
			p.UserVerified, p.BackupEligible, p.BackupState, p.Name, micros(created), nullMicros(p.LastUsed))
		if isUniqueViolation(err) {
			return fmt.Errorf("the credential is registered already: %w", store.ErrConflict)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: add passkey to account %q: %w", p.AccountID, err)
	}
	p.Created = created
	return nil
}

// Passkeys returns the account's passkeys, oldest first.
func (s *Store) Passkeys(ctx context.Context, accountID string) ([]*store.Passkey, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, account_id, public_key, sign_count, transports, aaguid,
			user_verified, backup_eligible, backup_state, name, created, last_used
		FROM passkeys WHERE account_id = ? ORDER BY created, id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: passkeys of account %q: %w", accountID, err)
	}
	defer rows.Close()
	var out []*store.Passkey
	for rows.Next() {
		var (
			p          store.Passkey
			count      int64
			transports string
			created    int64
			lastUsed   sql.NullInt64
		)
		if err := rows.Scan(&p.ID, &p.AccountID, &p.PublicKey, &count, &transports, &p.AAGUID,
			&p.UserVerified, &p.BackupEligible, &p.BackupState, &p.Name, &created, &lastUsed); err != nil {
			return nil, fmt.Errorf("sqlite: passkeys of account %q: %w", accountID, err)
		}
		p.SignCount = uint32(count)
		if transports != "" {
			p.Transports = strings.Split(transports, ",")
		}
		p.Created, p.LastUsed = fromMicros(created), fromNullMicros(lastUsed)
		out = append(out, &p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: passkeys of account %q: %w", accountID, err)
	}
	return out, nil
}

// UpdatePasskey notes a sign-in with a passkey.
func (s *Store) UpdatePasskey(ctx context.Context, p *store.Passkey) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE passkeys SET sign_count = ?, user_verified = ?, backup_eligible = ?,
			backup_state = ?, last_used = ? WHERE account_id = ? AND id = ?`,
			int64(p.SignCount), p.UserVerified, p.BackupEligible, p.BackupState, nullMicros(p.LastUsed), p.AccountID, p.ID)
		return oneRow(res, err)
	})
	if err != nil {
		return fmt.Errorf("sqlite: update passkey of account %q: %w", p.AccountID, err)
	}
	return nil
}

// DeletePasskey removes one of the account's passkeys, unless it is the
// last way to sign in.
func (s *Store) DeletePasskey(ctx context.Context, accountID string, id []byte) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var others int
		var password sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT a.password, (SELECT count(*) FROM passkeys WHERE account_id = a.id AND id != ?)
			FROM passkeys p JOIN accounts a ON a.id = p.account_id WHERE p.account_id = ? AND p.id = ?`,
			id, accountID, id).Scan(&password, &others)
		if errors.Is(err, sql.ErrNoRows) {
			return store.ErrNotFound
		} else if err != nil {
			return err
		}
		if others == 0 && password.String == "" {
			return fmt.Errorf("it is the account's last passkey and the account has no password: %w", store.ErrConflict)
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM passkeys WHERE account_id = ? AND id = ?`, accountID, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: delete passkey of account %q: %w", accountID, err)
	}
	return nil
}

// PutCeremony keeps a ceremony under way, within limit.
func (s *Store) PutCeremony(ctx context.Context, c *store.Ceremony, limit int) error {
	if c == nil || c.ID == "" {
		return errors.New("sqlite: put ceremony: no id given")
	}
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM ceremonies WHERE expires <= ?`, micros(time.Now())); err != nil {
			return err
		}
		if limit > 0 {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM ceremonies`).Scan(&n); err != nil {
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
		_, err := tx.ExecContext(ctx, `INSERT INTO ceremonies (id, kind, account_id, data, expires) VALUES (?, ?, ?, ?, ?)`,
			c.ID, c.Kind, nullText(c.AccountID), string(c.Data), micros(c.Expires))
		if isUniqueViolation(err) {
			return fmt.Errorf("the id is taken: %w", store.ErrConflict)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: put ceremony: %w", err)
	}
	return nil
}

// TakeCeremony returns the ceremony with the given id and removes it; an
// expired one is removed too, and is ErrNotFound.
func (s *Store) TakeCeremony(ctx context.Context, id string, now time.Time) (*store.Ceremony, error) {
	var c store.Ceremony
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var (
			account sql.NullString
			data    string
			expires int64
		)
		err := tx.QueryRowContext(ctx, `DELETE FROM ceremonies WHERE id = ? RETURNING id, kind, account_id, data, expires`, id).
			Scan(&c.ID, &c.Kind, &account, &data, &expires)
		if errors.Is(err, sql.ErrNoRows) {
			return store.ErrNotFound
		}
		c.AccountID, c.Data, c.Expires = account.String, []byte(data), fromMicros(expires)
		return err
	})
	if err == nil && !now.Before(c.Expires) {
		err = fmt.Errorf("it expired at %s: %w", c.Expires.Format(time.RFC3339), store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: take ceremony: %w", err)
	}
	return &c, nil
}

// DeleteAccount deletes an account, keeping its row under no name.
func (s *Store) DeleteAccount(ctx context.Context, id string, at time.Time) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE accounts SET name = NULL, folded = NULL, password = NULL,
			password_changed = NULL, deleted = ? WHERE id = ? AND deleted IS NULL`, micros(at), id)
		if err := oneRow(res, err); err != nil {
			return err
		}
		for _, table := range []string{"recovery_codes", "sessions", "passkeys", "ceremonies"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE account_id = ?`, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: delete account %q: %w", id, err)
	}
	return nil
}

// live checks, in a transaction, that an account exists and is not
// deleted: ErrNotFound if not.
func live(ctx context.Context, tx *sql.Tx, id string) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM accounts WHERE id = ? AND deleted IS NULL`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("no account %q: %w", id, store.ErrNotFound)
	}
	return err
}

// oneRow checks that a statement changed a row: ErrNotFound if none.
func oneRow(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
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

// nullMicros is a time as the database keeps it: NULL if zero.
func nullMicros(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return micros(t)
}

// fromNullMicros is a time the database kept, zero if NULL.
func fromNullMicros(us sql.NullInt64) time.Time {
	if !us.Valid {
		return time.Time{}
	}
	return fromMicros(us.Int64)
}
