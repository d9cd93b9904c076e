package server

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// Rematches. Once a game is over its players may play again: one of them
// offers a rematch, every other sees the offer live and accepts or
// declines it, and when all have answered the server creates the new game
// with the same rules and table, each player who accepted in their seat
// (or every player one seat on, if the offer says rotate), the bots in
// theirs, and the seats of those who did not accept played by the table's
// takeover bot. Each one who accepted receives the token of their new seat
// over their own authenticated request (GET or POST .../rematch with
// their old seat's token), never in a message others see. The offerer may
// start the new game earlier with those who accepted so far; an offer
// nobody settles lapses after Config.RematchWait.
//
// The players of a game, for its rematch, are its human seats at the end
// whose holders claimed them: a seat a bot took (its player left,
// resigned, ran out of time) takes no part, nor does a spectator.
//
// A game's loop stops when it ends, so the offers live in a registry of
// their own, in memory (they last no longer than the server: after a
// restart, a player offers again), one board per finished game that
// someone follows or answers: its offer, and the WebSockets that asked to
// stay open after the end (?rematch=1) to hear of it. A board is dropped
// once nobody follows it and its offer, if any, settled RematchWait ago;
// at most Config.MaxRematches are kept at once.

// KindRematch is the kind of the messages that tell a finished game's
// WebSockets of its rematch offer.
const KindRematch = "rematch"

// The answers to a rematch offer, in RematchRequest.Answer.
const (
	AnswerOffer   = "offer"   // a player offers a rematch
	AnswerAccept  = "accept"  // a player takes it
	AnswerDecline = "decline" // a player does not
	AnswerStart   = "start"   // the offerer starts it with those who accepted
)

// The states of a rematch offer, in Rematch.Status.
const (
	RematchOpen     = "open"     // waiting for answers
	RematchCreated  = "created"  // the new game is Rematch.Game
	RematchDeclined = "declined" // every other player declined
	RematchExpired  = "expired"  // not settled within Config.RematchWait
)

// The answers of one seat, in RematchSeat.Answer.
const (
	seatOffered  = "offered"
	seatAccepted = "accepted"
	seatDeclined = "declined"
	seatWaiting  = "waiting"
)

// RematchRequest is the body of POST /api/games/{id}/rematch.
type RematchRequest struct {
	// Answer is AnswerOffer, AnswerAccept, AnswerDecline or AnswerStart.
	Answer string `json:"answer"`
	// Rotate, in an offer, moves every player one seat on in the new game
	// (South's to West, West's to North, ...); false keeps every seat.
	Rotate bool `json:"rotate,omitempty"`
}

// Rematch is a finished game's rematch offer, as its players and
// spectators see it, and as the answer to a player's own request.
type Rematch struct {
	Game    string        `json:"game"`              // the finished game
	Status  string        `json:"status"`            // RematchOpen ... RematchExpired
	By      string        `json:"by"`                // the seat that offered it
	Rotate  bool          `json:"rotate"`            // every player moves one seat on
	Expires *time.Time    `json:"expires,omitempty"` // open: when the offer lapses
	Seats   []RematchSeat `json:"seats"`             // the game's players and their answers, in seat order
	New     string        `json:"new,omitempty"`     // created: the new game's id

	// Only in the answer to a player's own request, with its token:
	You   string `json:"you,omitempty"`   // the seat whose token asked
	Seat  string `json:"seat,omitempty"`  // created, if you accepted: your seat in the new game
	Token string `json:"token,omitempty"` // created, if you accepted: that seat's token
}

// RematchSeat is one player of a finished game and its answer to the
// offer: "offered", "accepted", "declined" or "waiting".
type RematchSeat struct {
	Seat   string `json:"seat"`         // the seat in the finished game
	Answer string `json:"answer"`       // its answer
	To     string `json:"to,omitempty"` // its seat in the new game, for those who play it
}

// rematches is the server's registry of boards, one per finished game
// followed or offered a rematch.
type rematches struct {
	mu     sync.Mutex
	boards map[string]*board
	closed bool
}

// board is a finished game's rematch: its offer and its followers.
type board struct {
	id   string
	pr   *rules.Preset
	info *store.Game // the finished game's table and seats
	set  settings

	mu       sync.Mutex
	subs     map[*subscriber]struct{}
	offer    *offer
	settled  time.Time // when the offer settled; zero while open or none
	mirrored *Rematch  // on a node that is not the game's home: its offer as read from there (rematch_home.go)

	mirroring sync.Mutex // held while mirrored is read from the home
}

// offer is a rematch offer, guarded by its board's mutex.
type offer struct {
	by      int
	rotate  bool
	status  string
	expires time.Time
	answers []string // per seat: "" if the seat takes no part
	client  string   // the offerer's address: the new game counts against it
	game    string   // created: the new game
	tokens  []string // created: the new token of each seat that accepted, by old seat
	to      []int    // per old seat, its seat in the new game
	timer   *time.Timer
}

// handleRematch is POST /api/games/{id}/rematch with a player's token:
// an offer or an answer to one.
func (s *Server) handleRematch(w http.ResponseWriter, r *http.Request) {
	var req RematchRequest
	if err := s.readJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	switch req.Answer {
	case AnswerOffer, AnswerAccept, AnswerDecline, AnswerStart:
	default:
		s.fail(w, r, Errorf(EINVALID, "answer %q: want %q, %q, %q or %q", req.Answer, AnswerOffer, AnswerAccept, AnswerDecline, AnswerStart))
		return
	}
	if req.Rotate && req.Answer != AnswerOffer {
		s.fail(w, r, Errorf(EINVALID, "rotate goes with an offer"))
		return
	}
	b, seat, err := s.rematchBoard(r, r.PathValue("id"), true)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out, err := b.answer(s, seat, &req, infoOf(r).client.String())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// handleRematchState is GET /api/games/{id}/rematch: the offer as
// everyone sees it, and with a player's token, as that player does (its
// new seat and token, once the new game is created).
func (s *Server) handleRematchState(w http.ResponseWriter, r *http.Request) {
	b, seat, err := s.rematchBoard(r, r.PathValue("id"), false)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var out *Rematch
	if b != nil {
		b.mu.Lock()
		out = b.view(seat)
		b.mu.Unlock()
	}
	if out == nil {
		s.fail(w, r, Errorf(ENOTFOUND, "no rematch was offered for game %s", r.PathValue("id")))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// rematchBoard finds a finished game's board and the seat r acts for, by
// its token or its account (holder.go; -1 for none); answer makes the
// board if there is none yet, and requires a player's seat.
func (s *Server) rematchBoard(r *http.Request, id string, answer bool) (*board, int, error) {
	ctx := r.Context()
	l, info, err := s.lookup(ctx, id)
	if err != nil {
		return nil, -1, err
	}
	if l != nil {
		if st := l.state.Load(); st.Status == string(store.Live) {
			return nil, -1, Errorf(ECONFLICT, "the game is not over: a rematch is offered once it is")
		}
		// Its loop is stopping: the store has it as finished.
		if info, err = s.store.Game(ctx, id); err != nil {
			return nil, -1, s.storeError(id, damaged(id, err))
		}
	}
	pr, err := rules.Lookup(info.Rules)
	if err != nil {
		return nil, -1, s.storeError(id, damaged(id, err))
	}
	seat, _, err := s.holder(r, id, pr, tokenHashes(info.Seats), seatHolders(info.Seats), bearer(r))
	if err != nil {
		return nil, -1, err
	}
	if answer {
		if seat < 0 {
			return nil, -1, Errorf(EUNAUTHORIZED, "spectators cannot offer or answer a rematch: only the game's players can, with their seat's token (Authorization: Bearer TOKEN) or signed in to the account that holds it")
		}
		if info.Seats[seat].Player != Human {
			return nil, -1, Errorf(ECONFLICT, "seat %s left the game (%s played it at the end): only the seats people played to the end take part in its rematch", seatName(info, seat), info.Seats[seat].Player)
		}
	}
	b, err := s.rematches.board(s, info, answer)
	return b, seat, err
}

// seatName names seat i of a stored game.
func seatName(info *store.Game, i int) string {
	pr, err := rules.Lookup(info.Rules)
	if err != nil || i >= len(pr.Seats()) {
		return "?"
	}
	return pr.Seats()[i].String()
}

// get returns game id's board, nil if there is none.
func (x *rematches) get(id string) *board {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.boards[id]
}

// board returns the board of finished game info, making it if create and
// there is room (Config.MaxRematches); nil if there is none.
func (x *rematches) board(s *Server, info *store.Game, create bool) (*board, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if b := x.boards[info.ID]; b != nil || !create {
		return b, nil
	}
	if x.closed {
		return nil, Errorf(EUNAVAILABLE, "the server is shutting down")
	}
	if len(x.boards) >= s.cfg.MaxRematches {
		return nil, Errorf(EUNAVAILABLE, "the server keeps %d rematch offers, its limit; try again later", len(x.boards))
	}
	pr, err := rules.Lookup(info.Rules)
	if err != nil {
		return nil, s.storeError(info.ID, damaged(info.ID, err))
	}
	b := &board{id: info.ID, pr: pr, info: info, subs: make(map[*subscriber]struct{})}
	if err := json.Unmarshal(info.Settings, &b.set); err != nil {
		return nil, s.storeError(info.ID, damaged(info.ID, err))
	}
	if x.boards == nil {
		x.boards = make(map[string]*board)
	}
	x.boards[info.ID] = b
	return b, nil
}

// players reports which seats of the finished game take part in its
// rematch: human at the end, and held by someone.
func (b *board) players() []bool {
	out := make([]bool, len(b.info.Seats))
	for i, st := range b.info.Seats {
		out[i] = st.Player == Human && st.TokenHash != nil
	}
	return out
}

// answer takes a player's offer or answer, and creates the new game when
// the offer is settled.
func (b *board) answer(s *Server, seat int, req *RematchRequest, client string) (*Rematch, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	before := b.offer
	o := before
	open := o != nil && o.status == RematchOpen
	name := b.pr.Seats()[seat].String()
	switch req.Answer {
	case AnswerOffer:
		switch {
		case open:
			return nil, Errorf(ECONFLICT, "%s offered a rematch already: accept or decline it", b.pr.Seats()[o.by])
		case o != nil && o.status == RematchCreated:
			return nil, Errorf(ECONFLICT, "the rematch was created already: game %s", o.game)
		}
		o = &offer{by: seat, rotate: req.Rotate, status: RematchOpen, client: client, expires: time.Now().Add(s.cfg.RematchWait)}
		o.answers = make([]string, len(b.info.Seats))
		for i, p := range b.players() {
			if p {
				o.answers[i] = seatWaiting
			}
		}
		o.answers[seat] = seatOffered
		b.offer = o
	case AnswerAccept, AnswerDecline, AnswerStart:
		if !open {
			return nil, Errorf(ECONFLICT, "no rematch offer is open for this game: offer one")
		}
		if req.Answer == AnswerStart {
			if seat != o.by {
				return nil, Errorf(ECONFLICT, "only %s, who offered the rematch, may start it", b.pr.Seats()[o.by])
			}
			if o.count(seatAccepted) == 0 {
				return nil, Errorf(ECONFLICT, "nobody has accepted the rematch yet")
			}
			break
		}
		if a := o.answers[seat]; a != seatWaiting {
			return nil, Errorf(ECONFLICT, "%s answered the offer already: %s", name, a)
		}
		o.answers[seat] = seatAccepted
		if req.Answer == AnswerDecline {
			o.answers[seat] = seatDeclined
		}
	}
	if err := b.settle(s, o, req.Answer == AnswerStart); err != nil {
		if req.Answer == AnswerOffer {
			b.offer = before
		} else if req.Answer != AnswerStart {
			o.answers[seat] = seatWaiting
		}
		return nil, err
	}
	if req.Answer == AnswerOffer && o.status == RematchOpen {
		b.settled = time.Time{}
		o.timer = time.AfterFunc(s.cfg.RematchWait, func() { b.expire(s, o) })
	}
	b.publish()
	s.rematched(b.id)
	return b.view(seat), nil
}

// count counts the seats with an answer.
func (o *offer) count(answer string) int {
	n := 0
	for _, a := range o.answers {
		if a == answer {
			n++
		}
	}
	return n
}

// settle creates the new game once every player has answered (or the
// offerer starts it), with those who accepted; if every other player
// declined, the offer is declined. While answers are missing it does
// nothing. If the game cannot be created the offer stays as it was.
func (b *board) settle(s *Server, o *offer, start bool) error {
	waiting := o.count(seatWaiting)
	accepted := o.count(seatAccepted)
	switch {
	case waiting > 0 && !start:
		return nil
	case accepted == 0 && o.count(seatDeclined) > 0:
		o.status = RematchDeclined
	default:
		if err := b.create(s, o); err != nil {
			return err
		}
		o.status = RematchCreated
	}
	if o.timer != nil {
		o.timer.Stop()
	}
	b.settled = time.Now()
	return nil
}

// create starts the new game: the table of the finished one, the players
// who accepted (and the offerer) in their seats or one seat on, the bots
// in theirs, and every other seat of a person (declined, did not answer,
// left the game, never claimed) the table's takeover bot's, nameless.
func (b *board) create(s *Server, o *offer) error {
	n := len(b.info.Seats)
	o.to = make([]int, n)
	players, names, holders := make([]string, n), make([]string, n), make([]string, n)
	var hosts []int
	for i, st := range b.info.Seats {
		j := i
		if o.rotate {
			j = (i + 1) % n
		}
		o.to[i] = j
		switch a := o.answers[i]; {
		case a == seatOffered || a == seatAccepted:
			players[j], names[j], holders[j] = Human, st.Name, st.Account
			hosts = append(hosts, j)
		case st.TokenHash == nil && st.InviteHash == nil: // a bot from the start, with its name
			players[j], names[j] = st.Player, st.Name
		default: // a person's seat, whose player does not come
			players[j] = botPrefix + s.cfg.takeover(b.set.Table.Takeover) // within MaxTakeoverLevel, whatever the old table allowed
		}
	}
	slices.Sort(hosts)
	ctx, cancel := context.WithTimeout(s.ctx, storeTimeout)
	defer cancel()
	// A rematch is casual: rated games are the lobby's, which pairs by
	// rating.
	table := b.set.Table
	table.Rated = false
	c, err := s.open(ctx, &opening{pr: b.pr, table: table, players: players, names: names, hosts: hosts, accounts: holders, rematch: b.id}, o.client)
	if err != nil {
		return err
	}
	o.game = c.ID
	o.tokens = make([]string, n)
	for i, a := range o.answers {
		if a == seatOffered || a == seatAccepted {
			o.tokens[i] = c.Seats[o.to[i]].Token
		}
	}
	s.log.Info("rematch created", "game", b.id, "rematch", c.ID, "players", len(hosts))
	return nil
}

// expire lapses an offer nobody settled in time.
func (b *board) expire(s *Server, o *offer) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.offer != o || o.status != RematchOpen {
		return
	}
	o.status = RematchExpired
	b.settled = time.Now()
	b.publish()
	s.rematched(b.id)
}

// view is the offer as seat sees it (-1: a spectator), nil if there is
// none. Only a player's own view has its new seat and token.
func (b *board) view(seat int) *Rematch {
	o := b.offer
	if o == nil {
		return nil
	}
	seats := b.pr.Seats()
	out := &Rematch{Game: b.id, Status: o.status, By: seats[o.by].String(), Rotate: o.rotate, New: o.game, Seats: []RematchSeat{}}
	if o.status == RematchOpen {
		t := o.expires.UTC().Truncate(time.Millisecond)
		out.Expires = &t
	}
	for i, a := range o.answers {
		if a == "" {
			continue
		}
		rs := RematchSeat{Seat: seats[i].String(), Answer: a}
		if o.status == RematchCreated && (a == seatOffered || a == seatAccepted) {
			rs.To = seats[o.to[i]].String()
		}
		out.Seats = append(out.Seats, rs)
	}
	if seat >= 0 {
		out.You = seats[seat].String()
		if o.status == RematchCreated && o.tokens[seat] != "" {
			out.Seat, out.Token = seats[o.to[seat]].String(), o.tokens[seat]
		}
	}
	return out
}

// publish tells every follower of the board the offer as everyone sees
// it, dropping those too far behind.
func (b *board) publish() {
	data, err := json.Marshal(rematchMessage{Kind: KindRematch, Rematch: b.public()})
	if err != nil {
		return
	}
	for sub := range b.subs {
		if !sub.push(data) {
			delete(b.subs, sub)
			sub.end(reasonSlow)
		}
	}
}

// public is the offer as everyone sees it: this node's, or the one
// mirrored from the game's home; nil if there is none.
func (b *board) public() *Rematch {
	if v := b.view(-1); v != nil {
		return v
	}
	return b.mirrored
}

// rematchMessage is what a finished game's WebSockets receive of its
// rematch offer.
type rematchMessage struct {
	Kind    string   `json:"kind"`    // KindRematch
	Rematch *Rematch `json:"rematch"` // the offer, as everyone sees it
}

// follow adds a follower to game info's board, making the board if need
// be, and returns it with the offer as it stands (nil if none); a nil
// subscriber if the server keeps too many boards or is shutting down.
func (x *rematches) follow(s *Server, info *store.Game) (*subscriber, []byte) {
	b, err := x.board(s, info, true)
	if err != nil {
		return nil, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	x.mu.Lock()
	gone := x.closed || x.boards[info.ID] != b
	x.mu.Unlock()
	if gone {
		return nil, nil
	}
	sub := newSubscriber(-1, s.cfg.Buffer)
	b.subs[sub] = struct{}{}
	var now []byte
	if v := b.public(); v != nil {
		now, _ = json.Marshal(rematchMessage{Kind: KindRematch, Rematch: v})
	}
	if s.node != nil {
		go s.mirror(info.ID)
	}
	return sub, now
}

// unfollow removes a follower whose connection closed, and the board if
// nobody needs it any more.
func (x *rematches) unfollow(s *Server, id string, sub *subscriber) {
	x.mu.Lock()
	b := x.boards[id]
	x.mu.Unlock()
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.subs, sub)
	x.forget(s, b)
}

// forget drops a board nobody follows whose offer is settled long enough
// or was never made; b.mu is held.
func (x *rematches) forget(s *Server, b *board) {
	if len(b.subs) > 0 {
		return
	}
	if o := b.offer; o != nil && (o.status == RematchOpen || time.Since(b.settled) < s.cfg.RematchWait) {
		return
	}
	x.mu.Lock()
	if x.boards[b.id] == b {
		delete(x.boards, b.id)
	}
	x.mu.Unlock()
}

// sweep drops the boards nobody needs any more.
func (x *rematches) sweep(s *Server) {
	x.mu.Lock()
	boards := make([]*board, 0, len(x.boards))
	for _, b := range x.boards {
		boards = append(boards, b)
	}
	x.mu.Unlock()
	for _, b := range boards {
		b.mu.Lock()
		x.forget(s, b)
		b.mu.Unlock()
	}
}

// close ends every follower's subscription, as the server shuts down.
func (x *rematches) close() {
	x.mu.Lock()
	x.closed = true
	boards := x.boards
	x.boards = nil
	x.mu.Unlock()
	for _, b := range boards {
		b.mu.Lock()
		for sub := range b.subs {
			delete(b.subs, sub)
			sub.end(reasonShutdown)
		}
		if b.offer != nil && b.offer.timer != nil {
			b.offer.timer.Stop()
		}
		b.mu.Unlock()
	}
}
