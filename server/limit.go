package server

import (
	"container/list"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Class is what a request costs the server. Each client has a budget for
// each class, a token bucket (golang.org/x/time/rate) that every request of
// the class draws one token from.
type Class int

const (
	// General is every request but the costly ones: the API's reads and
	// actions, WebSocket upgrades, pages, static files, /healthz and
	// /metrics (Config.RequestRate and RequestBurst).
	General Class = iota
	// Costly is a request that costs real CPU or a scan of the database,
	// such as creating a game (its bots search) or analysing a position
	// (Config.CostlyRate and CostlyBurst).
	Costly
	// Account is a request that spends a password hash (argon2id, 19 MiB
	// and tens of milliseconds of a core) or stores a passkey ceremony:
	// sign-up, sign-in, recovery, password change, the passkey ceremonies
	// (Config.AccountRate and AccountBurst).
	Account
	numClasses
)

// String names the class, as the errors and metrics do.
func (c Class) String() string {
	switch c {
	case Costly:
		return "costly"
	case Account:
		return "account"
	}
	return "general"
}

// budget is one class's rate and burst.
type budget struct {
	rate  rate.Limit
	burst int
}

// budgets keeps each client's token buckets, for at most max clients: the
// one seen least recently is forgotten to make room for a new one, and
// sweep forgets those idle long enough for their buckets to be full again
// (a new bucket would allow as much). So a flood of addresses costs at
// most max entries.
type budgets struct {
	classes [numClasses]budget
	max     int
	refill  time.Duration // the longest time an empty bucket takes to fill

	mu      sync.Mutex
	clients map[client]*list.Element // of *clientBudget
	recent  list.List                // of *clientBudget, the most recently seen first
}

// clientBudget is one client's buckets.
type clientBudget struct {
	client  client
	buckets [numClasses]*rate.Limiter
	seen    time.Time
}

func newBudgets(cfg Config) *budgets {
	b := &budgets{max: cfg.MaxClients, clients: make(map[client]*list.Element)}
	b.classes[General] = budget{rate.Limit(cfg.RequestRate), cfg.RequestBurst}
	b.classes[Costly] = budget{rate.Limit(cfg.CostlyRate), cfg.CostlyBurst}
	b.classes[Account] = budget{rate.Limit(cfg.AccountRate), cfg.AccountBurst}
	for _, c := range b.classes {
		b.refill = max(b.refill, time.Duration(float64(c.burst)/float64(c.rate)*float64(time.Second)))
	}
	return b
}

// allow takes a token from the client's bucket of the class. If there is
// none it returns false and how long until there is one.
func (b *budgets) allow(c client, class Class, now time.Time) (bool, time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var cb *clientBudget
	if e := b.clients[c]; e != nil {
		b.recent.MoveToFront(e)
		cb = e.Value.(*clientBudget)
	} else {
		if len(b.clients) >= b.max {
			oldest := b.recent.Back()
			delete(b.clients, oldest.Value.(*clientBudget).client)
			b.recent.Remove(oldest)
		}
		cb = &clientBudget{client: c}
		b.clients[c] = b.recent.PushFront(cb)
	}
	cb.seen = now
	lim := cb.buckets[class]
	if lim == nil {
		lim = rate.NewLimiter(b.classes[class].rate, b.classes[class].burst)
		cb.buckets[class] = lim
	}
	if lim.AllowN(now, 1) {
		return true, 0
	}
	wait := (1 - lim.TokensAt(now)) / float64(lim.Limit())
	return false, time.Duration(math.Ceil(wait * float64(time.Second)))
}

// sweep forgets the clients not seen for long enough that their buckets
// are full again.
func (b *budgets) sweep(now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for e := b.recent.Back(); e != nil; e = b.recent.Back() {
		cb := e.Value.(*clientBudget)
		if now.Sub(cb.seen) < b.refill {
			return
		}
		delete(b.clients, cb.client)
		b.recent.Remove(e)
	}
}

// len returns how many clients are kept.
func (b *budgets) len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.clients)
}

// connCounter counts what each client holds at once (its WebSockets
// open, its Account requests under way), so that no one client can hold
// more than its share of the server. It holds an entry only while the
// client holds something.
type connCounter struct {
	max     int
	mu      sync.Mutex
	clients map[client]int
}

func newConnCounter(max int) *connCounter {
	return &connCounter{max: max, clients: make(map[client]int)}
}

// open counts one more connection from c, if it is under the limit.
func (cc *connCounter) open(c client) bool {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.clients[c] >= cc.max {
		return false
	}
	cc.clients[c]++
	return true
}

// close counts a connection from c gone.
func (cc *connCounter) close(c client) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.clients[c]--; cc.clients[c] <= 0 {
		delete(cc.clients, c)
	}
}
