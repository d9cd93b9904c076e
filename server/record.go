package server

import (
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// gameRecord returns the record of a game: its seats' players as tags
// (their names, else "human" or the bot), the date, the game's id, the
// SeedHash and, once the game is over, the Seed, so that anyone can check
// every roll with `chaturaji verify`.
func gameRecord(g *rules.Game, info *store.Game, over bool) *record.Record {
	tags := []record.Tag{{Name: "Site", Value: "chaturaji server"}, {Name: "Game", Value: info.ID}}
	tags = append(tags, record.Tag{Name: "Date", Value: info.Created.UTC().Format("2006.01.02")})
	for i, s := range g.Preset().Seats() {
		who := info.Seats[i].Name
		if who == "" {
			who = info.Seats[i].Player
		}
		tags = append(tags, record.Tag{Name: s.String(), Value: who})
	}
	r := record.FromGame(g, tags...)
	if !over {
		r.Tags.Delete("Seed")
	}
	return r
}
