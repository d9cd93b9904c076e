package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"
)

// loadWindow is the length of the windows a load test's deliveries are
// split into (busiest): short enough to tell the minute when every game is
// live from the ones after, when games have ended and the load has fallen.
const loadWindow = 10 * time.Second

// slowDelivery is the time over which a delivery counts as slow in a
// window's breakdown: the floor a run's p99 is held to.
const slowDelivery = 50 * time.Millisecond

// windowStats are the deliveries of one window of a load test.
type windowStats struct {
	from     time.Duration // the window's start, from the first delivery
	n        int           // deliveries in it
	p99, max time.Duration
	slow     int // deliveries over slowDelivery
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
		fast, _ := slices.BinarySearch(ds, slowDelivery+1)
		out = append(out, windowStats{
			from: time.Duration(k) * w,
			n:    len(ds),
			p99:  ds[min(int(0.99*float64(len(ds))), len(ds)-1)],
			max:  ds[len(ds)-1],
			slow: len(ds) - fast,
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

// breakdown prints a line for each window: its deliveries, their p99, and
// how many were slow (over slowDelivery), beside what else happened in it.
// With rt (the server in this process) it gives the collections that
// ended in the window, the CPU the runtime counted for them, and the p99
// of the time goroutines waited for a core once runnable; with probe, the
// time the disk spent in syncs of 50 ms or more begun in the window, and
// its longest sync. first is the first delivery (nanoseconds since 1970),
// from which the windows count. A last line sums the slow deliveries
// against the 1% a p99 under slowDelivery allows.
func breakdown(w io.Writer, ws []windowStats, first int64, win time.Duration, rt *runtimeSampler, probe *syncProbe) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "window\tdeliveries\tp99\tover %v\t", slowDelivery)
	if rt != nil {
		fmt.Fprint(tw, "collections\ttheir CPU\trunnable p99\t")
	}
	if probe != nil {
		fmt.Fprint(tw, "disk stalls\tlongest sync\t")
	}
	fmt.Fprintln(tw)
	var n, slow int
	for _, s := range ws {
		n += s.n
		slow += s.slow
		from, to := first+int64(s.from), first+int64(s.from+win)
		fmt.Fprintf(tw, "%.0f-%.0fs\t%d\t%s\t%d (%.2f%%)\t", s.from.Seconds(), (s.from + win).Seconds(),
			s.n, fmtMS(s.p99), s.slow, 100*float64(s.slow)/float64(s.n))
		if rt != nil {
			if r, ok := rt.window(from, to); ok {
				run := "-"
				if r.runnableP99 >= 0 {
					run = fmtMS(r.runnableP99)
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t", r.gcCycles, fmtMS(r.gcCPU), run)
			} else {
				fmt.Fprint(tw, "-\t-\t-\t")
			}
		}
		if probe != nil {
			stalled, longest := probe.stalls(from, to)
			fmt.Fprintf(tw, "%s\t%s\t", fmtMS(stalled), fmtMS(longest))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if n > 0 {
		fmt.Fprintf(w, "over %v: %d of %d deliveries (%.2f%%); a p99 under %v allows %d\n",
			slowDelivery, slow, n, 100*float64(slow)/float64(n), slowDelivery, n/100)
	}
}
