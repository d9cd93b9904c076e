package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/postgres"
	"github.com/chaturaji/chaturaji/store/storetest"
)

// serverVar names the environment variable with the test server's URL.
const serverVar = "CHATURAJI_TEST_POSTGRES"

// server returns the URL of the database the tests may create schemas in,
// and fails the test if there is none: these tests never skip.
func server(t *testing.T) string {
	t.Helper()
	u := os.Getenv(serverVar)
	if u == "" {
		t.Fatalf("%s is not set, and the PostgreSQL tests need a server (they never skip).\n"+
			"`make test` (scripts/test.sh) installs and starts one and sets it. To run these tests alone:\n"+
			"\texport %s=\"$(bash scripts/postgres.sh)\"\n"+
			"from the repository's root, or set it to a postgres:// URL of a database in which the tests may create and drop schemas.",
			serverVar, serverVar)
	}
	return u
}

// schemas numbers the schemas this process creates.
var schemas atomic.Int64

// freshSchema creates a schema of its own for the test, dropped when the
// test ends, and returns the server's URL with search_path set to it.
func freshSchema(t *testing.T) string {
	t.Helper()
	base := server(t)
	var suffix [4]byte
	rand.Read(suffix[:])
	name := fmt.Sprintf("storetest_%d_%d_%s", os.Getpid(), schemas.Add(1), hex.EncodeToString(suffix[:]))
	ident := pgx.Identifier{name}.Sanitize()
	exec(t, base, "CREATE SCHEMA "+ident)
	t.Cleanup(func() { exec(t, base, "DROP SCHEMA "+ident+" CASCADE") })
	return withSearchPath(t, base, name)
}

// exec runs one statement on its own connection. It does not use
// t.Context(), which is done by the time cleanups run.
func exec(t *testing.T, u, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatalf("connect to the test server (%s): %v", serverVar, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// withSearchPath returns the URL u with search_path set to schema.
func withSearchPath(t *testing.T, u, schema string) string {
	t.Helper()
	if !strings.HasPrefix(u, "postgres://") && !strings.HasPrefix(u, "postgresql://") {
		return u + " search_path=" + schema // keyword=value form
	}
	p, err := url.Parse(u)
	if err != nil {
		t.Fatalf("%s: %v", serverVar, err)
	}
	q := p.Query()
	q.Set("search_path", schema)
	p.RawQuery = q.Encode()
	return p.String()
}

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
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, freshSchema(t)) })
}

func TestReopen(t *testing.T) {
	u := freshSchema(t)
	storetest.RunReopen(t, func(t *testing.T) store.Store { return open(t, u) })
}

func TestOpenThroughStore(t *testing.T) {
	u := freshSchema(t)
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
	u := freshSchema(t)
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
	u := freshSchema(t)
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
	p, err := url.Parse(server(t))
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
