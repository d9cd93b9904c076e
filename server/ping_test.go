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
// pings every 200 ms at most: one client reads, and so answers the
// pings; the other never reads, and so never answers. After three
// intervals the silent one has been closed by the server (its reads, once
// begun, end in an error that is not the test's own deadline), while the
// one that answers is still open.
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

	time.Sleep(3 * cfg.PingInterval) // the silent peer reads nothing meanwhile

	rctx, rcancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer rcancel()
	for {
		_, _, err := silent.Read(rctx) // the hello, then the server's close
		if err == nil {
			continue
		}
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("a peer that answered no ping for %v is still open", 3*cfg.PingInterval)
		}
		break
	}
	select {
	case <-answering.done:
		t.Fatalf("the peer that answers the pings was closed: %v", answering.err)
	default:
	}
}
