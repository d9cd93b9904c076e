package record

import (
	"strconv"
	"strings"

	"github.com/chaturaji/chaturaji/rules"
)

// Unfinished is the Result of a game that goes on.
const Unfinished = "*"

// Result returns the value of the Result tag for a game whose current
// position is p: Unfinished while it goes on; once it is over, the final
// scores in seat order (South, West, North, East, as the preset plays them)
// joined by commas, such as "12,54,3,0".
//
// King presets, whose result is the winning team or "draw", are not yet
// told apart by the rules package; their scores are written.
func Result(p *rules.Position) string {
	if !p.Finished() {
		return Unfinished
	}
	var b strings.Builder
	for i, s := range p.Preset().Seats() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(p.Score(s)))
	}
	return b.String()
}
