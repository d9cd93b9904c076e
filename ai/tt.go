package ai

import "github.com/chaturaji/chaturaji/rules"

// Bounds of a stored value.
const (
	boundExact = iota + 1
	boundLower // the value is at least this (a cut-off above beta)
	boundUpper // the value is at most this (nothing rose above alpha)
)

// entry is one stored search result. Its key is the position's Zobrist hash
// mixed with the scores, the seat the search plays for and (near its end) the
// clock, which the rules' hash leaves out; so a value stored here is the
// exact value of the whole game state.
type entry struct {
	key      uint64
	value    float32
	expected [rules.NumSeats]float32
	move     rules.Action
	depth    int8
	bound    uint8
	gen      uint8
}

// table is a transposition table: one entry a slot, a deeper or newer result
// replacing an older or shallower one. A Pool lends it to one decision at a
// time.
type table struct {
	slots []entry
	mask  uint64
	gen   uint8
}

// newSearch ages the entries of earlier searches, so they give way first.
func (t *table) newSearch() { t.gen++ }

func (t *table) probe(key uint64) (*entry, bool) {
	e := &t.slots[key&t.mask]
	return e, e.key == key && e.bound != 0
}

func (t *table) store(key uint64, depth int, value float64, exp *Utility, bound uint8, move rules.Action) {
	e := &t.slots[key&t.mask]
	if e.key != key && e.gen == t.gen && int(e.depth) > depth {
		return
	}
	if e.key == key && move == 0 {
		move = e.move // keep the best move of a shallower search
	}
	*e = entry{key: key, value: float32(value), move: move, depth: int8(depth), bound: bound, gen: t.gen}
	for i := range exp {
		e.expected[i] = float32(exp[i])
	}
}

// probe looks key up in the search's table, if it has one.
func (s *starSearch) probe(key uint64) (*entry, bool) {
	if s.tt == nil {
		return nil, false
	}
	return s.tt.probe(key)
}

// store keeps a result in the search's table, if it has one.
func (s *starSearch) store(key uint64, depth int, value float64, exp *Utility, bound uint8, move rules.Action) {
	if s.tt != nil {
		s.tt.store(key, depth, value, exp, bound, move)
	}
}

// gameKey mixes into a position's hash what the rules' hash leaves out.
func gameKey(p *rules.Position, root rules.Seat, clockNear int) uint64 {
	k := p.Hash() ^ mix64(uint64(root)+0x51)
	for _, s := range p.Preset().Seats() {
		k ^= mix64(uint64(p.Score(s))<<3 | uint64(s) | 0x1000)
	}
	if c := p.Clock(); c >= clockNear {
		k ^= mix64(uint64(c) | 0x8000)
	}
	return k
}

// mix64 is splitmix64's finaliser.
func mix64(z uint64) uint64 {
	z += 0x9E3779B97F4A7C15
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}
