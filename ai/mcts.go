package ai

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/chaturaji/chaturaji/rules"
)

// MCTS is the Monte Carlo tree search player with max^n backups: every node
// keeps a vector of rewards, one per seat, and the seat to act at a node
// picks among its children by UCT on its own component. Rolls are explicit
// chance nodes, visited in proportion to their probabilities. Each
// iteration adds one node and scores it by a short greedy-biased playout
// (captures first, the most valuable first, with some randomness), cut at a
// horizon and finished by the evaluation.
//
// A decision's tree comes from the Pool its budget names (or from the
// player's own, which has no limit) and goes back to it once the choice is
// made; when the pool can lend no more, the tree stops growing and the
// search goes on playing out from its leaves.
type MCTS struct {
	name  string
	opts  Options
	rng   *rand.Rand
	owner uint64 // the player's number in pools (newOwner)
	own   *Pool  // the pool of decisions whose budget names none; nil until the first

	pr  *rules.Preset
	ev  *evaluator
	val valuer // the playouts' evaluation: ev, or the learned one
	obj Objective

	// The tree of the decision under way, in blk, lent by pool.
	pool  *Pool
	blk   *block
	nodes []mnode
	edges []medge
	stop  stopper
	path  []int32
	depth int
	buf   [rules.MaxActions]rules.Action
}

// mnode is a node of the tree: a decision (the seat to act has rolled), a
// chance node (the roll is awaited) or a finished game.
type mnode struct {
	kind   uint8
	seat   rules.Seat
	visits int32
	first  int32 // first edge; -1 until the node is expanded
	n      int32 // edges
	reward [rules.NumSeats]float32
	score  [rules.NumSeats]float32 // sums of the estimated final scores
}

const (
	decisionNode = iota
	chanceNode
	finalNode
)

// medge leads from a node to a child: an action, or a roll by its index in
// the position's Chances.
type medge struct {
	action rules.Action
	child  int32 // 0: not yet created (the root is node 0 and nobody's child)
	prior  float32
}

func newMCTS(name string, o Options, seed uint64) *MCTS {
	return &MCTS{name: name, opts: o, rng: rand.New(rand.NewPCG(seed, 0x3c75)), owner: newOwner()}
}

// Name returns the player's name.
func (m *MCTS) Name() string { return m.name }

// Choose returns the most visited root action, or one near it as the
// options' variety and noise allow.
func (m *MCTS) Choose(ctx context.Context, p *rules.Position, b Budget) (rules.Action, error) {
	acts := p.Actions(m.buf[:])
	if len(acts) == 0 {
		return 0, errNoActions(p)
	}
	if len(acts) == 1 {
		return acts[0], nil
	}
	all := append([]rules.Action(nil), acts...)
	grown, err := m.search(ctx, p, b)
	defer m.release()
	if err != nil {
		return 0, err
	}
	if !grown {
		return m.bestPrior(p, all), nil
	}
	choices := m.rootChoices()
	if m.opts.Variety == 0 && m.opts.Temperature == 0 && m.opts.Blunder == 0 {
		return choices[0].action, nil
	}
	return m.opts.pick(m.rng, choices, all), nil
}

// Analyze searches p and reports the most visited line.
func (m *MCTS) Analyze(ctx context.Context, p *rules.Position, b Budget) (Analysis, error) {
	if p.CountActions() == 0 {
		return Analysis{}, errNoActions(p)
	}
	grown, err := m.search(ctx, p, b)
	defer m.release()
	if err != nil {
		return Analysis{}, err
	}
	a := Analysis{Nodes: m.stop.nodes, Depth: m.depth, Elapsed: m.stop.elapsed()}
	if !grown {
		var buf [rules.MaxActions]rules.Action
		a.Best = m.bestPrior(p, p.Actions(buf[:]))
		a.Line = []rules.Action{a.Best}
		a.Expected = [rules.NumSeats]float64(m.val.utility(p))
		return a, nil
	}
	for n := int32(0); ; {
		nd := &m.nodes[n]
		if nd.first < 0 || nd.kind == finalNode {
			break
		}
		best, bestVisits := int32(-1), int32(0)
		for i := nd.first; i < nd.first+nd.n; i++ {
			if c := m.edges[i].child; c != 0 && m.nodes[c].visits > bestVisits {
				best, bestVisits = i, m.nodes[c].visits
			}
		}
		if best < 0 || bestVisits < 2 {
			break
		}
		if nd.kind == decisionNode {
			a.Line = append(a.Line, m.edges[best].action)
		}
		if n == 0 {
			c := &m.nodes[m.edges[best].child]
			for _, s := range p.Preset().Seats() {
				a.Expected[s] = float64(c.score[s] / float32(c.visits))
			}
		}
		n = m.edges[best].child
	}
	if len(a.Line) == 0 {
		a.Line = []rules.Action{m.rootChoices()[0].action}
	}
	a.Best = a.Line[0]
	return a, nil
}

// rootChoices lists the root actions, most visited first, valued by the
// objective of their mean estimated final scores; an action counts as
// exactly valued once it has a tenth of the best one's visits.
func (m *MCTS) rootChoices() []rootChoice {
	root := &m.nodes[0]
	var cs []rootChoice
	most := int32(0)
	for i := root.first; i < root.first+root.n; i++ {
		if c := m.edges[i].child; c != 0 {
			most = max(most, m.nodes[c].visits)
		}
	}
	for i := root.first; i < root.first+root.n; i++ {
		e := &m.edges[i]
		if e.child == 0 {
			continue
		}
		c := &m.nodes[e.child]
		var u Utility
		for s := range u {
			u[s] = float64(c.score[s] / float32(c.visits))
		}
		cs = append(cs, rootChoice{action: e.action, value: m.obj.value(&u, root.seat), exact: c.visits*10 >= most})
	}
	// Most visited first.
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && m.visitsOf(cs[j].action) > m.visitsOf(cs[j-1].action); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
	if len(cs) == 0 {
		cs = []rootChoice{{action: m.edges[root.first].action, exact: true}}
	}
	return cs
}

func (m *MCTS) visitsOf(a rules.Action) int32 {
	root := &m.nodes[0]
	for i := root.first; i < root.first+root.n; i++ {
		if e := &m.edges[i]; e.action == a && e.child != 0 {
			return m.nodes[e.child].visits
		}
	}
	return 0
}

func (m *MCTS) prepare(pr *rules.Preset) {
	if m.pr == pr {
		return
	}
	m.pr = pr
	m.ev = newEvaluator(pr, m.opts.Weights)
	m.val = newValuer(pr, &m.opts, m.ev)
	m.obj = newObjective(pr, m.opts.Leader)
}

// search grows a new tree from p within budget b, in a block of the
// budget's pool; release gives it back. It reports false if the pool could
// not hold even the root and its edges, and then nothing was searched.
func (m *MCTS) search(ctx context.Context, p *rules.Position, b Budget) (bool, error) {
	pool := b.Memory
	b = m.opts.limit(b)
	if b.Time <= 0 && b.Nodes <= 0 {
		return false, errNoBudget
	}
	m.prepare(p.Preset())
	if pool == nil {
		if m.own == nil {
			m.own = NewPool(0)
		}
		pool = m.own
	}
	m.pool, m.blk = pool, pool.takeTree(m.owner)
	m.nodes, m.edges = m.blk.nodes[:0], m.blk.edges[:0]
	m.stop = newStopper(ctx, b)
	m.depth = 0
	if !m.room(1, 0) {
		return false, nil
	}
	m.newNode(p)
	q := *p
	if !m.expand(0, &q) {
		return false, nil
	}
	for !m.stop.stopped {
		m.iterate(p)
		// A playout costs tens of microseconds: look at the clock every
		// few of them rather than every checkEvery.
		if m.stop.nodes&7 == 0 {
			m.stop.poll()
		}
		if m.stop.maxNodes > 0 && m.stop.nodes >= m.stop.maxNodes {
			break
		}
	}
	return true, nil
}

// release gives the decision's tree back to its pool.
func (m *MCTS) release() {
	if m.blk == nil {
		return
	}
	m.blk.nodes, m.blk.edges = m.nodes[:0], m.edges[:0]
	m.pool.give(m.blk)
	m.pool, m.blk, m.nodes, m.edges = nil, nil, nil, nil
}

// room makes room in the tree for n more nodes and e more edges, growing
// its block as the pool allows; false if it cannot.
func (m *MCTS) room(n, e int) bool {
	nodes, edges := len(m.nodes)+n, len(m.edges)+e
	if nodes <= cap(m.nodes) && edges <= cap(m.edges) {
		return true
	}
	nc, ec := cap(m.nodes), cap(m.edges)
	if nodes > nc {
		nc = max(2*nc, nodes, 256)
	}
	if edges > ec {
		ec = max(2*ec, edges, 1024)
	}
	if !m.pool.grow(m.blk, int64(nc)*nodeBytes+int64(ec)*edgeBytes) {
		return false
	}
	if nc > cap(m.nodes) {
		m.nodes = append(make([]mnode, 0, nc), m.nodes...)
	}
	if ec > cap(m.edges) {
		m.edges = append(make([]medge, 0, ec), m.edges...)
	}
	return true
}

// bestPrior is the choice of a search that had no memory for a tree: the
// action of the highest prior, the first of equals.
func (m *MCTS) bestPrior(p *rules.Position, acts []rules.Action) rules.Action {
	best, bestPrior := acts[0], m.prior(p, acts[0])
	for _, a := range acts[1:] {
		if v := m.prior(p, a); v > bestPrior {
			best, bestPrior = a, v
		}
	}
	return best
}

// newNode appends the node for position p and returns its index; the
// caller has made room.
func (m *MCTS) newNode(p *rules.Position) int32 {
	nd := mnode{seat: p.Decider(), first: -1}
	switch {
	case p.Finished():
		nd.kind = finalNode
	case p.AwaitingRoll():
		nd.kind = chanceNode
	}
	m.nodes = append(m.nodes, nd)
	return int32(len(m.nodes) - 1)
}

// expand creates the edges of node n at position p; false if the tree has
// no room for them, and then n stays a leaf.
func (m *MCTS) expand(n int32, p *rules.Position) bool {
	nd := &m.nodes[n]
	if nd.kind == chanceNode {
		cs := p.Chances()
		if !m.room(0, len(cs)) {
			return false
		}
		nd = &m.nodes[n]
		nd.first = int32(len(m.edges))
		for i := range cs {
			m.edges = append(m.edges, medge{action: rules.Action(i), prior: float32(cs[i].P)})
		}
		nd.n = int32(len(cs))
		return true
	}
	acts := p.Actions(m.buf[:])
	if !m.room(0, len(acts)) {
		return false
	}
	nd = &m.nodes[n]
	nd.first = int32(len(m.edges))
	for _, a := range acts {
		m.edges = append(m.edges, medge{action: a, prior: m.prior(p, a)})
	}
	es := m.edges[nd.first:]
	// Highest prior first: unvisited edges are tried in this order.
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].prior > es[j-1].prior; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
	nd.n = int32(len(acts))
	return true
}

// prior is the heuristic value of action a in p, in points: what it
// captures (a king most) and whether it promotes.
func (m *MCTS) prior(p *rules.Position, a rules.Action) float32 {
	if a.Type() != rules.Move {
		return -1
	}
	v := float32(0)
	if victim := p.At(a.To()); victim != rules.NoPiece {
		v = float32(m.ev.value[victim.Kind()])
		if victim.Kind() == rules.King {
			v += 10
		}
	}
	mover := p.At(a.From())
	if mover.Kind() == rules.Pawn && m.ev.lastLine[mover.Seat()]&(1<<uint(a.To())) != 0 {
		v += 1
	}
	return v
}

// iterate runs one iteration: selection down the tree, expansion of one
// node, a playout, and the backup of its rewards.
func (m *MCTS) iterate(root *rules.Position) {
	q := *root
	m.path = append(m.path[:0], 0)
	n := int32(0)
	var u rules.Undo
	for {
		nd := &m.nodes[n]
		if nd.kind == finalNode {
			break
		}
		if nd.first < 0 {
			if !m.expand(n, &q) {
				break // the tree is full: a leaf
			}
			nd = &m.nodes[n]
		}
		e := m.selectEdge(n)
		edge := &m.edges[e]
		if nd.kind == chanceNode {
			q.SetRoll(q.Chances()[edge.action].Roll)
		} else {
			q.Make(edge.action, &u)
		}
		if edge.child == 0 {
			if !m.room(1, 0) {
				break // the tree is full: play out from the new position
			}
			c := m.newNode(&q)
			m.edges[e].child = c
			m.path = append(m.path, c)
			break
		}
		n = edge.child
		m.path = append(m.path, n)
	}
	decisions := 0
	for _, i := range m.path {
		if m.nodes[i].kind == decisionNode {
			decisions++
		}
	}
	m.depth = max(m.depth, decisions)
	est := m.playout(&q)
	temp := m.opts.RewardTemp
	if q.Finished() {
		temp = 0
	}
	r := m.obj.reward(&est, temp, m.opts.RewardMargin, m.ev.scale())
	for _, i := range m.path {
		nd := &m.nodes[i]
		nd.visits++
		for s := range nd.reward {
			nd.reward[s] += float32(r[s])
			nd.score[s] += float32(est[s])
		}
	}
	m.stop.nodes++
}

// selectEdge picks the edge to follow from node n: for a chance node, the
// roll furthest behind its share of the visits; for a decision, an
// untried action in prior order, else UCT with progressive bias on the
// deciding seat's own reward.
func (m *MCTS) selectEdge(n int32) int32 {
	nd := &m.nodes[n]
	es := m.edges[nd.first : nd.first+nd.n]
	if nd.kind == chanceNode {
		best, bestKey := 0, math.Inf(1)
		for i := range es {
			v := 0.0
			if c := es[i].child; c != 0 {
				v = float64(m.nodes[c].visits)
			}
			if k := (v + 1) / float64(es[i].prior); k < bestKey {
				best, bestKey = i, k
			}
		}
		return nd.first + int32(best)
	}
	for i := range es {
		if es[i].child == 0 {
			return nd.first + int32(i)
		}
	}
	seat := nd.seat
	logN := math.Log(float64(nd.visits))
	c := m.opts.Exploration
	best, bestKey := 0, math.Inf(-1)
	for i := range es {
		ch := &m.nodes[es[i].child]
		v := float64(ch.visits)
		k := float64(ch.reward[seat])/v + c*math.Sqrt(logN/v) + 0.05*float64(es[i].prior)/(v+1)
		if k > bestKey {
			best, bestKey = i, k
		}
	}
	return nd.first + int32(best)
}
