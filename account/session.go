package account

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// tokenBytes is the random bytes of a session token: 256 bits.
const tokenBytes = 32

// Session is a signed-in client of an account.
type Session struct {
	Token     string    // the secret the client presents (a cookie); set only when the session is made
	AccountID string    // the account signed in
	Created   time.Time // when it was made (at sign-in)
	Expires   time.Time // when it ends unless used again
}

// tokenHash returns the hash of a session token as the store keeps it, or
// false if it cannot be a token.
func tokenHash(token string) ([]byte, bool) {
	b, err := base64.RawURLEncoding.Strict().DecodeString(token)
	if err != nil || len(b) != tokenBytes {
		return nil, false
	}
	h := sha256.Sum256(b)
	return h[:], true
}

// startSession makes a new session of an account, ending the one whose
// token previous is (the client's before it signed in), if any: a
// session is never carried across a sign-in.
func (s *Service) startSession(ctx context.Context, accountID, previous string) (*Session, error) {
	if h, ok := tokenHash(previous); ok {
		if err := s.st.DeleteSession(ctx, h); err != nil {
			return nil, storeError("sign in", err)
		}
	}
	var b [tokenBytes]byte
	rand.Read(b[:])
	h := sha256.Sum256(b[:])
	now := s.now()
	ses := &store.Session{
		TokenHash: h[:],
		AccountID: accountID,
		Created:   now,
		Seen:      now,
		Expires:   s.expires(now, now),
	}
	if err := s.st.CreateSession(ctx, ses); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, Errorf(EUNAUTHORIZED, "the account was deleted")
		}
		return nil, storeError("sign in", err)
	}
	return &Session{Token: base64.RawURLEncoding.EncodeToString(b[:]), AccountID: accountID, Created: ses.Created, Expires: ses.Expires}, nil
}

// expires is when a session made at created and seen at seen ends: an
// idle lifetime after it was seen, but no later than its whole lifetime
// after it was made.
func (s *Service) expires(created, seen time.Time) time.Time {
	idle, whole := seen.Add(s.cfg.IdleLifetime), created.Add(s.cfg.SessionLifetime)
	if idle.Before(whole) {
		return idle
	}
	return whole
}

// Authenticate returns the account and session a session token opens:
// EUNAUTHORIZED if none (a token unknown, ended or expired). It notes
// the session used, moving its idle expiry on, at most once every
// Config.TouchEvery.
func (s *Service) Authenticate(ctx context.Context, token string) (*Account, *Session, error) {
	h, ok := tokenHash(token)
	if !ok {
		return nil, nil, Errorf(EUNAUTHORIZED, "not signed in: the session token is malformed")
	}
	ses, err := s.st.Session(ctx, h)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, Errorf(EUNAUTHORIZED, "not signed in: the session ended (signed out, or the account's sessions were ended)")
	} else if err != nil {
		return nil, nil, storeError("authenticate", err)
	}
	now := s.now()
	if !now.Before(ses.Expires) {
		s.st.DeleteSession(ctx, h) // gone all the same; DeleteExpired would remove it
		return nil, nil, Errorf(EUNAUTHORIZED, "not signed in: the session expired at %s", ses.Expires.Format(time.RFC3339))
	}
	if now.Sub(ses.Seen) >= s.cfg.TouchEvery {
		ses.Seen, ses.Expires = now, s.expires(ses.Created, now)
		if err := s.st.TouchSession(ctx, h, ses.Seen, ses.Expires); err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, nil, storeError("authenticate", err)
		}
	}
	acc, err := s.account(ctx, ses.AccountID)
	if err != nil {
		return nil, nil, err
	}
	return acc, &Session{AccountID: ses.AccountID, Created: ses.Created, Expires: ses.Expires}, nil
}

// SignOut ends the session of a token; a token that opens none is no
// error.
func (s *Service) SignOut(ctx context.Context, token string) error {
	h, ok := tokenHash(token)
	if !ok {
		return nil
	}
	if err := s.st.DeleteSession(ctx, h); err != nil {
		return storeError("sign out", err)
	}
	return nil
}

// SignOutEverywhere ends every session of an account, and returns how
// many it ended.
func (s *Service) SignOutEverywhere(ctx context.Context, accountID string) (int, error) {
	n, err := s.st.DeleteSessions(ctx, accountID, nil)
	if err != nil {
		return 0, storeError("sign out everywhere", err)
	}
	return n, nil
}

// PurgeExpired removes the sessions and passkey ceremonies that expired,
// and returns how many of each; the server calls it now and then.
func (s *Service) PurgeExpired(ctx context.Context) (sessions, ceremonies int, err error) {
	sessions, ceremonies, err = s.st.DeleteExpired(ctx, s.now())
	if err != nil {
		return 0, 0, storeError("purge", err)
	}
	return sessions, ceremonies, nil
}
