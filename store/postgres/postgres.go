// Package postgres keeps games in PostgreSQL, for servers that want a
// database server rather than a file.
//
// It keeps the same tables as package sqlite, in PostgreSQL's types, and
// migrates them the same way on Open. AppendEvents is one statement, its
// own transaction, that moves the game's last_event on from the number the
// caller expects and inserts the events: a second appender after the same
// number waits for the first's row lock, then finds the number moved and
// gets ErrConflict. The primary key (game_id, seq) of the events backs
// this up: a unique violation is ErrConflict too. The other writes of a
// game are single statements too, so that no row stays locked while a
// node waits (fenceSQL); a transaction of several statements left waiting
// is ended by the database (IdleInTransaction).
//
// Times are kept as timestamptz (microseconds) and read back in UTC;
// settings and event data as json, byte for byte. Empty byte slices are
// kept as NULL and read back as nil.
//
// Importing the package registers it with store.Open for "postgres://"
// and "postgresql://" URLs.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chaturaji/chaturaji/store"
)

func init() {
	store.Register(store.Postgres, func(ctx context.Context, url string) (store.Store, error) {
		s, err := Open(ctx, url)
		if err != nil {
			return nil, err
		}
		return s, nil
	})
}

// Store is a store.Store in a PostgreSQL database. Its methods are safe
// for concurrent use.
type Store struct {
	pool      *pgxpool.Pool
	closeOnce sync.Once
	node      atomic.Pointer[node] // set by Join (cluster.go)
	// The channels of the nodes' notifications (cluster.go), named
	// after the schema: NOTIFY reaches every session of the database, and
	// the nodes of a cluster in another schema are not this one's.
	eventsCh, releasedCh, rematchCh string
}

var _ store.Store = (*Store)(nil)

// PoolSize is how many connections a Store keeps at most, unless the URL
// says otherwise (pool_max_conns=N). Each append is a commit of its own,
// and PostgreSQL syncs the commits under way together: the more
// connections, the more appends share a sync to disk. (pgx's default,
// 4 on a machine of 2 CPUs, made a busy server's appends queue for a
// connection.)
const PoolSize = 16

// IdleInTransaction is how long a connection of the store may wait, in
// the middle of a transaction, for its node's next statement before
// PostgreSQL ends its session, and with it the transaction and its locks
// (idle_in_transaction_session_timeout), unless the URL says otherwise.
// The writes of a game are single statements (fenceSQL) and hold no lock
// between round trips; what is left (creating a game, joining) takes
// milliseconds, and this bounds it for a node paused or cut off halfway:
// its locks last at most this long, about one default Lease.
const IdleInTransaction = 5 * time.Second

// KeepAlive is how long PostgreSQL waits on a silent connection of the
// store before it probes it, and then between probes (tcp_keepalives_idle
// and tcp_keepalives_interval; three probes unanswered end the session),
// unless the URL says otherwise: the session of a node whose machine is
// gone ends within about 4 * KeepAlive, and its transaction with it,
// rather than after the operating system's two hours.
const KeepAlive = 5 * time.Second

// sessionDefaults are the settings Open gives every connection of the
// store, unless the URL gives them.
var sessionDefaults = map[string]string{
	"idle_in_transaction_session_timeout": strconv.FormatInt(IdleInTransaction.Milliseconds(), 10), // ms
	"tcp_keepalives_idle":                 strconv.Itoa(int(KeepAlive.Seconds())),
	"tcp_keepalives_interval":             strconv.Itoa(int(KeepAlive.Seconds())),
	"tcp_keepalives_count":                "3",
}

// Open connects to the database a libpq URL names
// (postgres://user:password@host:port/database?sslmode=...; parameters
// such as search_path are set on every connection; pool_max_conns sets the
// pool's size, PoolSize if not; idle_in_transaction_session_timeout (in
// ms) and tcp_keepalives_idle, _interval and _count (in s), if not given,
// are IdleInTransaction and KeepAlive) and migrates its schema.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if !strings.Contains(url, "pool_max_conns=") {
		cfg.MaxConns = PoolSize
	}
	for name, value := range sessionDefaults {
		if _, given := cfg.ConnConfig.RuntimeParams[name]; !given {
			cfg.ConnConfig.RuntimeParams[name] = value
		}
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: connect to %s:%d/%s: %w", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database, err)
	}
	s := &Store{pool: pool}
	if err := s.nameChannels(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the store's connections, waiting for those in use to be
// returned. Calling it again does nothing.
func (s *Store) Close() error {
	s.closeOnce.Do(s.pool.Close)
	return nil
}

// inTx runs f in a transaction and commits it, or rolls it back if f
// fails. Its errors are the caller's to prefix.
func (s *Store) inTx(ctx context.Context, f func(tx pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := f(tx); err != nil {
		tx.Rollback(ctx) // if ctx is done, pgx closes the connection, which rolls back
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// isUniqueViolation reports whether err is a primary key or unique
// constraint failing.
func isUniqueViolation(err error) bool {
	var e *pgconn.PgError
	return errors.As(err, &e) && e.Code == "23505"
}

// utc is a time the database kept, in UTC.
func utc(t time.Time) time.Time {
	return t.UTC()
}

// text is a string as the database keeps it where empty means none: text,
// or NULL if empty.
func text(v string) any {
	if v == "" {
		return nil
	}
	return v
}

// orNull is bytes as the database keeps them: NULL if empty.
func orNull(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}
