package ai

import (
	"testing"
	"unsafe"
)

// TestBlockSizes checks the sizes a pool counts against the real ones.
func TestBlockSizes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		counted   int
		allocated uintptr
	}{
		{"table entry", entryBytes, unsafe.Sizeof(entry{})},
		{"history", historyBytes, unsafe.Sizeof(history{})},
		{"tree node", nodeBytes, unsafe.Sizeof(mnode{})},
		{"tree edge", edgeBytes, unsafe.Sizeof(medge{})},
	} {
		if uintptr(tc.counted) != tc.allocated {
			t.Errorf("%s: counted as %d bytes, is %d", tc.name, tc.counted, tc.allocated)
		}
	}
}

// TestTakeTable walks a pool through the cases of takeTable: each step
// takes a table for an owner, or gives one back, and the table it gets is
// checked.
func TestTakeTable(t *testing.T) {
	const full, small = 12, 10
	type step struct {
		give  string // the owner whose table goes back; "" to take
		owner string
		bits  uint
		// What the owner gets: a table of wantBits (0: none); kept, the
		// contents it left there; from, the owner whose table it was ("":
		// a new one).
		wantBits uint
		kept     bool
		from     string
	}
	for _, tc := range []struct {
		name   string
		budget int64
		steps  []step
	}{
		{"an owner gets its own table back, contents and all", 10 * tableBytes(full), []step{
			{owner: "a", bits: full, wantBits: full},
			{give: "a"},
			{owner: "a", bits: full, wantBits: full, kept: true, from: "a"},
		}},
		{"a new table while there is room, rather than another's", 2 * tableBytes(full), []step{
			{owner: "a", bits: full, wantBits: full},
			{give: "a"},
			{owner: "b", bits: full, wantBits: full},
		}},
		{"another's table, cleared, once the budget is full", tableBytes(full), []step{
			{owner: "a", bits: full, wantBits: full},
			{give: "a"},
			{owner: "b", bits: full, wantBits: full, from: "a"},
			{give: "b"},
			{owner: "a", bits: full, wantBits: full, from: "b"},
		}},
		{"its own table at another size is cleared", tableBytes(full), []step{
			{owner: "a", bits: full, wantBits: full},
			{give: "a"},
			{owner: "a", bits: small, wantBits: small, from: "a"},
		}},
		{"a smaller table while the budget is lent", tableBytes(full) + tableBytes(small), []step{
			{owner: "a", bits: full, wantBits: full},
			{owner: "b", bits: full, wantBits: small},
		}},
		{"no table when not even the smallest fits", tableBytes(full) + tableBytes(minTableBits) - 1, []step{
			{owner: "a", bits: full, wantBits: full},
			{owner: "b", bits: full, wantBits: 0},
		}},
		{"a free table of the size is taken before a smaller one is made", tableBytes(full) + tableBytes(small), []step{
			{owner: "a", bits: full, wantBits: full},
			{owner: "b", bits: full, wantBits: small},
			{give: "b"},
			{give: "a"},
			{owner: "c", bits: full, wantBits: full, from: "a"},
			{owner: "d", bits: small, wantBits: small, from: "b"},
		}},
		{"free small tables make way for a full one", 2 * tableBytes(full), []step{
			{owner: "a", bits: full, wantBits: full},
			{owner: "b", bits: small, wantBits: small},
			{owner: "c", bits: small, wantBits: small},
			{give: "b"},
			{give: "c"},
			{owner: "d", bits: full, wantBits: full},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPool(tc.budget)
			ids := map[string]uint64{}
			id := func(o string) uint64 {
				if ids[o] == 0 {
					ids[o] = newOwner()
				}
				return ids[o]
			}
			held := map[string]*block{}
			made := map[*block]string{} // the owner each block was made for
			for i, s := range tc.steps {
				if s.give != "" {
					p.give(held[s.give])
					delete(held, s.give)
					continue
				}
				b := p.takeTable(id(s.owner), s.bits, minTableBits)
				if p.Used() > tc.budget {
					t.Fatalf("step %d: %d bytes used, over the budget of %d", i, p.Used(), tc.budget)
				}
				if b == nil {
					if s.wantBits != 0 {
						t.Fatalf("step %d: %s got no table, want 2^%d", i, s.owner, s.wantBits)
					}
					continue
				}
				if s.wantBits == 0 || b.bits != s.wantBits || len(b.tt.slots) != 1<<s.wantBits || b.tt.mask != 1<<s.wantBits-1 {
					t.Fatalf("step %d: %s got a table of %d slots (bits %d), want 2^%d", i, s.owner, len(b.tt.slots), b.bits, s.wantBits)
				}
				from, old := made[b]
				if !old {
					from = ""
					made[b] = s.owner
				}
				if from != s.from {
					t.Fatalf("step %d: %s got the table of %q, want that of %q", i, s.owner, from, s.from)
				}
				kept := b.tt.slots[5].key != 0 && b.history[1][5] == 7
				if kept != s.kept {
					t.Fatalf("step %d: contents kept %v, want %v", i, kept, s.kept)
				}
				// Leave a mark for the next owner to find, or not.
				b.tt.slots[5] = entry{key: 99, bound: boundExact}
				b.history[1][5] = 7
				made[b] = s.owner
				held[s.owner] = b
			}
		})
	}
}

// TestTrees checks that a tree grows while the budget has room, no
// further, and that Trim gives back what nobody took.
func TestTrees(t *testing.T) {
	p := NewPool(1 << 20)
	a := p.takeTree(newOwner())
	if !p.grow(a, 600<<10) || p.Used() != 600<<10 {
		t.Fatalf("growing to 600 KiB: used %d", p.Used())
	}
	b := p.takeTree(newOwner())
	if p.grow(b, 500<<10) {
		t.Fatalf("a second tree of 500 KiB fitted beside 600 KiB in 1 MiB")
	}
	if !p.grow(b, 400<<10) || p.Used() != 1000<<10 {
		t.Fatalf("a second tree of 400 KiB: used %d", p.Used())
	}
	p.give(a)
	if !p.grow(b, 1<<20) || p.Used() != 1<<20 {
		t.Fatalf("the free tree should make way: used %d", p.Used())
	}
	p.give(b)
	p.Trim()
	if p.Used() != 1<<20 {
		t.Fatalf("the first Trim dropped a tree given back since the last: used %d", p.Used())
	}
	p.Trim()
	if p.Used() != 0 {
		t.Fatalf("the second Trim kept an idle tree: used %d", p.Used())
	}
}
