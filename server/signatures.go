package server

import (
	"crypto/sha256"
	"sync"
	"time"
)

// seenSignatures are the signatures of the forwarded requests a node has
// accepted, each kept until it lapses (its time is further than the
// window in the past), so that a request sent again is refused; at most
// max at once.
type seenSignatures struct {
	max int

	mu    sync.Mutex
	seen  map[[sha256.Size]byte]struct{}
	order []seenSignature // in the order accepted
}

// seenSignature is one accepted signature and when it lapses.
type seenSignature struct {
	sig   [sha256.Size]byte
	lapse time.Time
}

func newSeenSignatures(max int) *seenSignatures {
	return &seenSignatures{max: max, seen: make(map[[sha256.Size]byte]struct{})}
}

// add notes sig, which lapses at lapse, as accepted at now; it refuses
// (EFORBIDDEN) a signature accepted before, and (EUNAVAILABLE) any while
// it holds max that have not lapsed.
func (s *seenSignatures) add(sig [sha256.Size]byte, lapse, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	// The oldest go first. One that lapses late (its node's clock ahead)
	// keeps those after it a little longer: never shorter than they
	// should be.
	i := 0
	for i < len(s.order) && !s.order[i].lapse.After(now) {
		delete(s.seen, s.order[i].sig)
		i++
	}
	s.order = s.order[i:] // the array is left behind when append grows it
	if _, ok := s.seen[sig]; ok {
		return Errorf(EFORBIDDEN, "a request forwarded by another node: it was received before (a request sent again)")
	}
	if len(s.seen) >= s.max {
		return unavailable(time.Second, "this node remembers %d signatures of forwarded requests, its limit; try again", s.max)
	}
	s.seen[sig] = struct{}{}
	s.order = append(s.order, seenSignature{sig: sig, lapse: lapse})
	return nil
}
