package store_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/store"
)

func TestSeedKey(t *testing.T) {
	k := store.NewSeedKey([32]byte{7})
	seed := bytes.Repeat([]byte{0xab}, 32)
	a, err := k.Seal("g1", seed)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := k.Seal("g1", seed)
	if bytes.Equal(a, b) || bytes.Contains(a, seed[:8]) || !store.IsSealed(a) || store.SealedKeyID(a) != k.ID() {
		t.Fatalf("sealed twice as %x and %x", a, b)
	}
	for _, s := range [][]byte{a, b} {
		if got, err := k.Open("g1", s); err != nil || !bytes.Equal(got, seed) {
			t.Fatalf("Open: %x, %v", got, err)
		}
	}
	if got, err := k.Open("g1", seed); err != nil || !bytes.Equal(got, seed) {
		t.Fatalf("Open of a plain seed: %x, %v", got, err)
	}
	for _, tc := range []struct {
		name   string
		id     string
		stored []byte
		want   string
	}{
		{"another game's", "g2", a, "damaged or changed"},
		{"another key's", "g1", mustSeal(t, store.NewSeedKey([32]byte{8}), "g1", seed), "sealed with key"},
		{"cut short", "g1", a[:len(a)-1], "neither a seed nor a sealed one"},
		{"damaged", "g1", append(bytes.Clone(a[:len(a)-1]), a[len(a)-1]^1), "damaged or changed"},
	} {
		_, err := k.Open(tc.id, tc.stored)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
		if tc.want != "neither a seed nor a sealed one" && !errors.Is(err, store.ErrSeedKey) {
			t.Errorf("%s: %v is not ErrSeedKey", tc.name, err)
		}
	}
	if _, err := k.Seal("g1", seed[:31]); err == nil {
		t.Error("Seal of 31 bytes")
	}
}

func mustSeal(t testing.TB, k *store.SeedKey, id string, seed []byte) []byte {
	t.Helper()
	s, err := k.Seal(id, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// FuzzSeedOpen gives Open any stored bytes: it returns a 32-byte seed or
// an error, and a sealed seed it opens is one it sealed.
func FuzzSeedOpen(f *testing.F) {
	k := store.NewSeedKey([32]byte{7})
	seed := bytes.Repeat([]byte{0xab}, 32)
	f.Add(seed)
	f.Add(mustSeal(f, k, "g1", seed))
	f.Add([]byte{1})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, stored []byte) {
		got, err := k.Open("g1", stored)
		if err != nil {
			return
		}
		if len(got) != 32 {
			t.Fatalf("%x opened to %d bytes", stored, len(got))
		}
		if store.IsSealed(stored) && bytes.Equal(got, stored[len(stored)-32:]) {
			t.Fatalf("%x opened to its own bytes", stored)
		}
	})
}
