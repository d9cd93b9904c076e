package ai

import "github.com/chaturaji/chaturaji/rules"

// The captures on the board: what each living seat can expect to take
// with its next roll.

// threats adds each living seat's expected best capture to the utility: for
// every outcome of its dice, the capture that gains it the most, weighted by
// the outcome's probability and by how soon the seat moves.
func (e *evaluator) threats(p *rules.Position, a *[rules.NumSeats]army, u *Utility, alive int, occ uint64, byKind *[rules.NumKinds]uint64) {
	order := e.pr.Order
	start := 0
	for i, s := range order {
		if s == p.Seat() {
			start = i
		}
	}
	rolled := !p.AwaitingRoll()
	n := 0
	for i := range order {
		t := order[(start+i)%len(order)]
		at := &a[t]
		if !at.acts {
			continue
		}
		w := e.w.Threat[n]
		n++
		if w == 0 {
			continue
		}
		own := p.Army(t) | e.safeFrom(p, t)
		for _, f := range e.faces {
			pf := f.p
			kinds := f.kinds
			if i == 0 && rolled {
				// The seat to act has rolled: only its roll counts.
				kinds = e.allowed(p.Roll())
				pf = 1
			}
			var targets uint64
			for ks := kinds; ks != 0; ks &= ks - 1 {
				k := lowestKind(ks)
				if at.attacks[k] == 0 {
					continue
				}
				capt := occ &^ own
				for nt := e.noTake[k]; nt != 0; nt &= nt - 1 {
					capt &^= byKind[lowestKind(nt)]
				}
				targets |= at.attacks[k] & capt
			}
			bestGain, bestHarm, bestPick := 0.0, 0.0, 0.0
			victim := rules.NoSeat
			for b := targets; b != 0; b &= b - 1 {
				sq := lowest(b)
				pc := p.At(sq)
				o := pc.Seat()
				ao := &a[o]
				gain := e.points[pc.Kind()]
				if e.pr.Dead && !ao.live && pc.Kind() != rules.King {
					gain = 0 // a dead army's pieces score nothing but its king
				}
				if at.attackers&(1<<uint(sq)) != 0 {
					// Taking a piece that attacks one's own king saves the
					// king from the roll that would have let it strike.
					gain += e.w.Defend * (u[t] - at.score)
				}
				harm := 0.0
				if ao.live {
					harm = e.w.Material * e.value[pc.Kind()]
				}
				if pc.Kind() == rules.King {
					gain += e.kingGain(at, alive)
					if ao.insured {
						harm += (1 - e.w.Insurance) * (u[o] - ao.score)
					} else {
						harm = u[o] - ao.score
					}
				}
				if pick := gain + e.w.Spite*harm; pick > bestPick {
					bestGain, bestHarm, bestPick, victim = gain, harm, pick, o
				}
			}
			if victim != rules.NoSeat {
				u[t] += w * pf * bestGain
				u[victim] -= w * pf * bestHarm
			}
			if i == 0 && rolled {
				break
			}
		}
	}
}

// kingGain is what taking a king adds to the capturer's chance of the raise.
func (e *evaluator) kingGain(at *army, alive int) float64 {
	if e.raise == 0 || alive < 2 {
		return 0
	}
	gap := e.raiseGap(at.score + e.points[rules.King])
	if alive == 2 {
		return gap - at.last*e.raiseGap(at.score)
	}
	return (1/float64(alive-1) - 1/float64(alive)) * gap
}
