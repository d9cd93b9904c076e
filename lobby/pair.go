package lobby

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"
)

// Widening is the schedule by which the range of ratings a seeker
// accepts at one table widens as the seeker waits: Start at once, Step
// more after each whole Every of waiting, never more than Max. Two seeks
// may sit together when their ratings differ by no more than the range of
// either (the narrower of the two).
type Widening struct {
	Start float64       // the range at once
	Step  float64       // added after each Every of waiting
	Every time.Duration // the step's period
	Max   float64       // the widest range
}

// DefaultWidening is 100 points at once and 50 more every 5 seconds, up
// to 600 (after 50 s): a newcomer's 20 s default bot wait reaches 300.
var DefaultWidening = Widening{Start: 100, Step: 50, Every: 5 * time.Second, Max: 600}

// Range returns the range of ratings a seeker accepts after waiting wait.
func (w Widening) Range(wait time.Duration) float64 {
	r := w.Start
	if wait > 0 && w.Every > 0 {
		r += w.Step * float64(wait/w.Every)
	}
	return min(r, w.Max)
}

// Level is one level of the bots, and the rating it plays at, on the
// seekers' scale.
type Level struct {
	Level  int     // the bot's level, from 1
	Rating float64 // its strength, measured or estimated
}

// Params are the pairing's settings.
type Params struct {
	Widening Widening // how the range of ratings accepted widens with the wait
	// Levels are the bots' levels that may fill seats, with their
	// ratings: a table's bots are of the level rated closest to the
	// mean rating of its people (the lower level of two as close). With
	// none, no bot fills a seat.
	Levels []Level
	// MaxSeeks is how many of a pool's open seeks, the oldest, a round
	// reads and pairs.
	MaxSeeks int
	// SeekLife is how long a seek lives without its node refreshing it,
	// and a table claimed without being forgotten (Pairer.Expire).
	SeekLife time.Duration
}

// The defaults of Params.
const (
	DefaultMaxSeeks = 1000
	DefaultSeekLife = time.Minute
)

// DefaultParams returns the default parameters with the bots' levels
// given.
func DefaultParams(levels []Level) Params {
	return Params{Widening: DefaultWidening, Levels: levels, MaxSeeks: DefaultMaxSeeks, SeekLife: DefaultSeekLife}
}

// Validate reports the first parameter out of range, naming it.
func (p Params) Validate() error {
	w := p.Widening
	switch {
	case !finite(w.Start) || w.Start < 0:
		return invalid("widening: Start %v, want 0 or more", w.Start)
	case !finite(w.Step) || w.Step < 0:
		return invalid("widening: Step %v, want 0 or more", w.Step)
	case w.Step > 0 && w.Every <= 0:
		return invalid("widening: Every %v, want a positive period for a Step of %v", w.Every, w.Step)
	case !finite(w.Max) || w.Max < w.Start:
		return invalid("widening: Max %v, want at least Start (%v)", w.Max, w.Start)
	case p.MaxSeeks <= 0:
		return invalid("MaxSeeks %d, want 1 or more", p.MaxSeeks)
	case p.SeekLife <= 0:
		return invalid("SeekLife %v, want a positive duration", p.SeekLife)
	}
	for i, l := range p.Levels {
		if l.Level < 1 || !finite(l.Rating) {
			return invalid("bot level %d: level %d rated %v, want a level from 1 and a rating", i+1, l.Level, l.Rating)
		}
	}
	return nil
}

// Table is a table a pairing formed.
type Table struct {
	ID    string   // the table's id, once Pairer.Round claimed it; "" from Pair
	Seeks []string // the ids of the seeks seated, to claim
	Seats []Seat   // one per seat, in seat order
}

// Seat is one seat of a table: a seeker, or a bot.
type Seat struct {
	Seek   string // the seek of the seeker seated; "" for a bot
	Seeker        // the seeker; for a bot, only Rating: its level's
	Bot    int    // the bot's level; 0 for a person
}

// Pair forms the tables of a pool of shape sh from its open seeks at time
// now: a table of people whenever enough seeks are close enough in
// rating, else, for a seek that allows bots and whose bot wait has
// passed, a table of it and the other such seeks close to it, with bots
// in the seats left. The output depends on nothing but the input.
//
// The oldest seek first (by Since, then ID), each seek not yet seated
// gathers the seeks closest to its rating (then the oldest) that fit: a
// seek fits if its rating is within the range of each seek gathered, and
// theirs within its range (Widening, by each one's own wait), and its
// seekers fit in the seats left. A table of people is the first set, in
// that order, that fills every seat (so a pair of partners may be taken
// over a closer seeker alone who would leave one seat no one fits). In a team pool a pair of partners sit
// together, and seekers who come alone are paired into teams, the
// strongest with the weakest. Bots fill the seats of a table only in the
// second pass, after every table of people has formed, and only with seeks
// that allow bots and have waited their BotWait: a seek that waits for
// people never sits with a bot.
//
// A seek that does not fit the shape (two seekers where teams are not
// played, none, more than two), a seek whose ID or a player came in an
// earlier seek, is left out.
func Pair(sh Shape, seeks []Seek, now time.Time, p Params) []Table {
	if sh.Seats < 1 {
		return nil
	}
	sh.Teams = sh.Teams && sh.Seats == 4 // two teams of two
	pp := pairing{sh: sh, now: now, p: p}
	seenID, seenPlayer := map[string]bool{}, map[string]bool{}
	order := make([]*Seek, 0, len(seeks))
	for i := range seeks {
		s := &seeks[i]
		if seenID[s.ID] || len(s.Seekers) == 0 || len(s.Seekers) > 2 || len(s.Seekers) == 2 && !sh.Teams || len(s.Seekers) > sh.Seats {
			continue
		}
		if slices.ContainsFunc(s.Seekers, func(k Seeker) bool { return seenPlayer[k.Player] }) {
			continue
		}
		seenID[s.ID] = true
		for _, k := range s.Seekers {
			seenPlayer[k.Player] = true
		}
		order = append(order, s)
	}
	slices.SortStableFunc(order, func(a, b *Seek) int {
		return cmp.Or(a.Since.Compare(b.Since), cmp.Compare(a.ID, b.ID))
	})
	pp.used = make([]bool, len(order))
	pp.order = order

	var tables []Table
	for i := range order {
		if pp.used[i] {
			continue
		}
		if group := pp.fill(i, pp.candidates(i, func(int) bool { return true })); group != nil {
			tables = append(tables, pp.seat(group, Level{}))
		}
	}
	if len(p.Levels) == 0 {
		return tables
	}
	for i := range order {
		if pp.used[i] || !pp.botReady(i) {
			continue
		}
		group := pp.gather(i, pp.candidates(i, pp.botReady))
		tables = append(tables, pp.seat(group, pp.level(group)))
	}
	return tables
}

// pairing is the state of one Pair.
type pairing struct {
	sh    Shape
	now   time.Time
	p     Params
	order []*Seek // oldest first
	used  []bool  // by index in order: seated at a table already
}

func (pp *pairing) size(group []int) int {
	n := 0
	for _, i := range group {
		n += len(pp.order[i].Seekers)
	}
	return n
}

// botReady reports whether seek i allows bots and has waited for them.
func (pp *pairing) botReady(i int) bool {
	s := pp.order[i]
	wait := s.BotWait
	if wait == 0 {
		wait = DefaultBotWait
	}
	return s.Bots && pp.now.Sub(s.Since) >= wait
}

// span returns the range of ratings seek i accepts now.
func (pp *pairing) span(i int) float64 {
	return pp.p.Widening.Range(pp.now.Sub(pp.order[i].Since))
}

// close reports whether seeks i and j accept each other.
func (pp *pairing) close(i, j int) bool {
	return math.Abs(pp.order[i].Rating()-pp.order[j].Rating()) <= min(pp.span(i), pp.span(j))
}

// candidates returns the seeks not yet seated, among those eligible,
// that accept seek a and that it accepts, closest in rating to it first
// (then the oldest).
func (pp *pairing) candidates(a int, eligible func(int) bool) []int {
	var cands []int
	for j := range pp.order {
		if j != a && !pp.used[j] && eligible(j) && pp.close(a, j) {
			cands = append(cands, j)
		}
	}
	ra := pp.order[a].Rating()
	slices.SortStableFunc(cands, func(x, y int) int {
		// Indexes follow age: the stable sort keeps the older first.
		return cmp.Compare(math.Abs(pp.order[x].Rating()-ra), math.Abs(pp.order[y].Rating()-ra))
	})
	return cands
}

// maxSearch bounds the sets of seeks fill tries for one seek, so that a
// round stays quick whatever the pool: past it, the seek waits for the
// next round.
const maxSearch = 10000

// fill returns seek a and the first set of candidates, in their order,
// that fill a table exactly, each accepting every other; nil if there is
// none (within maxSearch tries). A pair that fits only without a seeker
// closer in rating is found too.
func (pp *pairing) fill(a int, cands []int) []int {
	tries := 0
	var search func(group []int, size, from int) []int
	search = func(group []int, size, from int) []int {
		if size == pp.sh.Seats {
			return group
		}
		for k := from; k < len(cands) && tries < maxSearch; k++ {
			tries++
			j := cands[k]
			if size+len(pp.order[j].Seekers) > pp.sh.Seats || !allClose(pp, group, j) {
				continue
			}
			if g := search(append(group[:len(group):len(group)], j), size+len(pp.order[j].Seekers), k+1); g != nil {
				return g
			}
		}
		return nil
	}
	return search([]int{a}, len(pp.order[a].Seekers), 0)
}

// gather returns seek a and the candidates that fit with it, taken in
// their order while they fit, up to a table's seats.
func (pp *pairing) gather(a int, cands []int) []int {
	group, size := []int{a}, len(pp.order[a].Seekers)
	for _, j := range cands {
		n := len(pp.order[j].Seekers)
		if size+n > pp.sh.Seats || !allClose(pp, group, j) {
			continue
		}
		group, size = append(group, j), size+n
	}
	return group
}

func allClose(pp *pairing, group []int, j int) bool {
	for _, i := range group {
		if !pp.close(i, j) {
			return false
		}
	}
	return true
}

// level returns the bot level for a table of the group's people: the
// level rated closest to their mean rating, the lower of two as close.
func (pp *pairing) level(group []int) Level {
	var sum float64
	n := 0
	for _, i := range group {
		for _, k := range pp.order[i].Seekers {
			sum += k.Rating
			n++
		}
	}
	mean := sum / float64(n)
	best := pp.p.Levels[0]
	for _, l := range pp.p.Levels[1:] {
		d, bd := math.Abs(l.Rating-mean), math.Abs(best.Rating-mean)
		if d < bd || d == bd && l.Level < best.Level {
			best = l
		}
	}
	return best
}

// seat marks the group's seeks seated and returns their table, with bots
// of level bot in the seats left (none if bot is the zero Level).
func (pp *pairing) seat(group []int, bot Level) Table {
	var t Table
	var pairs [][]Seat // partners who came together
	var singles []Seat // seekers who came alone, then bots
	for _, i := range group {
		pp.used[i] = true
		s := pp.order[i]
		t.Seeks = append(t.Seeks, s.ID)
		var seats []Seat
		for _, k := range s.Seekers {
			seats = append(seats, Seat{Seek: s.ID, Seeker: k})
		}
		if len(seats) == 2 {
			pairs = append(pairs, seats)
		} else {
			singles = append(singles, seats...)
		}
	}
	for range pp.sh.Seats - pp.size(group) {
		singles = append(singles, Seat{Seeker: Seeker{Rating: bot.Rating}, Bot: bot.Level})
	}
	if !pp.sh.Teams {
		t.Seats = singles
		return t
	}
	// Two teams: the first and third seats, the second and fourth.
	// Partners who came together are a team; seekers who came alone make
	// a team of the strongest and the weakest of four, or of the two
	// left beside a pair.
	slices.SortStableFunc(singles, func(a, b Seat) int { return cmp.Compare(b.Rating, a.Rating) })
	teams := pairs
	switch len(singles) {
	case 4:
		teams = [][]Seat{{singles[0], singles[3]}, {singles[1], singles[2]}}
	case 2:
		teams = append(teams, singles)
	case 0:
	default:
		panic(fmt.Sprintf("lobby: a team table of %d pairs and %d seekers alone", len(pairs), len(singles)))
	}
	t.Seats = []Seat{teams[0][0], teams[1][0], teams[0][1], teams[1][1]}
	return t
}
