package server

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"

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

// serves reports whether a kept record text may be served by a server
// that signs with key: one without a key serves any; one with a key, those
// its key signed (another key's, or none, is built again and signed).
func serves(text []byte, key ed25519.PrivateKey) bool {
	if key == nil {
		return true
	}
	signer := record.Tag{Name: record.SignerTag, Value: record.FormatPublicKey(key.Public().(ed25519.PublicKey))}
	return bytes.Contains(text, []byte("\n"+signer.String()+"\n"))
}

// recordText returns the record of game info: for a finished game the text
// kept, if it serves x.Key; else the record rebuilt from the game's row and
// events, signed with x.Key if the game is over, and, for a finished game
// if x.Keep, kept (a failure to keep it is not the caller's: the record is
// built again next time). A game that cannot be rebuilt is a
// *damagedError.
func recordText(ctx context.Context, st store.Store, info *store.Game, kept []byte, x Export) (string, error) {
	if info.Status == store.Finished && kept != nil && serves(kept, x.Key) {
		return string(kept), nil
	}
	// The game's row is read again: a list shows a damaged seed as it is
	// stored, which Game explains.
	r, err := readGame(ctx, st, info.ID)
	if err != nil {
		return "", err
	}
	over := r.game.Finished() || r.last != nil && r.last.Kind == KindEnd
	text := gameRecord(r.game, r.info, r.takeovers, termination(r.last), over, x.Key).String()
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
