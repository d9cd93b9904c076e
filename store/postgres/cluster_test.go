package postgres_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/postgres"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
)

// clusterGame returns a live game to create.
func clusterGame(id string) *store.Game {
	return &store.Game{
		ID: id, Rules: "chaturaji", Seed: make([]byte, 32), SeedHash: "00", Start: "start",
		Seats: []store.Seat{{Player: "human"}, {Player: "bot:1"}}, Status: store.Live,
	}
}

// roll returns event seq.
func roll(seq int64) []store.Event {
	return []store.Event{{Seq: seq, Kind: "roll", Data: fmt.Appendf(nil, `{"seq":%d}`, seq)}}
}

// join opens the store at u as node id with the given lease.
func join(t *testing.T, u, id string, lease time.Duration) *postgres.Store {
	t.Helper()
	s := open(t, u)
	t.Cleanup(func() { s.Close() })
	if err := s.Join(t.Context(), id, "http://"+id, lease, "key-1"); err != nil {
		t.Fatal(err)
	}
	return s
}

// waitFor polls cond every 20 ms until it holds, failing after a generous
// timeout.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestFencing checks that a node's writes of a game stop at once when
// its lease lapses and another node adopts the game: appends, seat
// updates and Finish are fenced, nothing is written, the renewal reports
// the game lost, and the adopter's events follow on without a gap.
func TestFencing(t *testing.T) {
	u := pgtest.Schema(t)
	const lease = 300 * time.Millisecond
	a, b := join(t, u, "a", lease), join(t, u, "b", lease)
	ctx := t.Context()
	if err := a.CreateGame(ctx, clusterGame("g1")); err != nil {
		t.Fatal(err)
	}
	if err := a.AppendEvents(ctx, "g1", 0, roll(1)); err != nil {
		t.Fatalf("owner's append: %v", err)
	}
	if err := b.AppendEvents(ctx, "g1", 1, roll(2)); !errors.Is(err, store.ErrFenced) {
		t.Fatalf("a non-owner's append: %v, want ErrFenced", err)
	}
	if got, err := b.Adopt(ctx, 10); err != nil || len(got) != 0 {
		t.Fatalf("Adopt while the lease is in force: %v, %v; want none", got, err)
	}
	if node, addr, err := b.Owner(ctx, "g1"); err != nil || node != "a" || addr != "http://a" {
		t.Fatalf("Owner = %q %q %v, want a at http://a", node, addr, err)
	}
	// a stops renewing: its lease lapses by the database's clock.
	waitFor(t, "the lease to lapse", func() bool {
		n, live, _, err := b.Orphans(ctx)
		return err == nil && n == 1 && live == 1
	})
	got, err := b.Adopt(ctx, 10)
	if err != nil || len(got) != 1 || got[0].ID != "g1" || got[0].From != "a" || got[0].Released || got[0].LastHeld.IsZero() {
		t.Fatalf("Adopt = %+v, %v; want g1 from a, lapsed, with its last renewal", got, err)
	}
	for what, err := range map[string]error{
		"append":      a.AppendEvents(ctx, "g1", 1, roll(2)),
		"update seat": a.UpdateSeat(ctx, "g1", 0, store.Seat{Player: "bot:2"}),
		"finish":      a.Finish(ctx, "g1", "1-0"),
	} {
		if !errors.Is(err, store.ErrFenced) {
			t.Errorf("the old owner's %s: %v, want ErrFenced", what, err)
		}
	}
	if lost, err := a.Renew(ctx); err != nil || len(lost) != 0 {
		// The fenced append already dropped the game from a's leases.
		t.Errorf("a's renewal: lost %v, %v; want nothing left to lose", lost, err)
	}
	if err := b.AppendEvents(ctx, "g1", 1, roll(2)); err != nil {
		t.Fatalf("the adopter's append: %v", err)
	}
	evs, err := b.Events(ctx, "g1", 0)
	if err != nil || len(evs) != 2 || evs[0].Seq != 1 || evs[1].Seq != 2 {
		t.Fatalf("events %+v, %v; want 1 and 2", evs, err)
	}
	g, err := b.Game(ctx, "g1")
	if err != nil || g.Seats[0].Player != "human" || g.Status != store.Live {
		t.Fatalf("game %+v, %v: the fenced writes changed it", g, err)
	}
	if err := b.Finish(ctx, "g1", "1-0"); err != nil {
		t.Fatalf("the adopter's finish: %v", err)
	}
}

// TestRenewReportsLost checks that a renewal keeps the leases of the
// games a node holds and names those another node adopted.
func TestRenewReportsLost(t *testing.T) {
	u := pgtest.Schema(t)
	a, b := join(t, u, "a", 200*time.Millisecond), join(t, u, "b", time.Hour)
	ctx := t.Context()
	for _, id := range []string{"g1", "g2"} {
		if err := a.CreateGame(ctx, clusterGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "the leases to lapse", func() bool {
		n, _, _, err := b.Orphans(ctx)
		return err == nil && n == 2
	})
	if got, err := b.Adopt(ctx, 1); err != nil || len(got) != 1 {
		t.Fatalf("Adopt(1) = %v, %v; want one game", got, err)
	}
	lost, err := a.Renew(ctx)
	if err != nil || len(lost) != 1 {
		t.Fatalf("Renew: lost %v, %v; want one game", lost, err)
	}
	if a.Holds(lost[0]) || !b.Holds(lost[0]) {
		t.Errorf("after the renewal, a holds %s: %v, b: %v", lost[0], a.Holds(lost[0]), b.Holds(lost[0]))
	}
	kept := map[string]string{"g1": "g2", "g2": "g1"}[lost[0]]
	if err := a.AppendEvents(ctx, kept, 0, roll(1)); err != nil {
		t.Fatalf("append to the game a kept: %v", err)
	}
}

// TestNotesAndRelease checks that every append notifies the listening
// nodes, in order, and that a release lets another node adopt at once. A
// cluster in another schema of the same database is not heard.
func TestNotesAndRelease(t *testing.T) {
	u := pgtest.Schema(t)
	a, b := join(t, u, "a", time.Hour), join(t, u, "b", time.Hour)
	other := join(t, pgtest.Schema(t), "c", time.Hour)
	ctx := t.Context()
	notes := make(chan store.Note, 100)
	go b.Listen(ctx, func(n store.Note) { notes <- n })
	if n := <-notes; n.Kind != store.NoteConnected {
		t.Fatalf("first note %+v, want connected", n)
	}
	if err := other.CreateGame(ctx, clusterGame("elsewhere")); err != nil {
		t.Fatal(err)
	}
	if err := other.AppendEvents(ctx, "elsewhere", 0, roll(1)); err != nil {
		t.Fatal(err)
	}
	if err := a.CreateGame(ctx, clusterGame("g1")); err != nil {
		t.Fatal(err)
	}
	for seq := int64(1); seq <= 3; seq++ {
		if err := a.AppendEvents(ctx, "g1", seq-1, roll(seq)); err != nil {
			t.Fatal(err)
		}
	}
	for seq := int64(1); seq <= 3; seq++ {
		select {
		case n := <-notes:
			if n.Kind != store.NoteEvents || n.ID != "g1" || n.Seq != seq {
				t.Fatalf("note %+v, want events of g1 up to %d", n, seq)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("no note")
		}
	}
	if err := a.Release(ctx); err != nil {
		t.Fatal(err)
	}
	for n := range notes {
		if n.Kind == store.NoteReleased {
			break
		}
	}
	got, err := b.Adopt(ctx, 10)
	if err != nil || len(got) != 1 || !got[0].Released {
		t.Fatalf("Adopt after a release = %+v, %v; want g1, released", got, err)
	}
	if err := a.AppendEvents(ctx, "g1", 3, roll(4)); !errors.Is(err, store.ErrFenced) {
		t.Fatalf("append after a release: %v, want ErrFenced", err)
	}
}

// TestJoinClusterKey checks that a node whose cluster key differs from
// that of a node alive is refused when it joins, naming both keys, and
// one with the same key is not; and that the database keeps no secret of
// the nodes' (a copy of it must not let anyone sign as a node).
func TestJoinClusterKey(t *testing.T) {
	u := pgtest.Schema(t)
	a := join(t, u, "a", time.Hour)
	other := open(t, u)
	t.Cleanup(func() { other.Close() })
	err := other.Join(t.Context(), "b", "http://b", time.Hour, "key-2")
	if !errors.Is(err, store.ErrClusterKey) || !strings.Contains(err.Error(), `node "a" holds cluster key key-1, this one key-2`) {
		t.Fatalf("Join with another key: %v, want ErrClusterKey naming node a and both keys", err)
	}
	if err := other.Join(t.Context(), "b", "http://b", time.Hour, ""); err == nil || !strings.Contains(err.Error(), "want an id, a lease above 0 and a key") {
		t.Fatalf("Join without a key: %v", err)
	}
	c := join(t, u, "c", time.Hour) // the same key as a's
	// Once the others are gone, a node with another key may join.
	for _, n := range []*postgres.Store{a, c} {
		if err := n.Release(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if err := other.Join(t.Context(), "b", "http://b", time.Hour, "key-2"); err != nil {
		t.Fatalf("Join with another key, no other node alive: %v", err)
	}

	conn, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	var secrets int
	if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM information_schema.columns
		WHERE table_schema = current_schema() AND (table_name = 'cluster' OR column_name = 'secret')`).Scan(&secrets); err != nil || secrets != 0 {
		t.Fatalf("the database has %d columns of a cluster secret (%v)", secrets, err)
	}
}
