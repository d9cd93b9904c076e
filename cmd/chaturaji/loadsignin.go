package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chaturaji/chaturaji/internal/loadsignin"
)

// signinFlood runs the sign-in flood (package loadsignin): one address
// floods POST /api/account/signin over conns connections for d while n
// clients of other addresses sign in every `every`; it reports their
// sign-ins, the flood's answers and the server's memory and CPU.
func (lt *loadTest) signinFlood(ctx context.Context, w io.Writer, n, conns int, every, d time.Duration) error {
	mem := &memoryPeak{base: lt.base}
	mem.scrape(ctx, lt)
	mctx, stop := context.WithCancel(ctx)
	var watched sync.WaitGroup
	watched.Go(func() { mem.watch(mctx, lt) })
	start := time.Now()
	res, err := loadsignin.Run(ctx, loadsignin.Config{
		Base: lt.base, Clients: n, Every: every, Duration: d, FloodConns: conns,
		Client: lt.clientOf, // 0 the flood's address, 1 to n the others'
	})
	elapsed := time.Since(start)
	stop()
	watched.Wait()
	mem.scrape(context.Background(), lt)
	if res != nil {
		fmt.Fprintf(w, "other sign-ins:    %d of %d answered 200 (%.2f%%)%s\n", res.OK, res.SignIns, 100*float64(res.OK)/float64(max(res.SignIns, 1)), counts("; the others ", res.Failures))
		fmt.Fprintf(w, "sign-in time:      p50 %s  p99 %s  max %s  (%d clients, one every %v each)\n",
			fmtMS(res.Percentile(0.50)), fmtMS(res.Percentile(0.99)), fmtMS(res.Percentile(1)), res.Clients, every)
		if conns == 0 {
			fmt.Fprintf(w, "flood:             none (--flood-conns 0)\n")
		} else {
			fmt.Fprintf(w, "flood:             %d requests in %.1fs, %.0f/s over %d connections%s\n",
				res.FloodN, res.Elapsed.Seconds(), float64(res.FloodN)/res.Elapsed.Seconds(), conns, counts(": ", res.Flood))
		}
	}
	memory, cpu := mem.line(elapsed)
	fmt.Fprintf(w, "server memory:     %s, Go heap %s\n", memory, fmtMiB(mem.heap))
	fmt.Fprintf(w, "server CPU:        %s\n", cpu)
	if err == nil && res.OK < res.SignIns {
		err = fmt.Errorf("%d of %d other sign-ins were not answered 200", res.SignIns-res.OK, res.SignIns)
	}
	return err
}

// counts writes answers counted by kind, the most first, after prefix;
// nothing if there are none.
func counts(prefix string, m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	kinds := make([]string, 0, len(m))
	for k := range m {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, func(a, b string) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a, b)
	})
	for i, k := range kinds {
		kinds[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return prefix + strings.Join(kinds, ", ")
}
