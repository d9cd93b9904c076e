package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/chaturaji/chaturaji/internal/loadlobby"
)

// lobbyPerAddress is how many seekers come from one loopback address:
// within a server's default limit of lobby WebSockets per client (8).
const lobbyPerAddress = 8

// lobby runs the lobby's load (package loadlobby) with n seekers seeking
// rate a second, and reports the tables' times, the disk's syncs in
// syncDir (if not "") and the server's memory.
func (lt *loadTest) lobby(ctx context.Context, w io.Writer, n int, rate float64, syncDir string) error {
	mem := &memoryPeak{base: lt.base}
	mem.scrape(ctx, lt)
	mctx, stop := context.WithCancel(ctx)
	var watched sync.WaitGroup
	watched.Go(func() { mem.watch(mctx, lt) })
	var probe *syncProbe
	if syncDir != "" {
		probe = &syncProbe{dir: syncDir}
		watched.Go(func() { probe.run(mctx) })
	}
	start := time.Now()
	res, err := loadlobby.Run(ctx, loadlobby.Config{
		WSBase: lt.wsBase, Seekers: n, Rate: rate,
		Client: func(i int) *http.Client { return lt.clientOf(i / lobbyPerAddress) },
	})
	elapsed := time.Since(start)
	stop()
	watched.Wait()
	mem.scrape(context.Background(), lt)
	if res != nil {
		fmt.Fprintf(w, "seekers seated:    %d of %d, in %d games, in %.1fs\n", res.Seated, res.Seekers, res.Games, elapsed.Seconds())
		fmt.Fprintf(w, "last seek->seated: p50 %s  p99 %s  max %s  (%d tables: from a table's last seeker's seek to all its players told of their seats)\n",
			fmtMS(res.Percentile(0.50)), fmtMS(res.Percentile(0.99)), fmtMS(res.Percentile(1)), len(res.Tables))
	}
	fmt.Fprintf(w, "disk sync:         %s\n", probe.line())
	memory, cpu := mem.line(elapsed)
	fmt.Fprintf(w, "server memory:     %s\n", memory)
	fmt.Fprintf(w, "server CPU:        %s\n", cpu)
	return err
}
