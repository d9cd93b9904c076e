// Package pgtest gives tests a PostgreSQL database of their own: a fresh
// schema on the test server that CHATURAJI_TEST_POSTGRES names (`make
// test` starts one and sets it), dropped when the test ends; or, for a test
// that stops its database (an outage), a whole server of its own
// (NewCluster). Tests that use it fail without PostgreSQL: they never
// skip.
package pgtest

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
)

// ServerVar names the environment variable with the test server's URL.
const ServerVar = "CHATURAJI_TEST_POSTGRES"

// Server returns the URL of the database the tests may create schemas in,
// and fails the test if there is none.
func Server(t testing.TB) string {
	t.Helper()
	u := os.Getenv(ServerVar)
	if u == "" {
		t.Fatalf("%s is not set, and the PostgreSQL tests need a server (they never skip).\n"+
			"`make test` (scripts/test.sh) installs and starts one and sets it. To run these tests alone:\n"+
			"\texport %s=\"$(bash scripts/postgres.sh)\"\n"+
			"from the repository's root, or set it to a postgres:// URL of a database in which the tests may create and drop schemas.",
			ServerVar, ServerVar)
	}
	return u
}

// schemas numbers the schemas this process creates.
var schemas atomic.Int64

// Schema creates a schema of the test's own, dropped when the test ends,
// and returns the server's URL with search_path set to it.
func Schema(t testing.TB) string {
	t.Helper()
	base := Server(t)
	var suffix [4]byte
	rand.Read(suffix[:])
	name := fmt.Sprintf("test_%d_%d_%s", os.Getpid(), schemas.Add(1), hex.EncodeToString(suffix[:]))
	ident := pgx.Identifier{name}.Sanitize()
	exec(t, base, "CREATE SCHEMA "+ident)
	t.Cleanup(func() { exec(t, base, "DROP SCHEMA "+ident+" CASCADE") })
	return withSearchPath(t, base, name)
}

// exec runs one statement on its own connection. It does not use
// t.Context(), which is done by the time cleanups run.
func exec(t testing.TB, u, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatalf("connect to the test server (%s): %v", ServerVar, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// withSearchPath returns the URL u with search_path set to schema.
func withSearchPath(t testing.TB, u, schema string) string {
	t.Helper()
	if !strings.HasPrefix(u, "postgres://") && !strings.HasPrefix(u, "postgresql://") {
		return u + " search_path=" + schema // keyword=value form
	}
	p, err := url.Parse(u)
	if err != nil {
		t.Fatalf("%s: %v", ServerVar, err)
	}
	q := p.Query()
	q.Set("search_path", schema)
	p.RawQuery = q.Encode()
	return p.String()
}
