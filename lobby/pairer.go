package lobby

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// Pairer keeps seeks in a store and pairs them, as one node of the
// server. Several Pairers, on one node or on many sharing a database, may
// run rounds of one pool at once: the store's claims put each seek in at
// most one table. Its methods are safe for concurrent use.
type Pairer struct {
	st   store.Lobby
	node string
	p    Params
}

// NewPairer returns a Pairer of node keeping its seeks in st, with the
// parameters p.
func NewPairer(st store.Lobby, node string, p Params) (*Pairer, error) {
	if st == nil {
		return nil, errors.New("lobby: no store given")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Pairer{st: st, node: node, p: p}, nil
}

// Add checks a seek and stores it as open, replacing any open seek of its
// seekers (a pair's whole). An empty ID is chosen at random, a zero Since
// is now, a zero BotWait DefaultBotWait; s is updated with them. The seek
// is the node's to refresh. Errors: ErrInvalid naming what is wrong, or
// the store's: store.ErrConflict if a seeker is seated at a table still
// (claimed, not yet forgotten) or the ID is taken.
func (pr *Pairer) Add(ctx context.Context, s *Seek, now time.Time) error {
	sh, err := s.Pool.Shape()
	if err != nil {
		return err
	}
	if err := s.check(sh); err != nil {
		return err
	}
	n := *s
	if n.ID == "" {
		n.ID = newID()
	}
	if n.Since.IsZero() {
		n.Since = now
	}
	if n.BotWait == 0 {
		n.BotWait = DefaultBotWait
	}
	n.BotWait = n.BotWait.Truncate(time.Millisecond)
	ss := n.toStore(pr.node)
	if err := pr.st.AddSeek(ctx, ss); err != nil {
		return err
	}
	n.Since = ss.Created
	*s = n
	return nil
}

// Withdraw removes the open seek that holds player (a pair's whole).
// store.ErrNotFound if there is none; store.ErrConflict if the seek is
// seated at a table already.
func (pr *Pairer) Withdraw(ctx context.Context, player string) error {
	return pr.st.Withdraw(ctx, player)
}

// Seeks returns the open seeks of pool, oldest first, at most MaxSeeks.
func (pr *Pairer) Seeks(ctx context.Context, pool Pool) ([]Seek, error) {
	ss, err := pr.st.Seeks(ctx, pool.String(), pr.p.MaxSeeks)
	if err != nil {
		return nil, err
	}
	seeks := make([]Seek, len(ss))
	for i, s := range ss {
		seeks[i] = fromStore(pool, s)
	}
	return seeks, nil
}

// Round runs one pairing round of pool at time now: it reads the pool's
// open seeks, pairs them (Pair), and claims each table formed in the
// store under a new random ID. It returns the tables it claimed, which
// are the caller's to make games of and then to forget (Forget); a table
// whose claim another round won first (store.ErrConflict: one of its
// seeks was seated, withdrawn or replaced meanwhile) is left out, its
// other seeks paired again next round. On another error Round stops and
// returns it with the tables claimed before it, which are the caller's
// all the same.
func (pr *Pairer) Round(ctx context.Context, pool Pool, now time.Time) ([]Table, error) {
	sh, err := pool.Shape()
	if err != nil {
		return nil, err
	}
	seeks, err := pr.Seeks(ctx, pool)
	if err != nil {
		return nil, fmt.Errorf("lobby: round of pool %q: %w", pool, err)
	}
	var won []Table
	for _, t := range Pair(sh, seeks, now, pr.p) {
		t.ID = newID()
		err := pr.st.Claim(ctx, t.ID, pool.String(), t.Seeks)
		switch {
		case err == nil:
			won = append(won, t)
		case !errors.Is(err, store.ErrConflict):
			return won, fmt.Errorf("lobby: round of pool %q: %w", pool, err)
		}
	}
	return won, nil
}

// Forget removes the seeks of a table the caller has made a game of and
// whose players it has told: they may seek again.
func (pr *Pairer) Forget(ctx context.Context, table string) error {
	return pr.st.Forget(ctx, table)
}

// Refresh keeps the node's open seeks alive at now: the node calls it
// more often than SeekLife for as long as it serves their seekers.
func (pr *Pairer) Refresh(ctx context.Context, now time.Time) (int, error) {
	return pr.st.Refresh(ctx, pr.node, now)
}

// Expire removes the seeks, of any node, not refreshed for SeekLife
// before now (their node stopped), and the tables claimed that long ago
// and never forgotten.
func (pr *Pairer) Expire(ctx context.Context, now time.Time) (int, error) {
	return pr.st.Expire(ctx, now.Add(-pr.p.SeekLife))
}

// newID returns a new random id of a seek or a table: 128 bits in base
// 32 (crypto/rand.Text).
func newID() string {
	return rand.Text()
}

// Claim is a table claimed by a round, of any node, as the node whose
// seekers sit at it sees it: that node tells them of their game, and may
// make the game itself if the node that claimed the table has not made
// it within a bound (Layout).
type Claim struct {
	Table string    // the table's id
	At    time.Time // when it was claimed
	Seeks []Seek    // the node's seeks at the table
}

// Claimed returns the tables that hold seeks of the node, by table id:
// the tables its seekers were seated at, by its rounds or another node's.
func (pr *Pairer) Claimed(ctx context.Context) ([]Claim, error) {
	ss, err := pr.st.Claimed(ctx, pr.node)
	if err != nil {
		return nil, err
	}
	var out []Claim
	for _, s := range ss {
		pool, err := ParsePool(s.Pool)
		if err != nil {
			return nil, fmt.Errorf("lobby: seek %q: %w", s.ID, err)
		}
		if n := len(out); n == 0 || out[n-1].Table != s.Table {
			out = append(out, Claim{Table: s.Table, At: s.Updated})
		}
		c := &out[len(out)-1]
		c.Seeks = append(c.Seeks, fromStore(pool, s))
	}
	return out, nil
}

// Seated forgets one seek of a table once its node has told its seekers
// of their game: they may seek again.
func (pr *Pairer) Seated(ctx context.Context, seek string) error {
	return pr.st.ForgetSeek(ctx, seek)
}

// Layout returns the seats of a claimed table as Pair would have formed
// them from its seeks alone, whatever their wait: for a node that makes
// the game of a table whose claimer did not (it stopped, or stalls), the
// seats of the table's seekers, in the order of its rules' seats, with
// bots in the seats left. ErrInvalid for a table of no seeks, or of seeks
// that make no table. It is for a table whose game is not made yet: once
// some of its seeks are forgotten (their game made), what is left may lay
// out as another table, which the game's id, taken, keeps from being
// made (the table's id is its game's).
func (pr *Pairer) Layout(ctx context.Context, table string) (Table, Pool, error) {
	ss, err := pr.st.Table(ctx, table)
	if err != nil {
		return Table{}, Pool{}, err
	}
	if len(ss) == 0 {
		return Table{}, Pool{}, invalid("table %q holds no seek", table)
	}
	pool, err := ParsePool(ss[0].Pool)
	if err != nil {
		return Table{}, Pool{}, err
	}
	sh, err := pool.Shape()
	if err != nil {
		return Table{}, Pool{}, err
	}
	seeks := make([]Seek, len(ss))
	for i, s := range ss {
		seeks[i] = fromStore(pool, s)
	}
	// Any rating fits, and every wait has passed: the table's seeks
	// form one table, as they did when it was claimed.
	p := pr.p
	p.Widening = Widening{Start: math.MaxFloat64, Max: math.MaxFloat64}
	far := time.Now().Add(MaxBotWait + 365*24*time.Hour)
	tables := Pair(sh, seeks, far, p)
	if len(tables) != 1 || len(tables[0].Seeks) != len(seeks) {
		return Table{}, Pool{}, invalid("table %q: its %d seeks do not make one table of pool %q", table, len(seeks), pool)
	}
	t := tables[0]
	t.ID = table
	return t, pool, nil
}
