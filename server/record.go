package server

import (
	"crypto/ed25519"
	"fmt"
	"strings"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// takeover is a seat that changed hands during a game: a bot took it from
// its holder, from the given turn group of the record on.
type takeover struct {
	seat   rules.Seat
	from   string // the player before: "human" or "bot:SPEC"
	to     string // the bot that took the seat
	reason string // ReasonAbandoned or ReasonTimeout
	turn   int    // the turn group, from 1, in which the bot first decided
	// out: the seat had no part left in the game when the bot took it
	// (rules.Position.InPlay): its king fallen, its army dead; or it
	// resigned in a preset with dead armies (dead.go). A rated
	// game ranks such a seat by its score, not last (rankSides).
	out bool
}

// newTakeover records that seat passes to player in game g now, while it
// decides. The bot's first action belongs to the last turn group, unless
// that action will open a group: a roll opens one (with dice, as
// rules.Game groups turns), and so does a diceless turn's first action.
func newTakeover(g *rules.Game, seat rules.Seat, from, to, reason string) takeover {
	n := len(g.Turns())
	if p := g.Position(); n == 0 || p.AwaitingRoll() || g.Preset().Die == nil && p.Pending() == "" {
		n++
	}
	// A resignation in a preset with dead armies is the rules' (dead.go):
	// the army dies at its turn, and ranks by its score as dead ones do.
	out := !g.Position().InPlay(seat) || reason == ReasonResigned && g.Preset().Dead
	return takeover{seat: seat, from: from, to: to, reason: reason, turn: n, out: out}
}

// String returns the takeover as the Takeover tag writes it:
// "South: bot:greedy from turn 14 (abandoned)".
func (t takeover) String() string {
	return fmt.Sprintf("%s: %s from turn %d (%s)", t.seat, t.to, t.turn, t.reason)
}

// gameRecord returns the record of a game: its seats' players as tags
// (their names, else "human" or the bot they started with), the date, the
// game's id, the seats bots took over (the Takeover tag), the SeedHash and,
// once the game is over, the Seed, so that anyone can check every roll
// with `chaturaji verify`, a timed table's TimeControl and the time each
// decision took (record.Record.Times), and, with a key, the server's signature
// (record.Sign), so that anyone with the server's public key can check
// that it comes unchanged from the server. A live game's record is never
// signed: it is not the game's final record. A game the server ended
// outside the rules (aborted) has its termination, the Termination tag,
// and the Result "*".
func gameRecord(g *rules.Game, info *store.Game, table Table, times []int64, takeovers []takeover, term string, over bool, key ed25519.PrivateKey) *record.Record {
	tags := []record.Tag{{Name: "Site", Value: "chaturaji server"}, {Name: "Game", Value: info.ID}}
	tags = append(tags, record.Tag{Name: "Date", Value: info.Created.UTC().Format("2006.01.02")})
	for i, s := range g.Preset().Seats() {
		who := info.Seats[i].Name
		if who == "" {
			who = info.Seats[i].Player
			for _, t := range takeovers {
				if t.seat == s {
					who = t.from
					break
				}
			}
		}
		tags = append(tags, record.Tag{Name: s.String(), Value: who})
	}
	if len(takeovers) > 0 {
		parts := make([]string, len(takeovers))
		for i, t := range takeovers {
			parts[i] = t.String()
		}
		tags = append(tags, record.Tag{Name: "Takeover", Value: strings.Join(parts, "; ")})
	}
	if term != "" {
		tags = append(tags, record.Tag{Name: "Termination", Value: term})
	}
	if table.timed() {
		tags = append(tags, record.Tag{Name: record.TimeControlTag, Value: table.timeControl().String()})
	}
	r := record.FromGame(g, tags...)
	if table.timed() {
		r.Times = recordTimes(r, times)
	}
	if !over {
		r.Tags.Delete("Seed")
		return r
	}
	if key != nil {
		r.Sign(key)
	}
	return r
}
