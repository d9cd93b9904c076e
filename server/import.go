package server

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// Import stores the game of a finished record (one that `chaturaji import`
// made of a chess.com game, say) as a finished game of the server's store,
// and returns its new id. The game is stored as if people had played it
// here at an untimed, unrated table of the server's defaults: every seat
// human, named after the record's seat tags (South, West, ...), with no
// account and no token; its events those the server's own game loop would
// have saved (the start, each action, the forced passes it plays itself,
// the end), all at the time of the import; the game marked finished with
// its result and its record kept, signed if the server signs its records.
// So GET /api/games/{id}, its events and record, the replay page and
// `chaturaji export` serve it as any other.
//
// A record that does not replay, of a game not over, of a preset with dice
// (whose rolls would have to follow from the server's seed), that starts
// elsewhere than its preset's start position, or whose names the server
// refuses, is refused with an EINVALID error, and nothing is stored. If the
// store fails part way, the error names the game's id.
func (s *Server) Import(ctx context.Context, r *record.Record) (string, error) {
	im, err := s.prepareImport(r)
	if err != nil {
		return "", err
	}
	info := im.info
	failed := func(what string, err error) error {
		return fmt.Errorf("server: import: game %s: %s: %w", info.ID, what, err)
	}
	if err := s.store.CreateGame(ctx, info); err != nil {
		return "", fmt.Errorf("server: import: creating the game: %w", err)
	}
	if err := s.store.AppendEvents(ctx, info.ID, 0, im.events); err != nil {
		return "", failed("saving its events", err)
	}
	if err := s.store.Finish(ctx, info.ID, im.result); err != nil {
		return "", failed("marking it finished", err)
	}
	if err := s.store.SetRecord(ctx, info.ID, []byte(im.record)); err != nil {
		return "", failed("keeping its record", err)
	}
	s.log.Info("game imported", "game", info.ID, "rules", info.Rules, "result", im.result, "events", len(im.events))
	return info.ID, nil
}

// CheckImport returns the error Import would refuse r with, storing
// nothing: so that a caller importing many records can refuse them all
// before storing any.
func (s *Server) CheckImport(r *record.Record) error {
	_, err := s.prepareImport(r)
	return err
}

// imported is a record's game made ready to store by prepareImport.
type imported struct {
	info   *store.Game
	events []store.Event
	result string // the end's
	record string // the record to keep, signed if the server signs
}

// prepareImport makes what Import stores of r, or returns why Import
// refuses it.
func (s *Server) prepareImport(r *record.Record) (*imported, error) {
	g, err := r.Replay()
	if err != nil {
		return nil, Errorf(EINVALID, "%v", err)
	}
	pr := g.Preset()
	switch {
	case pr.Die != nil:
		return nil, Errorf(EINVALID, "a game of %s has dice: the server's rolls follow from its own seed, which the record's do not", pr.Name)
	case !g.Start().Equal(pr.StartPosition()):
		return nil, Errorf(EINVALID, "the game starts from %s, not from the start position of %s, where the server's games start", g.Start(), pr.Name)
	case !g.Finished():
		return nil, Errorf(EINVALID, "the game is not over (Result *): only a finished game is imported")
	}
	ng := &NewGame{Rules: pr.Name}
	for _, seat := range pr.Seats() {
		name, _ := r.Tags.Get(seat.String())
		ng.Seats, ng.Names = append(ng.Seats, Human), append(ng.Names, name)
	}
	pr, table, err := ng.check(s.cfg)
	if err != nil {
		return nil, err
	}
	table.Help = true // as a new game's default
	set, err := json.Marshal(settings{Table: table})
	if err != nil {
		return nil, err
	}
	seed := rules.NewSeed()
	now := stamp()
	info := newGameRow(newID(), pr, seed, set, false, now)
	for _, name := range ng.Names {
		info.Seats = append(info.Seats, store.Seat{Player: Human, Name: name})
	}
	// A loop that never runs: its methods make the events as the game's
	// own loop makes them.
	l := &live{srv: s, id: info.ID, pr: pr, info: cloneGame(info), table: table, game: rules.NewGame(pr, seed)}
	evs := l.advance([]*Event{l.startEvent(now)}, now)
	var acts []rules.Action
	for _, t := range r.Turns {
		acts = append(acts, t.Actions...)
	}
	for k := 0; k < len(acts); k++ {
		a := acts[k]
		by := ByPlayer
		if a == rules.TimeoutAction {
			by = ByTimeout
		}
		e, err := l.actionEvent(l.game.Position().Decider(), a, by, now)
		if err != nil {
			return nil, Errorf(EINVALID, "action %d, %s: %v", k+1, a.Format(pr), err)
		}
		more := l.advance([]*Event{e}, now)
		// The forced passes the loop played itself are the record's next
		// actions.
		for _, m := range more[1:] {
			if m.Kind == KindAction {
				if k++; k >= len(acts) || acts[k] != rules.PassAction {
					return nil, Errorf(EINVALID, "action %d: the server plays a forced pass there, which the record does not", k+1)
				}
			}
		}
		evs = append(evs, more...)
	}
	if !l.game.Finished() || !l.game.Position().Equal(g.Position()) {
		return nil, Errorf(EINVALID, "the server's events end in %s, the record in %s", l.game.Position(), g.Position())
	}
	recs := make([]store.Event, len(evs))
	for i, e := range evs {
		e.Seq = int64(i) + 1
		data, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		recs[i] = store.Event{Seq: e.Seq, Kind: e.Kind, Data: data, At: e.At}
	}
	// What a server reading the game back makes of the events: the same
	// game, or nothing is stored.
	back, err := replay(info, recs)
	if err != nil {
		return nil, fmt.Errorf("server: import: the events do not replay: %w", err)
	}
	if !back.game.Position().Equal(g.Position()) {
		return nil, fmt.Errorf("server: import: the events replay to %s, the record to %s", back.game.Position(), g.Position())
	}
	text := gameRecord(l.game, info, table, nil, nil, "", true, s.cfg.SigningKey).String()
	return &imported{info: info, events: recs, result: evs[len(evs)-1].Result, record: text}, nil
}
