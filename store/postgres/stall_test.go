package postgres_test

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/postgres"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
)

// txWatch is a TCP proxy between a store and PostgreSQL that reads the
// server's messages as they pass and counts, while it is on, the moments
// a connection waits for its client's next statement in the middle of a
// transaction: a ReadyForQuery message whose status is not idle ('T' in a
// transaction, 'E' in a failed one). At such a moment a client paused
// before its next statement keeps whatever its transaction locked.
type txWatch struct {
	ln net.Listener

	mu     sync.Mutex
	on     bool
	opened int
}

// newTxWatch starts a txWatch in front of the server at URL u and returns
// it and the URL through it.
func newTxWatch(t *testing.T, u string) (*txWatch, string) {
	t.Helper()
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w := &txWatch{ln: ln}
	t.Cleanup(func() { ln.Close() })
	target := pu.Host
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			go func() { io.Copy(s, c); s.Close() }()
			go func() { w.relay(c, s); c.Close() }()
		}
	}()
	q := pu.Query()
	q.Set("sslmode", "disable") // the watch reads the messages: no TLS
	pu.Host, pu.RawQuery = ln.Addr().String(), q.Encode()
	return w, pu.String()
}

// relay passes the server's messages on to the client, counting the
// ReadyForQuery messages in a transaction while the watch is on.
func (w *txWatch) relay(client io.Writer, server io.Reader) {
	rd := bufio.NewReader(server)
	for {
		var head [5]byte // type, then length (itself included)
		if _, err := io.ReadFull(rd, head[:]); err != nil {
			return
		}
		body := make([]byte, binary.BigEndian.Uint32(head[1:])-4)
		if _, err := io.ReadFull(rd, body); err != nil {
			return
		}
		if head[0] == 'Z' && len(body) == 1 && body[0] != 'I' {
			w.mu.Lock()
			if w.on {
				w.opened++
			}
			w.mu.Unlock()
		}
		if _, err := client.Write(append(head[:], body...)); err != nil {
			return
		}
	}
}

// watch counts, from now on, the moments a transaction is left open.
func (w *txWatch) watch() {
	w.mu.Lock()
	w.on, w.opened = true, 0
	w.mu.Unlock()
}

// count returns how many moments a transaction was left open since watch,
// and stops counting.
func (w *txWatch) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.on = false
	return w.opened
}

// TestFencedWritesLeaveNoTransactionOpen checks, on the wire, that a
// node's fenced writes of a game (UpdateSeat, Finish, SetRecord, Release)
// never leave a transaction open while the node is to speak: a node paused
// there would keep the game's row locked, and adoption, which skips locked
// rows, would pass the game by for as long as the node stayed paused. It
// checks that the watch sees a transaction left open when there is one.
func TestFencedWritesLeaveNoTransactionOpen(t *testing.T) {
	u := pgtest.Schema(t)
	w, through := newTxWatch(t, u)
	a := join(t, through, "a", time.Hour)
	ctx := t.Context()
	for _, id := range []string{"g1", "g2"} {
		if err := a.CreateGame(ctx, clusterGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		write func() error
	}{
		{"UpdateSeat", func() error { return a.UpdateSeat(ctx, "g1", 1, store.Seat{Player: "bot:2"}) }},
		{"UpdateSeat of no seat", func() error {
			if err := a.UpdateSeat(ctx, "g1", 7, store.Seat{Player: "bot:2"}); !errors.Is(err, store.ErrNotFound) {
				return err
			}
			return nil
		}},
		{"Finish", func() error { return a.Finish(ctx, "g1", "1-0") }},
		{"Finish again", func() error { return a.Finish(ctx, "g1", "1-0") }},
		{"SetRecord", func() error { return a.SetRecord(ctx, "g1", []byte("the record")) }},
		{"SetRecord of a live game", func() error {
			if err := a.SetRecord(ctx, "g2", []byte("the record")); !errors.Is(err, store.ErrConflict) {
				return err
			}
			return nil
		}},
		{"AppendEvents", func() error { return a.AppendEvents(ctx, "g2", 0, roll(1)) }},
		{"Release", func() error { return a.Release(ctx) }},
	} {
		w.watch()
		if err := tc.write(); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		if n := w.count(); n > 0 {
			t.Errorf("%s left a transaction open %d times, waiting for the node's next statement", tc.name, n)
		}
	}
	g, err := a.Game(ctx, "g1")
	if err != nil || g.Status != store.Finished || g.Result != "1-0" || g.Seats[1].Player != "bot:2" {
		t.Fatalf("after the writes, game %+v, %v", g, err)
	}
	recs, err := a.Records(ctx, []string{"g1"})
	if err != nil || string(recs["g1"]) != "the record" {
		t.Fatalf("the record kept: %q, %v", recs["g1"], err)
	}

	// The watch sees a transaction left open.
	w.watch()
	tx, err := postgres.LockGame(ctx, a, "g2")
	if err != nil {
		t.Fatal(err)
	}
	tx.Rollback(ctx)
	if n := w.count(); n == 0 {
		t.Fatal("the watch did not see a transaction left open")
	}
}

// TestPausedTransactionIsBounded leaves a transaction that locked a
// game's row open on a node's connection, as a node paused between two
// statements would, and stops renewing the node's lease: another node
// adopts the game within the lease and IdleInTransaction (PostgreSQL ends
// the paused session), and the paused transaction cannot commit.
func TestPausedTransactionIsBounded(t *testing.T) {
	u := pgtest.Schema(t)
	const lease = 500 * time.Millisecond
	a, b := join(t, u, "a", lease), join(t, u, "b", lease)
	ctx := t.Context()
	if err := a.CreateGame(ctx, clusterGame("g1")); err != nil {
		t.Fatal(err)
	}
	tx, err := postgres.LockGame(ctx, a, "g1")
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	paused := time.Now()
	// A loaded machine's margin: without the bound, the game is never
	// adopted while the transaction is open.
	bound := lease + postgres.IdleInTransaction + 10*time.Second
	for {
		got, err := b.Adopt(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 1 && got[0].ID == "g1" {
			break
		}
		if time.Since(paused) > bound {
			t.Fatalf("the game was not adopted within %v of its node's pause between two statements", bound)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("adopted %v after the pause", time.Since(paused).Round(time.Millisecond))
	if err := tx.Commit(ctx); err == nil {
		t.Error("the paused transaction committed after another node adopted the game")
	}
}

// TestSessionSettings checks the settings of the store's sessions:
// IdleInTransaction and KeepAlive, or what the URL says.
func TestSessionSettings(t *testing.T) {
	u := pgtest.Schema(t)
	for _, tc := range []struct {
		url  string
		want map[string]string
	}{
		{u, map[string]string{"idle_in_transaction_session_timeout": "5s", "tcp_keepalives_idle": "5", "tcp_keepalives_interval": "5", "tcp_keepalives_count": "3"}},
		{u + "&idle_in_transaction_session_timeout=1500&tcp_keepalives_idle=30", map[string]string{"idle_in_transaction_session_timeout": "1500ms", "tcp_keepalives_idle": "30"}},
	} {
		s := open(t, tc.url)
		for name, want := range tc.want {
			if got, err := postgres.Setting(t.Context(), s, name); err != nil || got != want {
				t.Errorf("Open(%s): %s = %q, %v; want %q", tc.url, name, got, err, want)
			}
		}
		s.Close()
	}
}
