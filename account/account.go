package account

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/chaturaji/chaturaji/store"
)

// Config is the settings of a Service. Its zero fields take the defaults
// of DefaultConfig.
type Config struct {
	// Params are argon2id's parameters for new password hashes (OWASP by
	// default). A stored hash made with less is hashed again at its
	// next sign-in.
	Params Params
	// HashConcurrency is how many password hashes run at once, each
	// taking Params.Memory and a core for tens of milliseconds (2).
	HashConcurrency int
	// HashWaiters is how many password hashes may wait for their turn;
	// past that a sign-in, sign-up or password change is refused at
	// once with EUNAVAILABLE (64).
	HashWaiters int
	// IdleLifetime is how long a session lasts unused (30 days).
	IdleLifetime time.Duration
	// SessionLifetime is how long a session lasts after sign-in, used
	// or not (180 days).
	SessionLifetime time.Duration
	// TouchEvery is how often at most a session's use is written to the
	// store, moving its idle expiry on (1 minute).
	TouchEvery time.Duration

	// RPID is the WebAuthn relying party's id: the site's domain, such
	// as "chaturaji.example". Empty, passkeys are off (EUNAVAILABLE).
	RPID string
	// RPName is the site's name as authenticators show it ("Chaturaji").
	RPName string
	// RPOrigins are the origins passkeys are used from, such as
	// "https://chaturaji.example".
	RPOrigins []string
	// CeremonyLifetime is how long a passkey ceremony (registration or
	// sign-in) may take, from its beginning to its answer (5 minutes).
	CeremonyLifetime time.Duration
	// MaxCeremonies is how many passkey ceremonies may be under way at
	// once, over all clients; past it a new one is refused with
	// EUNAVAILABLE (10,000).
	MaxCeremonies int

	// Now is the clock (time.Now if nil).
	Now func() time.Time
}

// DefaultConfig is the settings a Config's zero fields take.
var DefaultConfig = Config{
	Params:           OWASP,
	HashConcurrency:  2,
	HashWaiters:      64,
	IdleLifetime:     30 * 24 * time.Hour,
	SessionLifetime:  180 * 24 * time.Hour,
	TouchEvery:       time.Minute,
	RPName:           "Chaturaji",
	CeremonyLifetime: 5 * time.Minute,
	MaxCeremonies:    10_000,
}

// Service is the accounts of a server. Its methods are safe for
// concurrent use.
type Service struct {
	cfg      Config
	st       store.Accounts
	hash     *hasher
	webauthn *webauthn.WebAuthn // nil if passkeys are off
}

// New returns the accounts kept in st, with the given settings.
func New(st store.Accounts, cfg Config) (*Service, error) {
	if st == nil {
		return nil, errors.New("account: no store given")
	}
	d := DefaultConfig
	if cfg.Params == (Params{}) {
		cfg.Params = d.Params
	}
	setDefault(&cfg.HashConcurrency, d.HashConcurrency)
	setDefault(&cfg.HashWaiters, d.HashWaiters)
	setDefault(&cfg.IdleLifetime, d.IdleLifetime)
	setDefault(&cfg.SessionLifetime, d.SessionLifetime)
	setDefault(&cfg.TouchEvery, d.TouchEvery)
	setDefault(&cfg.RPName, d.RPName)
	setDefault(&cfg.CeremonyLifetime, d.CeremonyLifetime)
	setDefault(&cfg.MaxCeremonies, d.MaxCeremonies)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	switch {
	case cfg.HashConcurrency < 0 || cfg.HashWaiters < 0 || cfg.MaxCeremonies < 0:
		return nil, fmt.Errorf("account: HashConcurrency %d, HashWaiters %d, MaxCeremonies %d: none may be negative",
			cfg.HashConcurrency, cfg.HashWaiters, cfg.MaxCeremonies)
	case cfg.IdleLifetime < 0 || cfg.SessionLifetime < 0 || cfg.TouchEvery < 0 || cfg.CeremonyLifetime < 0:
		return nil, errors.New("account: a lifetime is negative")
	case cfg.TouchEvery >= cfg.IdleLifetime:
		return nil, fmt.Errorf("account: TouchEvery %v is not under IdleLifetime %v: a session in use would expire", cfg.TouchEvery, cfg.IdleLifetime)
	}
	h, err := newHasher(cfg.Params, cfg.HashConcurrency, cfg.HashWaiters)
	if err != nil {
		return nil, fmt.Errorf("account: Params: %w", err)
	}
	s := &Service{cfg: cfg, st: st, hash: h}
	if cfg.RPID != "" {
		if s.webauthn, err = newWebAuthn(cfg); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// setDefault sets *v to d if it is zero.
func setDefault[T comparable](v *T, d T) {
	var zero T
	if *v == zero {
		*v = d
	}
}

// now is the service's clock.
func (s *Service) now() time.Time { return s.cfg.Now() }

// Account is an account as others may know it.
type Account struct {
	ID          string    // the account's id, random
	Name        string    // the username as its holder wrote it; store.DeletedName once deleted
	Created     time.Time // when it was made
	HasPassword bool      // whether it signs in with a password (else only with passkeys)
	Deleted     bool      // whether it was deleted
}

// publicAccount is a stored account as others may know it.
func publicAccount(a *store.Account) *Account {
	return &Account{ID: a.ID, Name: a.Name, Created: a.Created, HasPassword: a.Password != "", Deleted: !a.Deleted.IsZero()}
}

// account returns the account of an id: ENOTFOUND if none, or deleted.
func (s *Service) account(ctx context.Context, id string) (*Account, error) {
	a, err := s.st.Account(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && !a.Deleted.IsZero() {
		return nil, Errorf(ENOTFOUND, "no such account")
	} else if err != nil {
		return nil, storeError("account", err)
	}
	return publicAccount(a), nil
}

// Account returns an account by its id, deleted or not (a deleted one is
// named store.DeletedName): ENOTFOUND if there is none.
func (s *Service) Account(ctx context.Context, id string) (*Account, error) {
	a, err := s.st.Account(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, Errorf(ENOTFOUND, "no such account")
	} else if err != nil {
		return nil, storeError("account", err)
	}
	return publicAccount(a), nil
}

// SignUp makes an account of a username and a password ("" for none: the
// holder then signs in with the passkey it registers, or a recovery
// code), and signs it in. It returns the account, its session and its
// recovery codes, to be shown once. EINVALID for a bad name or password,
// ECONFLICT for a name taken.
func (s *Service) SignUp(ctx context.Context, name, pw string) (*Account, *Session, []string, error) {
	n, err := ParseName(name)
	if err != nil {
		return nil, nil, nil, err
	}
	var hash string
	if pw != "" {
		b, err := password(pw)
		if err != nil {
			return nil, nil, nil, err
		}
		if hash, err = s.hash.hash(ctx, b); err != nil {
			return nil, nil, nil, err
		}
	}
	var id [16]byte
	rand.Read(id[:])
	now := s.now()
	a := &store.Account{ID: hex.EncodeToString(id[:]), Name: n.Display, Folded: n.Folded, Password: hash, Created: now}
	if hash != "" {
		a.PasswordChanged = now
	}
	codes, hashes := newCodes(RecoveryCodes)
	if err := s.st.CreateAccount(ctx, a, hashes); errors.Is(err, store.ErrConflict) {
		return nil, nil, nil, Errorf(ECONFLICT, "the username %q is taken", n.Display)
	} else if err != nil {
		return nil, nil, nil, storeError("sign up", err)
	}
	ses, err := s.startSession(ctx, a.ID, "")
	if err != nil {
		return nil, nil, nil, err
	}
	return publicAccount(a), ses, codes, nil
}

// SignIn signs in with a username and password, and ends the session
// whose token previous is, if any. Every failure of the name or the
// password is the same EUNAUTHORIZED error, after the same work: it
// does not tell whether the name exists.
func (s *Service) SignIn(ctx context.Context, name, pw, previous string) (*Account, *Session, error) {
	b, err := password(pw)
	if err != nil {
		// A password no account can have: say so, as it is not about the name.
		return nil, nil, err
	}
	var a *store.Account
	stored := ""
	if n, err := ParseName(name); err == nil {
		a, err = s.st.AccountNamed(ctx, n.Folded)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, nil, storeError("sign in", err)
		}
		if a != nil {
			stored = a.Password
		}
	}
	ok, rehash, err := s.hash.verify(ctx, stored, b)
	if err != nil {
		if Code(err) != "" {
			return nil, nil, err
		}
		// A stored hash damaged: no sign-in, and nothing said of it.
		return nil, nil, &Error{Code: EUNAUTHORIZED, Message: errSignIn().Message, err: err}
	}
	if !ok {
		return nil, nil, errSignIn()
	}
	if rehash {
		if h, err := s.hash.hash(ctx, b); err == nil {
			s.st.SetPassword(ctx, a.ID, h, a.PasswordChanged) // a better hash of the same password; the next sign-in tries again if this fails
		}
	}
	ses, err := s.startSession(ctx, a.ID, previous)
	if err != nil {
		return nil, nil, err
	}
	return publicAccount(a), ses, nil
}

// ChangePassword sets an account's password, given its current one (""
// if it has none), and ends every other session of the account than the
// one whose token keep is.
func (s *Service) ChangePassword(ctx context.Context, accountID, current, pw, keep string) error {
	b, err := password(pw)
	if err != nil {
		return err
	}
	a, err := s.st.Account(ctx, accountID)
	if errors.Is(err, store.ErrNotFound) || err == nil && !a.Deleted.IsZero() {
		return Errorf(ENOTFOUND, "no such account")
	} else if err != nil {
		return storeError("change password", err)
	}
	if a.Password != "" {
		c, err := password(current)
		if err != nil {
			return Errorf(EUNAUTHORIZED, "the current password is wrong")
		}
		ok, _, err := s.hash.verify(ctx, a.Password, c)
		if err != nil && Code(err) != "" {
			return err
		}
		if !ok {
			return Errorf(EUNAUTHORIZED, "the current password is wrong")
		}
	}
	h, err := s.hash.hash(ctx, b)
	if err != nil {
		return err
	}
	if err := s.st.SetPassword(ctx, accountID, h, s.now()); err != nil {
		return storeError("change password", err)
	}
	return s.endOthers(ctx, accountID, keep)
}

// endOthers ends every session of an account but keep's.
func (s *Service) endOthers(ctx context.Context, accountID, keep string) error {
	k, _ := tokenHash(keep)
	if _, err := s.st.DeleteSessions(ctx, accountID, k); err != nil {
		return storeError("end the other sessions", err)
	}
	return nil
}

// Recover signs in with a username and one of its recovery codes,
// spending the code, sets a new password, and ends every other session of
// the account (and the one whose token previous is). Every failure of the
// name or the code is the same EUNAUTHORIZED error, after the same work.
func (s *Service) Recover(ctx context.Context, name, code, pw, previous string) (*Account, *Session, error) {
	b, err := password(pw)
	if err != nil {
		return nil, nil, err
	}
	// Hashed first, whatever the name and code: the work is the same
	// for a name that does not exist.
	h, err := s.hash.hash(ctx, b)
	if err != nil {
		return nil, nil, err
	}
	fail := Errorf(EUNAUTHORIZED, "wrong username or recovery code")
	n, err := ParseName(name)
	ch, ok := codeHash(code)
	if err != nil || !ok {
		return nil, nil, fail
	}
	a, err := s.st.AccountNamed(ctx, n.Folded)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, fail
	} else if err != nil {
		return nil, nil, storeError("recover", err)
	}
	if err := s.st.UseRecoveryCode(ctx, a.ID, ch); errors.Is(err, store.ErrNotFound) {
		return nil, nil, fail
	} else if err != nil {
		return nil, nil, storeError("recover", err)
	}
	now := s.now()
	if err := s.st.SetPassword(ctx, a.ID, h, now); err != nil {
		return nil, nil, storeError("recover", err)
	}
	a.Password, a.PasswordChanged = h, now
	if _, err := s.st.DeleteSessions(ctx, a.ID, nil); err != nil {
		return nil, nil, storeError("recover", err)
	}
	ses, err := s.startSession(ctx, a.ID, previous)
	if err != nil {
		return nil, nil, err
	}
	return publicAccount(a), ses, nil
}

// NewRecoveryCodes replaces an account's recovery codes with ten new
// ones, and returns them, to be shown once.
func (s *Service) NewRecoveryCodes(ctx context.Context, accountID string) ([]string, error) {
	codes, hashes := newCodes(RecoveryCodes)
	if err := s.st.SetRecoveryCodes(ctx, accountID, hashes); errors.Is(err, store.ErrNotFound) {
		return nil, Errorf(ENOTFOUND, "no such account")
	} else if err != nil {
		return nil, storeError("new recovery codes", err)
	}
	return codes, nil
}

// Delete deletes an account: its name, password, passkeys, recovery codes
// and sessions go; its games stay, under store.DeletedName.
func (s *Service) Delete(ctx context.Context, accountID string) error {
	if err := s.st.DeleteAccount(ctx, accountID, s.now()); errors.Is(err, store.ErrNotFound) {
		return Errorf(ENOTFOUND, "no such account")
	} else if err != nil {
		return storeError("delete account", err)
	}
	return nil
}
