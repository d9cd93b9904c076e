package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"time"

	"github.com/chaturaji/chaturaji/store/internal/migration"
)

// migrations are the schema's changes, numbered; a database records in
// schema_version each one applied to it.
//
//go:embed migrations/*.sql
var migrations embed.FS

// schemaVersion is created before the migrations, to record them.
const schemaVersion = `CREATE TABLE IF NOT EXISTS schema_version (
	version INTEGER NOT NULL PRIMARY KEY,
	name    TEXT    NOT NULL,
	applied INTEGER NOT NULL -- microseconds since 1970 UTC
) STRICT`

// migrate brings the database's schema up to date in one transaction, and
// refuses a database that a newer program has migrated further. It runs in
// Open, before the committer starts, in a transaction of its own.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := migration.Load(migrations, "migrations")
	if err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	_, err = s.commitTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, schemaVersion); err != nil {
			return err
		}
		var current int
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&current); err != nil {
			return err
		}
		pending, err := migration.Pending(ms, current)
		if err != nil {
			return err
		}
		for _, m := range pending {
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return fmt.Errorf("%s: %w", m.Name, err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version, name, applied) VALUES (?, ?, ?)`,
				m.Version, m.Name, micros(time.Now())); err != nil {
				return fmt.Errorf("%s: %w", m.Name, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	return nil
}
