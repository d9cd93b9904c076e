package server_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/netip"
	"runtime"
	"runtime/metrics"
	"slices"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/argon2"

	"github.com/chaturaji/chaturaji/account"
	"github.com/chaturaji/chaturaji/internal/loadsignin"
	"github.com/chaturaji/chaturaji/server"
)

// forwardedAs is a transport that says, as a trusted proxy would, that
// its requests come from addr.
type forwardedAs struct {
	addr string
	next http.RoundTripper
}

func (f forwardedAs) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Forwarded-For", f.addr)
	return f.next.RoundTrip(r)
}

// heapPeak follows the Go heap's objects (live or not yet swept) until
// stopped, keeping the most seen.
type heapPeak struct {
	stop chan struct{}
	done chan struct{}
	max  uint64
}

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func watchHeap() *heapPeak {
	h := &heapPeak{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(h.done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			h.max = max(h.max, heapObjects())
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
		}
	}()
	return h
}

func (h *heapPeak) peak() uint64 {
	close(h.stop)
	<-h.done
	return h.max
}

// hashTime is the time of one argon2id hash of p on this machine now: the
// middle of three.
func hashTime(p account.Params) time.Duration {
	var times []time.Duration
	salt := make([]byte, p.SaltLen)
	for range 3 {
		began := time.Now()
		argon2.IDKey([]byte("correct horse battery"), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
		times = append(times, time.Since(began))
	}
	slices.Sort(times)
	return times[1]
}

// TestSignInFlood floods the sign-in from one address (32 requests in
// flight, wrong passwords under ever new names) while 4 clients of other
// addresses sign in at a steady pace, on the default budgets of accounts
// and argon2id's default parameters, with a queue of hashes (8 waiting)
// shorter than the budget's burst (20), which a flood of one address
// would fill but for AccountInFlight: every other client's sign-in is
// answered 200 in time; the flood has no more than its budget's worth
// (AccountBurst at once, AccountRate a second) not refused with 429; the
// heap's peak stays within what the hashes may take, and what it keeps
// after the flood, collected once the hashes under way are done, within
// 16 MiB of what it kept before.
//
// The pace follows the time h of one hash here and now (some 50 ms on a
// quiet machine, a second under the race detector): each client signs in
// every 4h, at least 500 ms, half of what two hashes at once can do, for
// 4 s or four turns. Why the bounds hold on a loaded machine: a sign-in
// waits at most for the hashes queued before it, HashConcurrency +
// HashWaiters = 10, run two at once, so for 5h; the bound is five times
// that and 5 s for the session's commit on a slow disk. At most
// HashConcurrency hashes' memory is live at once; the collector (GOGC
// 100) lets the heap grow to twice what it marked at its last
// collection, which may hold, besides the hashes running, those that
// finished while it marked: so the peak is at most twice the heap before,
// and four times the hashes' memory, with 32 MiB for the connections and
// the clients in this process. A flood let through to the hashes would
// take 19 MiB for each of its requests in flight (32 here).
func TestSignInFlood(t *testing.T) {
	cfg := testConfig()
	cfg.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	cfg.Accounts = account.Config{HashConcurrency: 2, HashWaiters: 8}
	ts := newTestServer(t, cfg, nil)
	const clients = 4
	h := hashTime(account.OWASP)
	every := max(500*time.Millisecond, 4*h)
	duration := max(4*time.Second, 4*every)
	limit := 5*time.Second + 5*time.Duration(cfg.Accounts.HashConcurrency+cfg.Accounts.HashWaiters)*h
	var mu sync.Mutex
	byAddr := map[int]*http.Client{}
	client := func(i int) *http.Client {
		mu.Lock()
		defer mu.Unlock()
		if c := byAddr[i]; c != nil {
			return c
		}
		tr := &http.Transport{MaxIdleConnsPerHost: 64}
		c := &http.Client{Timeout: 5 * time.Minute, Transport: forwardedAs{fmt.Sprintf("192.0.2.%d", 1+i), tr}}
		byAddr[i] = c
		return c
	}

	runtime.GC()
	before := heapObjects()
	heap := watchHeap()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	res, err := loadsignin.Run(ctx, loadsignin.Config{Base: ts.URL, Clients: clients, Every: every,
		Duration: duration, FloodConns: 32, Client: client})
	peak := heap.peak()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a hash %v; sign-ins %d every %v, ok %d, p50 %v, p99 %v, max %v; flood %d in %v: %v; heap before %.1f MiB, peak %.1f MiB",
		h, res.SignIns, every, res.OK, res.Percentile(0.5), res.Percentile(0.99), res.Percentile(1), res.FloodN, res.Elapsed.Round(time.Millisecond),
		res.Flood, float64(before)/(1<<20), float64(peak)/(1<<20))

	// Each client signs in once at once and then every turn, each
	// sign-in waiting for its last: on a machine loaded beside the test,
	// whose hashes then take longer than h, as few as one each.
	if want := clients; res.SignIns < want || res.OK != res.SignIns {
		t.Errorf("the other clients' sign-ins: %d of %d answered 200 (%v); want all, at least %d", res.OK, res.SignIns, res.Failures, want)
	}
	if slow := res.Percentile(1); slow > limit {
		t.Errorf("the slowest other sign-in took %v; want at most %v (a hash takes %v)", slow, limit, h)
	}

	// The flood: its budget's worth let through, every other request
	// refused before any work.
	budget := 20 + int(math.Ceil(res.Elapsed.Seconds()*0.2)) // Config.AccountBurst and AccountRate's defaults
	refused := res.Flood["429 "+server.ETOOMANY]
	if res.FloodN < 10*budget || res.FloodN-refused > budget {
		t.Errorf("the flood: %d requests, %d of them not refused (%v); want at least %d, at most %d not refused",
			res.FloodN, res.FloodN-refused, res.Flood, 10*budget, budget)
	}
	if n := res.Flood["401 "+server.EUNAUTHORIZED]; n < 1 {
		t.Errorf("the flood's wrong passwords: none answered 401 (%v); want its budget's worth", res.Flood)
	}

	hashes := uint64(cfg.Accounts.HashConcurrency) * uint64(account.OWASP.Memory) << 10
	if bound := 2*before + 4*hashes + 32<<20; peak > bound {
		t.Errorf("the heap's peak: %.1f MiB; want at most %.1f MiB (twice %.1f MiB before, four times %d hashes of %d KiB, and 32 MiB)",
			float64(peak)/(1<<20), float64(bound)/(1<<20), float64(before)/(1<<20), cfg.Accounts.HashConcurrency, account.OWASP.Memory)
	}
	// The server may still run the hashes of requests whose clients gave
	// up at the flood's end (argon2id does not stop halfway): collected
	// again until they are done, the heap must come back within 16 MiB of
	// where it was, as it never would if the flood left something behind.
	var after uint64
	for end := time.Now().Add(30 * time.Second); ; {
		runtime.GC()
		if after = heapObjects(); after <= before+16<<20 || time.Now().After(end) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if after > before+16<<20 {
		t.Errorf("the heap after the flood, collected: %.1f MiB for 30 s; before: %.1f MiB; want at most 16 MiB more",
			float64(after)/(1<<20), float64(before)/(1<<20))
	}
}
