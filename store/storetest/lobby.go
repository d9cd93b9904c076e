package storetest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// What the lobby's suite holds a store.Lobby to, beyond its documentation:
//
//   - A seek reads back as added: its seekers in order, names, ratings
//     and flags exact, times as every store keeps them, BotWait to the
//     millisecond.
//   - Of many claims made at once, through one store or two on the same
//     database, of overlapping sets of seeks, each seek ends in at most
//     one table, and each table that was claimed holds exactly the seeks
//     its claim named, even while the seekers seek again meanwhile.

// lobbyTest is one test of the lobby's suite, given a new, empty store
// and a way to open another store on its database.
type lobbyTest = suiteTest[store.Lobby]

// RunLobby runs the lobby's tests. Each test calls open for a new, empty
// store of its own, and closes it when it ends; open also returns again,
// which opens another store on the same database (or returns the same
// store, for a database only one store may hold), for the tests of
// several stores at once. The tests run in parallel.
func RunLobby(t *testing.T, open Opener) {
	runSuite(t, open, "store.LobbyOf", store.LobbyOf, lobbyTests)
}

// pool is the pool of the suite's seeks; otherPool another.
const (
	pool      = "chaturaji/15s/rated"
	otherPool = "chaturaji-2p/1d/casual"
)

// newSeek returns an open seek of pool made at t0 by node n1 with bots
// after 20.5 s, with a seeker for each player named.
func newSeek(id string, players ...string) *store.Seek {
	s := &store.Seek{ID: id, Pool: pool, Bots: true, BotWait: 20500 * time.Millisecond, Node: "n1", Created: t0}
	for i, p := range players {
		s.Seekers = append(s.Seekers, store.Seeker{
			Player: p, Name: "Ñandú " + p, Guest: i%2 == 1, Rating: 1500.25 + float64(i), Mu: 25.125, Sigma: 8.5 - float64(i),
		})
		if i%2 == 0 { // the second has none
			s.Seekers[i].TokenHash = []byte("\x00token of " + p + "\xff")
		}
	}
	return s
}

// wantSeek is s as the store reads it back.
func wantSeek(s *store.Seek) *store.Seek {
	w := *s
	w.Seekers = slices.Clone(s.Seekers)
	w.Created = kept(s.Created)
	w.Updated = w.Created
	return &w
}

func mustAddSeek(t *testing.T, l store.Lobby, s *store.Seek) {
	t.Helper()
	if err := l.AddSeek(t.Context(), s); err != nil {
		t.Fatalf("AddSeek(%s): %v", s.ID, err)
	}
}

func mustClaim(t *testing.T, l store.Lobby, table string, seeks ...string) {
	t.Helper()
	if err := l.Claim(t.Context(), table, pool, seeks); err != nil {
		t.Fatalf("Claim(%s, %v): %v", table, seeks, err)
	}
}

// sameSeek fails the test if got is not want.
func sameSeek(t *testing.T, got, want *store.Seek) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("seek %s:\n got %+v\nwant %+v", want.ID, got, want)
	}
}

// seekIDs returns the ids of seeks, space-separated.
func seekIDs(seeks []*store.Seek) string {
	ids := make([]string, len(seeks))
	for i, s := range seeks {
		ids[i] = s.ID
	}
	return strings.Join(ids, " ")
}

// wantSeeks fails the test unless pool's open seeks are those named, in
// order.
func wantSeeks(t *testing.T, l store.Lobby, pool string, limit int, want string) {
	t.Helper()
	seeks, err := l.Seeks(t.Context(), pool, limit)
	if err != nil {
		t.Fatalf("Seeks(%s): %v", pool, err)
	}
	if got := seekIDs(seeks); got != want {
		t.Errorf("Seeks(%s, %d) = [%s], want [%s]", pool, limit, got, want)
	}
}

// wantNoSeek fails the test unless player is in no seek.
func wantNoSeek(t *testing.T, l store.Lobby, player string) {
	t.Helper()
	if s, err := l.SeekOf(t.Context(), player); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SeekOf(%s) = %v, %v; want ErrNotFound", player, s, err)
	}
}

func mustSeekOf(t *testing.T, l store.Lobby, player string) *store.Seek {
	t.Helper()
	s, err := l.SeekOf(t.Context(), player)
	if err != nil {
		t.Fatalf("SeekOf(%s): %v", player, err)
	}
	return s
}

var lobbyTests = []lobbyTest{
	{"a seek reads back as added, a pair of partners in order", func(t *testing.T, l store.Lobby, _ func() store.Lobby) {
		s := newSeek("s1", "north", "south")
		want := wantSeek(s)
		mustAddSeek(t, l, s)
		if !s.Created.Equal(want.Created) || !s.Updated.Equal(want.Created) {
			t.Errorf("AddSeek set Created %v, Updated %v; want both %v", s.Created, s.Updated, want.Created)
		}
		sameSeek(t, mustSeekOf(t, l, "north"), want)
		sameSeek(t, mustSeekOf(t, l, "south"), want)
		seeks, err := l.Seeks(t.Context(), pool, 0)
		if err != nil || len(seeks) != 1 {
			t.Fatalf("Seeks = %v, %v; want the one seek", seeks, err)
		}
		sameSeek(t, seeks[0], want)
		wantNoSeek(t, l, "east")
	}},

	{"a zero Created is now, and BotWait is kept to the millisecond", func(t *testing.T, l store.Lobby, _ func() store.Lobby) {
		s := newSeek("s1", "a")
		s.Created, s.BotWait = time.Time{}, 1500*time.Millisecond+999*time.Microsecond
		before := time.Now().Add(-time.Millisecond)
		mustAddSeek(t, l, s)
		got := mustSeekOf(t, l, "a")
		if got.Created.Before(before) || got.Created.After(time.Now()) || !got.Created.Equal(s.Created) {
			t.Errorf("Created = %v (AddSeek said %v), want now", got.Created, s.Created)
		}
		if got.BotWait != 1500*time.Millisecond || s.BotWait != got.BotWait {
			t.Errorf("BotWait = %v (AddSeek said %v), want 1.5s", got.BotWait, s.BotWait)
		}
	}},

	{"a second seek replaces the open one, with its partner's place", func(t *testing.T, l store.Lobby, _ func() store.Lobby) {
		mustAddSeek(t, l, newSeek("s1", "a", "b"))
		mustAddSeek(t, l, newSeek("s2", "c"))
		s3 := newSeek("s3", "b")
		s3.Pool = otherPool
		mustAddSeek(t, l, s3)
		wantNoSeek(t, l, "a")
		sameSeek(t, mustSeekOf(t, l, "b"), wantSeek(s3))
		wantSeeks(t, l, pool, 0, "s2")
		wantSeeks(t, l, otherPool, 0, "s3")
		// A pair made of two seekers' seeks replaces both.
		mustAddSeek(t, l, newSeek("s4", "b", "c"))
		wantSeeks(t, l, pool, 0, "s4")
		wantSeeks(t, l, otherPool, 0, "")
	}},

	{"a seek's id taken, no seekers, a player twice, a rating not a number: refused", func(t *testing.T, l store.Lobby, _ func() store.Lobby) {
		mustAddSeek(t, l, newSeek("s1", "a"))
		if err := l.AddSeek(t.Context(), newSeek("s1", "b")); !errors.Is(err, store.ErrConflict) {
			t.Errorf("AddSeek of a taken id: %v, want ErrConflict", err)
		}
		nan := newSeek("s3", "c")
		nan.Seekers[0].Rating = math.NaN()
		for _, tc := range []struct {
			seek *store.Seek
			want string
		}{
			{newSeek("s2"), "0 seekers"},
			{newSeek("s2", "b", "b"), `player "b" twice`},
			{newSeek("s2", "b", "c", "d"), "3 seekers"},
			{newSeek("", "b"), "no id"},
			{nan, "not a number"},
		} {
			err := l.AddSeek(t.Context(), tc.seek)
			if err == nil || errors.Is(err, store.ErrConflict) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("AddSeek(%+v): %v, want an error saying %q", tc.seek, err, tc.want)
			}
		}
		sameSeek(t, mustSeekOf(t, l, "a"), wantSeek(newSeek("s1", "a")))
		wantNoSeek(t, l, "b")
		wantNoSeek(t, l, "c")
	}},

	{"withdraw removes an open seek, a pair's whole", func(t *testing.T, l store.Lobby, _ func() store.Lobby) {
		mustAddSeek(t, l, newSeek("s1", "a", "b"))
		mustAddSeek(t, l, newSeek("s2", "c"))
		if err := l.Withdraw(t.Context(), "b"); err != nil {
			t.Fatalf("Withdraw: %v", err)
		}
		wantNoSeek(t, l, "a")
		wantSeeks(t, l, pool, 0, "s2")
		if err := l.Withdraw(t.Context(), "b"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Withdraw again: %v, want ErrNotFound", err)
		}
	}},

	{"seeks lists a pool's open seeks, oldest first, up to the limit", func(t *testing.T, l store.Lobby, _ func() store.Lobby) {
		for i, id := range []string{"s5", "s4", "s3", "s2", "s1"} {
			s := newSeek(id, "p"+id)
			s.Created = t0.Add(time.Duration(i%3) * time.Second) // s5 and s2 first (by id: s2), then s4 and s1, then s3
			mustAddSeek(t, l, s)
		}
		other := newSeek("o1", "q")
		other.Pool = otherPool
		mustAddSeek(t, l, other)
		mustClaim(t, l, "t1", "s4")
		wantSeeks(t, l, pool, 0, "s2 s5 s1 s3")
		wantSeeks(t, l, pool, 2, "s2 s5")
		wantSeeks(t, l, otherPool, 0, "o1")
		wantSeeks(t, l, "no such pool", 0, "")
	}},

	{"claim is all or nothing", func(t *testing.T, l store.Lobby, _ func() store.Lobby) {
		for _, id := range []string{"s1", "s2", "s3", "s4"} {
			mustAddSeek(t, l, newSeek(id, "p"+id))
		}
		other := newSeek("o1", "q")
		other.Pool = otherPool
		mustAddSeek(t, l, other)
		mustClaim(t, l, "t1", "s1", "s2")
		for _, tc := range []struct {
			seeks []string
			want  string
		}{
			{[]string{"s3", "s2"}, `seek "s2" is claimed into table "t1"`},
			{[]string{"s3", "gone"}, `seek "gone" is gone`},
			{[]string{"s3", "o1"}, `seek "o1" is of pool`},
		} {
			err := l.Claim(t.Context(), "t2", pool, tc.seeks)
			if !errors.Is(err, store.ErrConflict) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Claim(%v): %v, want ErrConflict saying %q", tc.seeks, err, tc.want)
			}
		}
		wantSeeks(t, l, pool, 0, "s3 s4")
		tbl, err := l.Table(t.Context(), "t1")
		if err != nil || seekIDs(tbl) != "s1 s2" {
			t.Fatalf("Table(t1) = [%s], %v; want [s1 s2]", seekIDs(tbl), err)
		}
		if tbl[0].Table != "t1" || tbl[0].Updated.Before(tbl[0].Created) {
			t.Errorf("a claimed seek reads %+v, want Table t1 and Updated at the claim", tbl[0])
		}
		if tbl, err := l.Table(t.Context(), "t2"); err != nil || len(tbl) != 0 {
			t.Errorf("Table(t2) = [%s], %v; want none", seekIDs(tbl), err)
		}
		if got := mustSeekOf(t, l, "ps1").Table; got != "t1" {
			t.Errorf("SeekOf a claimed seeker: Table %q, want t1", got)
		}
	}},

	{"a claimed seek is neither replaced nor withdrawn until forgotten", func(t *testing.T, l store.Lobby, _ func() store.Lobby) {
		mustAddSeek(t, l, newSeek("s1", "a", "b"))
		mustAddSeek(t, l, newSeek("s2", "c"))
		mustClaim(t, l, "t1", "s1", "s2")
		if err := l.AddSeek(t.Context(), newSeek("s3", "d", "b")); !errors.Is(err, store.ErrConflict) || !strings.Contains(err.Error(), `"t1"`) {
			t.Errorf("AddSeek of a seated player: %v, want ErrConflict naming table t1", err)
		}
		wantNoSeek(t, l, "d")
		if err := l.Withdraw(t.Context(), "c"); !errors.Is(err, store.ErrConflict) {
			t.Errorf("Withdraw of a seated player: %v, want ErrConflict", err)
		}
		if err := l.Forget(t.Context(), "t1"); err != nil {
			t.Fatal(err)
		}
		wantNoSeek(t, l, "a")
		wantNoSeek(t, l, "c")
		mustAddSeek(t, l, newSeek("s3", "d", "b"))
	}},

	{"refresh keeps a node's open seeks; expire removes the stale, open or claimed", func(t *testing.T, l store.Lobby, _ func() store.Lobby) {
		for _, id := range []string{"s1", "s2", "s3", "s4"} {
			s := newSeek(id, "p"+id)
			if id == "s3" || id == "s4" {
				s.Node = "n2"
			}
			mustAddSeek(t, l, s)
		}
		mustClaim(t, l, "t1", "s2")
		later := t0.Add(time.Minute)
		if n, err := l.Refresh(t.Context(), "n1", later); err != nil || n != 1 {
			t.Errorf("Refresh(n1) = %d, %v; want 1 (s1: s2 is claimed)", n, err)
		}
		if got := mustSeekOf(t, l, "ps1").Updated; !got.Equal(kept(later)) {
			t.Errorf("s1's Updated = %v after Refresh, want %v", got, kept(later))
		}
		if n, err := l.Refresh(t.Context(), "n1", t0); err != nil || n != 0 || !mustSeekOf(t, l, "ps1").Updated.Equal(kept(later)) {
			t.Errorf("Refresh(n1) to an earlier time = %d, %v; want 0, the later time kept", n, err)
		}
		if n, err := l.Expire(t.Context(), t0.Add(time.Second)); err != nil || n != 2 {
			t.Errorf("Expire = %d, %v; want 2 (n2's s3 and s4)", n, err)
		}
		wantSeeks(t, l, pool, 0, "s1")
		if tbl, _ := l.Table(t.Context(), "t1"); seekIDs(tbl) != "s2" {
			t.Errorf("Table(t1) = [%s] after Expire, want [s2]: it was claimed just now", seekIDs(tbl))
		}
		if n, err := l.Expire(t.Context(), time.Now().Add(time.Hour)); err != nil || n != 2 {
			t.Errorf("Expire of all = %d, %v; want 2", n, err)
		}
		wantNoSeek(t, l, "ps2")
	}},

	{"claimed lists a node's claimed seeks by table; forget seek removes one", func(t *testing.T, l store.Lobby, _ func() store.Lobby) {
		for _, id := range []string{"s1", "s2", "s3", "s4", "s5"} {
			s := newSeek(id, "p"+id)
			if id == "s4" {
				s.Node = "n2"
			}
			mustAddSeek(t, l, s)
		}
		mustClaim(t, l, "t2", "s3", "s4")
		mustClaim(t, l, "t1", "s2")
		claimed, err := l.Claimed(t.Context(), "n1")
		if err != nil || seekIDs(claimed) != "s2 s3" {
			t.Fatalf("Claimed(n1) = [%s], %v; want [s2 s3]: by table, the open s1 and s5 and n2's s4 left out", seekIDs(claimed), err)
		}
		want := wantSeek(newSeek("s3", "ps3"))
		want.Table, want.Updated = "t2", claimed[1].Updated
		sameSeek(t, claimed[1], want)
		if err := l.ForgetSeek(t.Context(), "s1"); !errors.Is(err, store.ErrConflict) {
			t.Errorf("ForgetSeek of an open seek: %v, want ErrConflict", err)
		}
		if err := l.ForgetSeek(t.Context(), "gone"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("ForgetSeek of no seek: %v, want ErrNotFound", err)
		}
		if err := l.ForgetSeek(t.Context(), "s3"); err != nil {
			t.Fatal(err)
		}
		wantNoSeek(t, l, "ps3")
		if tbl, _ := l.Table(t.Context(), "t2"); seekIDs(tbl) != "s4" {
			t.Errorf("Table(t2) = [%s] after s3 was forgotten, want [s4]", seekIDs(tbl))
		}
		mustAddSeek(t, l, newSeek("s6", "ps3"))
		wantSeeks(t, l, pool, 0, "s1 s5 s6")
	}},

	{"racing claims through two stores put each seek in at most one table", func(t *testing.T, l store.Lobby, again func() store.Lobby) {
		stores := [2]store.Lobby{l, again()}
		for rep := range 3 { // the race is short: three make a miss unlikely
			raceClaims(t, stores, fmt.Sprintf("%s-%d", pool, rep))
		}
	}},
}

// raceClaims adds seeks, then has claimers on both stores claim random
// groups of four of the oldest six open seeks they read, while reseekers make some
// players seek again (a new seek, replacing the open one, refused for a
// seated player), until none is left. Each seek must end in at most one
// table, and each table won must hold exactly the seeks claimed.
func raceClaims(t *testing.T, stores [2]store.Lobby, pool string) {
	const seekers, claimers, reseekers = 120, 8, 2
	seek := func(id string, player int) *store.Seek {
		s := newSeek(pool+"/"+id, fmt.Sprintf("%s/p%d", pool, player))
		s.Pool = pool
		return s
	}
	for i := range seekers {
		mustAddSeek(t, stores[i%2], seek(fmt.Sprintf("s%d", i), i))
	}
	var (
		mu   sync.Mutex
		won  = map[string][]string{} // table -> seeks claimed
		errs []error
		wg   sync.WaitGroup
		done = make(chan struct{})
	)
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	var claimWG sync.WaitGroup
	for c := range claimers {
		claimWG.Go(func() {
			l := stores[c%2]
			rng := rand.New(rand.NewPCG(uint64(c), 1))
			for round := 0; round < 500; round++ {
				open, err := l.Seeks(t.Context(), pool, 0)
				if err != nil {
					fail(err)
					return
				}
				if len(open) < 4 {
					return
				}
				// Among the oldest few, as pairings choose: the claims
				// overlap often.
				open = open[:min(len(open), 6)]
				rng.Shuffle(len(open), func(i, j int) { open[i], open[j] = open[j], open[i] })
				ids := []string{open[0].ID, open[1].ID, open[2].ID, open[3].ID}
				table := fmt.Sprintf("%s/t%d-%d", pool, c, round)
				switch err := l.Claim(t.Context(), table, pool, ids); {
				case err == nil:
					mu.Lock()
					won[table] = ids
					mu.Unlock()
				case !errors.Is(err, store.ErrConflict):
					fail(fmt.Errorf("claim %s: %w", table, err))
					return
				}
			}
		})
	}
	for r := range reseekers {
		wg.Go(func() {
			l := stores[r%2]
			rng := rand.New(rand.NewPCG(uint64(r), 2))
			for n := 0; ; n++ {
				select {
				case <-done:
					return
				default:
				}
				err := l.AddSeek(t.Context(), seek(fmt.Sprintf("r%d-%d", r, n), rng.IntN(seekers)))
				if err != nil && !errors.Is(err, store.ErrConflict) {
					fail(fmt.Errorf("reseek: %w", err))
					return
				}
			}
		})
	}
	claimWG.Wait()
	close(done)
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if len(won) == 0 {
		t.Fatal("no claim won")
	}
	tableOf := map[string]string{}
	for table, ids := range won {
		for _, id := range ids {
			if other, ok := tableOf[id]; ok {
				t.Errorf("seek %s was claimed into tables %s and %s", id, other, table)
			}
			tableOf[id] = table
		}
		got, err := stores[0].Table(t.Context(), table)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(ids)
		slices.Sort(want)
		gotIDs := strings.Fields(seekIDs(got))
		slices.Sort(gotIDs)
		if !slices.Equal(gotIDs, want) {
			t.Errorf("table %s holds [%s], want the seeks claimed [%s]", table, strings.Join(gotIDs, " "), strings.Join(want, " "))
		}
	}
	// Every player is in one seek at most, and a seated player's seek is
	// the one claimed.
	for i := range seekers {
		s, err := stores[1].SeekOf(t.Context(), fmt.Sprintf("%s/p%d", pool, i))
		if errors.Is(err, store.ErrNotFound) {
			t.Errorf("player p%d is in no seek: a reseek lost it", i)
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		if s.Table != "" && tableOf[s.ID] != s.Table {
			t.Errorf("player p%d's seek %s is in table %q, which no claim won with it", i, s.ID, s.Table)
		}
	}
}
