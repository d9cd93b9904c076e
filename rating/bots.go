package rating

import (
	"slices"
	"strings"
)

// BotRating is a bot's fixed rating in rated games, as measured.
type BotRating struct {
	Rating
	Games int // the games of the measurement it rests on
}

// Bots are the fixed ratings of the bots that may sit at rated tables, by
// their ai spec ("random", "greedy", "1" to "6"), as `chaturaji
// botratings` measured them (the command's defaults reproduce this table:
// 40 deals a window, seed 22). The levels are played against each other
// in the chaturaji preset, four at a table, in windows of four consecutive
// players weakest first, every deal in every seat rotation; every game is
// then rated in turn with Default's model and no Tau, and the ratings are
// shifted so that the random player shows 1000: the anchor is a player who
// knows only the legal moves, whose strength does not depend on anything
// we tune. A newcomer (1500) then starts between levels 5 and 6; greedy,
// which takes the best capture it sees, plays above levels 1 to 3, whose
// searches are drawn widely or at random. The measurement took 3 min 15 s
// of CPU (800 games, 24 min 41 s on a machine loaded by others); each
// row's Games are the games its figure rests on, and Sigma the fit's
// uncertainty, which rated games use as the bot's.
//
// Levels 7 and 8 (and "strong") are not here, so not offered at rated
// tables: they search for a share of the server's time per decision
// (Config.BotTime), so their strength is the machine's and its load's,
// not a fixed number; and measuring them costs minutes of CPU a game.
// The same table serves every ruleset: the bots' strengths were measured
// only in chaturaji.
var Bots = map[string]BotRating{
	// 1000 ± 68, 1314 ± 50, 1153 ± 44, 1171 ± 37, 1282 ± 36, 1410 ± 40,
	// 1429 ± 45 and 1566 ± 58 as Show puts them.
	"random": {Rating: Rating{Mu: 8.040, Sigma: 2.321}, Games: 160},
	"greedy": {Rating: Rating{Mu: 18.690, Sigma: 1.700}, Games: 320},
	"1":      {Rating: Rating{Mu: 13.232, Sigma: 1.499}, Games: 480},
	"2":      {Rating: Rating{Mu: 13.843, Sigma: 1.271}, Games: 640},
	"3":      {Rating: Rating{Mu: 17.596, Sigma: 1.232}, Games: 640},
	"4":      {Rating: Rating{Mu: 21.942, Sigma: 1.351}, Games: 480},
	"5":      {Rating: Rating{Mu: 22.578, Sigma: 1.539}, Games: 320},
	"6":      {Rating: Rating{Mu: 27.249, Sigma: 1.959}, Games: 160},
}

// Bot returns the fixed rating of the bot with ai spec spec ("3",
// "greedy"), and whether it has one.
func Bot(spec string) (Rating, bool) {
	b, ok := Bots[spec]
	return b.Rating, ok
}

// BotSpecs returns the specs of Bots, the named ones first, then the
// levels in order.
func BotSpecs() []string {
	specs := make([]string, 0, len(Bots))
	for s := range Bots {
		specs = append(specs, s)
	}
	slices.SortFunc(specs, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return specs
}
