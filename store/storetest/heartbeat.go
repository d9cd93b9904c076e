package storetest

import (
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// heldTests are about Heartbeat and LastHeld.
var heldTests = []test{
	{"a game is last held at the latest heartbeat", func(t *testing.T, s store.Store) {
		mustCreate(t, s, "g1")
		mustCreate(t, s, "g2")
		if at := mustLastHeld(t, s, "g1"); !at.IsZero() {
			t.Errorf("before any heartbeat LastHeld = %v, want zero", at)
		}
		for _, tc := range []struct {
			name string
			beat time.Time
			want time.Time
		}{
			{"the first heartbeat", t0.Add(time.Second), kept(t0.Add(time.Second))},
			{"a later one", t0.Add(2*time.Second + 1500), kept(t0.Add(2*time.Second + 1500))},
			{"an earlier one leaves the latest", t0, kept(t0.Add(2*time.Second + 1500))},
			{"a much later one", t0.Add(time.Hour), kept(t0.Add(time.Hour))},
		} {
			if err := s.Heartbeat(t.Context(), tc.beat); err != nil {
				t.Fatalf("%s: Heartbeat: %v", tc.name, err)
			}
			for _, id := range []string{"g1", "g2"} {
				if at := mustLastHeld(t, s, id); !at.Equal(tc.want) || at.Location() != time.UTC {
					t.Errorf("%s: LastHeld(%s) = %v, want %v in UTC", tc.name, id, at, tc.want)
				}
			}
		}
	}},

	{"a heartbeat changes no game", func(t *testing.T, s store.Store) {
		g := mustCreate(t, s, "g1")
		if err := s.Heartbeat(t.Context(), t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		sameGame(t, mustGame(t, s, "g1"), wantGame(g))
	}},
}

// mustLastHeld reads when a game was last held and fails the test if it
// cannot.
func mustLastHeld(t *testing.T, s store.Store, id string) time.Time {
	t.Helper()
	at, err := s.LastHeld(t.Context(), id)
	if err != nil {
		t.Fatalf("LastHeld(%s): %v", id, err)
	}
	return at
}
