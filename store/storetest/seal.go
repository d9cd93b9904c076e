package storetest

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/store"
)

// RunSealed tests that a store sealed with store.Sealed keeps no seed in
// plain form. Every call of open must open the same database; raw must
// return every byte the database keeps at rest, while a store has it open
// and once it is closed (for SQLite, its files; for PostgreSQL, its rows as
// text), which must hold neither a live game's seed nor, once
// store.SealSeeds has run, one that a store before sealing kept plain. Reopened with the same key, the seeds
// read back; with another key or damaged, reading says so (ErrSeedKey).
func RunSealed(t *testing.T, open func(t *testing.T) store.Store, raw func(t *testing.T) []byte) {
	key := store.NewSeedKey([32]byte{1, 2, 3})
	ctx := t.Context()

	st := open(t)
	sealed := store.Sealed(st, key)
	live := newGame("live")
	seed := live.Seed
	if err := sealed.CreateGame(ctx, live); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(live.Seed, seed) {
		t.Fatalf("CreateGame changed the caller's seed to %x", live.Seed)
	}
	sameGame(t, mustGame(t, sealed, "live"), wantGame(live))
	if kept := mustGame(t, st, "live").Seed; !store.IsSealed(kept) || store.SealedKeyID(kept) != key.ID() {
		t.Fatalf("the store keeps %x, not a seed sealed with key %s", kept, key.ID())
	}
	// Games from before seeds were sealed, their seeds plain: they read
	// back, and SealSeeds seals them.
	old := mustCreate(t, st, "old")
	var olds [][]byte
	for i := range 20 {
		olds = append(olds, mustCreate(t, st, "old"+strconv.Itoa(i)).Seed)
	}
	sameGame(t, mustGame(t, sealed, "old"), wantGame(old))
	if n, err := store.SealSeeds(ctx, st, key); n != 1+len(olds) || err != nil {
		t.Fatalf("SealSeeds: %d sealed, %v; want %d", n, err, 1+len(olds))
	}
	if n, err := store.SealSeeds(ctx, st, key); n != 0 || err != nil {
		t.Fatalf("SealSeeds again: %d sealed, %v; want none", n, err)
	}
	if !store.IsSealed(mustGame(t, st, "old").Seed) {
		t.Fatal("SealSeeds left the old seed plain")
	}
	sameGame(t, mustGame(t, sealed, "old"), wantGame(old))
	// A copy taken while the server runs, and one once it has stopped.
	noPlainSeeds(t, "while open", raw(t), append(olds, seed, old.Seed))
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	noPlainSeeds(t, "once closed", raw(t), append(olds, seed, old.Seed))

	// Reopened with the key, the games read back; with another, or
	// damaged, they say why.
	st = openStore(t, open)
	sameGame(t, mustGame(t, store.Sealed(st, key), "live"), wantGame(live))
	wrong := store.NewSeedKey([32]byte{9})
	_, err := store.Sealed(st, wrong).Game(ctx, "live")
	if !errors.Is(err, store.ErrSeedKey) || !strings.Contains(err.Error(), key.ID()) || !strings.Contains(err.Error(), wrong.ID()) {
		t.Errorf("Game with another key: %v, want ErrSeedKey naming both keys", err)
	}
	if _, err := store.Sealed(st, wrong).Games(ctx, store.Filter{}); !errors.Is(err, store.ErrSeedKey) {
		t.Errorf("Games with another key: %v, want ErrSeedKey", err)
	}
	if _, err := store.SealSeeds(ctx, st, wrong); !errors.Is(err, store.ErrSeedKey) {
		t.Errorf("SealSeeds with another key: %v, want ErrSeedKey", err)
	}
	kept := mustGame(t, st, "live").Seed
	damaged := bytes.Clone(kept)
	damaged[len(damaged)-1] ^= 1
	if err := st.ReplaceSeed(ctx, "live", kept, damaged); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Sealed(st, key).Game(ctx, "live"); !errors.Is(err, store.ErrSeedKey) || !errors.Is(err, store.ErrSeedDamaged) || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("Game of a damaged seed: %v, want ErrSeedKey and ErrSeedDamaged", err)
	}
	// The damaged seed is its game's alone: the others list with their
	// seeds, it with its seed as stored, and SealSeeds passes it by.
	games, err := store.Sealed(st, key).Games(ctx, store.Filter{Limit: 100})
	if err != nil || len(games) != 2+len(olds) {
		t.Fatalf("Games with a damaged seed: %d games, %v; want %d", len(games), err, 2+len(olds))
	}
	for _, g := range games {
		switch {
		case g.ID == "live" && !bytes.Equal(g.Seed, damaged):
			t.Errorf("the damaged seed is listed as %x, want it as stored, %x", g.Seed, damaged)
		case g.ID != "live" && store.IsSealed(g.Seed):
			t.Errorf("game %s is listed with its seed sealed", g.ID)
		}
	}
	if n, err := store.SealSeeds(ctx, st, key); n != 0 || err != nil {
		t.Errorf("SealSeeds with a damaged seed: %d sealed, %v; want none and no error", n, err)
	}
	// A sealed seed moved to another game does not open there.
	if err := st.ReplaceSeed(ctx, "old", mustGame(t, st, "old").Seed, kept); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Sealed(st, key).Game(ctx, "old"); !errors.Is(err, store.ErrSeedKey) || !errors.Is(err, store.ErrSeedDamaged) {
		t.Errorf("Game of another game's sealed seed: %v, want ErrSeedKey and ErrSeedDamaged", err)
	}
}

// noPlainSeeds checks that the bytes of a database hold none of the seeds,
// neither as bytes nor in hexadecimal.
func noPlainSeeds(t *testing.T, when string, data []byte, seeds [][]byte) {
	t.Helper()
	if len(data) == 0 {
		t.Fatalf("%s: raw returned nothing", when)
	}
	lower := bytes.ToLower(data)
	for _, s := range seeds {
		if bytes.Contains(data, s) || bytes.Contains(lower, []byte(hex.EncodeToString(s))) {
			t.Errorf("%s: the database holds the seed %x in plain form", when, s)
		}
	}
}
