package server_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestSilentPeerClosed opens two WebSockets on a game of a server that
// pings every 200 ms at most: one client reads, and so answers the pings;
// the other never reads, and so never answers. The server closes the
// silent one (its WebSockets open, on /metrics, fall from two to one,
// within the 10 s waitMetrics allows, fifty intervals; its reads, once
// begun, end in an error that is not the test's own deadline), while the
// one that answers stays open.
func TestSilentPeerClosed(t *testing.T) {
	cfg := testConfig()
	cfg.PingInterval = 200 * time.Millisecond
	ts := newTestServer(t, cfg, nil)
	g := ts.create(fourHumans)
	answering := ts.dial(g.ID, "", 0)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	u := "ws" + strings.TrimPrefix(ts.URL, "http") + "/api/games/" + g.ID + "/ws"
	silent, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.CloseNow()

	// The hello, sent once the server counts the connection among those
	// open; then the silent peer reads nothing until the server has
	// dropped it.
	if _, _, err := silent.Read(ctx); err != nil {
		t.Fatal(err)
	}
	ts.waitMetrics("127.0.0.1", []string{"chaturaji_ws_connections"}, func(got []float64) bool { return got[0] == 1 })

	rctx, rcancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer rcancel()
	for {
		_, _, err := silent.Read(rctx) // what came after the hello, then the server's close
		if err == nil {
			continue
		}
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatal("the peer that answered no ping is still open")
		}
		break
	}
	select {
	case <-answering.done:
		t.Fatalf("the peer that answers the pings was closed: %v", answering.err)
	default:
	}
}
