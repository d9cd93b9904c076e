package naive

import (
	"fmt"
	"sort"
	"strings"
)

// winther (docs/rules.md §6, [Winther]): South and North against West and East,
// two long dice a turn, no points; partners' kings cannot be taken, their
// other pieces can; boats may take boats; no triumph. A pawn on its last
// line always becomes the kind its square names (a second king too). A
// kingless army is frozen. When a player takes an enemy king while his
// partner has no king and has lost exactly one, the partner gets a drop
// right: on its turn it rolls, then drops its king on any empty square
// ("K@e4", ending the turn) or passes. With mustking (the default), a
// remaining die that allows taking an enemy king makes such captures the
// only legal actions (the house rule mustking=off is not modelled here). A team without a king loses at once.
//
// The extra field: drops=<seats holding a drop right>, lost=<a seat's
// letter for each king it lost, at most twice>.

// wintherActions lists the actions of a winther position, sorted.
func (p *Position) wintherActions() []string {
	t := p.Seat
	var acts []string
	if p.DropRight[t] && !p.hasKind(t, King) {
		for sq := 0; sq < 64; sq++ {
			if p.Board[sq].Kind == Empty {
				acts = append(acts, "K@"+squareName(sq))
			}
		}
		acts = append(acts, "pass")
		sort.Strings(acts)
		return acts
	}
	var kingTakes []string
	for sq := 0; sq < 64; sq++ {
		pc := p.Board[sq]
		if pc.Kind == Empty || pc.Seat != t || p.dieFor(pc.Kind) < 0 {
			continue
		}
		for _, m := range p.pieceMoves(sq) {
			acts = append(acts, m.String())
			if p.Board[m.to].Kind == King {
				kingTakes = append(kingTakes, m.String())
			}
		}
	}
	if len(kingTakes) > 0 {
		sort.Strings(kingTakes)
		return kingTakes
	}
	acts = append(acts, "pass")
	sort.Strings(acts)
	return acts
}

// applyWinther performs a legal action of a winther turn.
func (p *Position) applyWinther(action string) *Position {
	q := p.copyPos()
	t := q.Seat
	first := q.Dice[1] != 0
	reset := false
	endTurn := true
	switch {
	case action == "pass":
	case strings.HasPrefix(action, "K@"):
		q.Board[square(int(action[2]-'a'), int(action[3]-'1'))] = Piece{Seat: t, Kind: King}
		q.DropRight[t] = false
	default:
		m, _ := parseMove(action)
		pc := q.Board[m.from]
		q.useDie(pc.Kind)
		endTurn = q.Dice[0] == 0
		reset = pc.Kind == Pawn
		if target := q.Board[m.to]; target.Kind != Empty {
			reset = true
			if target.Kind == King {
				if q.Lost[target.Seat] < 2 {
					q.Lost[target.Seat]++
				}
				if o := partner(t); !q.hasKind(o, King) && q.Lost[o] == 1 {
					q.DropRight[o] = true
				}
			}
		}
		q.Board[m.from] = Piece{}
		q.Board[m.to] = pc
		if pc.Kind == Pawn && onLastLine(t, m.to) {
			q.Board[m.to].Kind = promotionKind(t, m.to)
		}
	}
	switch {
	case reset:
		q.Clock = 0
	case first:
		q.Clock++
	}
	if endTurn {
		q.Dice = [2]int{}
		q.Seat = t
		for i := 1; i <= 4; i++ {
			s := (t + i) % 4
			if q.hasKind(s, King) || q.DropRight[s] {
				q.Seat = s
				break
			}
		}
	} else if q.Finished() {
		q.Dice = [2]int{}
	}
	return q
}

// formatWintherExtra returns winther's extra field ("" if empty).
func (p *Position) formatWintherExtra() string {
	var pairs []string
	drops, lost := "", ""
	for seat := 0; seat < 4; seat++ {
		if p.DropRight[seat] {
			drops += string(seatLetters[seat])
		}
		lost += strings.Repeat(string(seatLetters[seat]), p.Lost[seat])
	}
	if drops != "" {
		pairs = append(pairs, "drops="+drops)
	}
	if lost != "" {
		pairs = append(pairs, "lost="+lost)
	}
	return strings.Join(pairs, ";")
}

// parseWintherExtra reads winther's extra field.
func parseWintherExtra(f string, p *Position) error {
	for _, pair := range strings.Split(f, ";") {
		key, value, _ := strings.Cut(pair, "=")
		for i := 0; i < len(value); i++ {
			s := strings.IndexByte(seatLetters, value[i])
			if s < 0 {
				return errBadExtra(f)
			}
			switch key {
			case "drops":
				p.DropRight[s] = true
			case "lost":
				p.Lost[s]++
			default:
				return errBadExtra(f)
			}
		}
	}
	if p.formatWintherExtra() != f || p.Lost[0] > 2 || p.Lost[1] > 2 || p.Lost[2] > 2 || p.Lost[3] > 2 {
		return errBadExtra(f)
	}
	return nil
}

func errBadExtra(f string) error { return fmt.Errorf("naive: bad extra field %q", f) }
