package server

import (
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// TestBudgetsForgetIdle checks on a clock of its own that a client idle
// until its buckets are full again is forgotten, and one still refilling
// is kept (forgetting it would hand it a full budget early).
func TestBudgetsForgetIdle(t *testing.T) {
	b := newBudgets(Config{RequestRate: 10, RequestBurst: 20, CostlyRate: 1, CostlyBurst: 5, MaxClients: 100})
	if b.refill != 5*time.Second {
		t.Fatalf("refill %v, want 5s (the costly bucket: 5 tokens at 1/s)", b.refill)
	}
	t0 := time.Unix(1_000_000, 0)
	a, c := clientOfAddr(netip.MustParseAddr("192.0.2.1")), clientOfAddr(netip.MustParseAddr("192.0.2.2"))
	for range 5 {
		b.allow(a, Costly, t0)
	}
	if ok, wait := b.allow(a, Costly, t0); ok || wait != time.Second {
		t.Fatalf("a sixth costly request at once: %v, wait %v; want refused, 1s", ok, wait)
	}
	b.allow(c, General, t0.Add(3*time.Second))
	b.sweep(t0.Add(4 * time.Second))
	if n := b.len(); n != 2 {
		t.Errorf("after 4s, %d clients kept, want 2 (a's bucket is not full yet)", n)
	}
	b.sweep(t0.Add(5 * time.Second))
	if n := b.len(); n != 1 {
		t.Errorf("after 5s, %d clients kept, want 1 (a forgotten)", n)
	}
	b.sweep(t0.Add(8 * time.Second))
	if n := b.len(); n != 0 {
		t.Errorf("after 8s, %d clients kept, want 0", n)
	}
}

// TestBudgetsEvictLeastRecent checks that a full map makes room by
// forgetting the client seen least recently, not the one that is busy.
func TestBudgetsEvictLeastRecent(t *testing.T) {
	b := newBudgets(Config{RequestRate: 1, RequestBurst: 3, CostlyRate: 1, CostlyBurst: 1, MaxClients: 3})
	now := time.Unix(1_000_000, 0)
	busy := clientOfAddr(netip.MustParseAddr("192.0.2.1"))
	for range 3 {
		b.allow(busy, General, now)
	}
	for i := range 10 {
		b.allow(busy, General, now) // refused, but seen
		b.allow(clientOfAddr(netip.AddrFrom4([4]byte{198, 51, 100, byte(i)})), General, now)
		if n := b.len(); n > 3 {
			t.Fatalf("%d clients kept, want at most 3", n)
		}
	}
	if ok, _ := b.allow(busy, General, now); ok {
		t.Errorf("the busy client was forgotten: its empty bucket is full again")
	}
}

// TestClientOf tells clients apart from the peer address and, behind a
// trusted proxy, X-Forwarded-For.
func TestClientOf(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8:ffff::/48")}
	for _, tc := range []struct {
		name, remote string
		forward      []string // X-Forwarded-For fields, in order
		want         string
	}{
		{"IPv4 peer", "192.0.2.1:4711", nil, "192.0.2.1/32"},
		{"IPv6 peer by /64", "[2001:db8:1:2:3:4:5:6]:4711", nil, "2001:db8:1:2::/64"},
		{"IPv4-mapped IPv6 peer", "[::ffff:192.0.2.1]:4711", nil, "192.0.2.1/32"},
		{"zoned peer", "[fe80::1%eth0]:4711", nil, "fe80::/64"},
		{"untrusted peer's header ignored", "192.0.2.1:4711", []string{"203.0.113.1"}, "192.0.2.1/32"},
		{"trusted peer", "10.1.1.1:4711", []string{"203.0.113.1"}, "203.0.113.1/32"},
		{"the right-most untrusted", "10.1.1.1:4711", []string{"198.51.100.1, 203.0.113.1, 10.2.2.2"}, "203.0.113.1/32"},
		{"several fields, the last one last", "10.1.1.1:4711", []string{"198.51.100.1", "203.0.113.1"}, "203.0.113.1/32"},
		{"trusted hops in several fields", "10.1.1.1:4711", []string{"198.51.100.1", "203.0.113.1,10.3.3.3", "10.2.2.2"}, "203.0.113.1/32"},
		{"every hop trusted: the left-most", "10.1.1.1:4711", []string{"10.4.4.4, 10.2.2.2"}, "10.4.4.4/32"},
		{"an entry with a port", "10.1.1.1:4711", []string{"203.0.113.1:5000"}, "203.0.113.1/32"},
		{"an IPv6 entry with a port", "10.1.1.1:4711", []string{"[2001:db8:1:2::9]:5000"}, "2001:db8:1:2::/64"},
		{"IPv6 proxy", "[2001:db8:ffff:1::1]:4711", []string{"2001:db8:5:6::1"}, "2001:db8:5:6::/64"},
		{"garbage: the hop that wrote it", "10.1.1.1:4711", []string{"nonsense, 10.2.2.2"}, "10.2.2.2/32"},
		{"empty entries skipped as garbage", "10.1.1.1:4711", []string{""}, "10.1.1.1/32"},
		{"no port", "192.0.2.1", nil, "192.0.2.1/32"},
		{"no address", "@", nil, "invalid Prefix"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &http.Request{RemoteAddr: tc.remote, Header: http.Header{"X-Forwarded-For": tc.forward}}
			if got := clientOf(r, trusted).String(); got != tc.want {
				t.Errorf("client %s, want %s", got, tc.want)
			}
		})
	}
}

// FuzzClientOf checks that any X-Forwarded-For gives, from a trusted
// proxy, the proxy or a client whose address the header holds, and from
// anyone else, the peer.
func FuzzClientOf(f *testing.F) {
	for _, s := range []string{"203.0.113.1", "1.2.3.4, 10.0.0.1", "[::1]:80", ",,", "2001:db8::1%x", " 10.0.0.2 ,"} {
		f.Add(s)
	}
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	f.Fuzz(func(t *testing.T, xff string) {
		h := http.Header{"X-Forwarded-For": {xff}}
		untrusted := clientOf(&http.Request{RemoteAddr: "192.0.2.1:1", Header: h}, trusted)
		if untrusted != netip.MustParsePrefix("192.0.2.1/32") {
			t.Fatalf("untrusted peer with %q: client %v", xff, untrusted)
		}
		c := clientOf(&http.Request{RemoteAddr: "10.9.9.9:1", Header: h}, trusted)
		if !c.IsValid() {
			t.Fatalf("trusted peer with %q: invalid client", xff)
		}
		if c == netip.MustParsePrefix("10.9.9.9/32") {
			return
		}
		for e := range strings.SplitSeq(xff, ",") {
			if a, ok := parseForwarded(strings.TrimSpace(e)); ok && clientOfAddr(a) == c {
				return
			}
		}
		t.Fatalf("trusted peer with %q: client %v is in neither", xff, c)
	})
}

// BenchmarkBudgetsAllow measures the limit's share of a request: a token
// taken from one of many known clients' budgets.
func BenchmarkBudgetsAllow(b *testing.B) {
	budgets := newBudgets(Config{}.withDefaults())
	clients := make([]client, 1000)
	for i := range clients {
		clients[i] = clientOfAddr(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}))
	}
	now := time.Now()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		budgets.allow(clients[i%len(clients)], General, now)
	}
}
