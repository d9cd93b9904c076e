package server

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/chaturaji/chaturaji/account"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// Seats of accounts. A signed-in player's seats belong to its account
// (store.Seat.Account): those it takes as a game's creator, those it
// claims with an invite, and their rematches' seats. Any session of the
// account acts for them without the seat's token, from any device: the
// actions, the WebSocket, resign and abort, the rematch. Where the
// account holds several seats of a game, the request names the one it
// acts for (?seat=West); with one, it may leave it out. A seat's token,
// if the request carries one, goes first, and works as it always has,
// signed in or not. Others see an account's seat under its username
// (SeatInfo.Account), never its id, which is the WebAuthn user handle of
// its passkeys.

// seatHolders returns the accounts that hold the seats of a game, ""
// for the others. A seat a bot took over keeps its account, as it keeps
// its token: acting for it is refused for that reason, by the game.
func seatHolders(seats []store.Seat) []string {
	out := make([]string, len(seats))
	for i, s := range seats {
		out[i] = s.Account
	}
	return out
}

// credential is how a request acts for a seat: its token, or the
// session of the account that holds it.
type credential struct {
	token   string // the seat's token; or
	session string // the session token of the account that holds it
	seat    string // with session: the seat's name
}

// header sets the headers of a request forwarded to another node (and
// returns the path's query) so that it acts for the same seat.
func (c credential) header(h http.Header) (query string) {
	if c.token != "" {
		h.Set("Authorization", "Bearer "+c.token)
		return ""
	}
	h.Set("Cookie", (&http.Cookie{Name: SessionCookie, Value: c.session}).String())
	return "?seat=" + c.seat
}

// holder returns the seat of a game that request r acts for, and how: by
// the seat's token (token, if not ""), else by its signed-in account's
// seat (?seat=NAME naming it if the account holds several); -1 for
// neither, as a spectator. A token that opens no seat, a ?seat= that
// names no seat the account holds, and a ?seat= without a session are
// refused (EUNAUTHORIZED, EINVALID).
func (s *Server) holder(r *http.Request, id string, pr *rules.Preset, hashes [][]byte, holders []string, token string) (int, credential, error) {
	if token != "" {
		if seat := seatOfToken(hashes, token); seat >= 0 {
			return seat, credential{token: token}, nil
		}
		return -1, credential{}, Errorf(EUNAUTHORIZED, "the token opens no seat of game %s", id)
	}
	want := r.URL.Query().Get("seat")
	a, session := s.session(r)
	if a == nil {
		if want != "" {
			return -1, credential{}, Errorf(EUNAUTHORIZED, "seat %q: acting for a seat needs its token, or to be signed in to the account that holds it", want)
		}
		return -1, credential{}, nil
	}
	var held []int
	for i, h := range holders {
		if h != "" && h == a.ID {
			held = append(held, i)
		}
	}
	if want != "" {
		st, ok := seatNamed(pr, want)
		if !ok {
			return -1, credential{}, Errorf(EINVALID, "seat %q: the seats of %s are %s", want, pr.Name, seatNames(pr))
		}
		i := seatIndex(pr, st)
		if i >= len(holders) || holders[i] != a.ID {
			return -1, credential{}, Errorf(EUNAUTHORIZED, "seat %s of game %s is not held by your account%s", st, id, heldList(pr, held))
		}
		return i, credential{session: session, seat: st.String()}, nil
	}
	switch len(held) {
	case 0:
		return -1, credential{}, nil
	case 1:
		return held[0], credential{session: session, seat: pr.Seats()[held[0]].String()}, nil
	}
	return -1, credential{}, Errorf(EINVALID, "your account holds several seats of game %s%s: name the one to act for with ?seat=", id, heldList(pr, held))
}

// heldList names the seats an account holds, for an error message.
func heldList(pr *rules.Preset, held []int) string {
	if len(held) == 0 {
		return ""
	}
	names := make([]string, len(held))
	for i, j := range held {
		names[i] = pr.Seats()[j].String()
	}
	return " (it holds " + strings.Join(names, ", ") + ")"
}

// accountNames puts in seats the current usernames of the accounts that
// hold them (holders, by seat): store.DeletedName for a deleted one. It
// changes a copy; memo keeps the names found, for a list of games.
func (s *Server) accountNames(ctx context.Context, seats []SeatInfo, holders []string, memo map[string]string) []SeatInfo {
	if s.accounts == nil {
		return seats
	}
	var out []SeatInfo
	for i, h := range holders {
		if h == "" || i >= len(seats) {
			continue
		}
		name, ok := memo[h]
		if !ok {
			a, err := s.accounts.Account(ctx, h)
			if err != nil {
				continue // the name it was seated under stands
			}
			name = a.Name
			memo[h] = name
		}
		if out == nil {
			out = append([]SeatInfo(nil), seats...)
		}
		out[i].Name = name
	}
	if out == nil {
		return seats
	}
	return out
}

// namedStart returns a stored event's data, but for a start event whose
// seats' holders (by seat) include an account, which it returns with the
// accounts' current usernames (accountNames): the stored start keeps the
// names the seats had when the game began, a deleted account's too.
func (s *Server) namedStart(ctx context.Context, data []byte, holders []string) []byte {
	if s.accounts == nil || !slices.ContainsFunc(holders, func(h string) bool { return h != "" }) {
		return data
	}
	var e Event
	if err := json.Unmarshal(data, &e); err != nil || e.Kind != KindStart {
		return data
	}
	seats := s.accountNames(ctx, e.Seats, holders, map[string]string{})
	if slices.Equal(seats, e.Seats) {
		return data
	}
	e.Seats = seats
	b, err := json.Marshal(&e)
	if err != nil {
		return data
	}
	return b
}

// signedInSeat is the seat a signed-in claimer's account takes: its
// account and its username.
func signedInSeat(st store.Seat, a *account.Account) store.Seat {
	if a != nil {
		st.Account, st.Name = a.ID, a.Name
	}
	return st
}

// withCurrentNames returns info, or a copy of it whose seats held by
// accounts deleted since they were seated are named store.DeletedName: a
// record built for a game whose player deleted the account while it went
// on does not name them. A name that cannot be read now stands.
func (s *Server) withCurrentNames(info *store.Game) *store.Game {
	if s.accounts == nil {
		return info
	}
	var out *store.Game
	for i, seat := range info.Seats {
		if seat.Account == "" || seat.Name == store.DeletedName {
			continue
		}
		ctx, cancel := context.WithTimeout(s.ctx, storeTimeout)
		a, err := s.accounts.Account(ctx, seat.Account)
		cancel()
		if err != nil || a.Name != store.DeletedName {
			continue
		}
		if out == nil {
			c := *info
			c.Seats = append([]store.Seat(nil), info.Seats...)
			out = &c
		}
		out.Seats[i].Name = store.DeletedName
	}
	if out == nil {
		return info
	}
	return out
}
