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
	Name  string     // the die's name, such as "long", as the dice option names it
	Faces []int      // the faces, ascending; each equally likely
	Kinds [8]KindSet // Kinds[f] is what face f allows; empty for a lost die
	Words [8]string  // how the rules text names each face's meaning
}

// PromotionRule says how the kind a pawn promotes to is found.
type PromotionRule uint8

// The promotion rules.
const (
	NoPromotion         PromotionRule = iota
	PromoteBySquare                   // the square of the last line names the kind (Promotion.BySquare)
	PromoteByStartFile                // the kind that started on the same file (two-player chaturanga)
	PromoteByChoice                   // the player chooses among Promotion.Choices (`=H`)
	PromoteOnEnemyStart               // arriving on an enemy horse's or elephant's starting square (chaturanga-fr2)
)

// Promotion is a preset's promotion rule: a pawn reaching its last line.
type Promotion struct {
	// Rule is how the kind a pawn promotes to is found; NoPromotion: pawns
	// never promote.
	Rule PromotionRule
	// BySquare names the kind a pawn becomes on each square of its last line,
	// counted from the line's left-hand corner as its owner sees it.
	BySquare [8]Kind
	// Choices are the kinds a player may choose with PromoteByChoice.
	Choices KindSet
	// OnlyIfLacking: promotion happens only to a kind the army has fewer
	// pieces of than it started with (none, for the Chaturaji armies).
	OnlyIfLacking bool
	// Wait: a pawn that cannot promote waits on the last line and promotes
	// at the start of a later turn of its owner, as soon as it can
	// (otherwise it stays a pawn).
	Wait bool
}

// Goal is what a preset's players play for.
type Goal uint8

// The goals.
const (
	PointsGoal Goal = iota // the higher score ranks higher
	KingsGoal              // take the enemy kings; scores stay 0
)

// Preset is a ruleset: a value that the one engine interprets.
type Preset struct {
	Name   string              // as given to --rules
	Title  string              // one line describing it
	Source string              // the sources it follows, named as docs/rules.md §9 lists them
	Order  []Seat              // the seats, in turn order, the first to start
	Start  string              // the start position, in notation
	Pieces [NumKinds]PieceRule // indexed by kind
	Die    *Die                // nil: diceless
	Dice   int                 // dice rolled a turn

	Goal       Goal      // what the players play for
	Triumph    bool      // boat triumph (vrihannauka)
	Retire     bool      // a lone king may retire
	Promotion  Promotion // promotion on the last line
	Raise      int       // score raised to this for holding the last king; 0: none
	PeaceEnds  bool      // only kings on the board ends the game
	ClockLimit int       // turns without capture or pawn move that end the game (a draw in king presets)

	// Kingless: an army without a king keeps moving (Ludii's encoding);
	// otherwise it is frozen and its turns are skipped.
	Kingless bool
	// PassAlways: pass is legal even when a move is (two-dice turns).
	PassAlways bool
	// TurnClock: the clock counts every turn, captures or not (Ludii's
	// turn limit); the game ends, drawn, when it reaches ClockLimit.
	TurnClock bool
	// LastArmy: the game ends when only one army has pieces (Ludii).
	LastArmy bool
	// KingLeap: once per seat per game a king that no enemy piece attacks
	// may leap like a knight (two-player chaturanga).
	KingLeap bool
	// LeapAttackers are the kinds whose attack forbids the king's leap; 0:
	// every kind (chaturanga-fr1: the major pieces).
	LeapAttackers KindSet
	// Team play (docs/rules.md §5): see TeamRules.
	Team TeamRules
	// Colours are the armies' colours as the sources show them, by seat
	// (display only: notation keeps b, y, g, r); empty for the default.
	Colours [NumSeats]string
	// RollOff: a chance node before the game decides which team starts
	// (martian); the start position's seat field is then `-`.
	RollOff bool
	// CountUp: at the roll a die names the first kind at or above its face
	// that still has a piece on the board, else it is lost (martian's dice:
	// face 1 names the king's kind, 2 the horse's, 3 the elephant's, 4 the
	// pawn's).
	CountUp bool
	// Checks are the points a move scores by attacking live enemy kings
	// anew: Checks[n] when, after it, n live enemy kings of the mover are
	// attacked from a square they were not attacked from before
	// (chesscom-chaturaji: 1 for two, 5 for three); all zero: no bonus.
	Checks [NumSeats]int
	// Dead: chess.com's live and dead armies (docs/rules.md §6.12). An army
	// dies when its king is taken or its seat plays resign or timeout (its
	// king then stands); a dead army's pieces stay, capturable for nothing
	// but a king's points. The game ends when at most one army lives, which
	// then takes the points of every king still standing, or by the clock,
	// each live army taking DrawPoints.
	Dead bool
	// DrawPoints is what each live army scores when the clock ends a game
	// with Dead.
	DrawPoints int
	// Claim (with Dead): the leader of the last two live armies may claim
	// the game, and the game ends by itself once nobody can catch the
	// leader.
	Claim bool
	// Options lists the house rules the preset accepts.
	Options []Option

	// Derived tables, filled by prepare.
	seats          []Seat // the seats that play, in seat order (scores are listed so)
	turnIndex      [NumSeats]int
	promoteTo      [NumSeats][64]Kind
	lastLines      [NumSeats]uint64
	letterKind     [128]Kind
	faceKinds      [8]KindSet
	outcomes       []Roll
	used           KindSet       // the kinds the preset has
	startCount     [NumKinds]int // pieces of each kind an army starts with
	chances        []Chance
	outcomeKinds   []KindSet                       // for each outcome, the kinds it allows
	special        KindSet                         // kinds whose moves need more than their targets
	oneActionTurns bool                            // one action a turn, the clock counting captures and pawn moves
	kingEnds       bool                            // the game ends only by the last king, peace or the clock
	steps          [NumKinds][NumSeats][64]stepSet // non-sliding targets
	start          *Position
	thrones        [NumSeats]Square // each seat's throne: its king's starting square
	teamPlay       bool             // Team has some rule: the team path of Make and Actions
	pairOutcomes   []Roll           // martian's rolls with throne control: both pairs
	pairChances    []Chance
	specialRolls   bool                           // a roll-off or the count-upwards rule: SetRoll's slow path
	enemyStart     [NumSeats][64]Kind             // chaturanga-fr2: the enemy horse and elephant starting squares a pawn promotes on
	privileged     [NumSeats]uint64               // ... and where a privileged pawn promotes (the enemy king's too)
	checks         bool                           // some Checks bonus: Make looks at the kings' attackers
	attackFrom     [NumKinds][NumSeats][64]uint64 // with checks: where a non-sliding piece of a seat attacks a square from
}

var presets = map[string]*Preset{}

// register prepares a preset and makes it known by name.
func register(pr *Preset) {
	if err := pr.prepare(); err != nil {
		panic(err)
	}
	presets[pr.Name] = pr
}

// prepare fills the derived tables and parses the start position.
//
// A house-rule preset is a copy of its base preset that shares the base's
// slices, and games of the base may be reading them: prepare makes new
// slices, never appending into the old ones.
func (pr *Preset) prepare() error {
	pr.seats = nil
	for s := range Seat(NumSeats) {
		if pr.plays(s) {
			pr.seats = append(pr.seats, s)
		}
	}
	for i, s := range pr.Order {
		pr.turnIndex[s] = i
	}
	pr.used = 0
	pr.letterKind = [128]Kind{}
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
	pr.faceKinds = [8]KindSet{}
	if pr.Die != nil {
		pr.faceKinds = pr.Die.Kinds
	}
	pr.outcomes, pr.chances = outcomes(pr.Die, pr.Dice)
	pr.outcomeKinds = nil
	for _, r := range pr.outcomes {
		var ks KindSet
		for i := range r.Len() {
			ks |= pr.faceKinds[r.Face(i)]
		}
		pr.outcomeKinds = append(pr.outcomeKinds, ks)
	}
	pr.teamPlay = pr.Team != TeamRules{}
	pr.specialRolls = pr.RollOff || pr.CountUp
	pr.pairOutcomes, pr.pairChances = nil, nil
	for i, r := range pr.outcomes {
		for j, c := range pr.outcomes {
			pr.pairOutcomes = append(pr.pairOutcomes, r.WithControl(c))
			pr.pairChances = append(pr.pairChances, Chance{r.WithControl(c), pr.chances[i].P * pr.chances[j].P})
		}
	}
	pr.oneActionTurns = pr.Dice <= 1 && !pr.TurnClock
	pr.kingEnds = pr.Goal == PointsGoal && !pr.Kingless && !pr.LastArmy && !pr.TurnClock && !pr.teamPlay && !pr.Dead
	pr.checks = pr.Checks != [NumSeats]int{}
	pr.attackFrom = [NumKinds][NumSeats][64]uint64{}
	if pr.checks {
		pr.fillAttackFrom()
	}
	pr.special = 0
	if pr.KingLeap {
		pr.special |= kinds(King)
	}
	if pr.Promotion.Rule == PromoteByChoice || pr.Promotion.Rule == PromoteOnEnemyStart {
		pr.special |= kinds(Pawn)
	}
	if pr.Pieces[Pawn].Moves&PawnDouble != 0 {
		pr.special |= kinds(Pawn)
	}
	if pr.Dead && (pr.Promotion.Wait || pr.teamPlay || pr.Kingless) {
		return fmt.Errorf("rules: preset %s: dead armies go with neither waiting pawns, team play nor kingless armies", pr.Name)
	}
	start, err := parsePosition(pr, pr.Start)
	if err != nil {
		return fmt.Errorf("rules: preset %s: bad start position: %v", pr.Name, err)
	}
	pr.thrones = [NumSeats]Square{NoSquare, NoSquare, NoSquare, NoSquare}
	for _, s := range pr.Order {
		if k := start.Pieces(s, King); k != 0 {
			pr.thrones[s] = lowest(k)
		}
	}
	pr.startCount = [NumKinds]int{}
	for k := range Kind(numKinds) {
		pr.startCount[k] = popcount(start.Pieces(pr.Order[0], k))
	}
	for _, s := range pr.Order {
		pr.lastLines[s] = 0
		for i, sq := range lastLine(s) {
			pr.lastLines[s] |= sq.bit()
			switch pr.Promotion.Rule {
			case PromoteBySquare:
				pr.promoteTo[s][sq] = pr.Promotion.BySquare[i]
			case PromoteByStartFile:
				// Never to a king: a soldier on the rajah's file waits for good.
				if k := start.startingKindOnFile(s, sq.File()); k != King {
					pr.promoteTo[s][sq] = k
				}
			}
		}
	}
	pr.enemyStart = [NumSeats][64]Kind{}
	pr.privileged = [NumSeats]uint64{}
	if pr.Promotion.Rule == PromoteOnEnemyStart {
		for _, s := range pr.Order {
			for _, e := range pr.Order {
				if pr.Teammates(s, e) {
					continue
				}
				for _, k := range []Kind{Horse, Elephant, King} {
					for b := start.Pieces(e, k); b != 0; b &= b - 1 {
						pr.privileged[s] |= lowest(b).bit()
						if k != King {
							pr.enemyStart[s][lowest(b)] = k
						}
					}
				}
			}
		}
	}
	pr.start = start
	return nil
}

// startingKindOnFile returns the kind of seat s's piece other than a pawn on
// file f, NoKind if there is none.
func (p *Position) startingKindOnFile(s Seat, f int) Kind {
	for r := range 8 {
		if pc := p.board[SquareAt(f, r)]; pc != NoPiece && pc.Seat() == s && pc.Kind() != Pawn {
			return pc.Kind()
		}
	}
	return NoKind
}

// outcomes returns every distinct roll of n dice of kind d, as multisets,
// with their probabilities.
func outcomes(d *Die, n int) ([]Roll, []Chance) {
	if d == nil || n == 0 {
		return nil, nil
	}
	k := float64(len(d.Faces))
	var rolls []Roll
	var chances []Chance
	for i, f := range d.Faces {
		if n == 1 {
			r := pair(uint8(f))
			rolls = append(rolls, r)
			chances = append(chances, Chance{r, 1 / k})
			continue
		}
		for _, g := range d.Faces[i:] {
			r := pair(uint8(f), uint8(g))
			p := 2 / (k * k)
			if f == g {
				p = 1 / (k * k)
			}
			rolls = append(rolls, r)
			chances = append(chances, Chance{r, p})
		}
	}
	return rolls, chances
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

// Outcomes returns every distinct roll of the preset's dice (two dice as
// unordered pairs), or nil for a diceless preset.
func (pr *Preset) Outcomes() []Roll { return pr.outcomes }
