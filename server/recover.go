package server

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// What a game does when its store fails. A write that fails changes
// nothing: the loop reloads the game from the store, so that it holds what
// the store holds, and tries again by itself after a wait that doubles with
// each failure in a row (Config.RetryMin up to Config.RetryMax, drawn from
// its upper half at random so that a thousand games do not come back to
// the database at the same moment). If the store cannot even be read, the
// game is stale: it refuses actions (EUNAVAILABLE) until a later try reads
// it. Either way its loop goes on, so that when the database is back the
// game's automatic events, timers and bots resume without anyone asking
// for it.

// storeFailed deals with a write of the game to the store that failed at
// op (started at t0): it is logged (once an interval for all games, see
// repeats) and counted, the game is reloaded, and it tries again later.
func (l *live) storeFailed(op, what string, err error, t0 time.Time) {
	if errors.Is(err, store.ErrFenced) {
		l.lose("a write was fenced: another node adopted the game")
		return
	}
	l.srv.storeFailed(op, what, l.id, err)
	if l.unheld.IsZero() {
		l.unheld = t0.UTC().Truncate(time.Millisecond)
	}
	l.failed()
	if l.reload() {
		l.later()
	}
}

// failed counts one more failure of the store in a row.
func (l *live) failed() {
	if l.failures == 0 {
		l.srv.metrics.gamesWaiting.Inc()
	}
	l.failures++
}

// stored notes that a write of the game went through: the store is back.
func (l *live) stored() {
	l.srv.health.wrote(nil)
	if l.failures > 0 {
		l.srv.metrics.gamesWaiting.Dec()
		l.srv.repeats.Info("games saved again after the store failed", "game", l.id, "failures", l.failures)
	}
	l.failures, l.stale, l.unheld, l.retryAt = 0, false, time.Time{}, time.Time{}
}

// reload rebuilds the game from the store, so that what the loop holds is
// what the store holds. If the store cannot be read, the game is stale and
// tries again later; reload reports whether it read the game.
func (l *live) reload() bool {
	l.cancelBot()
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	r, err := l.srv.read(ctx, l.id)
	if err != nil {
		l.srv.storeFailed(opRead, "reloading game", l.id, err)
		l.stale = true
		l.failed()
		l.later()
		return false
	}
	l.stale = false
	l.rp = r
	l.info, l.table, l.game, l.seq, l.last, l.takeovers = r.info, r.table, r.game, r.seq, r.last, r.takeovers
	l.bots = make([]*bot, len(l.info.Seats))
	l.snapshot()
	return true
}

// later sets when the game tries again: after its backoff.
func (l *live) later() {
	now := time.Now()
	l.retryAt = now.Add(backoff(l.failures, l.srv.cfg.RetryMin, l.srv.cfg.RetryMax))
	l.setTimer(now)
}

// retry tries again once the wait is over: it reloads a stale game, then
// brings the game up to date (resume), which saves what is due and starts
// the clocks and the bots again.
func (l *live) retry() {
	if l.stale && !l.reload() {
		return
	}
	l.resume()
}

// backoff returns how long to wait after n failures in a row: lo doubled
// n-1 times, at most hi, and of that a random part of the upper half
// (jitter).
func backoff(n int, lo, hi time.Duration) time.Duration {
	d := lo
	for i := 1; i < n && d < hi; i++ {
		d *= 2
	}
	d = min(d, hi)
	return d/2 + rand.N(d/2+1)
}
