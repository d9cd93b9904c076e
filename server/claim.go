package server

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/account"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// Seats belong to people. Each human seat has one holder, whoever holds
// its token. The creator of a game takes the tokens of the seats it names
// as its own (NewGame.HostSeats); every other human seat gets a one-time
// invite instead, which the creator hands to a friend, whose client
// claims the seat with it and receives the seat's token, alone. The store
// keeps only the hashes of both (store.Seat's TokenHash and InviteHash),
// and a claim is saved before it is answered: a second claim of the same
// invite, even across a restart, finds the seat taken. The creator may
// issue a new invite for a seat nobody claimed yet (the old one then opens
// nothing); the server knows the creator by the token of a seat it took.

// hosts returns the seats a request's creator holds, ascending: those
// HostSeats names, or by default the first human seat.
func (ng *NewGame) hosts(pr *rules.Preset) ([]int, error) {
	if ng.HostSeats == nil {
		if i := slices.Index(ng.Seats, Human); i >= 0 {
			return []int{i}, nil
		}
		return nil, nil
	}
	var out []int
	for _, name := range ng.HostSeats {
		s, ok := seatNamed(pr, name)
		if !ok {
			return nil, Errorf(EINVALID, "host_seats: no seat %q in %s: its seats are %s", name, pr.Name, seatNames(pr))
		}
		i := seatIndex(pr, s)
		if ng.Seats[i] != Human {
			return nil, Errorf(EINVALID, "host_seats: %s is played by %s, not a human", name, ng.Seats[i])
		}
		if slices.Contains(out, i) {
			return nil, Errorf(EINVALID, "host_seats: %s named twice", name)
		}
		out = append(out, i)
	}
	slices.Sort(out)
	return out, nil
}

// seatNames lists a preset's seats for an error message: "South, West,
// North, East".
func seatNames(pr *rules.Preset) string {
	names := make([]string, len(pr.Seats()))
	for i, s := range pr.Seats() {
		names[i] = s.String()
	}
	return strings.Join(names, ", ")
}

// Claim is the body of POST /api/games/{id}/claim: the seat and the
// invite the creator handed out for it.
type Claim struct {
	Seat   string `json:"seat"`   // "West"
	Invite string `json:"invite"` // the seat's one-time invite
}

// Claimed is the answer to a claim: the seat's token, for the claimer
// alone.
type Claimed struct {
	Game  string `json:"game"`  // the game's id
	Seat  string `json:"seat"`  // the seat claimed
	Token string `json:"token"` // the bearer token that acts for the seat
}

// InviteRequest is the body of POST /api/games/{id}/invites: the seat,
// not yet claimed, that needs a new invite.
type InviteRequest struct {
	Seat string `json:"seat"` // "West"
}

// Invited is the answer to POST /api/games/{id}/invites: the seat's new
// invite, which replaces the one issued before.
type Invited struct {
	Game   string `json:"game"`   // the game's id
	Seat   string `json:"seat"`   // the seat
	Invite string `json:"invite"` // the seat's new one-time invite
}

// handleClaim is POST /api/games/{id}/claim: whoever brings a seat's
// invite receives its token, once; a signed-in claimer's account holds
// the seat too, under its username (holder.go).
func (s *Server) handleClaim(w http.ResponseWriter, r *http.Request) {
	var c Claim
	if err := s.readJSON(w, r, &c); err != nil {
		s.fail(w, r, err)
		return
	}
	l, i, err := s.seatOfGame(r.Context(), r.PathValue("id"), c.Seat)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if c.Invite == "" {
		s.fail(w, r, Errorf(EUNAUTHORIZED, "a claim needs the seat's invite"))
		return
	}
	a := s.signedIn(r)
	var token string
	err = s.onLoop(r.Context(), l, func() error {
		var err error
		token, err = l.claim(i, c.Invite, a)
		return err
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, Claimed{Game: l.id, Seat: c.Seat, Token: token})
}

// handleInvites is POST /api/games/{id}/invites with the token of a seat
// the creator took: a new invite for a seat nobody claimed yet.
func (s *Server) handleInvites(w http.ResponseWriter, r *http.Request) {
	token := bearer(r)
	if token == "" {
		s.fail(w, r, Errorf(EUNAUTHORIZED, "issuing an invite needs the token of a seat the game's creator holds: Authorization: Bearer TOKEN"))
		return
	}
	var req InviteRequest
	if err := s.readJSON(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	l, i, err := s.seatOfGame(r.Context(), r.PathValue("id"), req.Seat)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if by := seatOfToken(l.tokenHashes(), token); by < 0 || !slices.Contains(l.hosts, by) {
		s.fail(w, r, Errorf(EUNAUTHORIZED, "only the game's creator issues invites: the token is not that of a seat the creator took"))
		return
	}
	var invite string
	err = s.onLoop(r.Context(), l, func() error {
		var err error
		invite, err = l.reissue(i)
		return err
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, Invited{Game: l.id, Seat: req.Seat, Invite: invite})
}

// seatOfGame finds a live game and the index of one of its seats, by name.
func (s *Server) seatOfGame(ctx context.Context, id, seat string) (*live, int, error) {
	l, info, err := s.lookup(ctx, id)
	if err != nil {
		return nil, -1, err
	}
	var pr *rules.Preset
	if l != nil {
		pr = l.pr
	} else if pr, err = rules.Lookup(info.Rules); err != nil {
		return nil, -1, s.storeError(id, damaged(id, err))
	}
	st, ok := seatNamed(pr, seat)
	if !ok {
		return nil, -1, Errorf(EINVALID, "seat %q: the seats of %s are %s", seat, pr.Name, seatNames(pr))
	}
	if l == nil {
		return nil, -1, Errorf(ECONFLICT, "the game is over")
	}
	return l, seatIndex(pr, st), nil
}

// onLoop runs f on a game's loop and returns its verdict; a game whose
// loop stopped is over, or the server is shutting down.
func (s *Server) onLoop(ctx context.Context, l *live, f func() error) error {
	var verdict error
	err := l.call(ctx, func() { verdict = f() })
	if errors.Is(err, errGone) {
		if s.shuttingDown() {
			return Errorf(EUNAVAILABLE, "the server is shutting down; try again after it restarts")
		}
		return Errorf(ECONFLICT, "the game is over")
	}
	if err != nil {
		return err
	}
	return verdict
}

// unclaimable reports why seat i cannot take a claim or a new invite, or nil if
// it waits for its player.
func (l *live) unclaimable(i int) error {
	seat := l.pr.Seats()[i]
	st := l.info.Seats[i]
	switch {
	case !l.owned.Load():
		return errNotOwner
	case l.over:
		return Errorf(ECONFLICT, "the game is over")
	case l.stale:
		return unavailable(l.retryAt.Sub(time.Now()), "the database does not answer; try again")
	case st.Player != Human:
		return Errorf(ECONFLICT, "seat %s is played by %s now: nobody can claim it", seat, st.Player)
	case st.InviteHash == nil && slices.Contains(l.hosts, i):
		if of := l.rematchOf(); of != "" {
			return Errorf(ECONFLICT, "seat %s is taken: this game is the rematch of game %s, and its player there, who came back, holds it", seat, of)
		}
		return Errorf(ECONFLICT, "seat %s is taken: the game's creator holds it", seat)
	case st.InviteHash == nil:
		return Errorf(ECONFLICT, "seat %s is taken: its invite was claimed already", seat)
	}
	return nil
}

// rematchOf returns the finished game whose rematch this game is, or "":
// a rematch's seats held from the start are its returning players', not
// a creator's.
func (l *live) rematchOf() string {
	var set settings
	if json.Unmarshal(l.info.Settings, &set) != nil {
		return ""
	}
	return set.Rematch
}

// claim gives seat i to the bearer of its invite: a new token, whose hash
// replaces the invite's in the store before the token is given; and to
// the bearer's account, if it is signed in (a not nil).
func (l *live) claim(i int, invite string, a *account.Account) (string, error) {
	if err := l.unclaimable(i); err != nil {
		return "", err
	}
	seat := l.info.Seats[i]
	if subtle.ConstantTimeCompare(hashToken(invite), seat.InviteHash) != 1 {
		return "", Errorf(EUNAUTHORIZED, "the invite does not open seat %s of game %s: it is not its invite, or the creator issued a new one", l.pr.Seats()[i], l.id)
	}
	token, hash := newToken()
	seat.TokenHash, seat.InviteHash = hash, nil
	seat = signedInSeat(seat, a)
	if err := l.saveSeat(i, seat, "claiming a seat"); err != nil {
		return "", err
	}
	l.srv.log.Info("seat claimed", "game", l.id, "seat", l.pr.Seats()[i].String())
	return token, nil
}

// reissue gives seat i, not yet claimed, a new invite in place of its
// last.
func (l *live) reissue(i int) (string, error) {
	if err := l.unclaimable(i); err != nil {
		return "", err
	}
	seat := l.info.Seats[i]
	invite, hash := newToken()
	seat.InviteHash = hash
	if err := l.saveSeat(i, seat, "issuing an invite"); err != nil {
		return "", err
	}
	return invite, nil
}

// saveSeat saves seat i as st, then takes it: if the store fails nothing
// changes.
func (l *live) saveSeat(i int, st store.Seat, what string) error {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	t0 := time.Now()
	err := l.srv.store.UpdateSeat(ctx, l.id, i, st)
	l.srv.metrics.committed(opSeat, t0)
	if errors.Is(err, store.ErrFenced) {
		l.lose("a seat's write was fenced: another node adopted the game")
		return errNotOwner
	}
	if err != nil {
		l.srv.storeFailed(opSeat, what, l.id, err)
		// The database may have saved it before the connection broke:
		// then the token is the seat's, and must reach its holder.
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		info, rerr := l.srv.store.Game(ctx, l.id)
		if rerr != nil || i >= len(info.Seats) || !sameSeat(info.Seats[i], st) {
			return unavailable(storeRetryAfter, "the seat could not be saved; try again")
		}
	}
	l.srv.wrote(nil)
	l.info.Seats[i] = st
	l.snapshot()
	return nil
}

// sameSeat reports whether two seats are the same as the store keeps them.
func sameSeat(a, b store.Seat) bool {
	return a.Player == b.Player && a.Name == b.Name && bytes.Equal(a.TokenHash, b.TokenHash) && bytes.Equal(a.InviteHash, b.InviteHash) && a.Account == b.Account
}
