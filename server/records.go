package server

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/store"
)

// Records built once. A finished game's record never changes, so the
// server builds it when the game ends, signs it, and keeps the text in the
// store (store.Store.SetRecord): serving it later, and after a restart,
// replays nothing. A finished game with no record kept (the store failed
// when it ended, or it ended before records were kept) is rebuilt from its
// events the first time it is asked for, and kept then.

// keepRecord keeps the record of the game, which has just been marked
// finished, in the store. If the store fails, the record is built again
// when it is first asked for.
func (l *live) keepRecord(ctx context.Context) {
	text := l.record().String()
	if err := l.srv.store.SetRecord(ctx, l.id, []byte(text)); err != nil {
		l.srv.storeFailed(opRecord, "keeping the record of a finished game", l.id, err)
	}
}

// keptRecord checks the record text kept for finished game id before a
// server that signs with key serves it, since the database is not the
// server's to trust: the text must be a record of game id, and one that
// names key as its signer must be, byte for byte, a record key signed
// (record.CheckSignedText: one signature check, no parse). It returns
// whether to serve the text: not if it is not key's (unsigned, or signed
// by another key: the caller builds the record again and signs it with
// key). An error, naming the game, says the text was changed in the
// database. A server without a key checks a text that names its signer
// under that signer's key, and parses one that does not: it cannot tell
// an unsigned record that was changed, only one that does not read.
func keptRecord(id string, text []byte, key ed25519.PrivateKey) (bool, error) {
	changed := func(err error) error {
		var e *record.Error
		if errors.As(err, &e) {
			c := *e
			c.Game = 0 // its place in the text kept: always the first
			err = &c
		}
		return fmt.Errorf("game %s: its record kept in the database was changed: %w", id, err)
	}
	tags, err := record.ReadHeader(string(text))
	if err != nil {
		return false, changed(err)
	}
	if game, _ := tags.Get("Game"); game != id {
		return false, changed(fmt.Errorf("it is the record of game %q", game))
	}
	signer, signed := tags.Get(record.SignerTag)
	var pub ed25519.PublicKey
	switch {
	case key != nil:
		pub = key.Public().(ed25519.PublicKey)
		if !signed || signer != record.FormatPublicKey(pub) {
			return false, nil
		}
	case signed:
		if pub, err = record.ParsePublicKey(signer); err != nil {
			return false, changed(err)
		}
	default:
		if rs, err := record.ParseString(string(text)); err != nil {
			return false, changed(err)
		} else if len(rs) != 1 {
			return false, changed(fmt.Errorf("it holds %d records, not 1", len(rs)))
		}
		return true, nil
	}
	if err := record.CheckSignedText(string(text), pub); err != nil {
		return false, changed(err)
	}
	return true, nil
}

// recordText returns the record of game info: for a finished game the text
// kept, if it is x.Key's to serve and sound (keptRecord); else the record rebuilt from the game's row and
// events, signed with x.Key if the game is over, and, for a finished game
// if x.Keep, kept (a failure to keep it is not the caller's: the record is
// built again next time). A game that cannot be rebuilt, or whose kept
// record was changed in the database, is a *damagedError.
func recordText(ctx context.Context, st store.Store, info *store.Game, kept []byte, x Export) (string, error) {
	if info.Status == store.Finished && kept != nil {
		ok, err := keptRecord(info.ID, kept, x.Key)
		if err != nil {
			return "", &damagedError{id: info.ID, err: err}
		}
		if ok {
			return string(kept), nil
		}
	}
	// The game's row is read again: a list shows a damaged seed as it is
	// stored, which Game explains.
	r, err := readGame(ctx, st, info.ID)
	if err != nil {
		return "", err
	}
	over := r.game.Finished() || r.last != nil && r.last.Kind == KindEnd
	text := gameRecord(r.game, r.info, r.table, r.times, r.takeovers, termination(r.last), over, x.Key).String()
	if x.Keep && over && info.Status == store.Finished {
		st.SetRecord(ctx, info.ID, []byte(text))
	}
	return text, nil
}

// isDamaged reports whether err says a game is damaged, and returns it.
func isDamaged(err error) (*damagedError, bool) {
	var d *damagedError
	ok := errors.As(err, &d)
	return d, ok
}
