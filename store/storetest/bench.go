package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// BenchmarkAppend measures AppendEvents as a busy server calls it: games
// goroutines, each the loop of a game of its own, append an action and a
// roll (two events of a few hundred bytes, as the server writes them) one
// after the other, with a pause between drawn from 0 to think (players
// thinking: the load test's default is 1s), or none if think is 0, so
// that a commit always has others waiting behind it. It reports, besides
// the time per append, the appends a second over all games and the 50th
// and 99th percentile and the longest time one AppendEvents call took: a
// group commit that keeps one caller waiting for the others shows there.
func BenchmarkAppend(b *testing.B, s store.Store, games int, think time.Duration) {
	ctx := context.Background()
	for g := range games {
		if err := s.CreateGame(ctx, newGame(fmt.Sprintf("bench%d", g))); err != nil {
			b.Fatal(err)
		}
	}
	data := make([]byte, 0, 400)
	data = fmt.Appendf(data, `{"kind": "action", "seq": %%d, "position": "%s"}`, string(slices.Repeat([]byte("r1bk"), 80)))
	var (
		left   atomic.Int64
		mu     sync.Mutex
		times  []time.Duration
		failed error
	)
	left.Store(int64(b.N))
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for g := range games {
		wg.Go(func() {
			id := fmt.Sprintf("bench%d", g)
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			var last int64
			var mine []time.Duration
			for left.Add(-1) >= 0 {
				if think > 0 {
					time.Sleep(time.Duration(rng.Int64N(int64(think))))
				}
				evs := []store.Event{
					{Seq: last + 1, Kind: "action", Data: fmt.Appendf(nil, string(data), last+1)},
					{Seq: last + 2, Kind: "roll", Data: fmt.Appendf(nil, string(data), last+2)},
				}
				t0 := time.Now()
				if err := s.AppendEvents(ctx, id, last, evs); err != nil {
					mu.Lock()
					failed = err
					mu.Unlock()
					return
				}
				mine = append(mine, time.Since(t0))
				last += 2
			}
			mu.Lock()
			times = append(times, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if failed != nil {
		b.Fatal(failed)
	}
	slices.Sort(times)
	q := func(p float64) float64 {
		return float64(times[min(int(p*float64(len(times))), len(times)-1)]) / float64(time.Millisecond)
	}
	b.ReportMetric(float64(len(times))/elapsed.Seconds(), "appends/s")
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(q(1), "max-ms")
}
