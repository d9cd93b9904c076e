package rules

import (
	"slices"
	"strings"
)

// LongDie is the four-faced long die of [article]: 2 boat, 3 horse, 4 elephant,
// 5 king or pawn.
var LongDie = &Die{
	Name:  "long",
	Faces: []int{2, 3, 4, 5},
	Kinds: [8]KindSet{2: kinds(Boat), 3: kinds(Horse), 4: kinds(Elephant), 5: kinds(King, Pawn)},
	Words: [8]string{2: "boat", 3: "horse", 4: "elephant", 5: "king or pawn"},
}

// CubeDie is the six-faced die of [encyclopedia]: 1 and 5 king or pawn, 2 boat,
// 3 horse, 4 and 6 elephant.
var CubeDie = &Die{
	Name:  "cube",
	Faces: []int{1, 2, 3, 4, 5, 6},
	Kinds: [8]KindSet{1: kinds(King, Pawn), 2: kinds(Boat), 3: kinds(Horse), 4: kinds(Elephant), 5: kinds(King, Pawn), 6: kinds(Elephant)},
	Words: [8]string{1: "king or pawn", 2: "boat", 3: "horse", 4: "elephant", 5: "king or pawn", 6: "elephant"},
}

// CubeBlankDie is the six-faced die of [French]: 1 and 6 name no piece (the die
// is lost), 2..5 as the long die.
var CubeBlankDie = &Die{
	Name:  "cube-blank",
	Faces: []int{1, 2, 3, 4, 5, 6},
	Kinds: [8]KindSet{2: kinds(Boat), 3: kinds(Horse), 4: kinds(Elephant), 5: kinds(King, Pawn)},
	Words: [8]string{1: "nothing (the die is lost)", 2: "boat", 3: "horse", 4: "elephant", 5: "king or pawn", 6: "nothing (the die is lost)"},
}

// dice are the dice house rules may name.
var dice = map[string]*Die{"long": LongDie, "cube": CubeDie, "cube-blank": CubeBlankDie}

// chaturajiPieces are the pieces of the Chaturaji family, with [article]'s points.
var chaturajiPieces = [NumKinds]PieceRule{
	Pawn:     {Letter: 'P', Name: "pawn", Points: 1, Moves: PawnPush | PawnTakeDiag},
	Boat:     {Letter: 'B', Name: "boat", Points: 2, Moves: LeapAlfil, CannotTake: kinds(Boat)},
	Horse:    {Letter: 'H', Name: "horse", Points: 3, Moves: LeapKnight},
	Elephant: {Letter: 'E', Name: "elephant", Points: 4, Moves: SlideOrth},
	King:     {Letter: 'K', Name: "king", Points: 5, Moves: StepAny},
}

// chaturajiStart is Murray's setup: each army in the left-hand corner of its
// seat.
const chaturajiStart = "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b - 0,0,0,0 0"

// Chaturaji is the default preset: four players each for himself, one long
// die, points, boat triumph, promotion by square with waiting pawns.
var Chaturaji = &Preset{
	Name:    "chaturaji",
	Title:   "four players, each for himself; one long die; points",
	Source:  "the Chaturaji article's rules; the encyclopedia's 54-point award",
	Order:   []Seat{South, West, North, East},
	Start:   chaturajiStart,
	Pieces:  chaturajiPieces,
	Die:     LongDie,
	Dice:    1,
	Goal:    PointsGoal,
	Triumph: true,
	Retire:  true,
	Promotion: Promotion{
		Rule:          PromoteBySquare,
		BySquare:      [8]Kind{Boat, Horse, Elephant, King, King, Elephant, Horse, Boat},
		OnlyIfLacking: true,
		Wait:          true,
	},
	Raise:      54,
	PeaceEnds:  true,
	ClockLimit: 200,
	Options:    chaturajiOptions,
}

// ChaturajiRanks is [article]'s alternative: pawns and boats ("weak") never
// capture horses, elephants or kings ("strong").
var ChaturajiRanks = derive(Chaturaji, "chaturaji-ranks", "as chaturaji; pawns and boats never capture horses, elephants or kings", "the Chaturaji article's alternative rule of ranks", withRanks)

// Chaturaji2Dice is [encyclopedia]'s game: two cube dice a turn.
var Chaturaji2Dice = derive(Chaturaji, "chaturaji-2dice", "as chaturaji with two cube dice a turn", "the encyclopedia's two dice, after al-Biruni; the Chaturaji article's alternative rule of two dice", func(pr *Preset) { withDice(pr, CubeDie, 2) })

// Ludii plays exactly what Ludii's Chaturaji.lud encodes, so that results
// can be compared with Ludii's.
var Ludii = derive(Chaturaji, "ludii", "compatibility with Ludii's Chaturaji.lud: turns S-E-N-W, promotion by choice, kingless armies move", "the Ludii game system's Chaturaji.lud", func(pr *Preset) {
	pr.Order = []Seat{South, East, North, West}
	pr.Pieces[Boat].CannotTake = 0
	pr.Triumph, pr.Retire, pr.Raise, pr.PeaceEnds = false, false, 0, false
	pr.Promotion = Promotion{Rule: PromoteByChoice, Choices: kinds(Boat, Horse, Elephant, King), OnlyIfLacking: true}
	pr.Kingless, pr.LastArmy, pr.TurnClock = true, true, true
	pr.ClockLimit = 5000
	pr.Options = nil
})

// Chaturanga2P is [French]'s two-player chaturanga (variant 3).
var Chaturanga2P = &Preset{
	Name:   "chaturanga-2p",
	Title:  "two players; no dice; take the enemy rajah",
	Source: "the French Chaturanga sheet, variant 3",
	Order:  []Seat{South, North},
	Start:  "gEgHgBgVgKgBgHgE/gPgPgPgPgPgPgPgP/8/8/8/8/bPbPbPbPbPbPbPbP/bEbHbBbVbKbBbHbE b - 0,0 0",
	Pieces: [NumKinds]PieceRule{
		Pawn:     {Letter: 'P', Name: "soldier", Moves: PawnPush | PawnTakeDiag | PawnTakeAhead},
		Boat:     {Letter: 'B', Name: "elephant", Moves: LeapAlfil},
		Horse:    {Letter: 'H', Name: "cavalier", Moves: LeapKnight},
		Elephant: {Letter: 'E', Name: "tour", Moves: SlideOrth},
		King:     {Letter: 'K', Name: "rajah", Moves: StepAny},
		Vizir:    {Letter: 'V', Name: "vizir", Moves: StepDiagonal},
	},
	Goal:       KingsGoal,
	Promotion:  Promotion{Rule: PromoteByStartFile, OnlyIfLacking: true, Wait: true},
	ClockLimit: 200,
	KingLeap:   true,
}

// chaturajiTeam is the team play of [article]: partners opposite, their pieces
// safe from each other, command through the partner's throne, the king
// exchange, and the partner's boats shared in a triumph.
var chaturajiTeam = TeamRules{
	Partners:   true,
	Safe:       kinds(Pawn, Boat, Horse, Elephant, King),
	Command:    CommandBoth,
	Exchange:   ExchangeAnywhere,
	ShareBoats: true,
}

// ChaturajiTeams is [article]'s team play: two against two, team points with
// throne and empire bonuses.
var ChaturajiTeams = derive(Chaturaji, "chaturaji-teams", "two teams of partners sitting opposite; one long die; team points with throne bonuses", "the Chaturaji article's team play", func(pr *Preset) {
	pr.Raise = 0
	pr.Team = chaturajiTeam
	pr.Team.KinglessPlays = true
	pr.Team.Bonuses = true
	pr.Options = append(optionsNamed("clock", "peace", "ranks", "retire", "triumph"), Option{Name: "lastforces",
		Help: "points are ignored and play goes on, a team without a king frozen, until a team has no pieces: it loses",
		apply: func(pr *Preset, _ string) error {
			for k := range pr.Pieces {
				pr.Pieces[k].Points = 0
			}
			pr.Goal = KingsGoal
			pr.Team.Bonuses, pr.Team.LastForces = false, true
			return nil
		}})
	slices.SortFunc(pr.Options, func(a, b Option) int { return strings.Compare(a.Name, b.Name) })
})

// ChaturajiDiceless is [article]'s strategic variant: the team play without
// dice or points; the team that takes both enemy kings wins.
var ChaturajiDiceless = derive(Chaturaji, "chaturaji-diceless", "two teams of partners sitting opposite; no dice; take both enemy kings", "the Chaturaji article's purely strategic variant, with its team play", func(pr *Preset) {
	for k := range pr.Pieces {
		pr.Pieces[k].Points = 0
	}
	pr.Die, pr.Dice = nil, 0
	pr.Goal = KingsGoal
	pr.Retire, pr.Raise, pr.PeaceEnds = false, 0, false
	pr.Team = chaturajiTeam
	pr.Options = optionsNamed("clock", "ranks", "triumph")
})

// Biruni is [encyclopedia]'s game: each for himself with two cube dice, points and
// the 54 raise; a king entering the opposite seat's throne (sinhasana)
// commands both armies, which then cannot capture each other.
var Biruni = derive(Chaturaji2Dice, "biruni", "four players, each for himself; two cube dice; points; sinhasana: a king on the opposite throne commands both armies", "al-Biruni's account, as the encyclopedia reports it", func(pr *Preset) {
	pr.Team = TeamRules{Command: CommandBoth, Truce: true}
	pr.Options = optionsNamed("clock", "peace", "raise", "ranks", "retire", "triumph")
})

// Winther is [Winther]'s four-handed chaturanga with dice: teams, two long
// dice, kings to take; a kingless seat may win back a king by a drop.
var Winther = derive(Chaturaji, "winther", "two teams of partners sitting opposite; two long dice; take both enemy kings; drop rights", "Mats Winther's 4-handed Chaturanga with dice (2006)", func(pr *Preset) {
	for k := range pr.Pieces {
		pr.Pieces[k].Points = 0
		pr.Pieces[k].CannotTake = 0 // boats may take boats
	}
	withDice(pr, LongDie, 2)
	pr.Goal = KingsGoal
	pr.Triumph, pr.Retire, pr.Raise, pr.PeaceEnds = false, false, 0, false
	pr.Promotion = Promotion{Rule: PromoteBySquare, BySquare: Chaturaji.Promotion.BySquare}
	pr.Team = TeamRules{Partners: true, Safe: kinds(King), Drops: true, MustTakeKing: true}
	pr.Options = []Option{chaturajiOptions[0], {Name: "mustking", Values: []string{"on", "off"}, Help: "whether a die that allows capturing an enemy king must be used so (and pass is not legal)",
		apply: onOff(func(pr *Preset, on bool) { pr.Team.MustTakeKing = on })}}
})

// ChaturangaFR1 is [French]'s first variant: teams, no dice, minor pieces
// that never take major ones, the rajah's leap, command on the ally's turn,
// elephant combat and the king exchange.
var ChaturangaFR1 = &Preset{
	Name:   "chaturanga-fr1",
	Title:  "two teams of partners sitting opposite; no dice; minor pieces never take major ones; take both enemy rajahs",
	Source: "the French Chaturanga sheet, variant 1",
	Order:  []Seat{South, West, North, East},
	Start:  chaturajiStart,
	Pieces: [NumKinds]PieceRule{
		Pawn:     {Letter: 'P', Name: "soldier", Moves: PawnPush | PawnTakeDiag | PawnTakeAhead, CannotTake: kinds(Horse, Elephant, King)},
		Boat:     {Letter: 'B', Name: "elephant", Moves: LeapAlfil, CannotTake: kinds(Horse, Elephant, King)},
		Horse:    {Letter: 'H', Name: "cavalier", Moves: LeapKnight},
		Elephant: {Letter: 'E', Name: "tour", Moves: SlideOrth},
		King:     {Letter: 'K', Name: "rajah", Moves: StepAny},
	},
	Colours:       [NumSeats]string{"black", "yellow", "red", "green"},
	Goal:          KingsGoal,
	Triumph:       true,
	ClockLimit:    200,
	KingLeap:      true,
	LeapAttackers: kinds(Horse, Elephant, King),
	Team: TeamRules{
		Partners:   true,
		Safe:       kinds(Pawn, Boat, Horse, Elephant, King),
		Command:    CommandTurns,
		Exchange:   ExchangeAdjacent,
		ShareBoats: true,
	},
	Options: []Option{chaturajiOptions[0], {Name: "die", Help: "one cube-blank die a turn (a 1 or 6 leaves only pass)",
		apply: func(pr *Preset, _ string) error { withDice(pr, CubeBlankDie, 1); return nil }}},
}

// ChaturangaFR2 is [French]'s second variant: fr1 with one cube-blank die,
// no leap, full command, the team left with nothing but rajahs losing, the
// promotion on enemy starting squares, the lone rajah removed, the free
// return, and stakes.
var ChaturangaFR2 = derive(ChaturangaFR1, "chaturanga-fr2", "two teams of partners sitting opposite; one cube-blank die; stakes; strip the enemy team to its rajahs", "the French Chaturanga sheet, variant 2", func(pr *Preset) {
	withDice(pr, CubeBlankDie, 1)
	pr.KingLeap, pr.LeapAttackers = false, 0
	pr.Team.Command = CommandBoth
	pr.Team.Stakes = true
	pr.Promotion = Promotion{Rule: PromoteOnEnemyStart, OnlyIfLacking: true}
	pr.Options = optionsNamed("clock")
})

func init() {
	for _, pr := range []*Preset{Chaturaji, ChaturajiRanks, Chaturaji2Dice, Ludii, Chaturanga2P, ChaturajiTeams, ChaturajiDiceless, Biruni, Winther, Martian, ChaturangaFR1, ChaturangaFR2} {
		register(pr)
	}
}

// derive returns a copy of base, renamed, with change applied.
func derive(base *Preset, name, title, source string, change func(*Preset)) *Preset {
	pr := *base
	pr.Name, pr.Title, pr.Source = name, title, source
	change(&pr)
	return &pr
}

// withRanks makes pawns and boats unable to capture horses, elephants and
// kings.
func withRanks(pr *Preset) {
	strong := kinds(Horse, Elephant, King)
	pr.Pieces[Pawn].CannotTake |= strong
	pr.Pieces[Boat].CannotTake |= strong
}

// withDice sets the dice rolled each turn; two-dice turns make pass always
// legal (docs/rules.md §5.3).
func withDice(pr *Preset, d *Die, n int) {
	pr.Die, pr.Dice = d, n
	pr.PassAlways = n > 1
}

// optionsNamed returns the house rules of the points presets with the given
// names.
func optionsNamed(names ...string) []Option {
	var out []Option
	for _, o := range chaturajiOptions {
		for _, n := range names {
			if o.Name == n {
				out = append(out, o)
			}
		}
	}
	return out
}
