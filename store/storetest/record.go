package storetest

import (
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/chaturaji/chaturaji/store"
)

// recordTests are about SetRecord and Records.
var recordTests = []test{
	{"a finished game's record reads back byte for byte", func(t *testing.T, s store.Store) {
		mustCreate(t, s, "g1")
		mustCreate(t, s, "g2")
		mustCreate(t, s, "g3")
		for _, id := range []string{"g1", "g2", "g3"} {
			if err := s.Finish(t.Context(), id, "1-2-3-4"); err != nil {
				t.Fatal(err)
			}
		}
		texts := map[string][]byte{
			"g1": []byte("[Game \"g1\"]\r\n[Name \"Ñandú 🐘\"]\n\nS 5 d2d3  \n"),
			"g3": []byte("[Game \"g3\"]\n"),
		}
		for id, text := range texts {
			if err := s.SetRecord(t.Context(), id, text); err != nil {
				t.Fatalf("SetRecord(%s): %v", id, err)
			}
		}
		sameRecords(t, mustRecords(t, s, "g1", "g2", "g3", "nope"), texts)
		sameRecords(t, mustRecords(t, s, "g3"), map[string][]byte{"g3": texts["g3"]})
		sameRecords(t, mustRecords(t, s), map[string][]byte{})

		// A record kept again replaces the first.
		texts["g1"] = []byte("[Game \"g1\"]\n[Signature \"00\"]\n")
		if err := s.SetRecord(t.Context(), "g1", texts["g1"]); err != nil {
			t.Fatal(err)
		}
		sameRecords(t, mustRecords(t, s, "g1", "g3"), texts)
	}},

	{"a live game's record is not kept", func(t *testing.T, s store.Store) {
		g := mustCreate(t, s, "g1")
		err := s.SetRecord(t.Context(), "g1", []byte("[Game \"g1\"]\n"))
		if !errors.Is(err, store.ErrConflict) {
			t.Errorf("SetRecord of a live game: %v, want ErrConflict", err)
		}
		sameRecords(t, mustRecords(t, s, "g1"), map[string][]byte{})
		sameGame(t, mustGame(t, s, "g1"), wantGame(g))
	}},
}

// mustRecords reads the records kept of games and fails the test if it
// cannot.
func mustRecords(t *testing.T, s store.Store, ids ...string) map[string][]byte {
	t.Helper()
	got, err := s.Records(t.Context(), ids)
	if err != nil {
		t.Fatalf("Records(%v): %v", ids, err)
	}
	return got
}

// sameRecords compares records read with those wanted.
func sameRecords(t *testing.T, got, want map[string][]byte) {
	t.Helper()
	if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))) {
		t.Errorf("records of %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	for id, text := range want {
		if g, ok := got[id]; ok && string(g) != string(text) {
			t.Errorf("record of %s is %q, want %q", id, g, text)
		}
	}
}
