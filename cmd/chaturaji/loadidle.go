package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"time"

	"github.com/coder/websocket"
)

// idlePerAddress is how many idle WebSockets come from one loopback
// address: within a server's default limits per client (a burst of 400
// requests, 1,000 WebSockets).
const idlePerAddress = 400

// idle opens n WebSockets that watch one game where nobody moves, and
// reports what the server's memory grew by for each. They come from
// idlePerAddress addresses each, if the load test spreads its clients.
func (lt *loadTest) idle(ctx context.Context, w io.Writer, n int) error {
	g, err := lt.createGame(ctx, lt.http, lt.base)
	if err != nil {
		return err
	}
	before, err := lt.settled(ctx)
	if err != nil {
		return err
	}
	conns := make([]*websocket.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.CloseNow()
		}
	}()
	for i := range n {
		c, err := lt.dialIdle(ctx, lt.clientOf(i/idlePerAddress), g.ID)
		if err != nil {
			return fmt.Errorf("idle WebSocket %d: %w", i+1, err)
		}
		conns = append(conns, c)
	}
	after, err := lt.settled(ctx)
	if err != nil {
		return err
	}
	each := func(name string) string {
		return fmt.Sprintf("%.1f KiB", (after[name]-before[name])/float64(n)/1024)
	}
	fmt.Fprintf(w, "idle WebSockets:   %d open\n", n)
	fmt.Fprintf(w, "server memory:     RSS %s -> %s, Go memory %s -> %s\n",
		fmtMiB(int64(before["process_resident_memory_bytes"])), fmtMiB(int64(after["process_resident_memory_bytes"])),
		fmtMiB(int64(before["go_memory_classes_total_bytes"])), fmtMiB(int64(after["go_memory_classes_total_bytes"])))
	fmt.Fprintf(w, "each WebSocket:    RSS %s, Go memory %s, heap objects %s, goroutines %.2f\n",
		each("process_resident_memory_bytes"), each("go_memory_classes_total_bytes"), each("go_memory_classes_heap_objects_bytes"),
		(after["go_goroutines"]-before["go_goroutines"])/float64(n))
	return nil
}

// dialIdle opens a spectator's WebSocket to a game and reads its hello,
// trying again while the server says it is too busy.
func (lt *loadTest) dialIdle(ctx context.Context, client *http.Client, id string) (*websocket.Conn, error) {
	for attempt := 0; ; attempt++ {
		c, _, err := websocket.Dial(ctx, lt.wsBase+"/api/games/"+id+"/ws", &websocket.DialOptions{HTTPClient: client})
		if err == nil {
			c.SetReadLimit(1 << 20)
			rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			_, _, err = c.Read(rctx) // the hello
			cancel()
			if err == nil {
				// Pings are answered by a reader: keep one for each.
				go func() {
					for {
						if _, _, err := c.Read(context.Background()); err != nil {
							return
						}
					}
				}()
				return c, nil
			}
			c.CloseNow()
		}
		if attempt == 20 || ctx.Err() != nil {
			return nil, err
		}
		lt.dialRetries.Add(1)
		time.Sleep(time.Duration(attempt+1) * 50 * time.Millisecond)
	}
}

// settled reads the server's metrics once its memory has settled: the
// last of three readings, half a second apart, after a pause of two
// seconds.
func (lt *loadTest) settled(ctx context.Context) (map[string]float64, error) {
	runtime.GC() // the load test's own, if the server is in this process
	time.Sleep(2 * time.Second)
	var last map[string]float64
	for range 3 {
		fig, err := lt.metrics(ctx, lt.base)
		if err != nil {
			return nil, err
		}
		last = fig
		time.Sleep(500 * time.Millisecond)
	}
	return last, nil
}
