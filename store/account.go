package store

import (
	"context"
	"errors"
	"time"
)

// ErrFull is a write refused because the store already keeps as many
// things of its kind as the caller's limit allows (Accounts.PutCeremony).
var ErrFull = errors.New("store: full")

// DeletedName is the name the store gives a deleted account in what it
// returns for it: its games stay, under this name. It is not a username
// anyone can take (it has a space).
const DeletedName = "deleted player"

// Account is a player's identity as the store keeps it. The store keeps
// no password, token or recovery code in plain form: only their hashes.
type Account struct {
	ID string // chosen by the caller, random; also the WebAuthn user handle
	// Name is the username as its holder chose it; DeletedName once the
	// account is deleted.
	Name string
	// Folded is Name case-folded: unique among the accounts not
	// deleted, and what AccountNamed looks up; "" once deleted.
	Folded string
	// Password is the PHC string of the password's hash, "" for none.
	Password        string
	PasswordChanged time.Time // when Password was last set; zero if never
	Created         time.Time // when the account was created
	Deleted         time.Time // when it was deleted; zero if it was not
}

// Session is one signed-in client of an account. Its token stays with the
// client; the store keeps its SHA-256.
type Session struct {
	TokenHash []byte    // SHA-256 of the session's token
	AccountID string    // the account signed in
	Created   time.Time // when it was created (at sign-in)
	Seen      time.Time // when it was last used, as last noted (TouchSession)
	Expires   time.Time // when it ends unless used again
}

// Passkey is a WebAuthn credential registered to an account.
type Passkey struct {
	AccountID  string   // its account
	ID         []byte   // the credential id; unique among all accounts
	PublicKey  []byte   // COSE_Key of the credential's public key
	SignCount  uint32   // the authenticator's signature counter, as last seen
	Transports []string // how the client reaches the authenticator ("internal", "usb", ...)
	AAGUID     []byte   // the authenticator model's AAGUID (16 bytes; zero for "none" attestation)
	// The flags the authenticator set: user verified; backup eligible
	// (a synced passkey); backed up.
	UserVerified, BackupEligible, BackupState bool
	Name                                      string    // a label its holder gave it
	Created                                   time.Time // when it was registered
	LastUsed                                  time.Time // when it last signed in; zero if never
}

// Ceremony is the server's half of a WebAuthn ceremony under way (a
// registration or a sign-in): its challenge and settings, kept until the
// client answers or it expires.
type Ceremony struct {
	ID        string    // random, the client's handle on it
	Kind      string    // what it is for, such as "register" or "signin"
	AccountID string    // the account registering; "" for a sign-in by a discoverable passkey
	Data      []byte    // the ceremony's state, the caller's (JSON)
	Expires   time.Time // when it can no longer be finished
}

// Accounts keeps accounts, their credentials and sessions. SQLite's and
// PostgreSQL's stores implement it (AccountsOf); every method is safe for
// concurrent use. Every method that takes an account's id says
// ErrNotFound for an unknown or deleted one, unless it says otherwise.
type Accounts interface {
	// CreateAccount stores a new account with the hashes of its
	// recovery codes; ErrConflict if its id or its Folded name is taken.
	// A zero Created is stored as now, and set in a.
	CreateAccount(ctx context.Context, a *Account, recovery [][]byte) error
	// Account returns the account with the given id, deleted or not (a
	// deleted one named DeletedName), or ErrNotFound.
	Account(ctx context.Context, id string) (*Account, error)
	// AccountNamed returns the account, not deleted, whose Folded name
	// is folded, or ErrNotFound.
	AccountNamed(ctx context.Context, folded string) (*Account, error)
	// SetPassword replaces the account's password hash, noting when.
	SetPassword(ctx context.Context, id, hash string, at time.Time) error
	// UseRecoveryCode spends one of the account's recovery codes, given
	// by its hash: ErrNotFound if the account has no such code (never
	// had, or spent it). Two uses of a code at once: one succeeds.
	UseRecoveryCode(ctx context.Context, id string, hash []byte) error
	// SetRecoveryCodes replaces all of the account's recovery codes.
	SetRecoveryCodes(ctx context.Context, id string, hashes [][]byte) error
	// RecoveryCodesLeft counts the account's recovery codes not spent.
	RecoveryCodesLeft(ctx context.Context, id string) (int, error)

	// CreateSession stores a new session; ErrConflict if its token
	// hash is taken, ErrNotFound if its account is unknown or deleted.
	CreateSession(ctx context.Context, s *Session) error
	// Session returns the session whose token hash is given, expired or
	// not, or ErrNotFound.
	Session(ctx context.Context, tokenHash []byte) (*Session, error)
	// TouchSession notes a session used at seen, to end at expires;
	// ErrNotFound if there is no such session.
	TouchSession(ctx context.Context, tokenHash []byte, seen, expires time.Time) error
	// DeleteSession ends a session; ending one that does not exist does
	// nothing.
	DeleteSession(ctx context.Context, tokenHash []byte) error
	// DeleteSessions ends every session of the account but the one
	// whose token hash is keep (nil to end all), and returns how many it
	// ended.
	DeleteSessions(ctx context.Context, accountID string, keep []byte) (int, error)
	// Sessions returns the account's sessions, oldest first.
	Sessions(ctx context.Context, accountID string) ([]*Session, error)
	// DeleteExpired removes the sessions and ceremonies that expired
	// before now, and returns how many of each it removed.
	DeleteExpired(ctx context.Context, now time.Time) (sessions, ceremonies int, err error)

	// AddPasskey registers a passkey; ErrConflict if its credential id
	// is registered already (to any account). A zero Created is stored
	// as now, and set in p.
	AddPasskey(ctx context.Context, p *Passkey) error
	// Passkeys returns the account's passkeys, oldest first.
	Passkeys(ctx context.Context, accountID string) ([]*Passkey, error)
	// UpdatePasskey notes a sign-in with a passkey: its SignCount,
	// flags and LastUsed; ErrNotFound if the account has no such
	// passkey.
	UpdatePasskey(ctx context.Context, p *Passkey) error
	// DeletePasskey removes one of the account's passkeys: ErrNotFound
	// if it has no such passkey, ErrConflict if it is the account's last
	// passkey and the account has no password (it could not sign in).
	DeletePasskey(ctx context.Context, accountID string, id []byte) error

	// PutCeremony keeps a ceremony under way, after removing those
	// expired: ErrFull if limit (> 0) of them are kept already,
	// ErrConflict if its id is taken.
	PutCeremony(ctx context.Context, c *Ceremony, limit int) error
	// TakeCeremony returns the ceremony with the given id and removes
	// it, so that it is finished at most once: ErrNotFound if there is
	// none, or it expired before now.
	TakeCeremony(ctx context.Context, id string, now time.Time) (*Ceremony, error)

	// DeleteAccount deletes an account: its password, recovery codes,
	// sessions, passkeys and ceremonies go, and its name with them (its
	// Folded name may be taken again). Its row stays, so that what
	// refers to it (games) still finds it, named DeletedName.
	DeleteAccount(ctx context.Context, id string, at time.Time) error
}

// AccountsOf returns st's Accounts, looking through wrappers such as
// Sealed, or nil if st keeps no accounts.
func AccountsOf(st Store) Accounts {
	for {
		if a, ok := st.(Accounts); ok {
			return a
		}
		u, ok := st.(interface{ Unwrap() Store })
		if !ok {
			return nil
		}
		st = u.Unwrap()
	}
}
