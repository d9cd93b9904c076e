package ai

import "github.com/chaturaji/chaturaji/rules"

// Move ordering keys: the table's move, then captures by the value of the
// victim (a king first) and the cheapness of the attacker, promotions, the
// killers of the ply, and the history of the seat.
const (
	keyTT      = 1 << 30
	keyCapture = 1 << 24
	keyPromote = 1 << 23
	keyKiller  = 1 << 22
)

// order sorts acts for the seat to act in p, most promising first.
func (s *starSearch) order(p *rules.Position, acts []rules.Action, ttMove rules.Action, ply int) {
	keys := s.keys[ply][:len(acts)]
	hist := &s.hist[p.Seat()]
	k := &s.killers[ply]
	for i, a := range acts {
		var key int32
		switch {
		case a == ttMove:
			key = keyTT
		case a.Type() != rules.Move:
			key = -1
		default:
			from, to := a.From(), a.To()
			mover := p.At(from)
			if victim := p.At(to); victim != rules.NoPiece {
				vk := victim.Kind()
				val := int32(2 * s.ev.value[vk])
				if vk == rules.King {
					val = 64
				}
				key = keyCapture + val*256 - int32(2*s.ev.value[mover.Kind()])
			} else if mover.Kind() == rules.Pawn && s.ev.lastLine[mover.Seat()]&(1<<uint(to)) != 0 {
				key = keyPromote
			} else if a == k[0] {
				key = keyKiller + 1
			} else if a == k[1] {
				key = keyKiller
			} else {
				key = hist[int(from)*64+int(to)]
			}
		}
		keys[i] = key
	}
	// Insertion sort, highest key first: lists are short.
	for i := 1; i < len(acts); i++ {
		a, key := acts[i], keys[i]
		j := i
		for ; j > 0 && keys[j-1] < key; j-- {
			acts[j], keys[j] = acts[j-1], keys[j-1]
		}
		acts[j], keys[j] = a, key
	}
}

// orderRoot sorts the root choices before the first iteration.
func (s *starSearch) orderRoot(p *rules.Position, cs []rootChoice) {
	acts := make([]rules.Action, len(cs))
	for i, c := range cs {
		acts[i] = c.action
	}
	s.order(p, acts, 0, 0)
	for i, a := range acts {
		cs[i] = rootChoice{action: a}
	}
}
