package server_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
)

// TestSignedRecords checks that a server with a signing key signs the
// record of every finished game it serves, one by one and in bulk, and
// serves its public key; a live game's record is not signed.
func TestSignedRecords(t *testing.T) {
	cfg := testConfig()
	_, cfg.SigningKey, _ = ed25519.GenerateKey(nil)
	ts := newTestServer(t, cfg, nil)
	status, body := ts.request("GET", "/api/key", "", "")
	key, err := record.ParsePublicKey(strings.TrimSpace(string(body)))
	if status != http.StatusOK || err != nil || !key.Equal(cfg.SigningKey.Public()) {
		t.Fatalf("GET /api/key: %d %q, %v", status, body, err)
	}

	g := ts.create(`{"seats": ["bot:random", "bot:greedy", "bot:random", "bot:random"]}`)
	ts.waitState(g.ID, 60*time.Second, func(s *server.State) bool { return s.Status == "finished" })
	rec := ts.record(g.ID)
	if p, err := rec.Verify(key); err != nil || p.Signer != record.FormatPublicKey(key) {
		t.Fatalf("the finished game's record: %v\n%s", err, rec)
	}
	status, body = ts.request("GET", "/api/records?status=finished", "", "")
	recs, err := record.ParseString(string(body))
	if status != http.StatusOK || err != nil || len(recs) != 1 || !recs[0].Equal(rec) {
		t.Fatalf("GET /api/records: %d, %v\n%s", status, err, body)
	}
	exported := new(bytes.Buffer)
	if _, err := server.ExportRecords(context.Background(), ts.store, exported, server.Export{Key: cfg.SigningKey}); err != nil || exported.String() != rec.String() {
		t.Fatalf("ExportRecords: %v\n%s", err, exported)
	}

	live := ts.create(fourHumans)
	ts.step(live.ID, tokensOf(live), rand.New(rand.NewPCG(1, 2)))
	if r := ts.record(live.ID); hasTag(r, "Signature") || hasTag(r, "Signer") || hasTag(r, "Seed") {
		t.Errorf("a live game's record is signed or shows its seed:\n%s", r)
	}

	unsigned := newTestServer(t, testConfig(), nil)
	status, body = unsigned.request("GET", "/api/key", "", "")
	wantError(t, status, body, http.StatusNotFound, server.ENOTFOUND)
}

func hasTag(r *record.Record, name string) bool {
	_, ok := r.Tags.Get(name)
	return ok
}

// TestSealedStore plays on a server whose store seals seeds: the database
// keeps the live game's seed sealed, a restart on the same key goes on,
// and a server opened without the key cannot read the game and says why.
func TestSealedStore(t *testing.T) {
	path := t.TempDir() + "/games.db"
	key := store.NewSeedKey([32]byte{42})
	raw := openStore(t, path)
	ts := newTestServer(t, testConfig(), store.Sealed(raw, key))
	g := ts.create(fourHumans)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 4 {
		ts.step(g.ID, tokensOf(g), rng)
	}
	before := ts.state(g.ID)
	kept, err := raw.Game(context.Background(), g.ID)
	if err != nil || !store.IsSealed(kept.Seed) {
		t.Fatalf("the store keeps the seed %x (%v), not sealed", kept.Seed, err)
	}
	ts.stop()

	again := newTestServer(t, testConfig(), store.Sealed(openStore(t, path), key))
	sameState(t, before, again.state(g.ID))
	again.step(g.ID, tokensOf(g), rng)
	again.stop()

	var log lockedBuffer
	blind := newTestServerLogged(t, testConfig(), openStore(t, path), slog.New(slog.NewTextHandler(&log, nil)))
	status, body := blind.request("GET", "/api/games/"+g.ID+"/record", "", "")
	if status != http.StatusInternalServerError {
		t.Fatalf("a server without the key served the game: %d %s", status, body)
	}
	if want := "its seed is sealed with key " + key.ID() + ", and the store was opened without a seed key"; !strings.Contains(log.String(), want) {
		t.Errorf("the log does not say %q:\n%s", want, log.String())
	}
}
