package postgres

import (
	"context"
	"embed"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/store/internal/migration"
)

// migrations are the schema's changes, numbered; a database records in
// schema_version each one applied to it.
//
//go:embed migrations/*.sql
var migrations embed.FS

// schemaVersion is created before the migrations, to record them.
const schemaVersion = `CREATE TABLE IF NOT EXISTS schema_version (
	version integer     NOT NULL PRIMARY KEY,
	name    text        NOT NULL,
	applied timestamptz NOT NULL DEFAULT now()
)`

// migrationLock is the key of the advisory lock that lets one server at a
// time migrate a database.
const migrationLock = 0x63686174 // "chat"

// migrate brings the database's schema up to date in one transaction, and
// refuses a database that a newer program has migrated further.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := migration.Load(migrations, "migrations")
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, schemaVersion); err != nil {
			return err
		}
		var current int
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&current); err != nil {
			return err
		}
		pending, err := migration.Pending(ms, current)
		if err != nil {
			return err
		}
		for _, m := range pending {
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return fmt.Errorf("%s: %w", m.Name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_version (version, name) VALUES ($1, $2)`, m.Version, m.Name); err != nil {
				return fmt.Errorf("%s: %w", m.Name, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	return nil
}
