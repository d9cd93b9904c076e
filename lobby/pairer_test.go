package lobby_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/lobby"
	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/postgres"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
	"github.com/chaturaji/chaturaji/store/sqlite"
)

// memory returns the lobby of a new in-memory SQLite store.
func memory(t *testing.T) store.Lobby {
	t.Helper()
	s, err := sqlite.Open(t.Context(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// pgStore opens a PostgreSQL store on the schema at u.
func pgStore(t *testing.T, u string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newPairer(t *testing.T, st store.Lobby, node string) *lobby.Pairer {
	t.Helper()
	pr, err := lobby.NewPairer(st, node, lobby.DefaultParams(levels))
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

func mustPool(t *testing.T, key string) lobby.Pool {
	t.Helper()
	p, err := lobby.ParsePool(key)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// one returns a seek of pool by one seeker, player id.
func one(pool lobby.Pool, id string, rating float64) *lobby.Seek {
	return &lobby.Seek{Pool: pool, Seekers: []lobby.Seeker{{Player: id, Name: "Player " + id, Rating: rating}}}
}

func mustAdd(t *testing.T, pr *lobby.Pairer, s *lobby.Seek, at time.Time) {
	t.Helper()
	if err := pr.Add(t.Context(), s, at); err != nil {
		t.Fatalf("Add(%s): %v", s.Seekers[0].Player, err)
	}
}

func TestAddRefuses(t *testing.T) {
	pr := newPairer(t, memory(t), "n1")
	rated, casual, teamPool := mustPool(t, "chaturaji/15s/rated"), mustPool(t, "chaturaji/15s/casual"), mustPool(t, "chaturaji-teams/15s/casual")
	for _, tc := range []struct {
		name   string
		change func(*lobby.Seek)
		want   string
	}{
		{"a guest in a rated pool", func(s *lobby.Seek) { s.Pool = rated; s.Seekers[0].Guest = true }, "sign in to play rated games"},
		{"partners where teams are not played", func(s *lobby.Seek) { s.Seekers = append(s.Seekers, lobby.Seeker{Player: "b"}) }, "play each for himself"},
		{"three seekers", func(s *lobby.Seek) {
			s.Pool = teamPool
			s.Seekers = append(s.Seekers, lobby.Seeker{Player: "b"}, lobby.Seeker{Player: "c"})
		}, "3 seekers"},
		{"one player twice", func(s *lobby.Seek) { s.Pool = teamPool; s.Seekers = append(s.Seekers, s.Seekers[0]) }, `player "a" twice`},
		{"no seeker", func(s *lobby.Seek) { s.Seekers = nil }, "no seeker"},
		{"no player id", func(s *lobby.Seek) { s.Seekers[0].Player = "" }, "no player id"},
		{"a long player id", func(s *lobby.Seek) { s.Seekers[0].Player = strings.Repeat("p", 129) }, "129 bytes, over the limit of 128"},
		{"a long name", func(s *lobby.Seek) { s.Seekers[0].Name = strings.Repeat("n", 41) }, "41 bytes, over the limit of 40"},
		{"a name with a control character", func(s *lobby.Seek) { s.Seekers[0].Name = "a\nb" }, "not printable"},
		{"a rating not a number", func(s *lobby.Seek) { s.Seekers[0].Rating = math.NaN() }, "is not a rating"},
		{"a negative sigma", func(s *lobby.Seek) { s.Seekers[0].Sigma = -1 }, "is not a rating"},
		{"a bot wait over the limit", func(s *lobby.Seek) { s.Bots, s.BotWait = true, 2*time.Hour }, "bot wait 2h0m0s"},
		{"a long id", func(s *lobby.Seek) { s.ID = strings.Repeat("i", 65) }, "over the limit of 64"},
		{"a pool of no rules", func(s *lobby.Seek) { s.Pool.Rules = "chess" }, `unknown preset "chess"`},
	} {
		s := one(casual, "a", 1500)
		tc.change(s)
		err := pr.Add(t.Context(), s, now)
		if !errors.Is(err, lobby.ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Add = %v, want ErrInvalid saying %q", tc.name, err, tc.want)
		}
	}
	if seeks, err := pr.Seeks(t.Context(), casual); err != nil || len(seeks) != 0 {
		t.Errorf("after refusals, Seeks = %v, %v; want none", seeks, err)
	}
}

func TestRound(t *testing.T) {
	st := memory(t)
	pr := newPairer(t, st, "n1")
	pool := mustPool(t, "chaturaji/15s/casual")
	for i, p := range []string{"a", "b", "c", "d", "e"} {
		s := one(pool, p, 1500+float64(i)*10)
		mustAdd(t, pr, s, now.Add(time.Duration(i)*time.Second))
		if s.ID == "" || !s.Since.Equal(now.Add(time.Duration(i)*time.Second)) || s.BotWait != lobby.DefaultBotWait {
			t.Errorf("Add set ID %q, Since %v, BotWait %v; want an id, the time given and the default wait", s.ID, s.Since, s.BotWait)
		}
	}
	tables, err := pr.Round(t.Context(), pool, now.Add(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if got := show(tables); got != "a b c d" || tables[0].ID == "" {
		t.Fatalf("Round = [%s] (table id %q), want [a b c d] with an id", got, tables[0].ID)
	}
	for _, p := range []string{"a", "d"} {
		if s, err := st.SeekOf(t.Context(), p); err != nil || s.Table != tables[0].ID {
			t.Errorf("SeekOf(%s) = %+v, %v; want it claimed into %s", p, s, err, tables[0].ID)
		}
	}
	if again, err := pr.Round(t.Context(), pool, now.Add(time.Minute)); err != nil || len(again) != 0 {
		t.Errorf("a second round = [%s], %v; want none (e waits alone)", show(again), err)
	}
	if err := pr.Add(t.Context(), one(pool, "a", 1500), now); !errors.Is(err, store.ErrConflict) {
		t.Errorf("Add of a seated player: %v, want ErrConflict", err)
	}
	if err := pr.Forget(t.Context(), tables[0].ID); err != nil {
		t.Fatal(err)
	}
	mustAdd(t, pr, one(pool, "a", 1500), now)
}

func TestRoundBots(t *testing.T) {
	pr := newPairer(t, memory(t), "n1")
	pool := mustPool(t, "chaturaji/15s/casual")
	s := one(pool, "a", 1790)
	s.Bots = true
	mustAdd(t, pr, s, now)
	if tables, err := pr.Round(t.Context(), pool, now.Add(lobby.DefaultBotWait-time.Millisecond)); err != nil || len(tables) != 0 {
		t.Fatalf("Round before the bot wait = [%s], %v; want none", show(tables), err)
	}
	tables, err := pr.Round(t.Context(), pool, now.Add(lobby.DefaultBotWait))
	if err != nil || show(tables) != "a bot:4 bot:4 bot:4" {
		t.Fatalf("Round after the bot wait = [%s], %v; want [a bot:4 bot:4 bot:4]", show(tables), err)
	}
}

func TestExpire(t *testing.T) {
	st := memory(t)
	a, b := newPairer(t, st, "a"), newPairer(t, st, "b")
	pool := mustPool(t, "chaturaji/15s/casual")
	mustAdd(t, a, one(pool, "x", 1500), now)
	mustAdd(t, b, one(pool, "y", 1500), now)
	later := now.Add(lobby.DefaultSeekLife)
	if n, err := a.Refresh(t.Context(), later); err != nil || n != 1 {
		t.Fatalf("Refresh = %d, %v; want 1", n, err)
	}
	if n, err := a.Expire(t.Context(), later.Add(time.Millisecond)); err != nil || n != 1 {
		t.Fatalf("Expire = %d, %v; want 1: b's seek, not refreshed for SeekLife", n, err)
	}
	seeks, err := a.Seeks(t.Context(), pool)
	if err != nil || len(seeks) != 1 || seeks[0].Seekers[0].Player != "x" {
		t.Fatalf("Seeks after Expire = %+v, %v; want x's alone", seeks, err)
	}
}

// TestRoundsOnTwoNodes runs pairing rounds of one pool on two nodes at
// once, each with its own store on one PostgreSQL database, while more
// seekers come: each seeker must end in exactly one table.
func TestRoundsOnTwoNodes(t *testing.T) {
	u := pgtest.Schema(t)
	a, b := pgStore(t, u), pgStore(t, u)
	for _, turn := range []string{"15s", "20s", "30s"} { // three: one race may miss the moment
		roundsOnTwoNodes(t, a, b, "chaturaji/"+turn+"/casual")
	}
}

// TestRoundsOnTwoStoresSQLite is TestRoundsOnTwoNodes on one SQLite file
// that two stores share.
func TestRoundsOnTwoStoresSQLite(t *testing.T) {
	path := t.TempDir() + "/games.db"
	var stores [2]store.Lobby
	for i := range stores {
		s, err := sqlite.Open(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores[i] = s
	}
	roundsOnTwoNodes(t, stores[0], stores[1], "chaturaji/15s/casual")
}

func roundsOnTwoNodes(t *testing.T, sa, sb store.Lobby, key string) {
	const first, late = 40, 20 // seekers before the rounds, and while they run
	nodes := [2]*lobby.Pairer{newPairer(t, sa, "a"), newPairer(t, sb, "b")}
	pool := mustPool(t, key)
	players := map[string]bool{}
	name := func(i int) string { return fmt.Sprintf("%s/p%02d", key, i) }
	add := func(i int) {
		p := name(i)
		// Spread over 300 points, waited long enough to accept them all.
		mustAdd(t, nodes[i%2], one(pool, p, 1400+float64(i*7%300)), now.Add(-time.Minute))
	}
	for i := range first {
		add(i)
		players[name(i)] = true
	}
	for i := first; i < first+late; i++ {
		players[name(i)] = true
	}

	var (
		mu     sync.Mutex
		tables []lobby.Table
		wg     sync.WaitGroup
		added  = make(chan struct{})
	)
	wg.Go(func() {
		defer close(added)
		for i := first; i < first+late; i++ {
			add(i)
		}
	})
	for _, pr := range nodes {
		wg.Go(func() {
			// Rounds until the late seekers have come and none waits;
			// a bound on the time, not the rounds, as the adds may be
			// slow on a loaded machine.
			deadline := time.Now().Add(time.Minute)
			for time.Now().Before(deadline) {
				won, err := pr.Round(t.Context(), pool, now)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				tables = append(tables, won...)
				mu.Unlock()
				select {
				case <-added:
					if seeks, err := pr.Seeks(t.Context(), pool); err != nil || len(seeks) == 0 {
						return
					}
				default:
				}
			}
			t.Error("the rounds did not seat everyone in a minute")
		})
	}
	wg.Wait()

	seated := map[string]string{}
	for _, tb := range tables {
		for _, s := range tb.Seats {
			if s.Bot != 0 {
				t.Errorf("table %s has a bot: no seek allowed one", tb.ID)
				continue
			}
			if other, ok := seated[s.Player]; ok {
				t.Errorf("player %s is seated at tables %s and %s", s.Player, other, tb.ID)
			}
			seated[s.Player] = tb.ID
		}
		got, err := sa.Table(t.Context(), tb.ID)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, s := range got {
			ids = append(ids, s.ID)
		}
		if want := slices.Sorted(slices.Values(tb.Seeks)); !slices.Equal(slices.Sorted(slices.Values(ids)), want) {
			t.Errorf("table %s holds seeks %v in the store, want %v", tb.ID, ids, want)
		}
	}
	if len(seated) != len(players) {
		t.Errorf("%d of %d players seated", len(seated), len(players))
	}
}

// TestClaimedAndLayout: a node sees the tables that seat its seekers,
// claimed by another node's round, and may lay out such a table's game
// as the round did: the same seekers, bots in the same seats, in the
// teams the round made.
func TestClaimedAndLayout(t *testing.T) {
	st := memory(t)
	a, b := newPairer(t, st, "a"), newPairer(t, st, "b")
	for _, tc := range []struct {
		pool    string
		ratings []float64 // one seek each, the first of node b, the others of a
		bots    bool
	}{
		{"chaturaji/15s/casual", []float64{1500, 1510, 1520, 1530}, false},
		{"chaturaji/15s/casual", []float64{1500, 1520}, true},
		{"chaturaji-teams/15s/casual", []float64{1600, 1400, 1550, 1450}, false},
		{"chaturanga-2p/1d/casual", []float64{1500}, true},
	} {
		pool := mustPool(t, tc.pool)
		var seekers []string
		for i, r := range tc.ratings {
			pr := a
			if i == 0 {
				pr = b
			}
			s := one(pool, fmt.Sprintf("%s/%d", tc.pool, i), r)
			s.Bots = tc.bots
			s.Seekers[0].TokenHash = []byte{byte(i), 0xff}
			mustAdd(t, pr, s, now)
			seekers = append(seekers, s.ID)
		}
		tables, err := a.Round(t.Context(), pool, now.Add(time.Hour))
		if err != nil || len(tables) != 1 {
			t.Fatalf("%s: Round = [%s], %v; want one table", tc.pool, show(tables), err)
		}
		won := tables[0]
		claims, err := b.Claimed(t.Context())
		if err != nil || len(claims) != 1 || claims[0].Table != won.ID || len(claims[0].Seeks) != 1 || claims[0].Seeks[0].ID != seekers[0] {
			t.Fatalf("%s: b's Claimed = %+v, %v; want b's one seek at table %s", tc.pool, claims, err, won.ID)
		}
		if got := claims[0].Seeks[0].Seekers[0].TokenHash; string(got) != "\x00\xff" {
			t.Errorf("%s: b's claimed seeker's token hash = %x, want 00ff", tc.pool, got)
		}
		laid, lpool, err := b.Layout(t.Context(), won.ID)
		if err != nil || lpool != pool || laid.ID != won.ID || show([]lobby.Table{laid}) != show(tables) {
			t.Errorf("%s: Layout = [%s] of pool %v, %v; want [%s] of %v, as the round seated them", tc.pool, show([]lobby.Table{laid}), lpool, err, show(tables), pool)
		}
		for _, c := range claims[0].Seeks {
			if err := b.Seated(t.Context(), c.ID); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := b.Layout(t.Context(), won.ID); len(tc.ratings) > 1 && !tc.bots && !errors.Is(err, lobby.ErrInvalid) {
			t.Errorf("%s: Layout of a table one of whose seeks was forgotten: %v, want ErrInvalid", tc.pool, err)
		}
		if err := a.Forget(t.Context(), won.ID); err != nil {
			t.Fatal(err)
		}
		if claims, err := b.Claimed(t.Context()); err != nil || len(claims) != 0 {
			t.Errorf("%s: b's Claimed after its seek was forgotten = %+v, %v; want none", tc.pool, claims, err)
		}
	}
}
