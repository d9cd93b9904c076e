package rules

import (
	"fmt"
	"sort"
)

// PieceRule is what a preset says of one kind of piece.
type PieceRule struct {
	Letter     byte     // upper-case letter in notation; 0 if the preset does not use the kind
	Name       string   // name in the preset's own words, such as "boat"
	Points     int      // points scored for capturing it
	Moves      Movement // how it moves and captures
	CannotTake KindSet  // kinds it never captures by an ordinary move
}

// Die is a kind of die: its faces and the kinds of piece each face allows.
type Die struct {
	Name  string
	Faces []int      // the faces, ascending; each equally likely
	Kinds [8]KindSet // Kinds[f] is what face f allows; empty for a lost die
	Words [8]string  // how the rules text names each face's meaning
}

// Promotion is a preset's promotion rule.
type Promotion struct {
	// BySquare names the kind a pawn becomes on each square of its last line,
	// counted from the line's left-hand corner as its owner sees it.
	BySquare [8]Kind
	// OnlyIfLacking: promotion happens only to a kind the army has no piece of;
	// otherwise the pawn waits on the last line and promotes at the start of a
	// later turn of its owner, as soon as the kind is lacking.
	OnlyIfLacking bool
}

// Preset is a ruleset: a value that the one engine interprets.
type Preset struct {
	Name   string // as given to --rules
	Title  string // one line describing it
	Source string // source tags, such as "[000][001]"
	Order  []Seat // the seats, in turn order, the first to start
	Start  string // the start position, in notation
	Pieces [NumKinds]PieceRule
	Die    *Die // nil: diceless
	Dice   int  // dice rolled a turn

	Triumph    bool      // boat triumph (vrihannauka)
	Retire     bool      // a lone king may retire
	Promotion  Promotion // promotion on the last line
	Raise      int       // score raised to this for holding the last king; 0: none
	PeaceEnds  bool      // only kings on the board ends the game
	ClockLimit int       // turns without capture or pawn move that end the game

	// Derived tables, filled by prepare.
	seats      []Seat // the seats that play, in seat order (scores are listed so)
	turnIndex  [NumSeats]int
	promoteTo  [NumSeats][64]Kind
	lastLines  [NumSeats]uint64
	letterKind [128]Kind
	faceKinds  [8]KindSet
	outcomes   []Roll
	used       KindSet                         // the kinds the preset has
	steps      [NumKinds][NumSeats][64]stepSet // non-sliding targets
	start      *Position
}

// LongDie is the four-faced long die of [000]: 2 boat, 3 horse, 4 elephant,
// 5 king or pawn.
var LongDie = &Die{
	Name:  "long",
	Faces: []int{2, 3, 4, 5},
	Kinds: [8]KindSet{2: kinds(Boat), 3: kinds(Horse), 4: kinds(Elephant), 5: kinds(King, Pawn)},
	Words: [8]string{2: "boat", 3: "horse", 4: "elephant", 5: "king or pawn"},
}

// chaturajiPieces are the pieces of the Chaturaji family, with [000]'s points.
var chaturajiPieces = [NumKinds]PieceRule{
	Pawn:     {Letter: 'P', Name: "pawn", Points: 1, Moves: PawnPush | PawnTakeDiag},
	Boat:     {Letter: 'B', Name: "boat", Points: 2, Moves: LeapAlfil, CannotTake: kinds(Boat)},
	Horse:    {Letter: 'H', Name: "horse", Points: 3, Moves: LeapKnight},
	Elephant: {Letter: 'E', Name: "elephant", Points: 4, Moves: SlideOrth},
	King:     {Letter: 'K', Name: "king", Points: 5, Moves: StepAny},
}

// Chaturaji is the default preset: four players each for himself, one long
// die, points, boat triumph, promotion by square with waiting pawns.
var Chaturaji = &Preset{
	Name:       "chaturaji",
	Title:      "four players, each for himself; one long die; points",
	Source:     "[000] rules, [001] scoring bonus",
	Order:      []Seat{South, West, North, East},
	Start:      "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b - 0,0,0,0 0",
	Pieces:     chaturajiPieces,
	Die:        LongDie,
	Dice:       1,
	Triumph:    true,
	Retire:     true,
	Promotion:  Promotion{BySquare: [8]Kind{Boat, Horse, Elephant, King, King, Elephant, Horse, Boat}, OnlyIfLacking: true},
	Raise:      54,
	PeaceEnds:  true,
	ClockLimit: 200,
}

var presets = map[string]*Preset{}

func init() {
	register(Chaturaji)
}

// register prepares a preset and makes it known by name.
func register(pr *Preset) {
	pr.prepare()
	presets[pr.Name] = pr
}

// prepare fills the derived tables and parses the start position.
func (pr *Preset) prepare() {
	for s := range Seat(NumSeats) {
		if pr.plays(s) {
			pr.seats = append(pr.seats, s)
		}
	}
	for i, s := range pr.Order {
		pr.turnIndex[s] = i
	}
	for k, rule := range pr.Pieces {
		if rule.Letter == 0 {
			continue
		}
		pr.letterKind[rule.Letter] = Kind(k)
		pr.used |= 1 << k
		for _, s := range pr.Order {
			for sq := range Square(64) {
				pr.steps[k][s][sq] = rule.Moves.steps(s, sq)
			}
		}
	}
	if pr.Die != nil {
		pr.faceKinds = pr.Die.Kinds
	}
	for _, s := range pr.Order {
		for i, sq := range lastLine(s) {
			pr.lastLines[s] |= sq.bit()
			pr.promoteTo[s][sq] = pr.Promotion.BySquare[i]
		}
	}
	pr.outcomes = pr.Outcomes()
	start, err := parsePosition(pr, pr.Start)
	if err != nil {
		panic(fmt.Sprintf("rules: preset %s: bad start position: %v", pr.Name, err))
	}
	pr.start = start
}

// Lookup returns the preset with the given name.
func Lookup(name string) (*Preset, error) {
	if pr, ok := presets[name]; ok {
		return pr, nil
	}
	return nil, fmt.Errorf("rules: unknown preset %q (known: %v)", name, Names())
}

// Names returns the names of every preset, sorted.
func Names() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// IsOutcome reports whether r is a possible roll of the preset's dice.
func (pr *Preset) IsOutcome(r Roll) bool {
	for _, o := range pr.outcomes {
		if o == r {
			return true
		}
	}
	return false
}

// StartPosition returns a new copy of the preset's start position.
func (pr *Preset) StartPosition() *Position {
	p := *pr.start
	return &p
}

// String returns the preset's name.
func (pr *Preset) String() string { return pr.Name }

// Seats returns the seats that play, in seat order (South, West, North,
// East), the order of the scores in notation.
func (pr *Preset) Seats() []Seat { return pr.seats }

// NumSeats returns how many seats play.
func (pr *Preset) NumSeats() int { return len(pr.Order) }

// Outcomes returns every distinct roll of the preset's dice, or nil for a
// diceless preset. With one die each outcome is equally likely.
func (pr *Preset) Outcomes() []Roll {
	if pr.Die == nil {
		return nil
	}
	var out []Roll
	for _, f := range pr.Die.Faces {
		out = append(out, Roll{n: 1, faces: [2]uint8{uint8(f)}})
	}
	return out
}
