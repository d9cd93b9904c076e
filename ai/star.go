package ai

import (
	"context"
	"fmt"
	"math"
	mbits "math/bits"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/chaturaji/chaturaji/rules"
)

// starMode says whom the expectimax search takes the opponents to be.
type starMode int

const (
	// paranoid: every opponent, in turn order, plays to minimise the root
	// seat's value.
	paranoid starMode = iota
	// bestReply: Best-Reply Search. The root seat's turns alternate with one
	// opponent reply, that of the opponent whose reply (under its own roll)
	// hurts the root seat most; the other opponents pass meanwhile.
	bestReply
)

const (
	maxPly   = 64
	maxStack = 256
	// valueBound bounds every value the search returns: a side's utility
	// minus another's never leaves it. Star1 prunes chance nodes with it.
	valueBound = 200.0
)

// Star is the expectimax player: paranoid or best-reply search over the
// seats' decisions, averaging over the dice at chance nodes with Star1
// pruning, iterative deepening, a transposition table and move ordering by
// captures, the table's move, killers and history.
//
// Between decisions a Star holds no search memory: each decision takes its
// table from the Pool its budget names (or from the player's own) and its
// working arrays from a cache shared by all players, and gives both back.
type Star struct {
	name  string
	mode  starMode
	opts  Options
	rng   *rand.Rand
	owner uint64 // the player's number in pools (newOwner)
	own   *Pool  // the pool of decisions whose budget names none; nil until the first

	pr  *rules.Preset // the preset the evaluator and objective are built for
	ev  *evaluator
	val valuer // the leaf evaluation: ev, or the learned one
	obj Objective
}

// starSearch is the state of one search of a Star, for as long as one
// decision lasts.
type starSearch struct {
	mode starMode
	ev   *evaluator
	val  valuer
	obj  Objective
	tt   *table   // nil: the pool had no memory for one
	hist *history // the table block's history, or own

	root      rules.Seat
	stop      stopper
	clockNear int
	undo      [maxStack]rules.Undo
	sp        int
	horizon   bool // some line of this iteration was cut by the depth
	bufs      [maxPly][rules.MaxActions]rules.Action
	keys      [maxPly][rules.MaxActions]int32
	killers   [maxPly][2]rules.Action
	own       history // the history of a search without a table block
	// pv[ply] is the principal line from a node at ply; scratch keeps the
	// lines of a chance node's rolls (and of a reply layer's best opponent)
	// until it knows which to keep.
	pv      [maxPly + 1][maxPly]rules.Action
	pvLen   [maxPly + 1]int
	scratch [maxPly + 1][8][maxPly]rules.Action
	scrLen  [maxPly + 1][8]int
}

// starSearches caches the half a megabyte of a search's arrays between
// decisions, for whichever player searches next: only the searches
// running at once hold one.
var starSearches = sync.Pool{New: func() any { return new(starSearch) }}

// minTableBits is the smallest table a decision takes when the pool's
// budget is spent: below it, it searches without one.
const minTableBits = 10

// newStar returns an expectimax player of the given mode ("paranoid" or
// "brs") with options o, seeded with seed.
func newStar(name string, mode starMode, o Options, seed uint64) *Star {
	return &Star{name: name, mode: mode, opts: o, rng: rand.New(rand.NewPCG(seed, 0x57a7)), owner: newOwner()}
}

// Name returns the player's name.
func (s *Star) Name() string { return s.name }

// Choose returns the action the search finds best, or one near it as the
// options' variety and noise allow.
func (s *Star) Choose(ctx context.Context, p *rules.Position, b Budget) (rules.Action, error) {
	var buf [rules.MaxActions]rules.Action
	acts := p.Actions(buf[:])
	if len(acts) == 0 {
		return 0, errNoActions(p)
	}
	if len(acts) == 1 {
		return acts[0], nil
	}
	r, err := s.search(ctx, p, b, nil)
	if err != nil {
		return 0, err
	}
	return s.opts.pick(s.rng, r.choices, acts), nil
}

// Analyze searches p and reports what it found.
func (s *Star) Analyze(ctx context.Context, p *rules.Position, b Budget) (Analysis, error) {
	if p.CountActions() == 0 {
		return Analysis{}, errNoActions(p)
	}
	return s.analyze(ctx, p, b, nil)
}

// AnalyzeAction searches p with a as its only root action.
func (s *Star) AnalyzeAction(ctx context.Context, p *rules.Position, a rules.Action, b Budget) (Analysis, error) {
	if p.CountActions() == 0 {
		return Analysis{}, errNoActions(p)
	}
	if !p.IsLegal(a) {
		return Analysis{}, fmt.Errorf("ai: %s is not a legal action in %s", a.Format(p.Preset()), p)
	}
	return s.analyze(ctx, p, b, []rules.Action{a})
}

// analyze searches p, among the root actions given (nil: all of them),
// and reports what it found.
func (s *Star) analyze(ctx context.Context, p *rules.Position, b Budget, root []rules.Action) (Analysis, error) {
	r, err := s.search(ctx, p, b, root)
	if err != nil {
		return Analysis{}, err
	}
	a := Analysis{Best: r.choices[0].action, Line: r.line, Nodes: r.nodes, Depth: r.depth, Elapsed: r.elapsed}
	for _, seat := range p.Preset().Seats() {
		a.Expected[seat] = r.expected[seat]
	}
	return a, nil
}

// result is what one search found: the root choices (best first), the
// principal line and the expected utility along it.
type result struct {
	choices  []rootChoice
	line     []rules.Action
	expected Utility
	nodes    int64
	depth    int
	elapsed  time.Duration
}

func (s *Star) prepare(pr *rules.Preset) {
	if s.pr == pr {
		return
	}
	s.pr = pr
	s.ev = newEvaluator(pr, s.opts.Weights)
	s.val = newValuer(pr, &s.opts, s.ev)
	s.obj = newObjective(pr, s.opts.Leader)
}

// search runs iterative deepening from p within budget b, with a table
// from the budget's pool (or the player's own), over the root actions
// given (nil: every legal action).
func (s *Star) search(ctx context.Context, p *rules.Position, b Budget, root []rules.Action) (result, error) {
	pool := b.Memory
	b = s.opts.limit(b)
	if b.Time <= 0 && b.Nodes <= 0 {
		return result{}, errNoBudget
	}
	s.prepare(p.Preset())
	if pool == nil {
		if s.own == nil {
			s.own = NewPool(tableBytes(s.opts.tableBits(Budget{})))
		}
		pool = s.own
	}
	ss := starSearches.Get().(*starSearch)
	ss.mode, ss.ev, ss.val, ss.obj, ss.tt, ss.hist = s.mode, s.ev, s.val, s.obj, nil, &ss.own
	if blk := pool.takeTable(s.owner, s.opts.tableBits(b), minTableBits); blk != nil {
		// Given back even if the search panics: the budget must not shrink.
		defer pool.give(blk)
		ss.tt, ss.hist = &blk.tt, blk.history
	} else {
		clear(ss.own[:])
	}
	r := ss.run(ctx, p, b, s.opts.margin(), root)
	ss.ev, ss.val, ss.tt, ss.hist = nil, nil, nil, nil
	starSearches.Put(ss)
	return r, nil
}

// tableBits is the size of the table a decision with budget b asks for:
// 2^TableBits entries, or for a budget in nodes twice as many as it can
// store (and at least 2^minTableBits).
func (o *Options) tableBits(b Budget) uint {
	bits := o.TableBits
	if bits == 0 {
		bits = DefaultOptions.TableBits
	}
	if b.Nodes > 0 {
		bits = min(bits, max(uint(mbits.Len64(uint64(b.Nodes)))+1, minTableBits))
	}
	return bits
}

// run is one search from p, over the root actions given (nil: all).
func (s *starSearch) run(ctx context.Context, p *rules.Position, b Budget, margin float64, root []rules.Action) result {
	if s.tt != nil {
		s.tt.newSearch()
	}
	s.stop = newStopper(ctx, b)
	s.root = p.Decider()
	// The clock joins the table's key where a search could run it out.
	s.clockNear = p.Preset().ClockLimit - 48
	for i := range s.hist {
		for j := range s.hist[i] {
			s.hist[i][j] /= 8
		}
	}
	s.killers = [maxPly][2]rules.Action{}
	q := *p
	s.sp = 0

	acts := root
	if acts == nil {
		acts = append([]rules.Action(nil), q.Actions(s.bufs[0][:])...)
	}
	var done result
	order := make([]rootChoice, len(acts))
	for i, a := range acts {
		order[i] = rootChoice{action: a, value: math.Inf(-1)}
	}
	s.orderRoot(&q, order)
	for depth := 1; depth < maxPly; depth++ {
		s.horizon = false
		cur, curU, line, complete := s.rootSearch(&q, order, depth, margin)
		if complete == len(order) {
			done = result{choices: cur, expected: curU, line: line, depth: depth}
			order = append(order[:0], cur...)
			// Without a leaf cut short by the depth, the search saw every
			// line to the end of the game: deeper ones would repeat it.
			if !s.horizon || !s.stop.anotherIteration() {
				break
			}
			continue
		}
		// Interrupted: the moves that finished at this depth were searched
		// after the previous best, so the best of them is at least as well
		// founded as the previous iteration's choice.
		if complete > 0 && (done.choices == nil || cur[0].action != done.choices[0].action) {
			done = result{choices: cur, expected: curU, line: line, depth: depth}
		}
		break
	}
	if done.choices == nil {
		// Not even one move at depth 1: fall back on the static order.
		done.choices = []rootChoice{{action: order[0].action, exact: true}}
		done.expected = s.val.utility(&q)
	}
	done.nodes = s.stop.nodes
	done.elapsed = s.stop.elapsed()
	if len(done.line) == 0 || done.line[0] != done.choices[0].action {
		done.line = []rules.Action{done.choices[0].action}
	}
	return done
}

// rootSearch searches every root action to depth, best candidates first,
// and returns them sorted by value with the expected utility of the best;
// complete counts the actions searched before the search had to stop.
func (s *starSearch) rootSearch(p *rules.Position, order []rootChoice, depth int, margin float64) (out []rootChoice, bestU Utility, line []rules.Action, complete int) {
	out = make([]rootChoice, 0, len(order))
	best := math.Inf(-1)
	for _, c := range order {
		alpha := -valueBound
		if !math.IsInf(best, -1) {
			alpha = best - margin
		}
		var u Utility
		s.push(p, c.action)
		v := s.after(p, s.root, depth-1, 1, alpha, valueBound, &u)
		s.pop(p)
		if s.stop.stopped {
			break
		}
		exact := v > alpha || math.IsInf(best, -1)
		out = append(out, rootChoice{action: c.action, value: v, exact: exact})
		if v > best {
			best, bestU = v, u
			line = append(append(line[:0], c.action), s.pv[1][:s.pvLen[1]]...)
		}
	}
	complete = len(out)
	sortChoices(out)
	return out, bestU, line, complete
}

func sortChoices(cs []rootChoice) {
	// Insertion sort: stable, and root lists are short.
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].value > cs[j-1].value; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

func (s *starSearch) push(p *rules.Position, a rules.Action) {
	p.Make(a, &s.undo[s.sp])
	s.sp++
}

func (s *starSearch) pop(p *rules.Position) {
	s.sp--
	p.Unmake(&s.undo[s.sp])
}
