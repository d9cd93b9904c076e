package rules

import (
	"errors"
	"fmt"
)

// Turn is one seat's turn in a game's history: its roll and the actions it
// took with it.
type Turn struct {
	Seat    Seat     // the seat to act when the turn began
	Roll    Roll     // the zero Roll in diceless presets
	Actions []Action // the actions played in the turn, in order
}

// Game is a game in progress or finished: a start position, the dice seed,
// and the turns played. It checks every roll and action against the rules.
type Game struct {
	preset *Preset
	seed   Seed
	start  Position
	pos    Position
	turns  []Turn
	rolls  uint64 // rolls drawn from the seed so far
}

// ErrAwaitingRoll is returned when an action is played before the roll.
var ErrAwaitingRoll = errors.New("rules: the seat to act must roll first")

// ErrFinished is returned when the game is over.
var ErrFinished = errors.New("rules: the game is over")

// NewGame starts a game of preset pr from its start position, with dice
// from seed.
func NewGame(pr *Preset, seed Seed) *Game {
	return NewGameFrom(pr.StartPosition(), seed)
}

// NewGameFrom starts a game from the given position.
func NewGameFrom(start *Position, seed Seed) *Game {
	g := &Game{preset: start.preset, seed: seed, start: *start, pos: *start}
	if start.rolled { // the first turn's roll was made before the game was handed over
		g.turns = append(g.turns, Turn{Seat: start.seat, Roll: start.roll})
	}
	return g
}

// Preset returns the game's rules.
func (g *Game) Preset() *Preset { return g.preset }

// Seed returns the game's dice seed.
func (g *Game) Seed() Seed { return g.seed }

// Start returns a copy of the position the game started from.
func (g *Game) Start() *Position { p := g.start; return &p }

// Position returns a copy of the current position.
func (g *Game) Position() *Position { p := g.pos; return &p }

// Turns returns the turns played so far; the caller must not change them.
func (g *Game) Turns() []Turn { return g.turns }

// Actions appends the legal actions of the seat to act to buf[:0].
func (g *Game) Actions(buf []Action) []Action { return g.pos.Actions(buf) }

// Finished reports whether the game is over.
func (g *Game) Finished() bool { return g.pos.done }

// Roll draws the next roll from the game's seed for the seat to act and
// returns it: the seat's dice (and, under martian's throne control, the
// controlled army's pair), or the roll-off (face 1: South's team starts,
// face 2: West's), which is no turn's roll and is not in Turns.
func (g *Game) Roll() (Roll, error) {
	if !g.pos.AwaitingRoll() {
		return Roll{}, g.noRoll()
	}
	if g.pos.rollOff {
		s, n := RollOffFromSeed(g.seed)
		g.rolls = n
		r := rollOffOutcomes[0]
		if s == West {
			r = rollOffOutcomes[1]
		}
		g.setRoll(r)
		return r, nil
	}
	pairs := 1
	if g.preset.Team.Control && g.pos.controlTarget(g.pos.seat) != NoSeat {
		pairs = 2
	}
	r := RollFromSeedPairs(g.seed, g.preset, g.rolls, pairs)
	g.rolls++
	g.setRoll(r)
	return r, nil
}

// PlayRoll applies a roll given from outside, as when replaying a record
// whose dice are not to be drawn from a seed. It must be a possible outcome
// of the preset's dice.
func (g *Game) PlayRoll(r Roll) error {
	if !g.pos.AwaitingRoll() {
		return g.noRoll()
	}
	if g.pos.rollOff && g.pos.isOutcome(r) {
		_, g.rolls = RollOffFromSeed(g.seed)
		g.setRoll(r)
		return nil
	}
	if g.pos.isOutcome(r) {
		g.rolls++
		g.setRoll(r)
		return nil
	}
	return fmt.Errorf("rules: roll %s is not an outcome of %d %s dice", r, g.preset.Dice, g.preset.Die.Name)
}

func (g *Game) noRoll() error {
	if g.pos.done {
		return ErrFinished
	}
	if g.preset.Die == nil {
		return fmt.Errorf("rules: preset %s has no dice", g.preset.Name)
	}
	return fmt.Errorf("rules: %s has rolled already (%s)", g.pos.seat, g.pos.roll)
}

func (g *Game) setRoll(r Roll) {
	if g.pos.rollOff { // the roll-off is no turn's roll
		g.pos.SetRoll(r)
		return
	}
	g.pos.SetRoll(r)
	g.turns = append(g.turns, Turn{Seat: g.pos.seat, Roll: r})
}

// Play plays action a for the seat to act, after checking that it is legal.
// An illegal action changes nothing.
func (g *Game) Play(a Action) error {
	p := &g.pos
	if p.done {
		return ErrFinished
	}
	if p.AwaitingRoll() {
		return ErrAwaitingRoll
	}
	if !p.IsLegal(a) {
		return &IllegalActionError{Action: a.Format(g.preset), Position: p.String()}
	}
	if g.preset.Die == nil && p.step == noStep { // no roll opens the turn; decisions continue it
		g.turns = append(g.turns, Turn{Seat: p.seat})
	}
	t := &g.turns[len(g.turns)-1]
	t.Actions = append(t.Actions, a)
	var u Undo
	p.Make(a, &u)
	return nil
}

// PlayString parses an action in the preset's notation and plays it.
func (g *Game) PlayString(s string) error {
	a, err := ParseAction(g.preset, s)
	if err != nil {
		return err
	}
	return g.Play(a)
}

// IllegalActionError is an action that the rules do not allow in a position.
type IllegalActionError struct {
	Action   string // the action, in the preset's notation
	Position string // the position, in notation
}

// Error returns "rules: illegal action A in P".
func (e *IllegalActionError) Error() string {
	return fmt.Sprintf("rules: illegal action %s in %s", e.Action, e.Position)
}
