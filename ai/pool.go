package ai

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/chaturaji/chaturaji/rules"
)

// Pool lends the memory of searches to one decision at a time: the
// transposition tables (with their history of good moves) of the
// expectimax players and the trees of the Monte Carlo player. Every block
// it lends or keeps counts against one byte budget, shared by all the
// players that draw on it, which the pool never exceeds.
//
// A decision asks for the size it wants (a table sized for its node
// budget, or the player's TableBits; a tree grows as the search needs
// it). It gets, in this order of preference: the block its player used
// last, contents and all, as if the player kept it; a new block, while the
// budget has room; another player's block of at least that size, cleared
// first; a new block made by dropping blocks nobody holds; a smaller table,
// down to a minimum; or, with the whole budget lent to other decisions,
// none: the search runs without a table, and a tree stops growing. The
// pool never waits. While the budget has room for every player's block,
// each player gets its own back every time and plays exactly as with
// memory of its own.
//
// A Pool is safe for concurrent use. A decision's Budget names the pool it
// draws on; a decision without one uses a pool of its player's own, which
// keeps one table (or tree) for the player's whole life.
type Pool struct {
	budget int64 // in bytes; 0: no limit

	mu   sync.Mutex
	used int64    // bytes of every block made and not dropped: lent or free
	free []*block // the blocks nobody holds, the most recently returned last
}

// NewPool returns a pool of budget bytes; 0 is no limit.
func NewPool(budget int64) *Pool {
	return &Pool{budget: max(budget, 0)}
}

// Budget returns the pool's budget in bytes; 0 is no limit.
func (p *Pool) Budget() int64 { return p.budget }

// Used returns the bytes of the blocks the pool has made and not dropped,
// lent and free: never more than the budget.
func (p *Pool) Used() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.used
}

// Trim drops the blocks nobody has taken since the previous Trim, so that
// an idle pool gives its memory back (to the garbage collector, and so to
// the system). A server calls it every minute or so.
func (p *Pool) Trim() {
	p.mu.Lock()
	defer p.mu.Unlock()
	kept := p.free[:0]
	for _, b := range p.free {
		if b.idle {
			p.used -= b.bytes
			continue
		}
		b.idle = true
		kept = append(kept, b)
	}
	clear(p.free[len(kept):])
	p.free = kept
}

// owners numbers the players that draw on pools, so that a block knows
// whom it served last without keeping the player alive.
var owners atomic.Uint64

func newOwner() uint64 { return owners.Add(1) }

// The kinds of block.
const (
	tableBlock = iota + 1
	treeBlock
)

// block is one piece of search memory: a table with its history, or a
// tree.
type block struct {
	kind  uint8
	bytes int64  // as counted against the budget
	owner uint64 // the player it served last (see newOwner)
	idle  bool   // not taken since the last Trim

	// A table block: the table at its size for the current decision (its
	// slots a prefix of cap), the history of the search that used it, and
	// the size it was last used at.
	tt      table
	cap     []entry
	history *history
	bits    uint

	// A tree block.
	nodes []mnode
	edges []medge
}

// history scores quiet moves that caused cut-offs, by seat and by the
// squares they move from and to.
type history [rules.NumSeats][64 * 64]int32

// Sizes of what blocks hold, in bytes.
const (
	entryBytes   = 40 // unsafe.Sizeof(entry{}), checked by a test
	historyBytes = rules.NumSeats * 64 * 64 * 4
	nodeBytes    = 48 // unsafe.Sizeof(mnode{})
	edgeBytes    = 12 // unsafe.Sizeof(medge{})
)

// tableBytes is what a table block of 2^bits entries costs.
func tableBytes(bits uint) int64 {
	return int64(entryBytes)<<bits + historyBytes
}

// room reports whether n more bytes fit in the budget.
func (p *Pool) room(n int64) bool {
	return p.budget == 0 || p.used+n <= p.budget
}

// evict drops free blocks, the most recently returned first, until n more
// bytes fit; it reports whether they do.
func (p *Pool) evict(n int64) bool {
	for !p.room(n) && len(p.free) > 0 {
		last := len(p.free) - 1
		p.used -= p.free[last].bytes
		p.free[last] = nil
		p.free = p.free[:last]
	}
	return p.room(n)
}

// unfree takes free block i out of the free list.
func (p *Pool) unfree(i int) *block {
	b := p.free[i]
	p.free = slices.Delete(p.free, i, i+1)
	b.idle = false
	return b
}

// takeTable lends owner a table of 2^bits entries and a history, or a
// smaller table (not under 2^minBits) when the budget is spent; nil when
// not even that fits. Contents are kept only for the owner that used the
// block last, at the same size; any other use clears them.
func (p *Pool) takeTable(owner uint64, bits, minBits uint) *block {
	p.mu.Lock()
	defer p.mu.Unlock()
	want := tableBytes(bits)
	for i := len(p.free) - 1; i >= 0; i-- {
		if b := p.free[i]; b.kind == tableBlock && b.owner == owner && b.bits == bits {
			return p.unfree(i)
		}
	}
	if p.room(want) {
		return p.newTable(owner, bits)
	}
	// The most recently returned block that fits, of the smallest size: in
	// a round of games, its player is the one that plays again last.
	best := -1
	for i := len(p.free) - 1; i >= 0; i-- {
		if b := p.free[i]; b.kind == tableBlock && len(b.cap) >= 1<<bits && (best < 0 || len(b.cap) < len(p.free[best].cap)) {
			best = i
		}
	}
	if best >= 0 {
		b := p.unfree(best)
		b.reset(owner, bits)
		return b
	}
	for ; bits >= max(minBits, 1); bits-- {
		if p.evict(tableBytes(bits)) {
			return p.newTable(owner, bits)
		}
	}
	return nil
}

// newTable makes a table block; the caller has checked the room.
func (p *Pool) newTable(owner uint64, bits uint) *block {
	b := &block{kind: tableBlock, bytes: tableBytes(bits), owner: owner, bits: bits, history: new(history)}
	b.cap = make([]entry, 1<<bits)
	b.tt = table{slots: b.cap, mask: 1<<bits - 1}
	p.used += b.bytes
	return b
}

// reset clears a table block for a new owner, sized to 2^bits entries.
func (b *block) reset(owner uint64, bits uint) {
	b.owner, b.bits = owner, bits
	slots := b.cap[:1<<bits]
	clear(slots)
	b.tt = table{slots: slots, mask: 1<<bits - 1}
	clear(b.history[:])
}

// takeTree lends owner a tree block: the largest free one (emptied), or a
// new one with nothing in it yet. A tree grows by asking grow.
func (p *Pool) takeTree(owner uint64) *block {
	p.mu.Lock()
	defer p.mu.Unlock()
	best := -1
	for i := len(p.free) - 1; i >= 0; i-- {
		if b := p.free[i]; b.kind == treeBlock && (best < 0 || b.bytes > p.free[best].bytes || b.owner == owner && b.bytes == p.free[best].bytes) {
			best = i
		}
	}
	if best < 0 {
		return &block{kind: treeBlock, owner: owner}
	}
	b := p.unfree(best)
	b.owner = owner
	b.nodes, b.edges = b.nodes[:0], b.edges[:0]
	return b
}

// grow lets lent block b count n bytes in all instead of what it counts
// now, dropping free blocks if it must; false if the budget cannot hold
// them, and then b stays as it was.
func (p *Pool) grow(b *block, n int64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.evict(n - b.bytes) {
		return false
	}
	p.used += n - b.bytes
	b.bytes = n
	return true
}

// give returns a lent block to the pool.
func (p *Pool) give(b *block) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if b.kind == treeBlock && b.bytes == 0 {
		return // it never held anything
	}
	p.free = append(p.free, b)
}
