package main

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// loadWindow is the length of the windows a load test's deliveries are
// split into (busiest): short enough to tell the minute when every game is
// live from the ones after, when games have ended and the load has fallen.
const loadWindow = 10 * time.Second

// windowStats are the deliveries of one window of a load test.
type windowStats struct {
	from     time.Duration // the window's start, from the first delivery
	n        int           // deliveries in it
	p99, max time.Duration
}

// windows splits deliveries (when each was made, in nanoseconds since
// 1970, with its latency, in the same order) into windows of length w from
// the first delivery, and returns each window that holds any.
func windows(at []int64, lat []time.Duration, w time.Duration) []windowStats {
	if len(at) == 0 {
		return nil
	}
	first := slices.Min(at)
	by := map[int][]time.Duration{}
	for i, t := range at {
		k := int(time.Duration(t-first) / w)
		by[k] = append(by[k], lat[i])
	}
	var out []windowStats
	for k, ds := range by {
		slices.Sort(ds)
		out = append(out, windowStats{
			from: time.Duration(k) * w,
			n:    len(ds),
			p99:  ds[min(int(0.99*float64(len(ds))), len(ds)-1)],
			max:  ds[len(ds)-1],
		})
	}
	slices.SortFunc(out, func(a, b windowStats) int { return cmp.Compare(a.from, b.from) })
	return out
}

// busiest describes the window with the most deliveries and the one with
// the highest p99, whose p99 is what a run's busiest minute costs: a
// run's p99 as a whole depends on how long its quiet end lasts.
func busiest(ws []windowStats, w time.Duration) string {
	if len(ws) == 0 {
		return "-"
	}
	most, worst := ws[0], ws[0]
	for _, s := range ws[1:] {
		if s.n > most.n {
			most = s
		}
		if s.p99 > worst.p99 {
			worst = s
		}
	}
	span := func(s windowStats) string {
		return fmt.Sprintf("%.0f-%.0fs", s.from.Seconds(), (s.from + w).Seconds())
	}
	return fmt.Sprintf("busiest %s p99 %s (%d deliveries); highest p99 %s at %s (%d deliveries, max %s)",
		span(most), fmtMS(most.p99), most.n, fmtMS(worst.p99), span(worst), worst.n, fmtMS(worst.max))
}
