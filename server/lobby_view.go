package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/chaturaji/chaturaji/lobby"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// LobbyView is what the lobby holds, as GET /api/lobby answers and the
// lobby's WebSocket sends it (kind "lobby"): the pools with their waiting
// seekers, and the open tables.
type LobbyView struct {
	Pools  []PoolView  `json:"pools"`  // Config.LobbyPools, then the others with seekers of the node
	Tables []TableView `json:"tables"` // the open tables, oldest first, at most Config.LobbyViewTables
}

// PoolView is a pool and its waiting seekers.
type PoolView struct {
	Pool    string       `json:"pool"`    // its key, such as "chaturaji/15s/casual"
	Rules   string       `json:"rules"`   // its ruleset
	TurnMS  int64        `json:"turn_ms"` // its time per decision
	Rated   bool         `json:"rated"`   // rated or casual
	Seekers []SeekerView `json:"seekers"` // the longest waiting first, at most Config.LobbyViewSeeks
}

// SeekerView is one waiting seeker, as others see it.
type SeekerView struct {
	Name   string    `json:"name"`            // shown to others
	Rating float64   `json:"rating"`          // its rating in the pool's rules, on the 1,500 scale
	Guest  bool      `json:"guest,omitempty"` // not signed in
	Since  time.Time `json:"since"`           // when it began to wait
	Bots   bool      `json:"bots,omitempty"`  // bots may fill its table after its wait
}

// TableView is an open table, as others see it.
type TableView struct {
	ID        string     `json:"id"`                   // join it by this id; its game's, once started
	Rules     string     `json:"rules"`                // its ruleset
	TurnMS    int64      `json:"turn_ms"`              // its time per decision
	Rated     bool       `json:"rated"`                // rated or casual
	MinRating float64    `json:"min_rating,omitempty"` // the lowest rating that may sit; 0 for none
	MaxRating float64    `json:"max_rating,omitempty"` // the highest; 0 for none
	Seats     []SeatView `json:"seats"`                // in seat order, South first
	Created   time.Time  `json:"created"`              // when it was opened
}

// SeatView is one seat of an open table.
type SeatView struct {
	Seat   string  `json:"seat"`             // "South", "West", ...
	Open   bool    `json:"open"`             // a person may take it; else a bot's
	Name   string  `json:"name,omitempty"`   // its holder's, if taken
	Rating float64 `json:"rating,omitempty"` // its holder's
	Guest  bool    `json:"guest,omitempty"`  // its holder is not signed in
}

// handleLobby is GET /api/lobby: the lobby's view, at most
// Config.LobbyView old, for clients without WebSockets.
func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request) {
	h := s.hall
	if h == nil {
		s.fail(w, r, Errorf(ENOTFOUND, "this server's store keeps no lobby"))
		return
	}
	h.refreshView(time.Now(), false)
	h.viewMu.Lock()
	v := h.viewJSON
	h.viewMu.Unlock()
	if v == nil {
		s.fail(w, r, unavailable(storeRetryAfter, "the lobby could not be read from the database; try again"))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// currentView returns the view as the "lobby" message sends it.
func (h *hall) currentView() []byte {
	h.viewMu.Lock()
	defer h.viewMu.Unlock()
	return h.view
}

// refreshView reads the lobby's view from the store if the last is
// LobbyView old (or none was read and force is set), and sends it to the
// lobby's WebSockets if it changed. Concurrent callers wait for one read.
func (h *hall) refreshView(now time.Time, force bool) {
	h.viewMu.Lock()
	if h.view != nil && now.Sub(h.viewAt) < h.s.cfg.LobbyView || force && h.view != nil {
		h.viewMu.Unlock()
		return
	}
	defer h.viewMu.Unlock()
	v, err := h.readView()
	if err != nil {
		h.s.repeats.Error("lobby: reading the lobby's view failed", "err", err)
		return
	}
	data, err := json.Marshal(&LobbyEvent{Kind: LobbyState, LobbyView: v})
	if err != nil {
		return
	}
	h.viewAt = now
	changed := !bytes.Equal(data, h.view)
	h.view, h.viewJSON = data, v
	if !changed {
		return
	}
	h.mu.Lock()
	for c := range h.conns {
		select {
		case c.viewed <- struct{}{}:
		default:
		}
	}
	h.mu.Unlock()
}

// readView reads the lobby's view from the store.
func (h *hall) readView() (*LobbyView, error) {
	ctx := h.s.ctx
	cfg := h.s.cfg
	var pools []lobby.Pool
	for _, key := range cfg.LobbyPools {
		if p, err := lobby.ParsePool(key); err == nil && !slices.Contains(pools, p) {
			pools = append(pools, p)
		}
	}
	h.mu.Lock()
	for _, ls := range h.seeks {
		if !slices.Contains(pools, ls.pool) {
			pools = append(pools, ls.pool)
		}
	}
	h.mu.Unlock()
	v := &LobbyView{Pools: make([]PoolView, 0, len(pools)), Tables: []TableView{}}
	for _, p := range pools {
		seeks, err := h.st.Seeks(ctx, p.String(), cfg.LobbyViewSeeks)
		if err != nil {
			return nil, err
		}
		pv := PoolView{Pool: p.String(), Rules: p.Rules, TurnMS: p.Turn.Milliseconds(), Rated: p.Rated, Seekers: []SeekerView{}}
		for _, sk := range seeks {
			for _, k := range sk.Seekers {
				pv.Seekers = append(pv.Seekers, SeekerView{Name: k.Name, Rating: k.Rating, Guest: k.Guest, Since: sk.Created, Bots: sk.Bots})
			}
		}
		v.Pools = append(v.Pools, pv)
	}
	if h.tables != nil {
		ts, err := h.tables.ListTables(ctx, cfg.LobbyViewTables)
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			if tv, err := tableView(t); err == nil {
				v.Tables = append(v.Tables, *tv)
			}
		}
	}
	return v, nil
}

// tableView returns an open table as others see it.
func tableView(t *store.OpenTable) (*TableView, error) {
	pr, err := rules.Lookup(t.Rules)
	if err != nil {
		return nil, err
	}
	seats := pr.Seats()
	tv := &TableView{ID: t.ID, Rules: t.Rules, TurnMS: t.Turn.Milliseconds(), Rated: t.Rated,
		MinRating: t.MinRating, MaxRating: t.MaxRating, Created: t.Created}
	for i, st := range t.Seats {
		if i >= len(seats) {
			break
		}
		sv := SeatView{Seat: seats[i].String(), Open: st.Open}
		if st.Player != "" {
			sv.Name, sv.Rating, sv.Guest = st.Name, st.Rating, st.Guest
		}
		tv.Seats = append(tv.Seats, sv)
	}
	return tv, nil
}
