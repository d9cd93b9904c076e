package storetest

import (
	"crypto/sha256"
	"errors"
	"math"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// What the invitations' suite holds a store.PairInvites to, beyond its
// documentation:
//
//   - An invitation reads back (from TakeInvite) as opened: its inviter's
//     name, ratings, flags and token hash exact, BotWait to the
//     millisecond, times as every store keeps them.
//   - Of many takers of one invitation at once, through one store or two
//     on the same database, exactly one takes it; the others are told it
//     is taken (ErrConflict).

// invitesTest is one test of the invitations' suite, given a new, empty
// store and a way to open another store on its database.
type invitesTest = suiteTest[store.PairInvites]

// RunInvites runs the pair invitations' tests, as RunLobby runs the
// lobby's: each calls open for a new, empty store of its own; again opens
// another store on the same database.
func RunInvites(t *testing.T, open Opener) {
	runSuite(t, open, "store.PairInvitesOf", store.PairInvitesOf, invitesTests)
}

// codeHash returns the hash of an invitation's code.
func codeHash(code string) []byte {
	h := sha256.Sum256([]byte(code))
	return h[:]
}

// newInvite returns an invitation of code by player, of node n1, with
// bots after 20.5 s and a microsecond more.
func newInvite(code, player string) *store.PairInvite {
	return &store.PairInvite{
		Hash: codeHash(code), Pool: "chaturaji-teams/15s/casual", Bots: true, BotWait: 20500*time.Millisecond + time.Microsecond,
		Inviter: store.Seeker{Player: player, Name: "Ñandú " + player, Guest: true, Rating: 1500.25, Mu: 25.125, Sigma: 8.5, TokenHash: []byte("\x00token of " + player)},
		Node:    "n1",
	}
}

func mustInvite(t *testing.T, s store.PairInvites, inv *store.PairInvite, max int) {
	t.Helper()
	if err := s.OpenInvite(t.Context(), inv, max); err != nil {
		t.Fatalf("OpenInvite(%s): %v", inv.Inviter.Player, err)
	}
}

var invitesTests = []invitesTest{
	{"an invitation is taken once, as opened", func(t *testing.T, s store.PairInvites, _ func() store.PairInvites) {
		before := time.Now().Add(-time.Millisecond)
		inv := newInvite("code-a", "a")
		mustInvite(t, s, inv, 0)
		if inv.Created.Before(before) || !inv.Updated.Equal(inv.Created) || inv.Seek != "" || inv.BotWait != 20500*time.Millisecond {
			t.Errorf("OpenInvite set Created %v, Updated %v, Seek %q, BotWait %v; want now, now, none, 20.5s", inv.Created, inv.Updated, inv.Seek, inv.BotWait)
		}
		got, err := s.TakeInvite(t.Context(), codeHash("code-a"), "seek-1")
		if err != nil {
			t.Fatalf("TakeInvite: %v", err)
		}
		want := newInvite("code-a", "a")
		want.BotWait, want.Created, want.Seek = 20500*time.Millisecond, inv.Created, "seek-1"
		if got.Updated.Before(inv.Created) {
			t.Errorf("taken, Updated %v, before its opening %v", got.Updated, inv.Created)
		}
		want.Updated = got.Updated
		if !reflect.DeepEqual(got, want) {
			t.Errorf("TakeInvite =\n%+v\nwant\n%+v", got, want)
		}
		if _, err := s.TakeInvite(t.Context(), codeHash("code-a"), "seek-2"); !errors.Is(err, store.ErrConflict) {
			t.Errorf("a second TakeInvite: %v, want ErrConflict", err)
		}
		if _, err := s.TakeInvite(t.Context(), codeHash("no such code"), "seek-3"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("TakeInvite of an unknown code: %v, want ErrNotFound", err)
		}
	}},
	{"a bad invitation is refused and stores nothing", func(t *testing.T, s store.PairInvites, _ func() store.PairInvites) {
		for name, bad := range map[string]func(*store.PairInvite){
			"no hash":      func(i *store.PairInvite) { i.Hash = nil },
			"no pool":      func(i *store.PairInvite) { i.Pool = "" },
			"no inviter":   func(i *store.PairInvite) { i.Inviter.Player = "" },
			"no node":      func(i *store.PairInvite) { i.Node = "" },
			"NaN rating":   func(i *store.PairInvite) { i.Inviter.Mu = math.NaN() },
			"negative bot": func(i *store.PairInvite) { i.BotWait = -time.Second },
		} {
			inv := newInvite("code-"+name, "a")
			bad(inv)
			if err := s.OpenInvite(t.Context(), inv, 0); err == nil {
				t.Errorf("OpenInvite with %s: no error", name)
			}
			if _, err := s.TakeInvite(t.Context(), codeHash("code-"+name), "seek"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("an invitation with %s refused, then TakeInvite: %v, want ErrNotFound", name, err)
			}
		}
		mustInvite(t, s, newInvite("code", "a"), 0)
		if err := s.OpenInvite(t.Context(), newInvite("code", "b"), 0); !errors.Is(err, store.ErrConflict) {
			t.Errorf("OpenInvite of a hash taken: %v, want ErrConflict", err)
		}
		if got, err := s.TakeInvite(t.Context(), codeHash("code"), "seek"); err != nil || got.Inviter.Player != "a" {
			t.Errorf("TakeInvite after a hash refused: %+v, %v; want a's", got, err)
		}
	}},
	{"an inviter's open invitations are bounded", func(t *testing.T, s store.PairInvites, _ func() store.PairInvites) {
		mustInvite(t, s, newInvite("a1", "a"), 2)
		mustInvite(t, s, newInvite("a2", "a"), 2)
		if err := s.OpenInvite(t.Context(), newInvite("a3", "a"), 2); !errors.Is(err, store.ErrTooMany) {
			t.Fatalf("a third invitation of a, at most 2: %v, want ErrTooMany", err)
		}
		mustInvite(t, s, newInvite("b1", "b"), 2) // another's own bound
		mustInvite(t, s, newInvite("a4", "a"), 0) // no bound given
		if _, err := s.TakeInvite(t.Context(), codeHash("a1"), "seek"); err != nil {
			t.Fatal(err)
		}
		if err := s.DropInvite(t.Context(), codeHash("a4")); err != nil {
			t.Fatal(err)
		}
		mustInvite(t, s, newInvite("a3", "a"), 2) // a taken and a dropped one leave room
	}},
	{"a released invitation is taken again; a dropped one is gone", func(t *testing.T, s store.PairInvites, _ func() store.PairInvites) {
		mustInvite(t, s, newInvite("code", "a"), 0)
		h := codeHash("code")
		if _, err := s.TakeInvite(t.Context(), h, "seek-1"); err != nil {
			t.Fatal(err)
		}
		if err := s.ReleaseInvite(t.Context(), h, "seek-2"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("ReleaseInvite by a seek that did not take it: %v, want ErrNotFound", err)
		}
		if err := s.ReleaseInvite(t.Context(), h, "seek-1"); err != nil {
			t.Fatalf("ReleaseInvite: %v", err)
		}
		if got, err := s.TakeInvite(t.Context(), h, "seek-3"); err != nil || got.Seek != "seek-3" {
			t.Fatalf("TakeInvite once released: %+v, %v", got, err)
		}
		if err := s.DropInvite(t.Context(), h); err != nil {
			t.Fatalf("DropInvite of a taken invitation: %v", err)
		}
		if err := s.DropInvite(t.Context(), h); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("DropInvite again: %v, want ErrNotFound", err)
		}
		if _, err := s.TakeInvite(t.Context(), h, "seek-4"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("TakeInvite once dropped: %v, want ErrNotFound", err)
		}
	}},
	{"a node refreshes its open invitations; the stale expire", func(t *testing.T, s store.PairInvites, _ func() store.PairInvites) {
		mustInvite(t, s, newInvite("open-n1", "a"), 0)
		other := newInvite("open-n2", "b")
		other.Node = "n2"
		mustInvite(t, s, other, 0)
		mustInvite(t, s, newInvite("taken-n1", "c"), 0)
		if _, err := s.TakeInvite(t.Context(), codeHash("taken-n1"), "seek"); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(time.Minute)
		if n, err := s.RefreshInvites(t.Context(), "n1", at); err != nil || n != 1 {
			t.Errorf("RefreshInvites(n1) = %d, %v; want 1 (its open one)", n, err)
		}
		if n, err := s.ExpireInvites(t.Context(), at); err != nil || n != 2 {
			t.Errorf("ExpireInvites = %d, %v; want 2 (n2's and the taken one)", n, err)
		}
		for code, want := range map[string]error{"open-n1": nil, "open-n2": store.ErrNotFound, "taken-n1": store.ErrNotFound} {
			if _, err := s.TakeInvite(t.Context(), codeHash(code), "seek-2"); !errors.Is(err, want) {
				t.Errorf("TakeInvite(%s) after the expiry: %v, want %v", code, err, want)
			}
		}
	}},
	{"of takers racing through two stores exactly one takes it", func(t *testing.T, s store.PairInvites, again func() store.PairInvites) {
		stores := [2]store.PairInvites{s, again()}
		for rep := range 5 {
			code := "race-" + string(rune('a'+rep))
			mustInvite(t, s, newInvite(code, "a"+code), 0)
			var (
				wg        sync.WaitGroup
				mu        sync.Mutex
				won, lost int
			)
			for i := range 16 {
				wg.Go(func() {
					_, err := stores[i%2].TakeInvite(t.Context(), codeHash(code), "seek-"+string(rune('a'+i)))
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						won++
					case errors.Is(err, store.ErrConflict):
						lost++
					default:
						t.Errorf("TakeInvite: %v, want nil or ErrConflict", err)
					}
				})
			}
			wg.Wait()
			if won != 1 || lost != 15 {
				t.Errorf("of 16 takers of %s %d took it and %d were told it is taken, want 1 and 15", code, won, lost)
			}
		}
	}},
}
