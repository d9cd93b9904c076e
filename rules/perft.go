package rules

// Perft counts the leaves of the game tree to the given depth, as docs/rules.md
// §8 defines it: a position awaiting its roll sums over every distinct
// roll at the same depth; a finished game counts 0 at any depth above 0.
// The last ply is counted in bulk, without making the actions.
func Perft(p *Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if p.done {
		return 0
	}
	if p.AwaitingRoll() {
		if depth == 1 && p.preset.Dice == 1 && !p.preset.teamPlay {
			return p.countEveryRoll()
		}
		var n uint64
		if p.rollOff {
			for _, r := range p.Outcomes() {
				q := *p
				q.SetRoll(r)
				n += Perft(&q, depth)
			}
			return n
		}
		outs := p.preset.outcomes
		if p.preset.specialRolls {
			outs = p.Outcomes()
		}
		for _, r := range outs {
			p.SetRoll(r)
			n += Perft(p, depth)
			p.ClearRoll()
		}
		return n
	}
	if depth == 1 {
		return uint64(p.CountActions())
	}
	var buf [MaxActions]Action
	var u Undo
	var n uint64
	for _, a := range p.Actions(buf[:]) {
		p.Make(a, &u)
		n += Perft(p, depth-1)
		p.Unmake(&u)
	}
	return n
}

// Divide returns perft(after a, depth-1) for each action a of a rolled
// position, or for each roll of a position awaiting one (at the same depth).
func Divide(p *Position, depth int) (labels []string, counts []uint64) {
	if depth == 0 || p.done {
		return nil, nil
	}
	if p.AwaitingRoll() {
		for _, r := range p.Outcomes() {
			q := *p
			q.SetRoll(r)
			labels = append(labels, "roll="+r.String())
			counts = append(counts, Perft(&q, depth))
		}
		return labels, counts
	}
	var buf [MaxActions]Action
	var u Undo
	for _, a := range p.Actions(buf[:]) {
		p.Make(a, &u)
		labels = append(labels, a.Format(p.preset))
		counts = append(counts, Perft(p, depth-1))
		p.Unmake(&u)
	}
	return labels, counts
}
