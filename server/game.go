package server

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// storeTimeout bounds one write of a game to the store.
const storeTimeout = 10 * time.Second

// errGone is returned by call and post once a game's loop has stopped: the
// game is over or the server is shutting down.
var errGone = errors.New("server: the game's loop has stopped")

// live is one live game. Its loop, one goroutine, owns the rules.Game and
// every field below the line: every action, roll, timer and bot move goes
// through it, so the game needs no lock. Other goroutines reach it with call
// and post, and read its latest State through state.
type live struct {
	srv    *Server
	id     string
	pr     *rules.Preset
	hashes atomic.Pointer[[][]byte] // the seats' token hashes, set anew when a seat is claimed (tokenHashes)
	holder atomic.Pointer[[]string] // the accounts that hold the seats, set with hashes (holders)
	hosts  []int                    // the seats whose tokens the creator took; never change

	cmds  chan func()
	quit  chan struct{} // closed by Shutdown
	done  chan struct{} // closed when the loop has stopped
	state atomic.Pointer[State]

	// owned: this server drives the game; else its loop only follows it
	// for the server's clients (cluster.go). Set by the loop, read by
	// anyone.
	owned atomic.Bool
	// fenced: a lease renewal found the game another node's, and lose has
	// not yet read it again from the store: what the loop holds may be
	// behind it, so reads go to the store (handleGame). Set by the
	// renewal before it counts as gone through, so that a node waking from
	// a pause never answers from its old copy in between.
	fenced atomic.Bool
	follows

	// For the quotas of games (admit).
	creator   string      // creatorKey of the client that created the game; "" if unknown
	botsAlone atomic.Bool // bots hold every seat (see botsAlone), as of the last snapshot
	// becomingAlone: bots are being given the last human seats, admitted
	// by admitAlone; the game counts as one of bots alone meanwhile.
	becomingAlone atomic.Bool

	// Owned by the loop.
	info       *store.Game // the table; its seats change when a bot takes one
	table      Table
	game       *rules.Game
	seq        int64     // the last event's number
	last       *Event    // the last event, nil before the first
	updated    time.Time // when the last event happened
	deadline   time.Time // when the decider runs out of time; zero if untimed
	turnStart  time.Time // when the current decision opened (or the loop started)
	active     time.Time // when a human seat's holder was last connected or acted (or the loop started)
	retryAt    time.Time // when to try again after the store failed; zero if not waiting (recover.go)
	failures   int       // the store's failures in a row
	stale      bool      // a reload failed: what the loop holds may be ahead of the store
	unheld     time.Time // since when the game could not be played (a restart, the store failing); zero if it can (downtime.go)
	credited   time.Time // until when downtime was given back to the open decision (downtime.go)
	subs       map[*subscriber]struct{}
	online     []int       // live WebSocket connections of each seat's holder
	idleSince  []time.Time // when each seat's holders last came or went: the connection that brought them back, or the last one that closed
	timer      *time.Timer
	bots       []*bot             // each seat's bot, made when first needed
	thinking   int64              // the event number a bot is thinking at; -1 if none
	stopBot    context.CancelFunc // cancels the bot thinking
	botTimer   *time.Timer        // plays a bot's chosen action when the table's bot delay is over
	over       bool               // the end event is saved and the game marked finished
	takeovers  []takeover         // the seats bots took, for the record
	moved      []bool             // each seat has played an action of its holder's (abort)
	helpKey    string             // where the game stands in the server's index of positions without help; "" if nowhere
	banks      []int64            // at a bank table, each seat's bank in ms as of the open decision; nil without (clock_bank.go)
	times      []int64            // at a timed table, the time each action's decision used, in ms, in order; -1 where none was counted
	waitUntil  time.Time          // when the start wait ends; zero if the game has none (clock_wait.go)
	chatLimits []*rate.Limiter    // each seat's rate of chat messages, made when first needed (chat.go)
}

// newLive makes the live game of a replayed one; run starts its loop.
func newLive(s *Server, r *replayed) *live {
	n := len(r.info.Seats)
	l := &live{
		srv:       s,
		id:        r.info.ID,
		pr:        r.game.Preset(),
		hosts:     r.hosts,
		creator:   r.creator,
		cmds:      make(chan func(), 64),
		quit:      make(chan struct{}),
		done:      make(chan struct{}),
		info:      r.info,
		table:     r.table,
		game:      r.game,
		seq:       r.seq,
		last:      r.last,
		updated:   r.info.Updated,
		subs:      make(map[*subscriber]struct{}),
		online:    make([]int, n),
		idleSince: make([]time.Time, n),
		bots:      make([]*bot, n),
		thinking:  -1,
		takeovers: r.takeovers,
		moved:     r.moved,
	}
	l.banks, l.times, l.waitUntil = r.bankList(), r.times, r.waitUntil
	if l.moved == nil {
		l.moved = make([]bool, n)
	}
	if r.last != nil {
		l.updated = r.last.At
	}
	l.rp = r
	l.owned.Store(s.node == nil) // a node's games are driven once it holds them
	l.snapshot()
	return l
}

// tokenHashes returns the seats' token hashes as they are now, for
// readers outside the loop; nil for a bot and for a seat nobody claimed.
func (l *live) tokenHashes() [][]byte {
	return *l.hashes.Load()
}

// holders returns the accounts that hold the seats as they are now, for
// readers outside the loop; "" for a seat no account holds.
func (l *live) holders() []string {
	return *l.holder.Load()
}

// run is the game's loop.
func (l *live) run() {
	defer l.exit()
	if l.owned.Load() {
		l.resume()
	}
	for !l.over && !l.leaving {
		select {
		case f := <-l.cmds:
			f()
		case <-l.quit:
			return
		}
	}
}

// exit stops what the loop started and closes its subscribers: the game is
// over, or the server is shutting down.
func (l *live) exit() {
	why := reasonShutdown
	if l.over {
		why = reasonOver
	}
	for s := range l.subs {
		l.drop(s, why)
	}
	if l.timer != nil {
		l.timer.Stop()
	}
	l.cancelBot()
	l.indexHelp(true)
	if l.srv.node != nil && l.owned.Load() {
		l.srv.node.cl.Drop(l.id)
	}
	l.srv.remove(l)
	close(l.done)
}

// post hands f to the loop without waiting for it to run.
func (l *live) post(ctx context.Context, f func()) error {
	select {
	case l.cmds <- f:
		return nil
	case <-l.done:
		return errGone
	case <-ctx.Done():
		return Errorf(EUNAVAILABLE, "the game is busy; try again")
	}
}

// call runs f on the loop and waits until it has run.
func (l *live) call(ctx context.Context, f func()) error {
	ran := make(chan struct{})
	if err := l.post(ctx, func() { f(); close(ran) }); err != nil {
		return err
	}
	select {
	case <-ran:
		return nil
	case <-l.done:
		select {
		case <-ran:
			return nil
		default:
			return errGone
		}
	}
}

// resume brings the game up to date when its loop starts, or when it tries
// again after the store failed: the start event of a new game, the time
// owed to the decider's clock (downtime.go), any roll or forced pass due,
// and the end; then the clocks and the bots.
func (l *live) resume() {
	now := stamp()
	l.turnStart, l.active = now, now
	l.retryAt = time.Time{}
	if l.ended() { // saved, but not yet marked finished
		l.finish()
		return
	}
	var evs []*Event
	if l.seq == 0 {
		evs = append(evs, l.startEvent(now))
	}
	if e := l.credit(now); e != nil {
		evs = append(evs, e)
	}
	evs = l.advance(evs, now)
	if len(evs) == 0 {
		if e := l.clockStart(now); e != nil {
			evs = append(evs, e) // the start wait ended while no server held the game
		}
	}
	if len(evs) == 0 {
		l.settle(now)
		return
	}
	l.commit(evs) // on failure it reloads and tries again later
}

// startEvent is the first event of a game: its table.
func (l *live) startEvent(now time.Time) *Event {
	t := l.table
	e := &Event{
		Kind:     KindStart,
		At:       now,
		Rules:    l.info.Rules,
		SeedHash: l.info.SeedHash,
		Seats:    seatInfos(l.pr, l.info.Seats, nil),
		Table:    &t,
	}
	l.beginWait(e, now)
	l.describe(e, now)
	return e
}

// advance plays what needs no decision: the rolls, forced passes (if the
// table wants them played at once), the `resign` of a seat that resigned
// off its turn (dead.go), and the end of the game; it appends
// their events to evs.
func (l *live) advance(evs []*Event, now time.Time) []*Event {
	var buf [rules.MaxActions]rules.Action
	for !l.game.Finished() {
		p := l.game.Position()
		if p.AwaitingRoll() {
			roll, err := l.game.Roll()
			if err != nil {
				l.srv.log.Error("roll", "game", l.id, "err", err)
				break
			}
			e := &Event{Kind: KindRoll, At: now, Seat: p.Seat().String(), Roll: roll.String()}
			if p.AwaitingRollOff() {
				e.Seat = "" // nobody's roll: it draws the team that starts
			}
			l.describe(e, now)
			evs = append(evs, e)
			continue
		}
		if l.resignDue(p) { // dead.go
			e := l.playResign(p, now)
			if e == nil {
				break
			}
			evs = append(evs, e)
			continue
		}
		acts := p.Actions(buf[:])
		if l.table.AutoPass && len(acts) == 1 && acts[0] == rules.PassAction {
			if l.botPaced(p.Decider()) {
				break // a bot's forced pass waits the bot delay, as its moves do (think)
			}
			fx := p.Effect(rules.PassAction) // a pass may revive an army, or end the game
			if err := l.game.Play(rules.PassAction); err != nil {
				l.srv.log.Error("forced pass", "game", l.id, "err", err)
				break
			}
			e := &Event{Kind: KindAction, At: now, Seat: p.Decider().String(), Action: "pass", By: ByAuto, Reason: ReasonNoMove}
			if l.table.timed() {
				e.UsedMS = new(int64) // played at once: no time
			}
			e.effect(l.pr, fx)
			l.describe(e, now)
			evs = append(evs, e)
			continue
		}
		break
	}
	if l.game.Finished() && (l.last == nil || l.last.Kind != KindEnd) && (len(evs) == 0 || evs[len(evs)-1].Kind != KindEnd) {
		e := &Event{Kind: KindEnd, At: now}
		l.describe(e, now)
		finish(e, l.game)
		if n := len(evs); n > 0 && evs[n-1].Kind == KindAction {
			e.Gains = endGains(evs[n-1])
		}
		evs = append(evs, e)
	}
	// Only the last event leaves a decision open: before it, the server
	// went on by itself.
	for _, e := range evs[:max(len(evs)-1, 0)] {
		e.Actions, e.Deadline = nil, nil
	}
	return evs
}

// describe fills in the game after an event, with the deadline of the
// decision it opens and, at a bank table, the seats' banks.
func (l *live) describe(e *Event, now time.Time) {
	l.describeAt(e, l.deadlineAt(now))
}

// deadlineAt returns when the decision open now must be taken: set only in
// timed tables, for a human decider, after the roll, once the start wait
// is over (clock_wait.go); the decision may take the table's turn time,
// or the decider's bank and the delay (clock_bank.go).
func (l *live) deadlineAt(now time.Time) time.Time {
	if !l.table.timed() || l.game.Finished() {
		return time.Time{}
	}
	p := l.game.Position()
	if p.AwaitingRoll() || p.AwaitingRollOff() {
		return time.Time{}
	}
	i := seatIndex(l.pr, p.Decider())
	if l.info.Seats[i].Player != Human || l.waiting(now) {
		return time.Time{}
	}
	return now.Add(l.allowed(i))
}

// act plays an action sent by the holder of seat i, after every check: it
// is the seat's turn, the client has seen the last event (if it says which
// it saw), there is time left, and the action is legal. A refused action
// changes nothing.
func (l *live) act(i int, text string, seq int64) error {
	if !l.owned.Load() {
		return errNotOwner
	}
	if l.srv.lapsed() {
		return unavailable(time.Second, "this node's hold on the game lapsed and is being renewed; try again")
	}
	if l.over || l.ended() {
		return Errorf(ECONFLICT, "the game is over")
	}
	if l.stale {
		return unavailable(l.retryAt.Sub(time.Now()), "the database does not answer; the game goes on by itself when it does: try again")
	}
	seat := l.pr.Seats()[i]
	if pl := l.info.Seats[i].Player; pl != Human {
		return Errorf(ECONFLICT, "seat %s is played by %s now", seat, pl)
	}
	p := l.game.Position()
	if p.AwaitingRoll() {
		return Errorf(EUNAVAILABLE, "the dice are not rolled yet; try again")
	}
	if seq > l.seq {
		// A node's copy may be behind the store (it was paused past its
		// lease): that is not the client's fault.
		if l.srv.node != nil {
			if behind, err := l.behind(); err != nil || behind {
				return unavailable(time.Second, "this node's copy of the game is behind the event the action was sent after; try again")
			}
		}
		return Errorf(EINVALID, "seq %d is past the game's last event, %d", seq, l.seq)
	}
	if seq != 0 && seq != l.seq {
		return Errorf(ECONFLICT, "the game has moved on: its last event is %d, the action was sent after event %d", l.seq, seq)
	}
	if d := p.Decider(); d != seat {
		return Errorf(ECONFLICT, "not your turn: %s is to act", d)
	}
	// While the game waits to try again after the store failed, its
	// deadline is not the player's: the time is given back when the
	// store answers (downtime.go), and this action may be what saves.
	if !l.deadline.IsZero() && !time.Now().Before(l.deadline) && l.retryAt.IsZero() {
		return Errorf(ECONFLICT, "out of time: the deadline was %s", l.deadline.UTC().Format(time.RFC3339Nano))
	}
	if len(text) > 64 {
		return Errorf(EINVALID, "malformed action: %d bytes long", len(text))
	}
	a, err := rules.ParseAction(l.pr, text)
	if err != nil {
		return Errorf(EINVALID, "malformed action %q: %v", text, err)
	}
	if a == rules.TimeoutAction {
		return Errorf(EINVALID, "action timeout: only the server plays it, when a player runs out of time; to leave the game, resign")
	}
	if !p.IsLegal(a) {
		return Errorf(EINVALID, "illegal action %s: the legal actions are %s", text, legalList(p))
	}
	l.active = time.Now()
	return l.play(seat, a, ByPlayer)
}

// play plays a legal action for the seat that decides, with the rolls and
// forced passes that follow it, saves their events and broadcasts them.
func (l *live) play(seat rules.Seat, a rules.Action, by string) error {
	if !l.owned.Load() {
		return errNotOwner // lost to another node: its game is not to be touched
	}
	now := stamp()
	e, err := l.actionEvent(seat, a, by, now)
	if err != nil {
		return err
	}
	err = l.commit(l.advance([]*Event{e}, now))
	if err == nil {
		l.srv.metrics.actions.Inc()
		if by == ByPlayer {
			l.moved[seatIndex(l.pr, seat)] = true
		}
	}
	return err
}

// actionEvent plays a legal action for the seat that decides, made by
// by (ByPlayer, ByBot, ByAuto, ByTimeout) at now, and returns its event:
// what it did and the game after it. Nothing is saved.
func (l *live) actionEvent(seat rules.Seat, a rules.Action, by string, now time.Time) (*Event, error) {
	before := l.game.Position()
	if err := l.game.Play(a); err != nil {
		return nil, Errorf(EINVALID, "%v", err)
	}
	fx := before.Effect(a) // legal, Play says
	e := &Event{Kind: KindAction, At: now, Seat: seat.String(), Action: a.Format(l.pr), By: by}
	l.charge(e, seatIndex(l.pr, seat), now)
	switch by {
	case ByTimeout:
		e.Reason = ReasonTimeout
	case ByAuto:
		e.Reason = ReasonNoMove
	}
	e.effect(l.pr, fx)
	l.describe(e, now)
	return e, nil
}

// commit numbers events, saves them in one transaction and only then
// broadcasts them, after the game's state has taken them in (so a client
// that hears of an event and then asks for the state finds it there). If
// the store fails, the game is reloaded from the store (storeFailed): if
// the store holds the events after all (the database committed, then the
// connection broke), they were published by the reload and commit
// succeeds; else the game holds what the store holds and tries again
// later by itself, and the caller is told the outcome is not known.
func (l *live) commit(evs []*Event) error {
	recs := make([]store.Event, len(evs))
	for i, e := range evs {
		e.Seq = l.seq + int64(i) + 1
		data, err := json.Marshal(e)
		if err != nil {
			if _, ok := l.reload(); ok {
				l.later()
			}
			return err
		}
		recs[i] = store.Event{Seq: e.Seq, Kind: e.Kind, Data: data, At: e.At}
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	t0 := time.Now()
	err := l.srv.store.AppendEvents(ctx, l.id, l.seq, recs)
	l.srv.metrics.committed(opAppend, t0)
	if err != nil {
		fresh := l.storeFailed(opAppend, "saving events", err, t0)
		if !l.owned.Load() {
			return errNotOwner // fenced: nothing was saved
		}
		if !holds(fresh, recs) {
			return unavailable(l.retryAt.Sub(time.Now()), "the database did not confirm the write, so the action may or may not have been applied: the game's events show whether it was, and sending it again with the same seq cannot apply it twice")
		}
		// Saved after all: the reload took the events in and published
		// them.
		l.stored()
	} else {
		l.stored()
		last := evs[len(evs)-1]
		l.seq, l.last, l.updated = last.Seq, last, last.At
		for _, e := range evs {
			if e.Kind == KindAction {
				l.times = append(l.times, usedOf(e))
			}
		}
	}
	l.srv.metrics.events.Add(float64(len(evs)))
	if l.last.Kind == KindEnd {
		l.finish()
	} else {
		l.settle(time.Now())
	}
	if err == nil {
		for _, r := range recs {
			l.publish(r.Data)
		}
	}
	return nil
}

// finish marks the saved game finished in the store and keeps its record
// there (records.go); the loop then stops. If the store fails, the loop
// tries again later.
func (l *live) finish() {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	t0 := time.Now()
	err := l.srv.store.Finish(ctx, l.id, l.last.Result)
	l.srv.metrics.committed(opFinish, t0)
	if err != nil {
		l.storeFailed(opFinish, "finishing game", err, t0)
		return
	}
	l.stored()
	l.over = true
	l.srv.log.Info("game over", "game", l.id, "result", l.last.Result, "end", l.last.End, "events", l.seq)
	l.snapshot()
	l.keepRecord(ctx)
	if l.table.Rated {
		l.srv.rateLater(l.id) // the rater reads it back, off the loop
	}
}

// settle opens the decision the last event left: its deadline, its timers,
// and a bot if one decides.
func (l *live) settle(now time.Time) {
	l.deadline = time.Time{}
	if l.last != nil && l.last.Deadline != nil {
		l.deadline = *l.last.Deadline
	}
	l.turnStart = now
	l.snapshot()
	l.think()
	l.setTimer(now)
}

// snapshot publishes the game's state for readers outside the loop.
func (l *live) snapshot() {
	hashes, holders := tokenHashes(l.info.Seats), seatHolders(l.info.Seats)
	l.hashes.Store(&hashes)
	l.holder.Store(&holders)
	online := make([]bool, len(l.online))
	for i := range l.online {
		online[i] = l.present(i) > 0
	}
	st := newState(l.pr, l.info, l.table, l.seq, l.last, online, l.updated)
	if l.waiting(time.Now()) {
		w := l.waitUntil
		st.WaitUntil = &w
		for _, i := range l.expected() {
			st.Expected = append(st.Expected, l.pr.Seats()[i].String())
		}
	}
	l.state.Store(st)
	l.botsAlone.Store(botsAlone(l.info.Seats))
	l.indexHelp(false)
}

// record returns the game's record; the seed is left out while the game
// goes on, and once it is over the server signs it.
func (l *live) record() *record.Record {
	return gameRecord(l.game, l.srv.withCurrentNames(l.info), l.table, l.times, l.takeovers, termination(l.last), l.over, l.srv.cfg.SigningKey)
}

// decider returns the seat that decides now and its index, or -1 if no one
// does (the game is over or awaits its roll).
func (l *live) decider() (rules.Seat, int) {
	if l.game.Finished() || l.ended() {
		return rules.NoSeat, -1
	}
	p := l.game.Position()
	if p.AwaitingRoll() {
		return rules.NoSeat, -1
	}
	return p.Decider(), seatIndex(l.pr, p.Decider())
}

// legalList lists a position's legal actions for an error message.
func legalList(p *rules.Position) string {
	var buf [rules.MaxActions]rules.Action
	acts := p.Actions(buf[:])
	s := ""
	for i, a := range acts {
		if i == 20 {
			return s + ", ..."
		}
		if i > 0 {
			s += ", "
		}
		s += a.Format(p.Preset())
	}
	if s == "" {
		return "none"
	}
	return s
}
