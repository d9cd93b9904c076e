package record

import (
	"strconv"
	"strings"

	"github.com/chaturaji/chaturaji/rules"
)

// Unfinished is the Result of a game that goes on.
const Unfinished = "*"

// Draw is the Result of a king preset's game that nobody won.
const Draw = "draw"

// Result returns the value of the Result tag for a game whose current
// position is p (docs/rules.md §7): Unfinished while it goes on; once it
// is over, for points presets the final scores in seat order (South, West,
// North, East, as the preset plays them) joined by commas, such as
// "12,54,3,0"; for king presets, and for chaturaji-teams' lastforces, where
// points decide nothing, the colour letters of the winning side in seat
// order ("bg" or "yr", or "b" or "g" in two-player games), or Draw.
func Result(p *rules.Position) string {
	if !p.Finished() {
		return Unfinished
	}
	pr := p.Preset()
	if pr.Goal == rules.KingsGoal || pr.Team.LastForces {
		return winners(p)
	}
	var b strings.Builder
	for i, s := range pr.Seats() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(p.Score(s)))
	}
	return b.String()
}

// winners returns the letters of the seats ranked first, or Draw if every
// seat is.
func winners(p *rules.Position) string {
	ranks := p.Ranks()
	seats := p.Preset().Seats()
	var won []byte
	for _, s := range seats {
		if ranks[s] == 1 {
			won = append(won, s.Letter())
		}
	}
	if len(won) == len(seats) {
		return Draw
	}
	return string(won)
}
