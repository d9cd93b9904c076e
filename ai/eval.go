package ai

import (
	"math/bits"

	"github.com/chaturaji/chaturaji/rules"
)

// Utility is an estimate of each seat's final score, indexed by seat. Every
// search player values positions through it; what a seat wants of a utility
// (its own share, its team's, its margin over the leader) is Objective's
// business, so team presets change the objective, not the searches.
type Utility [rules.NumSeats]float64

// Weights are the parameters of the evaluation, in points.
type Weights struct {
	// Material is what a piece of a living army is worth to its owner, per
	// point of its value: the captures it may still make, and the points it
	// would give away when taken.
	Material float64
	// Threat weighs the expected best capture of each living seat, in turn
	// order from the seat to act (Threat[0]) on: the seat to act certainly
	// moves next; a later seat's threat may be parried first.
	Threat [rules.NumSeats]float64
	// Spite is how much a capturer weighs its victim's loss against its own
	// gain when it picks a capture.
	Spite float64
	// Pawn is the value of a pawn's advance, per step and per point of the
	// kind it would promote to, when that kind is lacking.
	Pawn float64
	// Strength shifts the chance of holding the last king toward the armies
	// with more material: 0 makes every living king equally likely to last.
	Strength float64
	// Exposure is what each kind of enemy piece that attacks a king costs
	// the king's chance of lasting, in units of the average chance.
	Exposure float64
	// Approach is what each kind of enemy piece that could attack a king
	// after one move costs, in the same units as Exposure.
	Approach float64
	// Lattice is what each enemy boat on the king's lattice costs: boats
	// leap two squares diagonally, so each stays on one eighth of the board
	// and can only ever attack a king on it.
	Lattice float64
	// Hazard, when above 0, switches the chance of holding the last king
	// to a hazard model: each king dies at a rate of Hazard per round plus
	// its exposure, and its weight is the inverse of that rate (a king
	// lives on average that long). At 0 the weight is 1 minus the
	// exposure.
	Hazard float64
	// Defend is the share of its own king's stake that a seat gains by
	// taking a piece that attacks its king.
	Defend float64
	// Loot is the share of a frozen army's points that the living armies
	// expect to take in the end, divided among them by material.
	Loot float64
	// Insurance is the share of its king's value that a pawn waiting on a
	// king-promotion square saves, since the army revives when the king is
	// taken.
	Insurance float64
}

// DefaultWeights are the evaluation's tuned parameters.
var DefaultWeights = Weights{
	Material:  0.5,
	Threat:    [rules.NumSeats]float64{1, 0.5, 0.35, 0.25},
	Spite:     0.5,
	Pawn:      0.05,
	Strength:  0.5,
	Exposure:  0.1,
	Approach:  0.1,
	Lattice:   0.1,
	Insurance: 0.8,
	Loot:      0.3,
	Defend:    0.25,
}

// evaluator computes utilities for one preset.
type evaluator struct {
	pr     *rules.Preset
	w      Weights
	points [rules.NumKinds]float64 // what capturing each kind scores
	value  [rules.NumKinds]float64 // what each kind is worth as material (see pieceValue)
	moves  [rules.NumKinds]rules.Movement
	noTake [rules.NumKinds]rules.KindSet
	faces  []faceKinds // the kinds each outcome of the dice allows
	// raise is what holding the last king raises a score to; in presets
	// won by taking kings (kings), the points a win is worth.
	raise float64
	kings bool
	// kingSquares[s] are the squares of s's last line where a pawn becomes a
	// king; promoteTo[s][sq] the kind a pawn of s becomes on sq.
	kingSquares [rules.NumSeats]uint64
	lastLine    [rules.NumSeats]uint64
	promoteTo   [rules.NumSeats][64]rules.Kind
}

// faceKinds is one outcome of the dice: the kinds it lets move and its
// probability.
type faceKinds struct {
	kinds rules.KindSet
	p     float64
	roll  rules.Roll
}

func newEvaluator(pr *rules.Preset, w Weights) *evaluator {
	e := &evaluator{pr: pr, w: w, raise: float64(pr.Raise)}
	// Where the kings decide the game and points do not, a win is worth
	// about what the raise is in the default preset.
	e.kings = pr.Goal == rules.KingsGoal || pr.Team.LastForces
	if e.kings {
		e.raise = winValue
	}
	for k := range rules.Kind(rules.NumKinds) {
		e.points[k] = float64(pr.Pieces[k].Points)
		e.value[k] = pieceValue(pr, k)
		e.moves[k] = pr.Pieces[k].Moves
		e.noTake[k] = pr.Pieces[k].CannotTake
	}
	for _, c := range pr.Chances() {
		var ks rules.KindSet
		for i := range c.Roll.Len() {
			ks |= pr.Die.Kinds[c.Roll.Face(i)]
		}
		e.faces = append(e.faces, faceKinds{ks, c.P, c.Roll})
	}
	if len(e.faces) == 0 { // diceless: every kind may move
		e.faces = []faceKinds{{allKinds, 1, rules.Roll{}}}
	}
	for _, s := range pr.Seats() {
		for i, sq := range lastLine(s) {
			k := pr.Promotion.BySquare[i]
			e.lastLine[s] |= 1 << uint(sq)
			e.promoteTo[s][sq] = k
			if k == rules.King {
				e.kingSquares[s] |= 1 << uint(sq)
			}
		}
	}
	return e
}

// lastLine returns a seat's last line from its left-hand corner (docs/rules.md
// §1.3 and §4.4).
func lastLine(s rules.Seat) [8]rules.Square {
	var line [8]rules.Square
	for i := range 8 {
		switch s {
		case rules.South:
			line[i] = rules.SquareAt(i, 7)
		case rules.West:
			line[i] = rules.SquareAt(7, 7-i)
		case rules.North:
			line[i] = rules.SquareAt(7-i, 0)
		case rules.East:
			line[i] = rules.SquareAt(0, i)
		}
	}
	return line
}

// winValue is what a win is worth, in points, in presets won by taking
// kings.
const winValue = 50

// army is what the evaluation knows of one seat.
type army struct {
	score   float64
	live    bool                   // its pieces move, or will at its next turn
	crowned bool                   // has a king, or will have one at its next turn
	acts    bool                   // moves at its next turn: a king, or a kingless army that plays
	insured bool                   // a pawn waits on a king square: taking the king does not freeze it
	mat     float64                // points of its pieces on the board
	last    float64                // chance of holding the last king
	attacks [rules.NumKinds]uint64 // squares each kind could capture on
	reach   [rules.NumKinds]uint64 // squares each kind could move to
	// attackers are the squares of the enemy pieces that attack the king.
	attackers uint64
}

// utility estimates each seat's final score in p.
func (e *evaluator) utility(p *rules.Position) Utility {
	var u Utility
	seats := e.pr.Seats()
	finished := p.Finished()
	if finished && !e.kings {
		for _, s := range seats {
			u[s] = float64(p.Score(s))
		}
		return u
	}
	var a [rules.NumSeats]army
	var occ uint64
	var byKind [rules.NumKinds]uint64
	for _, s := range seats {
		occ |= p.Army(s)
		for k := rules.Pawn; k < rules.Kind(rules.NumKinds); k++ {
			byKind[k] |= p.Pieces(s, k)
		}
	}
	alive := 0
	totalMat := 0.0
	for _, s := range seats {
		as := &a[s]
		as.score = float64(p.Score(s))
		for k := rules.Pawn; k < rules.Kind(rules.NumKinds); k++ {
			b := p.Pieces(s, k)
			as.mat += e.value[k] * float64(popcount(b))
		}
		waiting := p.Pieces(s, rules.Pawn) & e.kingSquares[s]
		// A king counts while its army lives: chesscom-chaturaji's
		// resigned army keeps its king on the board, dead.
		king := !p.Dead(s)
		as.crowned = king || waiting != 0
		as.acts = e.acts(p, s)
		as.live = as.crowned || as.acts
		as.insured = king && waiting != 0
		if as.crowned {
			alive++
		}
		if as.live {
			totalMat += as.mat
			own := p.Army(s)
			for k := rules.Pawn; k < rules.Kind(rules.NumKinds); k++ {
				for b := p.Pieces(s, k); b != 0; b &= b - 1 {
					as.attacks[k] |= takes(e.moves[k], s, lowest(b), occ)
				}
				as.reach[k] = as.attacks[k] &^ own
			}
			// Pawns move straight ahead and capture only diagonally.
			var pushes uint64
			for b := p.Pieces(s, rules.Pawn); b != 0; b &= b - 1 {
				pushes |= pawnAhead[s][lowest(b)]
			}
			as.reach[rules.Pawn] = pushes&^occ | as.attacks[rules.Pawn]&occ&^own
		}
	}
	if finished {
		// A king preset's end: the winners share the win, and keep their
		// material as the evaluation of a game going on does.
		e.winners(p, &a)
		for _, s := range seats {
			as := &a[s]
			u[s] = as.score + e.w.Material*as.mat + as.last*e.raiseGap(as.score)
		}
		return u
	}
	if alive == 0 {
		for _, s := range seats {
			u[s] = a[s].score
		}
		return u
	}
	e.lastChances(p, &a, alive, totalMat)

	// A frozen army's pieces are free points for the living, who share
	// them by the size of their armies; a dead army's (chesscom-chaturaji)
	// give nothing but its king's points, while it stands.
	loot := 0.0
	for _, s := range seats {
		switch {
		case a[s].live:
		case e.pr.Dead:
			loot += e.points[rules.King] * float64(popcount(p.Pieces(s, rules.King)))
		default:
			loot += a[s].mat
		}
	}
	for _, s := range seats {
		as := &a[s]
		u[s] = as.score
		if as.live {
			u[s] += e.w.Material*as.mat + as.last*e.raiseGap(as.score) + e.pawns(p, s)
			if loot > 0 && totalMat > 0 {
				u[s] += e.w.Loot * loot * as.mat / totalMat
			}
		}
	}
	e.threats(p, &a, &u, alive, occ, &byKind)
	return u
}

// acts reports whether seat s's army moves at its next turn: it has a king,
// or the preset lets a kingless army move (by itself, or commanded by a
// partner who has a king).
func (e *evaluator) acts(p *rules.Position, s rules.Seat) bool {
	switch {
	case !p.Dead(s): // its king stands, and its army lives
		return true
	case p.Army(s) == 0, e.pr.Dead:
		return false
	case e.pr.Kingless:
		return true
	}
	return e.pr.Team.KinglessPlays && p.HasKing(rules.Partner(s))
}

// winners sets each seat's share of the win in a finished game: rank 1
// seats share it (everyone, after a draw).
func (e *evaluator) winners(p *rules.Position, a *[rules.NumSeats]army) {
	ranks := p.Ranks()
	n := 0
	for _, s := range e.pr.Seats() {
		if ranks[s] == 1 {
			n++
		}
	}
	for _, s := range e.pr.Seats() {
		if ranks[s] == 1 {
			a[s].last = 1 / float64(n)
		}
	}
}

// safeFrom returns the pieces that seat t may never capture: its partner's
// pieces of the kinds the preset keeps safe.
func (e *evaluator) safeFrom(p *rules.Position, t rules.Seat) uint64 {
	if !e.pr.Team.Partners || e.pr.Team.Safe == 0 {
		return 0
	}
	var b uint64
	for ks := e.pr.Team.Safe & allKinds; ks != 0; ks &= ks - 1 {
		b |= p.Pieces(rules.Partner(t), lowestKind(ks))
	}
	return b
}

// scale is the points that make a big difference in a game: the raise, or
// fifty points in a preset without it.
func (e *evaluator) scale() float64 {
	if e.raise > 0 {
		return e.raise
	}
	return 50
}

// raiseGap is what holding the last king adds to a score of sc.
func (e *evaluator) raiseGap(sc float64) float64 {
	if sc >= e.raise {
		return 0
	}
	return e.raise - sc
}

// pawns values seat s's pawns by how near they are to promoting to a kind
// the army lacks.
func (e *evaluator) pawns(p *rules.Position, s rules.Seat) float64 {
	if e.w.Pawn == 0 {
		return 0
	}
	v := 0.0
	for b := p.Pieces(s, rules.Pawn) &^ e.lastLine[s]; b != 0; b &= b - 1 {
		sq := lowest(b)
		// Walk forward to the last line to find the steps left and the kind.
		f, r := sq.File(), sq.Rank()
		steps := 0
		for {
			f, r = f+forward[s][0], r+forward[s][1]
			steps++
			if f < 0 || f > 7 || r < 0 || r > 7 {
				steps = 0
				break
			}
			t := rules.SquareAt(f, r)
			if e.lastLine[s]&(1<<uint(t)) != 0 {
				k := e.promoteTo[s][t]
				if p.Pieces(s, k) == 0 {
					v += e.w.Pawn * e.value[k] * float64(7-steps)
				}
				break
			}
		}
	}
	return v
}

// allowed returns the kinds a roll lets move.
func (e *evaluator) allowed(r rules.Roll) rules.KindSet {
	if e.pr.Die == nil {
		return allKinds
	}
	var ks rules.KindSet
	for i := range r.Len() {
		ks |= e.pr.Die.Kinds[r.Face(i)]
	}
	return ks
}

// allKinds is every kind of piece.
const allKinds = rules.KindSet(1<<rules.NumKinds-1) &^ 1

func lowestKind(ks rules.KindSet) rules.Kind {
	return rules.Kind(bits.TrailingZeros16(uint16(ks)))
}

// WeightSettings are the player settings that name the evaluation's
// weights (see New), in the order of Weights' fields.
var WeightSettings = []string{
	"material", "threat0", "threat1", "threat2", "threat3", "spite", "pawn",
	"strength", "exposure", "approach", "lattice", "hazard", "defend", "loot",
	"insurance",
}

// Field returns the weight the setting name names (one of WeightSettings),
// or nil if it names none.
func (w *Weights) Field(name string) *float64 {
	switch name {
	case "material":
		return &w.Material
	case "threat0", "threat1", "threat2", "threat3":
		return &w.Threat[name[6]-'0']
	case "spite":
		return &w.Spite
	case "pawn":
		return &w.Pawn
	case "strength":
		return &w.Strength
	case "exposure":
		return &w.Exposure
	case "approach":
		return &w.Approach
	case "lattice":
		return &w.Lattice
	case "hazard":
		return &w.Hazard
	case "defend":
		return &w.Defend
	case "loot":
		return &w.Loot
	case "insurance":
		return &w.Insurance
	}
	return nil
}
