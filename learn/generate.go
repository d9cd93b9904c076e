package learn

import (
	"context"
	"fmt"
	"os"
	"time"
)

// generate returns the run's games: those the samples file holds (with
// resume) and the rest, played cfg.Workers at once and written to the file
// in order as they finish.
func generate(ctx context.Context, cfg *Config, path string, resume bool, rep Reporter) ([][]Sample, error) {
	f, games, err := openSamples(path, cfg, resume)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if len(games) > cfg.Games {
		games = games[:cfg.Games]
	}
	have := len(games)
	if have > 0 {
		rep.Log("samples: %d games read from %s", have, path)
	}
	if have == cfg.Games {
		return games, nil
	}
	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		i       int
		samples []Sample
		err     error
	}
	jobs := make(chan int)
	results := make(chan result, cfg.Games-have) // workers never wait
	workers := max(cfg.Workers, 1)
	for range workers {
		go func() {
			for i := range jobs {
				s, err := PlayGame(ctx, cfg, uint64(i))
				results <- result{i, s, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := have; i < cfg.Games; i++ {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	waiting := map[int][]Sample{}
	next, running := have, cfg.Games-have
	samples := 0
	for running > 0 {
		var r result
		select {
		case r = <-results:
		case <-ctx.Done():
			// The workers finish their games; nobody waits for them.
			return nil, ctx.Err()
		}
		running--
		if r.err != nil {
			return nil, r.err
		}
		waiting[r.i] = r.samples
		for s, ok := waiting[next]; ok; s, ok = waiting[next] {
			delete(waiting, next)
			if err := writeGame(f, next, s); err != nil {
				return nil, err
			}
			samples += len(s)
			next++
			rep.Progress("games", next, cfg.Games, 0)
		}
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	elapsed := time.Since(start)
	rep.Log("games: %d played, %d decisions, in %v (%.1f games/s)", cfg.Games-have, samples, elapsed.Round(time.Second), float64(cfg.Games-have)/elapsed.Seconds())
	// Train on the file's values, rounded as they were written, so that a
	// run resumed from the file trains on exactly the same numbers.
	return readGames(path, cfg)
}

// readGames reads the run's games from its samples file.
func readGames(path string, cfg *Config) ([][]Sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	games, _, err := ReadSamples(f, samplesHeader(cfg))
	if err != nil {
		return nil, err
	}
	if len(games) < cfg.Games {
		return nil, fmt.Errorf("learn: %s holds %d games, want %d", path, len(games), cfg.Games)
	}
	return games[:cfg.Games], nil
}
