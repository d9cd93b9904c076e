package main

import (
	"cmp"
	"context"
	"math"
	"runtime/metrics"
	"slices"
	"time"
)

// runtimeEvery is how often a load test samples its own process's
// runtime: a few samples in each window of loadWindow.
const runtimeEvery = 250 * time.Millisecond

// The runtime's figures a load test samples, when the server runs in its
// process: collections ended, the CPU they took (the runtime counts it
// at each collection's end), and how long goroutines waited to run once
// runnable (a histogram whose counts only grow).
const (
	metricGCCycles = "/gc/cycles/total:gc-cycles"
	metricGCCPU    = "/cpu/classes/gc/total:cpu-seconds"
	metricRunnable = "/sched/latencies:seconds"
)

// runtimeSample is the runtime's figures at one moment.
type runtimeSample struct {
	at       int64 // nanoseconds since 1970
	gcCycles uint64
	gcCPU    float64  // seconds
	runnable []uint64 // the counts of the buckets of runtimeSampler.buckets
}

// runtimeSampler keeps samples of the runtime of the process it runs in,
// for a load test whose server runs in the same process: beside each
// window's deliveries they tell how many collections the window held,
// the CPU they took, and how long goroutines waited for a core.
type runtimeSampler struct {
	buckets []float64 // the runnable histogram's bucket boundaries, seconds
	samples []runtimeSample
}

// run samples every runtimeEvery until ctx is done, and once more then.
func (r *runtimeSampler) run(ctx context.Context) {
	t := time.NewTicker(runtimeEvery)
	defer t.Stop()
	in := []metrics.Sample{{Name: metricGCCycles}, {Name: metricGCCPU}, {Name: metricRunnable}}
	for {
		metrics.Read(in)
		r.add(time.Now(), in)
		select {
		case <-ctx.Done():
			metrics.Read(in)
			r.add(time.Now(), in)
			return
		case <-t.C:
		}
	}
}

// add keeps one sample read by metrics.Read; a metric this runtime does
// not have reads as zero.
func (r *runtimeSampler) add(now time.Time, in []metrics.Sample) {
	s := runtimeSample{at: now.UnixNano()}
	if in[0].Value.Kind() == metrics.KindUint64 {
		s.gcCycles = in[0].Value.Uint64()
	}
	if in[1].Value.Kind() == metrics.KindFloat64 {
		s.gcCPU = in[1].Value.Float64()
	}
	if in[2].Value.Kind() == metrics.KindFloat64Histogram {
		h := in[2].Value.Float64Histogram()
		if r.buckets == nil {
			r.buckets = slices.Clone(h.Buckets)
		}
		s.runnable = slices.Clone(h.Counts)
	}
	r.samples = append(r.samples, s)
}

// runtimeWindow is what the runtime did in one window.
type runtimeWindow struct {
	gcCycles    uint64
	gcCPU       time.Duration
	runnableP99 time.Duration // -1 if no goroutine was made runnable
}

// window returns the runtime's figures between from and to (nanoseconds
// since 1970), from the last samples at or before each (the first, for a
// time before it: the run had not begun); ok is false if the sampler has
// no sample.
func (r *runtimeSampler) window(from, to int64) (w runtimeWindow, ok bool) {
	if len(r.samples) == 0 {
		return runtimeWindow{}, false
	}
	before := func(t int64) runtimeSample {
		i, found := slices.BinarySearchFunc(r.samples, t, func(s runtimeSample, t int64) int { return cmp.Compare(s.at, t) })
		if !found && i > 0 {
			i--
		}
		return r.samples[i]
	}
	a, b := before(from), before(to)
	w.gcCycles = b.gcCycles - a.gcCycles
	w.gcCPU = time.Duration((b.gcCPU - a.gcCPU) * float64(time.Second))
	w.runnableP99 = -1
	if len(a.runnable) == len(b.runnable) && len(b.runnable) == len(r.buckets)-1 {
		diff := make([]uint64, len(b.runnable))
		var n uint64
		for i := range diff {
			diff[i] = b.runnable[i] - a.runnable[i]
			n += diff[i]
		}
		if n > 0 {
			w.runnableP99 = histQuantile(r.buckets, diff, n, 0.99)
		}
	}
	return w, true
}

// histQuantile returns the upper bound of the bucket that holds the
// p-quantile of a histogram of n counts (buckets in seconds, one more
// than counts); an infinite bound reads as its bucket's lower one.
func histQuantile(buckets []float64, counts []uint64, n uint64, p float64) time.Duration {
	rank := uint64(math.Ceil(p * float64(n)))
	var seen uint64
	for i, c := range counts {
		seen += c
		if seen >= rank && c > 0 {
			hi := buckets[i+1]
			if math.IsInf(hi, 1) {
				hi = buckets[i]
			}
			return time.Duration(hi * float64(time.Second))
		}
	}
	return time.Duration(buckets[len(buckets)-2] * float64(time.Second))
}
