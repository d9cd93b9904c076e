package server

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// Message is a client's message: an action sent over a WebSocket, or the
// body of POST /api/games/{id}/actions.
type Message struct {
	// Kind is "action" (which may be left out in the body of POST
	// .../actions), or "resign" or "abort" (resign.go) or "leave"
	// (leave.go), which have no Action or Seq, or "chat" (chat.go), which
	// has Say or Text.
	Kind string `json:"kind,omitempty"`
	// Action is the action in notation: "d2d3", "pass", "retire".
	Action string `json:"action"`
	// Seq, if not 0, is the number of the last event the client saw: the
	// action is refused (ECONFLICT) if the game has moved on since.
	Seq int64 `json:"seq,omitempty"`
	// Say, in a chat message, is the id of a quick message
	// (QuickMessages): "good-luck", "well-played", "thanks", "good-game".
	Say string `json:"say,omitempty"`
	// Text, in a chat message at a table with chat on, is free text.
	Text string `json:"text,omitempty"`
}

// check refuses what no game could take, before the game's loop sees it:
// an unknown kind, an event number below 0 (malformed, EINVALID, not
// stale), a resign, abort or leave with an action.
func (m *Message) check() error {
	if m.Kind != KindChat && (m.Say != "" || m.Text != "") {
		return Errorf(EINVALID, "say and text belong to a chat message, not to a message of kind %q", m.Kind)
	}
	switch m.Kind {
	case "action":
	case KindChat:
		return m.checkChat()
	case KindResign, KindAbort, KindLeave:
		if m.Action != "" || m.Seq != 0 {
			return Errorf(EINVALID, "a %s message has no action and no seq", m.Kind)
		}
	default:
		return Errorf(EINVALID, "unknown message kind %q: want \"action\", \"resign\", \"abort\", \"leave\" or \"chat\"", m.Kind)
	}
	if m.Seq < 0 {
		return Errorf(EINVALID, "seq %d: want the number of an event, from 1 (or 0 for none)", m.Seq)
	}
	return nil
}

// handleCreate is POST /api/games.
func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	var ng NewGame
	if err := s.readJSON(w, r, &ng); err != nil {
		s.fail(w, r, err)
		return
	}
	c, err := s.create(r.Context(), &ng, infoOf(r).client.String(), s.signedIn(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/games/"+c.ID)
	writeJSON(w, http.StatusCreated, c)
}

// List is the answer of GET /api/games.
type List struct {
	Games   []Summary `json:"games"`             // the games, the most recently updated first
	Skipped []Skipped `json:"skipped,omitempty"` // the damaged games left out
}

// handleList is GET /api/games[?status=live|finished][&limit=N]: the most
// recently updated games first. A game whose row cannot be shown (its
// rules are no preset's) is left out and named in skipped.
func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	f, err := s.listFilter(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	games, err := s.store.Games(r.Context(), f)
	if err != nil {
		s.fail(w, r, s.storeError("", err))
		return
	}
	list := List{Games: make([]Summary, 0, len(games))}
	names := map[string]string{}
	for _, g := range games {
		s.mu.Lock()
		l := s.games[g.ID]
		s.mu.Unlock()
		if l != nil {
			sum := l.state.Load().summary()
			sum.Seats = s.accountNames(r.Context(), sum.Seats, l.holders(), names)
			list.Games = append(list.Games, sum)
			continue
		}
		pr, err := rules.Lookup(g.Rules)
		if err != nil {
			err = fmt.Errorf("game %s: %w", g.ID, err)
			s.noteDamaged(g.ID, err)
			list.Skipped = append(list.Skipped, Skipped{ID: g.ID, Error: err.Error()})
			continue
		}
		list.Games = append(list.Games, Summary{
			ID: g.ID, Rules: g.Rules, Status: string(g.Status), Seats: s.accountNames(r.Context(), seatInfos(pr, g.Seats, nil), seatHolders(g.Seats), names),
			Seq: g.LastEvent, Result: g.Result, Created: g.Created, Updated: g.Updated, SeedHash: g.SeedHash,
		})
	}
	writeJSON(w, http.StatusOK, list)
}

// handleGame is GET /api/games/{id}: the game's State.
func (s *Server) handleGame(w http.ResponseWriter, r *http.Request) {
	l, info, err := s.lookup(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if l != nil && !l.fenced.Load() && !(l.owned.Load() && s.lapsed()) {
		st := *l.state.Load()
		st.Seats = s.accountNames(r.Context(), st.Seats, l.holders(), map[string]string{})
		writeJSON(w, http.StatusOK, &st)
		return
	}
	if l != nil { // what a node whose leases lapsed, or a game fenced off, holds may be behind: the store says
		if info, err = s.store.Game(r.Context(), r.PathValue("id")); err != nil {
			s.fail(w, r, s.storeError(r.PathValue("id"), err))
			return
		}
	}
	rp, err := s.read(r.Context(), info.ID)
	if err != nil {
		s.fail(w, r, s.storeError(info.ID, err))
		return
	}
	st := newState(rp.game.Preset(), rp.info, rp.table, rp.seq, rp.last, nil, info.Updated)
	st.Seats = s.accountNames(r.Context(), st.Seats, seatHolders(rp.info.Seats), map[string]string{})
	writeJSON(w, http.StatusOK, st)
}

// handleRecord is GET /api/games/{id}/record: the game record, without the
// seed while the game goes on; a finished game's as kept when it finished
// (records.go).
func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	l, info, err := s.lookup(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var text string
	if l != nil {
		var stale error
		err = l.call(r.Context(), func() {
			if l.stale {
				stale = unavailable(storeRetryAfter, "the database does not answer; try again")
				return
			}
			text = l.record().String()
		})
		if err == nil {
			err = stale
		}
	}
	if l == nil || errors.Is(err, errGone) {
		text, err = s.storedRecord(r.Context(), id, info)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte(text))
}

// storedRecord returns the record of a game that is not live in this
// server, info its row if read already.
func (s *Server) storedRecord(ctx context.Context, id string, info *store.Game) (string, error) {
	if info == nil {
		var err error
		if info, err = s.store.Game(ctx, id); err != nil {
			return "", s.storeError(id, damaged(id, err))
		}
	}
	var kept []byte
	if info.Status == store.Finished {
		texts, err := s.store.Records(ctx, []string{id})
		if err != nil {
			return "", s.storeError(id, err)
		}
		kept = texts[id]
	}
	text, err := recordText(ctx, s.store, info, kept, Export{Key: s.cfg.SigningKey, Keep: true})
	return text, s.storeError(id, err)
}

// handleKey is GET /api/key: the public key that signs the records of the
// server's finished games, in hexadecimal, as `chaturaji verify --key`
// takes it.
func (s *Server) handleKey(w http.ResponseWriter, r *http.Request) {
	if s.cfg.SigningKey == nil {
		s.fail(w, r, Errorf(ENOTFOUND, "this server does not sign its records"))
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, record.FormatPublicKey(s.cfg.SigningKey.Public().(ed25519.PublicKey))+"\n")
}

// listFilter reads the games a list asks for: ?status=live or finished,
// ?limit=N from 1 to 500 (Config.Recent if not given).
func (s *Server) listFilter(r *http.Request) (store.Filter, error) {
	q := r.URL.Query()
	f := store.Filter{Limit: s.cfg.Recent}
	switch st := q.Get("status"); st {
	case "":
	case string(store.Live), string(store.Finished):
		f.Status = store.Status(st)
	default:
		return f, Errorf(EINVALID, "status %q: want live or finished", st)
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 500 {
			return f, Errorf(EINVALID, "limit %q: want 1 to 500", v)
		}
		f.Limit = n
	}
	return f, nil
}

// SkippedHeader is the header of a GET /api/records answer that counts
// the damaged games left out of it (each named in a comment line at the
// end of the file); absent if none were.
const SkippedHeader = "Chaturaji-Skipped"

// handleRecords is GET /api/records: the records of the games a list
// selects (?status, ?limit as GET /api/games, and ?rules=NAME), the
// oldest first, in one record file; the damaged games left out are named
// at its end (ExportRecords) and counted in SkippedHeader.
func (s *Server) handleRecords(w http.ResponseWriter, r *http.Request) {
	f, err := s.listFilter(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	x := Export{Status: f.Status, Limit: f.Limit, Rules: r.URL.Query().Get("rules"), Key: s.cfg.SigningKey, Keep: true}
	var b bytes.Buffer // whole, so that a failure halfway sends an error, not half a file
	done, err := ExportRecords(r.Context(), s.store, &b, x)
	if err != nil {
		s.fail(w, r, s.storeError("", err))
		return
	}
	for _, sk := range done.Skipped {
		s.noteDamaged(sk.ID, errors.New(sk.Error))
	}
	if n := len(done.Skipped); n > 0 {
		w.Header().Set(SkippedHeader, strconv.Itoa(n))
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b.Bytes())
}

// handleEvents is GET /api/games/{id}/events[?after=N]: the game's events
// after event N, for clients that poll instead of holding a WebSocket.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	after, err := afterParam(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	id := r.PathValue("id")
	l, info, err := s.lookup(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var holders []string
	if l != nil {
		holders = l.holders()
	} else {
		holders = seatHolders(info.Seats)
	}
	evs, err := s.store.Events(r.Context(), id, after)
	if err != nil {
		s.fail(w, r, s.storeError(id, err))
		return
	}
	list := make([]json.RawMessage, len(evs))
	for i, e := range evs {
		list[i] = s.namedStart(r.Context(), e.Data, holders)
	}
	writeJSON(w, http.StatusOK, struct {
		Events []json.RawMessage `json:"events"`
	}{list})
}

// handleAction is POST /api/games/{id}/actions with the seat's bearer
// token, or the session of the account that holds the seat (holder.go):
// it answers, once the action is saved and broadcast, the game's
// State.
func (s *Server) handleAction(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	l, info, err := s.lookup(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var pr *rules.Preset
	var hashes [][]byte
	var holders []string
	if l != nil {
		pr, hashes, holders = l.pr, l.tokenHashes(), l.holders()
	} else {
		hashes, holders = tokenHashes(info.Seats), seatHolders(info.Seats)
		if pr, err = rules.Lookup(info.Rules); err != nil {
			s.fail(w, r, s.storeError(info.ID, damaged(info.ID, err)))
			return
		}
	}
	seat, cred, err := s.holder(r, r.PathValue("id"), pr, hashes, holders, bearer(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if seat < 0 {
		s.fail(w, r, Errorf(EUNAUTHORIZED, "acting needs the seat's token (Authorization: Bearer TOKEN), or to be signed in to the account that holds the seat"))
		return
	}
	if l == nil && (s.node == nil || info.Status != store.Live) {
		s.fail(w, r, Errorf(ECONFLICT, "the game is over"))
		return
	}
	var m Message
	if err := s.readJSON(w, r, &m); err != nil {
		s.fail(w, r, err)
		return
	}
	if m.Kind == "" {
		m.Kind = "action"
	}
	if err := m.check(); err != nil {
		s.fail(w, r, err)
		return
	}
	err = errNotOwner
	if l != nil {
		err = s.act(r.Context(), l, seat, &m)
	}
	if errors.Is(err, errNotOwner) {
		if infoOf(r).forwarded {
			s.notOwner(w, r)
			return
		}
		// Lost to another node (cluster.go) since the request came: the
		// action was not applied here, and goes to the new driver.
		ans, local, ferr := s.forwardMessage(r.Context(), r.PathValue("id"), cred, &m, infoOf(r).client)
		switch {
		case ferr != nil:
			err = ferr
		case local:
			l, _, err = s.lookup(r.Context(), r.PathValue("id"))
			if err == nil && l != nil {
				err = s.act(r.Context(), l, seat, &m)
			}
		default:
			ans.write(w)
			return
		}
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.metrics.latency.Observe(time.Since(start).Seconds())
	writeJSON(w, http.StatusOK, l.state.Load())
}

// act hands a holder's message (an action, a resign, an abort or a leave)
// to the game's loop and waits for the verdict.
func (s *Server) act(ctx context.Context, l *live, seat int, m *Message) error {
	return s.onLoop(ctx, l, func() error {
		if !l.owned.Load() {
			return errNotOwner
		}
		switch m.Kind {
		case KindResign:
			return l.resign(seat)
		case KindAbort:
			return l.abort(seat)
		case KindLeave:
			return l.leave(seat)
		case KindChat:
			return l.chat(seat, m)
		default:
			return l.act(seat, m.Action, m.Seq)
		}
	})
}

// afterParam reads the "after" query parameter: an event number, 0 if
// absent.
func afterParam(r *http.Request) (int64, error) {
	v := r.URL.Query().Get("after")
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, Errorf(EINVALID, "after %q: want an event number, 0 or more", v)
	}
	return n, nil
}
