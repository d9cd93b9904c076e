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
//
// A write that failed may still have been done: the connection can break
// after the database committed and before it said so (a failover, a proxy
// or NAT reset, a timeout). The reload takes in whatever the store holds,
// and hands the game's subscribers every event past the last they had, so
// no event is ever skipped in a live stream; storeFailed returns those
// events, for the caller to tell whether its own write went through after
// all.
func (l *live) storeFailed(op, what string, err error, t0 time.Time) []store.Event {
	if errors.Is(err, store.ErrFenced) {
		l.lose("a write was fenced: another node adopted the game")
		return nil
	}
	l.srv.storeFailed(op, what, l.id, err)
	l.down(t0)
	l.failed()
	fresh, ok := l.reload()
	if ok {
		l.later()
	}
	if n := len(fresh); n > 0 {
		l.srv.log.Warn("the store holds events past the write that failed: they are published now", "game", l.id, "from", fresh[0].Seq, "to", fresh[n-1].Seq)
	}
	return fresh
}

// down notes that the game could not be played from t0 on, or from when
// the server learnt that its database fails if that was earlier (its
// heartbeat, other games' writes: health.go), so that the time is given
// back to the open decision (downtime.go).
func (l *live) down(t0 time.Time) {
	since := t0
	if d := l.srv.health.outageSince(); !d.IsZero() && d.Before(since) {
		since = d
	}
	since = since.UTC().Truncate(time.Millisecond)
	if l.unheld.IsZero() || since.Before(l.unheld) {
		l.unheld = since
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
	l.srv.wrote(nil)
	if l.failures > 0 {
		l.srv.metrics.gamesWaiting.Dec()
		l.srv.repeats.Info("games saved again after the store failed", "game", l.id, "failures", l.failures)
	}
	l.failures, l.stale, l.unheld, l.retryAt = 0, false, time.Time{}, time.Time{}
}

// reload rebuilds the game from the store, so that what the loop holds is
// what the store holds, and publishes every stored event past the last the
// loop had (takeIn). If the store cannot be read, the game is stale and
// tries again later. reload returns the events it took in, and whether it
// read the game.
func (l *live) reload() ([]store.Event, bool) {
	l.cancelBot()
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	r, evs, err := readGameEvents(ctx, l.srv.store, l.id)
	if err != nil {
		l.srv.storeFailed(opRead, "reloading game", l.id, err)
		l.stale = true
		l.failed()
		l.later()
		return nil, false
	}
	l.stale = false
	l.bots = make([]*bot, len(r.info.Seats))
	return l.takeIn(r, evs), true
}

// takeIn makes the game rebuilt from the store (r, from events evs) the
// loop's, and hands the subscribers every event past the last they had,
// in order; it returns those events. The loop's seq is the last event it
// published, before and after: a reload never moves it on in silence.
func (l *live) takeIn(r *replayed, evs []store.Event) []store.Event {
	old := l.seq
	l.rp = r
	l.info, l.table, l.game, l.seq, l.last, l.takeovers, l.moved = r.info, r.table, r.game, r.seq, r.last, r.takeovers, r.moved
	l.banks, l.times, l.waitUntil = r.bankList(), r.times, r.waitUntil
	if l.last != nil {
		l.updated = l.last.At
	}
	l.snapshot()
	i := len(evs)
	for i > 0 && evs[i-1].Seq > old {
		i--
	}
	fresh := evs[i:]
	for _, e := range fresh {
		l.publish(e.Data)
	}
	return fresh
}

// holds reports whether the events fresh, read back after a write failed,
// are the events recs that the write was to save: it went through after
// all.
func holds(fresh, recs []store.Event) bool {
	if len(recs) == 0 || len(fresh) < len(recs) {
		return false
	}
	for i, r := range recs {
		f := fresh[i]
		if f.Seq != r.Seq || f.Kind != r.Kind || string(f.Data) != string(r.Data) {
			return false
		}
	}
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
	if l.stale {
		if _, ok := l.reload(); !ok {
			return
		}
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
