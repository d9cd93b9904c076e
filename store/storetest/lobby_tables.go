package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// tablesTest is one test of the open tables' suite, given a new, empty
// store and a way to open another store on its database.
type tablesTest = suiteTest[store.OpenTables]

// RunOpenTables runs the open tables' tests, as RunLobby runs the
// lobby's: each calls open for a new, empty store of its own; again opens
// another store on the same database.
func RunOpenTables(t *testing.T, open Opener) {
	runSuite(t, open, "store.OpenTablesOf", store.OpenTablesOf, tablesTests)
}

// newTable returns a table of four seats opened by opener in the first,
// the second and third open, the fourth a bot's.
func newTable(id, opener string) *store.OpenTable {
	return &store.OpenTable{
		ID: id, Rules: "chaturaji", Turn: 15*time.Second + 999*time.Microsecond, Rated: true, MinRating: 1200.5, MaxRating: 1800,
		Opener: opener, Node: "n1",
		Seats: []store.TableSeat{
			{Open: true, Node: "n1", Seeker: player(opener)},
			{Open: true}, {Open: true}, {},
		},
	}
}

// player returns a seat's holder named p.
func player(p string) store.Seeker {
	return store.Seeker{Player: p, Name: "Ñandú " + p, Rating: 1500.25, Mu: 25.125, Sigma: 8.5, TokenHash: []byte("\x00token of " + p)}
}

func mustOpenTable(t *testing.T, s store.OpenTables, tb *store.OpenTable) {
	t.Helper()
	if err := s.OpenTable(t.Context(), tb, 0); err != nil {
		t.Fatalf("OpenTable(%s): %v", tb.ID, err)
	}
}

func mustJoin(t *testing.T, s store.OpenTables, table string, seat int, p, node string) {
	t.Helper()
	if err := s.JoinTable(t.Context(), table, seat, player(p), node); err != nil {
		t.Fatalf("JoinTable(%s, %d, %s): %v", table, seat, p, err)
	}
}

func mustFind(t *testing.T, s store.OpenTables, table string) *store.OpenTable {
	t.Helper()
	tb, err := s.FindTable(t.Context(), table)
	if err != nil {
		t.Fatalf("FindTable(%s): %v", table, err)
	}
	return tb
}

// tableIDs returns the ids of tables, space-separated.
func tableIDs(ts []*store.OpenTable) string {
	ids := make([]string, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	return strings.Join(ids, " ")
}

// wantConflict fails the test unless err is ErrConflict saying what.
func wantConflict(t *testing.T, what string, err error, saying string) {
	t.Helper()
	if !errors.Is(err, store.ErrConflict) || !strings.Contains(err.Error(), saying) {
		t.Errorf("%s: %v, want ErrConflict saying %q", what, err, saying)
	}
}

var tablesTests = []tablesTest{
	{"an open table reads back as opened, listed oldest first", func(t *testing.T, s store.OpenTables, _ func() store.OpenTables) {
		before := time.Now().Add(-time.Millisecond)
		t1 := newTable("t1", "a")
		mustOpenTable(t, s, t1)
		if t1.Created.Before(before) || !t1.Updated.Equal(t1.Created) || !t1.Started.IsZero() {
			t.Errorf("OpenTable set Created %v, Updated %v, Started %v; want now, now, zero", t1.Created, t1.Updated, t1.Started)
		}
		want := newTable("t1", "a")
		want.Turn = 15 * time.Second
		want.Created, want.Updated = t1.Created, t1.Updated
		if got := mustFind(t, s, "t1"); !reflect.DeepEqual(got, want) {
			t.Errorf("FindTable:\n got %+v\nwant %+v", got, want)
		}
		mustOpenTable(t, s, newTable("t0", "b"))
		ts, err := s.ListTables(t.Context(), 0)
		if err != nil || tableIDs(ts) != "t1 t0" {
			t.Errorf("ListTables = [%s], %v; want [t1 t0]", tableIDs(ts), err)
		}
		if ts, err := s.ListTables(t.Context(), 1); err != nil || tableIDs(ts) != "t1" {
			t.Errorf("ListTables(1) = [%s], %v; want [t1]", tableIDs(ts), err)
		}
		if _, err := s.FindTable(t.Context(), "none"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("FindTable(none): %v, want ErrNotFound", err)
		}
	}},

	{"opening is refused to a seated player, a taken id, past the limit, without the opener", func(t *testing.T, s store.OpenTables, _ func() store.OpenTables) {
		mustOpenTable(t, s, newTable("t1", "a"))
		wantConflict(t, "OpenTable by a seated opener", s.OpenTable(t.Context(), newTable("t2", "a"), 0), `"t1"`)
		wantConflict(t, "OpenTable of a taken id", s.OpenTable(t.Context(), newTable("t1", "b"), 0), "taken")
		if err := s.OpenTable(t.Context(), newTable("t2", "b"), 1); !errors.Is(err, store.ErrTooMany) {
			t.Errorf("OpenTable past the limit: %v, want ErrTooMany", err)
		}
		bad := newTable("t2", "b")
		bad.Seats[0].Player = "c"
		if err := s.OpenTable(t.Context(), bad, 0); err == nil || errors.Is(err, store.ErrConflict) || !strings.Contains(err.Error(), "not its opener") {
			t.Errorf("OpenTable with another in the opener's seat: %v, want an error saying so", err)
		}
		if ts, _ := s.ListTables(t.Context(), 0); tableIDs(ts) != "t1" {
			t.Errorf("ListTables = [%s] after refusals, want [t1]", tableIDs(ts))
		}
	}},

	{"a seat is joined once, if open and the table not started, by one not seated", func(t *testing.T, s store.OpenTables, _ func() store.OpenTables) {
		mustOpenTable(t, s, newTable("t1", "a"))
		mustOpenTable(t, s, newTable("t2", "z"))
		mustJoin(t, s, "t1", 1, "b", "n2")
		got := mustFind(t, s, "t1").Seats[1]
		if want := (store.TableSeat{Open: true, Seeker: player("b"), Node: "n2"}); !reflect.DeepEqual(got, want) {
			t.Errorf("seat 1 after JoinTable = %+v, want %+v", got, want)
		}
		wantConflict(t, "JoinTable of a taken seat", s.JoinTable(t.Context(), "t1", 1, player("c"), "n1"), "taken")
		wantConflict(t, "JoinTable of a bot's seat", s.JoinTable(t.Context(), "t1", 3, player("c"), "n1"), "not open")
		wantConflict(t, "JoinTable of no seat", s.JoinTable(t.Context(), "t1", 7, player("c"), "n1"), "no seat")
		wantConflict(t, "JoinTable by a seated player", s.JoinTable(t.Context(), "t1", 2, player("z"), "n1"), `"t2"`)
		if err := s.JoinTable(t.Context(), "none", 1, player("c"), "n1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("JoinTable of no table: %v, want ErrNotFound", err)
		}
	}},

	{"leaving empties the seat; the opener leaving closes the table", func(t *testing.T, s store.OpenTables, _ func() store.OpenTables) {
		mustOpenTable(t, s, newTable("t1", "a"))
		mustJoin(t, s, "t1", 1, "b", "n1")
		if err := s.LeaveTable(t.Context(), "b"); err != nil {
			t.Fatal(err)
		}
		if got := mustFind(t, s, "t1").Seats[1]; !reflect.DeepEqual(got, store.TableSeat{Open: true}) {
			t.Errorf("seat 1 after its holder left = %+v, want empty and open", got)
		}
		if err := s.LeaveTable(t.Context(), "b"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("LeaveTable by one seated nowhere: %v, want ErrNotFound", err)
		}
		mustJoin(t, s, "t1", 1, "b", "n1")
		if err := s.LeaveTable(t.Context(), "a"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.FindTable(t.Context(), "t1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("FindTable after its opener left: %v, want ErrNotFound", err)
		}
		mustOpenTable(t, s, newTable("t2", "b")) // b sits nowhere now
	}},

	{"a table starts once, as its seats stand; its seats are told and forgotten", func(t *testing.T, s store.OpenTables, _ func() store.OpenTables) {
		mustOpenTable(t, s, newTable("t1", "a"))
		mustJoin(t, s, "t1", 2, "c", "n2")
		started, err := s.StartTable(t.Context(), "t1")
		if err != nil {
			t.Fatal(err)
		}
		if started.Started.IsZero() || started.Seats[2].Player != "c" || started.Seats[1].Player != "" {
			t.Errorf("StartTable = %+v, want it started with a and c", started)
		}
		if _, err := s.StartTable(t.Context(), "t1"); !errors.Is(err, store.ErrConflict) {
			t.Errorf("StartTable again: %v, want ErrConflict", err)
		}
		if _, err := s.StartTable(t.Context(), "none"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("StartTable of no table: %v, want ErrNotFound", err)
		}
		wantConflict(t, "JoinTable of a started table", s.JoinTable(t.Context(), "t1", 1, player("d"), "n1"), "started")
		wantConflict(t, "LeaveTable of a started table", s.LeaveTable(t.Context(), "c"), "started")
		if ts, _ := s.ListTables(t.Context(), 0); len(ts) != 0 {
			t.Errorf("ListTables = [%s], want no started table", tableIDs(ts))
		}
		for node, want := range map[string]string{"n1": "t1", "n2": "t1", "n3": ""} {
			if ts, err := s.Started(t.Context(), node); err != nil || tableIDs(ts) != want {
				t.Errorf("Started(%s) = [%s], %v; want [%s]", node, tableIDs(ts), err, want)
			}
		}
		if err := s.ForgetTableSeat(t.Context(), "a"); err != nil {
			t.Fatal(err)
		}
		if ts, _ := s.Started(t.Context(), "n1"); len(ts) != 0 {
			t.Errorf("Started(n1) = [%s] after its seat was forgotten, want none", tableIDs(ts))
		}
		if err := s.ForgetTableSeat(t.Context(), "a"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("ForgetTableSeat again: %v, want ErrNotFound", err)
		}
		mustFind(t, s, "t1")
		if err := s.ForgetTableSeat(t.Context(), "c"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.FindTable(t.Context(), "t1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("FindTable after its last seat was forgotten: %v, want ErrNotFound", err)
		}
	}},

	{"refresh keeps a node's tables and seats; expire removes the stale", func(t *testing.T, s store.OpenTables, _ func() store.OpenTables) {
		mustOpenTable(t, s, newTable("t1", "a"))
		t2 := newTable("t2", "z")
		t2.Node, t2.Seats[0].Node = "n2", "n2"
		mustOpenTable(t, s, t2)
		mustJoin(t, s, "t1", 1, "b", "n1")
		mustJoin(t, s, "t1", 2, "c", "n2")
		later := time.Now().Add(time.Hour)
		if n, err := s.RefreshTables(t.Context(), "n1", later); err != nil || n != 3 {
			t.Errorf("RefreshTables(n1) = %d, %v; want 3 (t1, a's seat and b's)", n, err)
		}
		if n, err := s.ExpireTables(t.Context(), later.Add(-time.Minute)); err != nil || n != 2 {
			t.Errorf("ExpireTables = %d, %v; want 2 (t2, and c's seat)", n, err)
		}
		tb := mustFind(t, s, "t1")
		if tb.Seats[1].Player != "b" || tb.Seats[2].Player != "" {
			t.Errorf("t1 after ExpireTables holds %q and %q, want b and no one", tb.Seats[1].Player, tb.Seats[2].Player)
		}
		if _, err := s.FindTable(t.Context(), "t2"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("FindTable(t2) after it expired: %v, want ErrNotFound", err)
		}
	}},

	{"racing joins through two stores give a seat to one", func(t *testing.T, s store.OpenTables, again func() store.OpenTables) {
		stores := [2]store.OpenTables{s, again()}
		for rep := range 3 {
			table := fmt.Sprintf("t%d", rep)
			mustOpenTable(t, s, newTable(table, fmt.Sprintf("opener%d", rep)))
			var wg sync.WaitGroup
			var mu sync.Mutex
			var won []string
			for i := range 16 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					p := fmt.Sprintf("p%d-%d", rep, i)
					err := stores[i%2].JoinTable(t.Context(), table, 1+i%2, player(p), "n1")
					switch {
					case err == nil:
						mu.Lock()
						won = append(won, p)
						mu.Unlock()
					case !errors.Is(err, store.ErrConflict):
						t.Errorf("JoinTable(%s): %v", p, err)
					}
				}()
			}
			wg.Wait()
			tb := mustFind(t, s, table)
			if len(won) != 2 || tb.Seats[1].Player == "" || tb.Seats[2].Player == "" {
				t.Errorf("racing joins: %v won, table holds %q and %q; want two, one a seat", won, tb.Seats[1].Player, tb.Seats[2].Player)
			}
		}
	}},
}
