package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"
)

// syncProbeEvery is how often the load test syncs its probe file: often
// enough for a p99 over a minute's run, too seldom to load the disk.
const syncProbeEvery = 20 * time.Millisecond

// stalledSync is the time from which a probe's sync counts as a stall of
// the disk: every action committed meanwhile waits for it.
const stalledSync = 50 * time.Millisecond

// syncProbe times the disk's own syncs while the load test runs: every
// syncProbeEvery it writes a page (4 KiB, as the database writes its log)
// at the start of a small file in the database's directory and syncs the
// file, as a commit syncs the log. Beside the times of the broadcasts, it
// tells how much of them is the disk's: a group commit waits for at least
// one sync, and a sync's time varies from disk to disk and with what else
// writes to it.
type syncProbe struct {
	dir   string
	times []time.Duration
	at    []int64 // when each of times began, nanoseconds since 1970
	err   error   // the first failure; the probe stops there
}

// run syncs the probe file until ctx is done, then removes it.
func (p *syncProbe) run(ctx context.Context) {
	f, err := os.CreateTemp(p.dir, "chaturaji-loadtest-sync-")
	if err != nil {
		p.err = err
		return
	}
	defer os.Remove(f.Name())
	defer f.Close()
	page := make([]byte, 4096)
	t := time.NewTicker(syncProbeEvery)
	defer t.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		page[0] = byte(i)
		t0 := time.Now()
		if _, err := f.WriteAt(page, 0); err != nil {
			p.err = err
			return
		}
		if err := f.Sync(); err != nil {
			p.err = err
			return
		}
		p.times = append(p.times, time.Since(t0))
		p.at = append(p.at, t0.UnixNano())
	}
}

// stalls returns the time spent in syncs of stalledSync or more begun between
// from and to (nanoseconds since 1970), and the longest sync begun then.
func (p *syncProbe) stalls(from, to int64) (slow, longest time.Duration) {
	for i, t := range p.at {
		if t < from || t >= to {
			continue
		}
		d := p.times[i]
		if d >= stalledSync {
			slow += d
		}
		longest = max(longest, d)
	}
	return slow, longest
}

// line is the probe's figures as the report shows them.
func (p *syncProbe) line() string {
	if p == nil {
		return "not measured (--sync-dir DIR: the database's directory)"
	}
	if p.err != nil {
		return fmt.Sprintf("failed: %v", p.err)
	}
	// A sync's p99 undercounts the long ones as an action meets them: a
	// probe stuck 300 ms is one sample, while every action committed in
	// those 300 ms waits. So the line also gives the time spent in syncs
	// of 50 ms and more, against all the time the probe ran.
	var slow, all time.Duration
	for _, d := range p.times {
		all += max(d, syncProbeEvery)
		if d >= stalledSync {
			slow += d
		}
	}
	sorted := slices.Sorted(slices.Values(p.times))
	share := 0.0
	if all > 0 {
		share = 100 * float64(slow) / float64(all)
	}
	return fmt.Sprintf("p50 %s  p99 %s  max %s  (%d syncs of a 4 KiB write, one every %v, in %s); in syncs of 50ms or more %.2f%% of the time",
		quantile(sorted, 0.50), quantile(sorted, 0.99), quantile(sorted, 1), len(sorted), syncProbeEvery, p.dir, share)
}
