package web

import (
	"net/http"
	"strconv"

	"github.com/chaturaji/chaturaji/ai"
)

// PlayerInfo is one choice of the seat menus of the home page.
type PlayerInfo struct {
	Spec  string `json:"spec"`  // the seat's player, as POST /api/games takes it: "human" or "bot:SPEC"
	Label string `json:"label"` // the menu's text
	About string `json:"about"` // how it plays, for people choosing
}

// seatPlayers are the seat menus' choices: a human, the random and greedy
// bots, the strength levels below the strongest, and the strong bot.
func seatPlayers() []PlayerInfo {
	about := map[string]string{}
	for _, k := range ai.Kinds {
		about[k.Name] = k.About
	}
	list := []PlayerInfo{
		{Spec: "human", Label: "Human", About: "a person: you, or a friend you send the seat's invite link"},
		{Spec: "bot:random", Label: "Bot · random", About: about["random"]},
		{Spec: "bot:greedy", Label: "Bot · greedy", About: about["greedy"]},
	}
	for i, l := range ai.Levels[:len(ai.Levels)-1] { // the last level is strong
		label := "Bot · level " + strconv.Itoa(i+1)
		if i == 0 {
			label += " (beginner)"
		}
		list = append(list, PlayerInfo{Spec: "bot:" + strconv.Itoa(i+1), Label: label, About: l.About})
	}
	return append(list, PlayerInfo{Spec: "bot:strong", Label: "Bot · strong", About: about["strong"]})
}

// handlePlayers is GET /web/players: the seat menus' choices.
func (s *site) handlePlayers(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, struct {
		Players []PlayerInfo `json:"players"`
	}{seatPlayers()})
}
