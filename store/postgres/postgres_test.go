package postgres_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/postgres"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
	"github.com/chaturaji/chaturaji/store/storetest"
)

// open opens the store at u and fails the test if it cannot.
func open(t *testing.T, u string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(t.Context(), u)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, pgtest.Schema(t)) })
}

func TestAccounts(t *testing.T) {
	storetest.RunAccounts(t, func(t *testing.T) store.Store { return open(t, pgtest.Schema(t)) })
}

func TestReopen(t *testing.T) {
	u := pgtest.Schema(t)
	storetest.RunReopen(t, func(t *testing.T) store.Store { return open(t, u) })
}

// TestSealed checks that a sealed store keeps no seed in plain form in
// any row of the database.
func TestSealed(t *testing.T) {
	u := pgtest.Schema(t)
	storetest.RunSealed(t, func(t *testing.T) store.Store { return open(t, u) }, func(t *testing.T) []byte {
		conn, err := pgx.Connect(t.Context(), u)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(t.Context())
		var all []byte
		for _, table := range []string{"games", "seats", "events"} {
			var rows string
			if err := conn.QueryRow(t.Context(), `SELECT coalesce(string_agg(t::text, E'\n'), '') FROM `+table+` t`).Scan(&rows); err != nil {
				t.Fatal(err)
			}
			all = append(all, rows...)
		}
		return all
	})
}

func TestOpenThroughStore(t *testing.T) {
	u := pgtest.Schema(t)
	for _, scheme := range []string{"postgres://", "postgresql://"} {
		u := scheme + strings.SplitN(u, "://", 2)[1]
		s, err := store.Open(t.Context(), u)
		if err != nil {
			t.Fatalf("store.Open(%s...): %v", scheme, err)
		}
		if _, ok := s.(*postgres.Store); !ok {
			t.Errorf("store.Open(%s...) opened a %T", scheme, s)
		}
		s.Close()
	}
}

func TestMigrations(t *testing.T) {
	u := pgtest.Schema(t)
	open(t, u).Close()
	open(t, u).Close() // a second open applies nothing again

	ctx := t.Context()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var versions, latest int
	if err := conn.QueryRow(ctx, `SELECT count(*), max(version) FROM schema_version`).Scan(&versions, &latest); err != nil {
		t.Fatal(err)
	}
	if versions != latest || latest < 1 {
		t.Fatalf("schema_version has %d rows up to version %d, want one per version from 1", versions, latest)
	}

	// A database a newer program migrated is refused, not written.
	if _, err := conn.Exec(ctx, `INSERT INTO schema_version (version, name) VALUES ($1, 'future.sql')`, latest+1); err != nil {
		t.Fatal(err)
	}
	_, err = postgres.Open(ctx, u)
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("Open of a database from a newer program: %v, want an error saying it is newer", err)
	}
}

func TestConcurrentOpensMigrateOnce(t *testing.T) {
	u := pgtest.Schema(t)
	errs := make(chan error, 4)
	for range cap(errs) {
		go func() {
			s, err := postgres.Open(t.Context(), u)
			if err == nil {
				s.Close()
			}
			errs <- err
		}()
	}
	for range cap(errs) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestOpenRefusesWithoutShowingThePassword(t *testing.T) {
	p, err := url.Parse(pgtest.Server(t))
	if err != nil {
		t.Fatal(err)
	}
	const secret = "not-the-password-0451"
	p.User = url.UserPassword(p.User.Username(), secret)
	bad := []string{
		p.String(), // wrong password
		"postgres://u:" + secret + "@127.0.0.1:notaport/db", // not a URL pgx can read
	}
	for _, u := range bad {
		s, err := postgres.Open(t.Context(), u)
		if err == nil {
			s.Close()
			t.Errorf("Open with a wrong password or URL succeeded")
			continue
		}
		if !strings.HasPrefix(err.Error(), "postgres: ") {
			t.Errorf("error %q, want it to start %q", err, "postgres: ")
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error %q shows the password", err)
		}
	}
}

// BenchmarkAppend is storetest.BenchmarkAppend on the test server (whose
// commits do not wait for the disk: scripts/postgres.sh turns fsync off),
// with 1 and with 1,000 games appending at once.
func BenchmarkAppend(b *testing.B) {
	for _, tc := range []struct {
		games int
		think time.Duration
	}{{1, 0}, {1000, 0}, {1000, time.Second}} {
		b.Run(fmt.Sprintf("games=%d/think=%v", tc.games, tc.think), func(b *testing.B) {
			s, err := postgres.Open(b.Context(), pgtest.Schema(b))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			storetest.BenchmarkAppend(b, s, tc.games, tc.think)
		})
	}
}

// TestPoolSize checks the size of the pool of connections: PoolSize, or
// what the URL says.
func TestPoolSize(t *testing.T) {
	u := pgtest.Schema(t)
	for _, tc := range []struct {
		url  string
		want int32
	}{
		{u, postgres.PoolSize},
		{u + "&pool_max_conns=3", 3},
	} {
		s := open(t, tc.url)
		if got := postgres.MaxConns(s); got != tc.want {
			t.Errorf("Open(%s): a pool of %d connections, want %d", tc.url, got, tc.want)
		}
		s.Close()
	}
}

// onSchema opens a store on a new schema, and again another store, with
// its own pool of connections, on the same schema: a storetest.Opener.
func onSchema(t *testing.T) (store.Store, func(t *testing.T) store.Store) {
	u := pgtest.Schema(t)
	return open(t, u), func(t *testing.T) store.Store { return open(t, u) }
}

// TestLobby runs the lobby's suite; its race test claims through two
// stores, each with its own pool of connections, on one schema.
func TestLobby(t *testing.T) {
	storetest.RunLobby(t, onSchema)
}

// TestRatings runs the ratings' suite; its race test rates through three
// stores, each with its own pool of connections, on one schema.
func TestRatings(t *testing.T) {
	storetest.RunRatings(t, onSchema)
}

// TestOpenTables runs the open tables' suite; its race test joins through
// two stores on one schema.
func TestOpenTables(t *testing.T) {
	storetest.RunOpenTables(t, onSchema)
}

// TestInvites runs the pair invitations' suite; its race test takes
// through two stores on one schema.
func TestInvites(t *testing.T) {
	storetest.RunInvites(t, onSchema)
}

// TestNews runs the lobby news's suite.
func TestNews(t *testing.T) {
	storetest.RunNews(t, onSchema)
}
