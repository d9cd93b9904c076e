package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/chaturaji/chaturaji/store"
)

// raceTests are about many writers appending at once.
var raceTests = []test{
	{"racing appenders: exactly one wins each number", func(t *testing.T, s store.Store) {
		const numbers, racers = 15, 8
		mustCreate(t, s, "g1")
		winners := make([]int, numbers)
		for seq := int64(1); seq <= numbers; seq++ {
			start := make(chan struct{})
			errs := make([]error, racers)
			var wg sync.WaitGroup
			for r := range racers {
				wg.Go(func() {
					e := store.Event{Seq: seq, Kind: "roll", Data: racerData(r, seq), At: t0}
					<-start
					errs[r] = s.AppendEvents(t.Context(), "g1", seq-1, []store.Event{e})
				})
			}
			close(start)
			wg.Wait()
			won := 0
			for r, err := range errs {
				switch {
				case err == nil:
					won++
					winners[seq-1] = r
				case !errors.Is(err, store.ErrConflict):
					t.Fatalf("event %d, racer %d: %v, want nil or ErrConflict", seq, r, err)
				}
			}
			if won != 1 {
				t.Fatalf("event %d: %d racers won, want exactly 1", seq, won)
			}
		}
		evs := mustEvents(t, s, "g1", 0)
		want := make([]store.Event, numbers)
		for i, r := range winners {
			seq := int64(i + 1)
			want[i] = store.Event{Seq: seq, Kind: "roll", Data: racerData(r, seq), At: kept(t0)}
		}
		sameEvents(t, evs, want)
		if got := mustGame(t, s, "g1").LastEvent; got != numbers {
			t.Errorf("LastEvent = %d, want %d", got, numbers)
		}
	}},

	{"appenders that retry leave no gaps and no duplicates", func(t *testing.T, s store.Store) {
		const writers, batches = 6, 8
		mustCreate(t, s, "g1")
		var wg sync.WaitGroup
		errs := make([]error, writers)
		for w := range writers {
			wg.Go(func() { errs[w] = appendWithRetries(t, s, "g1", w, batches) })
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}

		// Every writer's events are there once each, in its order, and
		// the numbers run 1, 2, 3, ... with none missing.
		evs := mustEvents(t, s, "g1", 0)
		next := make([]int, writers)
		for i, e := range evs {
			if e.Seq != int64(i+1) {
				t.Fatalf("event %d is numbered %d; numbers: %s", i+1, e.Seq, seqs(evs))
			}
			var w, n int
			if _, err := fmt.Sscanf(string(e.Data), `{"writer":%d,"n":%d}`, &w, &n); err != nil {
				t.Fatalf("event %d: data %s: %v", e.Seq, e.Data, err)
			}
			if n != next[w] {
				t.Fatalf("event %d is writer %d's item %d, want its item %d", e.Seq, w, n, next[w])
			}
			next[w]++
		}
		total := 0
		for w := range writers {
			if want := batches * batchSize(w); next[w] != want {
				t.Errorf("writer %d has %d events stored, want %d", w, next[w], want)
			}
			total += batches * batchSize(w)
		}
		if got := mustGame(t, s, "g1").LastEvent; got != int64(total) {
			t.Errorf("LastEvent = %d, want %d", got, total)
		}
	}},

	{"appends to different games do not conflict", func(t *testing.T, s store.Store) {
		const games, each = 4, 10
		for i := range games {
			mustCreate(t, s, fmt.Sprint("g", i))
		}
		var wg sync.WaitGroup
		errs := make([]error, games)
		for i := range games {
			wg.Go(func() {
				for seq := int64(1); seq <= each && errs[i] == nil; seq++ {
					errs[i] = s.AppendEvents(t.Context(), fmt.Sprint("g", i), seq-1, events(seq, 1, 0))
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		for i := range games {
			sameEvents(t, mustEvents(t, s, fmt.Sprint("g", i), 0), wantEvents(events(1, each, 0)))
		}
	}},

	{"racing finishes: one result is kept", func(t *testing.T, s store.Store) {
		const games, racers = 10, 8
		for i := range games {
			id := fmt.Sprint("g", i)
			mustCreate(t, s, id)
			start := make(chan struct{})
			errs := make([]error, racers)
			var wg sync.WaitGroup
			for r := range racers {
				wg.Go(func() {
					<-start
					errs[r] = s.Finish(t.Context(), id, fmt.Sprintf("%d-0-0-0", r))
				})
			}
			close(start)
			wg.Wait()
			winner := -1
			for r, err := range errs {
				switch {
				case err == nil && winner >= 0:
					t.Fatalf("%s: racers %d and %d both finished the game", id, winner, r)
				case err == nil:
					winner = r
				case !errors.Is(err, store.ErrConflict):
					t.Fatalf("%s: racer %d: %v, want nil or ErrConflict", id, r, err)
				}
			}
			if winner < 0 {
				t.Fatalf("%s: no racer finished the game", id)
			}
			if g := mustGame(t, s, id); g.Status != store.Finished || g.Result != fmt.Sprintf("%d-0-0-0", winner) {
				t.Errorf("%s: status %q, result %q; want finished with racer %d's result", id, g.Status, g.Result, winner)
			}
		}
	}},
}

// racerData is the data of racer r's attempt at event seq.
func racerData(r int, seq int64) []byte {
	return fmt.Appendf(nil, `{"racer":%d,"seq":%d}`, r, seq)
}

// batchSize is how many events writer w appends at once: 1, 2 or 3.
func batchSize(w int) int {
	return w%3 + 1
}

// appendWithRetries appends batches of writer w's events to a game, each
// after the game's last event as it reads it, reading again and retrying
// when another writer got there first.
func appendWithRetries(t *testing.T, s store.Store, id string, w, batches int) error {
	n := 0
	for range batches {
		for attempt := 0; ; attempt++ {
			if attempt == 1000 {
				return fmt.Errorf("writer %d: no append went through in 1000 attempts", w)
			}
			g, err := s.Game(t.Context(), id)
			if err != nil {
				return fmt.Errorf("writer %d: %w", w, err)
			}
			evs := make([]store.Event, batchSize(w))
			for i := range evs {
				evs[i] = store.Event{
					Seq:  g.LastEvent + int64(i) + 1,
					Kind: "action",
					Data: fmt.Appendf(nil, `{"writer":%d,"n":%d}`, w, n+i),
					At:   t0,
				}
			}
			err = s.AppendEvents(t.Context(), id, g.LastEvent, evs)
			if errors.Is(err, store.ErrConflict) {
				continue
			}
			if err != nil {
				return fmt.Errorf("writer %d: %w", w, err)
			}
			n += len(evs)
			break
		}
	}
	return nil
}
