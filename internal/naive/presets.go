package naive

import (
	"fmt"
	"strings"
)

// Preset names, as ParseRules and StartOf take them.
const (
	Chaturaji         = "chaturaji"          // docs/rules.md §4
	ChaturajiRanks    = "chaturaji-ranks"    // pawns and boats never take horses, elephants, kings
	Chaturaji2Dice    = "chaturaji-2dice"    // two cube dice a turn (twodice.go)
	Ludii             = "ludii"              // Ludii's Chaturaji (ludii.go)
	Chaturanga2P      = "chaturanga-2p"      // two-player chaturanga (twoplayer.go)
	ChaturajiTeams    = "chaturaji-teams"    // partners, team points (teams.go)
	ChaturajiDiceless = "chaturaji-diceless" // partners, no dice, take the kings (teams.go)
	Biruni            = "biruni"             // two cube dice, sinhasana (biruni.go)
	Winther           = "winther"            // teams, two long dice, drop rights (winther.go)
)

// Kinds of dice a preset rolls.
const (
	diceless = iota
	longDie
	twoCubes
	twoLong
	cubeBlank
)

// preset is the little a preset changes in the shared code; the rest is
// spelled out where it happens, by the preset's name.
type preset struct {
	field   string // Position.Rules: "" for the default preset
	start   string // the start position
	order   []int  // turn order
	kinds   string // piece letters
	dice    int    // diceless, longDie or twoCubes
	points  bool   // captures score points
	triumph bool   // boat triumph
	raise54 bool   // the last king's owner is raised to 54
	leap    bool   // rajah leap, and the "leaps=" extra field
	teams   bool   // the team presets' extra field
	winther bool   // winther's extra field
	martian bool   // martian's letters, roll-off, dice field and extra field
	fr      bool   // chaturanga-fr1's extra field
	dead    bool   // chesscom-chaturaji's extra field
}

const (
	chaturajiStart = "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b - 0,0,0,0 0"
	twoPlayerStart = "gEgHgBgVgKgBgHgE/gPgPgPgPgPgPgPgP/8/8/8/8/bPbPbPbPbPbPbPbP/bEbHbBbVbKbBbHbE b - 0,0 0"
)

var (
	clockwise = []int{South, West, North, East}
	presets   = map[string]*preset{
		Chaturaji: {field: "", start: chaturajiStart, order: clockwise, kinds: "KEHBP",
			dice: longDie, points: true, triumph: true, raise54: true},
		ChaturajiRanks: {field: ChaturajiRanks, start: chaturajiStart, order: clockwise, kinds: "KEHBP",
			dice: longDie, points: true, triumph: true, raise54: true},
		Chaturaji2Dice: {field: Chaturaji2Dice, start: chaturajiStart, order: clockwise, kinds: "KEHBP",
			dice: twoCubes, points: true, triumph: true, raise54: true},
		Ludii: {field: Ludii, start: chaturajiStart, order: []int{South, East, North, West}, kinds: "KEHBP",
			dice: longDie, points: true},
		Chaturanga2P: {field: Chaturanga2P, start: twoPlayerStart, order: []int{South, North}, kinds: "KEHBPV",
			leap: true},
		ChaturajiTeamsLF: {field: ChaturajiTeamsLF, start: chaturajiStart, order: clockwise, kinds: "KEHBP",
			dice: longDie, triumph: true, teams: true},
		ChaturajiTeams: {field: ChaturajiTeams, start: chaturajiStart, order: clockwise, kinds: "KEHBP",
			dice: longDie, points: true, triumph: true, teams: true},
		ChaturajiDiceless: {field: ChaturajiDiceless, start: chaturajiStart, order: clockwise, kinds: "KEHBP",
			triumph: true, teams: true},
		Biruni: {field: Biruni, start: chaturajiStart, order: clockwise, kinds: "KEHBP",
			dice: twoCubes, points: true, triumph: true, raise54: true, teams: true},
		Winther: {field: Winther, start: chaturajiStart, order: clockwise, kinds: "KEHBP",
			dice: twoLong, winther: true},
		Martian:           {field: Martian, start: martianStart, order: clockwise, kinds: "MPRS", martian: true},
		ChaturangaFR1:     {field: ChaturangaFR1, start: chaturajiStart, order: clockwise, kinds: "KEHBP", fr: true},
		ChaturangaFR2:     {field: ChaturangaFR2, start: chaturajiStart, order: clockwise, kinds: "KEHBP", fr: true, dice: cubeBlank},
		ChesscomChaturaji: {field: ChesscomChaturaji, start: chaturajiStart, order: clockwise, kinds: "KEHBP", points: true, dead: true},
	}
)

// lookup returns the named preset; "" names the default.
func lookup(name string) (*preset, bool) {
	if name == "" {
		name = Chaturaji
	}
	pr, ok := presets[name]
	return pr, ok
}

// preset returns the position's preset.
func (p *Position) preset() *preset {
	pr, ok := lookup(p.Rules)
	if !ok {
		panic(fmt.Sprintf("naive: unknown rules %q", p.Rules))
	}
	return pr
}

// RulesName returns the position's preset name ("chaturaji" for the default).
func (p *Position) RulesName() string {
	if p.Rules == "" {
		return Chaturaji
	}
	return p.Rules
}

// scoreSeats lists the game's seats in the order of the scores field
// (South, West, North, East; two-player games South, North).
func (pr *preset) scoreSeats() []int {
	if len(pr.order) == 2 {
		return []int{South, North}
	}
	return clockwise
}

// seatOf returns the seat of a colour letter, if the preset has that seat.
func (pr *preset) seatOf(letter string) (int, bool) {
	if len(letter) != 1 {
		return 0, false
	}
	seat := strings.IndexByte(seatLetters, letter[0])
	if seat < 0 {
		return 0, false
	}
	for _, s := range pr.order {
		if s == seat {
			return seat, true
		}
	}
	return 0, false
}

// rolls lists every distinct roll, as WithRoll takes it.
func (pr *preset) rolls() [][]int {
	var out [][]int
	switch pr.dice {
	case longDie:
		for f := 2; f <= 5; f++ {
			out = append(out, []int{f})
		}
	case twoCubes:
		for a := 1; a <= 6; a++ {
			for b := a; b <= 6; b++ {
				out = append(out, []int{a, b})
			}
		}
	case cubeBlank:
		for f := 1; f <= 6; f++ {
			out = append(out, []int{f})
		}
	case twoLong:
		for a := 2; a <= 5; a++ {
			for b := a; b <= 5; b++ {
				out = append(out, []int{a, b})
			}
		}
	}
	return out
}

// StartOf returns the start position of the named preset (South to act,
// awaiting its roll if the preset rolls; "" names the default). It panics
// on an unknown name.
func StartOf(rules string) *Position {
	pr, ok := lookup(rules)
	if !ok {
		panic(fmt.Sprintf("naive: unknown rules %q", rules))
	}
	p, err := ParseRules(rules, pr.start)
	if err != nil {
		panic(err)
	}
	return p
}

// Finished reports whether the game is over, by the preset's ends:
//   - chaturaji, chaturaji-ranks: at most one king on the board, only kings
//     on the board ("honourable peace"), or a clock of 200 or more;
//   - chaturaji-2dice: the same, but the clock only once the turn has passed
//     (not while a die of the turn remains);
//   - ludii: at most one seat has pieces, or a clock of 5000 or more;
//   - chaturanga-2p: a seat has no rajah, or a clock of 200 or more.
func (p *Position) Finished() bool {
	switch p.Rules {
	case ChaturajiTeams, ChaturajiDiceless, ChaturajiTeamsLF:
		return p.teamsFinished()
	case Ludii:
		armies := 0
		for _, seat := range clockwise {
			if p.pieceCount(seat) > 0 {
				armies++
			}
		}
		return armies <= 1 || p.Clock >= 5000
	case Chaturanga2P:
		return !p.hasKind(South, King) || !p.hasKind(North, King) || p.Clock >= 200
	case Martian:
		return p.martianFinished()
	case ChaturangaFR1, ChaturangaFR2:
		return p.frFinished()
	case ChesscomChaturaji:
		return p.chesscomFinished()
	case Winther:
		return p.teamKings(South) == 0 || p.teamKings(West) == 0 || (p.Clock >= 200 && p.Dice[0] == 0)
	case Chaturaji2Dice, Biruni:
		midTurn := p.Dice[0] != 0
		return p.countKings() <= 1 || p.onlyKings() || (p.Clock >= 200 && !midTurn)
	}
	return p.countKings() <= 1 || p.onlyKings() || p.Clock >= 200
}
