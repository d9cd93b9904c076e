package account

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/chaturaji/chaturaji/store"
)

// The kinds of ceremony the store keeps.
const (
	ceremonyRegister = "register"
	ceremonySignIn   = "signin"
)

// MaxResponse bounds the bytes of a client's answer to a passkey
// ceremony.
const MaxResponse = 64 << 10

// maxPasskeyName bounds the bytes of a passkey's label.
const maxPasskeyName = 64

// Passkey is a passkey of an account, as its holder may see it.
type Passkey struct {
	ID         []byte    // the credential id
	Name       string    // the label its holder gave it
	Transports []string  // how the client reaches the authenticator
	AAGUID     []byte    // the authenticator model, if it said
	Synced     bool      // backup eligible: a passkey a provider syncs between devices
	Created    time.Time // when it was registered
	LastUsed   time.Time // when it last signed in; zero if never
}

// newWebAuthn returns the relying party of cfg.
func newWebAuthn(cfg Config) (*webauthn.WebAuthn, error) {
	timeout := webauthn.TimeoutConfig{Enforce: true, Timeout: cfg.CeremonyLifetime, TimeoutUVD: cfg.CeremonyLifetime}
	w, err := webauthn.New(&webauthn.Config{
		RPID:                  cfg.RPID,
		RPDisplayName:         cfg.RPName,
		RPOrigins:             cfg.RPOrigins,
		AttestationPreference: protocol.PreferNoAttestation,
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			ResidentKey:        protocol.ResidentKeyRequirementRequired,
			RequireResidentKey: protocol.ResidentKeyRequired(),
			UserVerification:   protocol.VerificationPreferred,
		},
		Timeouts: webauthn.TimeoutsConfig{Login: timeout, Registration: timeout},
	})
	if err != nil {
		return nil, fmt.Errorf("account: passkeys: %w", err)
	}
	return w, nil
}

// user is an account as package webauthn sees it.
type user struct {
	a    *store.Account
	keys []*store.Passkey
}

func (u *user) WebAuthnID() []byte          { return []byte(u.a.ID) }
func (u *user) WebAuthnName() string        { return u.a.Name }
func (u *user) WebAuthnDisplayName() string { return u.a.Name }

func (u *user) WebAuthnCredentials() []webauthn.Credential {
	var out []webauthn.Credential
	for _, p := range u.keys {
		var transports []protocol.AuthenticatorTransport
		for _, t := range p.Transports {
			transports = append(transports, protocol.AuthenticatorTransport(t))
		}
		out = append(out, webauthn.Credential{
			ID:        p.ID,
			PublicKey: p.PublicKey,
			Transport: transports,
			Flags: webauthn.CredentialFlags{
				UserPresent:    true,
				UserVerified:   p.UserVerified,
				BackupEligible: p.BackupEligible,
				BackupState:    p.BackupState,
			},
			Authenticator: webauthn.Authenticator{AAGUID: p.AAGUID, SignCount: p.SignCount},
		})
	}
	return out
}

// loadUser returns an account, not deleted, with its passkeys.
func (s *Service) loadUser(ctx context.Context, id string) (*user, error) {
	a, err := s.st.Account(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && !a.Deleted.IsZero() {
		return nil, Errorf(ENOTFOUND, "no such account")
	} else if err != nil {
		return nil, storeError("passkeys", err)
	}
	keys, err := s.st.Passkeys(ctx, id)
	if err != nil {
		return nil, storeError("passkeys", err)
	}
	return &user{a: a, keys: keys}, nil
}

// passkeysOn returns EUNAVAILABLE if passkeys are off.
func (s *Service) passkeysOn() error {
	if s.webauthn == nil {
		return Errorf(EUNAVAILABLE, "passkeys are not set up on this server")
	}
	return nil
}

// putCeremony keeps the server's half of a ceremony and returns its id.
func (s *Service) putCeremony(ctx context.Context, kind, accountID string, data *webauthn.SessionData) (string, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return "", fmt.Errorf("account: %w", err)
	}
	var id [32]byte
	rand.Read(id[:])
	c := &store.Ceremony{
		ID:        base64.RawURLEncoding.EncodeToString(id[:]),
		Kind:      kind,
		AccountID: accountID,
		Data:      b,
		Expires:   s.now().Add(s.cfg.CeremonyLifetime),
	}
	switch err := s.st.PutCeremony(ctx, c, s.cfg.MaxCeremonies); {
	case errors.Is(err, store.ErrFull):
		return "", Errorf(EUNAVAILABLE, "too many passkey ceremonies are under way; try again in a moment")
	case errors.Is(err, store.ErrNotFound):
		return "", Errorf(ENOTFOUND, "no such account")
	case err != nil:
		return "", storeError("passkey", err)
	}
	return c.ID, nil
}

// takeCeremony returns the server's half of a ceremony of the given kind
// and account, and forgets it: a ceremony is finished at most once.
func (s *Service) takeCeremony(ctx context.Context, id, kind, accountID string) (*webauthn.SessionData, error) {
	c, err := s.st.TakeCeremony(ctx, id, s.now())
	if errors.Is(err, store.ErrNotFound) {
		return nil, Errorf(EUNAUTHORIZED, "no passkey ceremony %q under way: it expired, was finished already, or never began", id)
	} else if err != nil {
		return nil, storeError("passkey", err)
	}
	if c.Kind != kind || c.AccountID != accountID {
		return nil, Errorf(EUNAUTHORIZED, "passkey ceremony %q is not this account's %s", id, kind)
	}
	var data webauthn.SessionData
	if err := json.Unmarshal(c.Data, &data); err != nil {
		return nil, fmt.Errorf("account: passkey ceremony %q: %w", id, err)
	}
	return &data, nil
}

// refused is a failed WebAuthn verification as an *Error.
func refused(what string, err error) *Error {
	msg := err.Error()
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		msg = pe.Details
	}
	return &Error{Code: EUNAUTHORIZED, Message: fmt.Sprintf("%s: the passkey was refused: %s", what, msg), err: err}
}

// BeginRegistration begins registering a new passkey to an account. It
// returns the options for the browser's navigator.credentials.create (as
// JSON) and the ceremony's id, to give back to FinishRegistration.
func (s *Service) BeginRegistration(ctx context.Context, accountID string) (*protocol.CredentialCreation, string, error) {
	if err := s.passkeysOn(); err != nil {
		return nil, "", err
	}
	u, err := s.loadUser(ctx, accountID)
	if err != nil {
		return nil, "", err
	}
	exclude := webauthn.Credentials(u.WebAuthnCredentials()).CredentialDescriptors()
	creation, data, err := s.webauthn.BeginRegistration(u, webauthn.WithExclusions(exclude))
	if err != nil {
		return nil, "", fmt.Errorf("account: begin registration: %w", err)
	}
	id, err := s.putCeremony(ctx, ceremonyRegister, accountID, data)
	if err != nil {
		return nil, "", err
	}
	return creation, id, nil
}

// FinishRegistration finishes registering a passkey with the browser's
// answer (the JSON of its PublicKeyCredential), labelled name, and
// returns it.
func (s *Service) FinishRegistration(ctx context.Context, accountID, ceremony string, response []byte, name string) (*Passkey, error) {
	if err := s.passkeysOn(); err != nil {
		return nil, err
	}
	if len(response) > MaxResponse {
		return nil, Errorf(EINVALID, "passkey answer of %d bytes: at most %d", len(response), MaxResponse)
	}
	if len(name) > maxPasskeyName || checkLabel(name) != nil {
		return nil, Errorf(EINVALID, "passkey name %q: printable text of at most %d bytes", name, maxPasskeyName)
	}
	data, err := s.takeCeremony(ctx, ceremony, ceremonyRegister, accountID)
	if err != nil {
		return nil, err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(response)
	if err != nil {
		return nil, refused("register", err)
	}
	u, err := s.loadUser(ctx, accountID)
	if err != nil {
		return nil, err
	}
	cred, err := s.webauthn.CreateCredential(u, *data, parsed)
	if err != nil {
		return nil, refused("register", err)
	}
	var transports []string
	for _, t := range cred.Transport {
		transports = append(transports, string(t))
	}
	p := &store.Passkey{
		AccountID:      accountID,
		ID:             cred.ID,
		PublicKey:      cred.PublicKey,
		SignCount:      cred.Authenticator.SignCount,
		Transports:     transports,
		AAGUID:         cred.Authenticator.AAGUID,
		UserVerified:   cred.Flags.UserVerified,
		BackupEligible: cred.Flags.BackupEligible,
		BackupState:    cred.Flags.BackupState,
		Name:           name,
		Created:        s.now(),
	}
	switch err := s.st.AddPasskey(ctx, p); {
	case errors.Is(err, store.ErrConflict):
		return nil, Errorf(ECONFLICT, "the passkey is registered already")
	case errors.Is(err, store.ErrNotFound):
		return nil, Errorf(ENOTFOUND, "no such account")
	case err != nil:
		return nil, storeError("register", err)
	}
	return publicPasskey(p), nil
}

// checkLabel checks a passkey's label: valid UTF-8 without control
// characters.
func checkLabel(s string) error {
	if !bytes.Equal([]byte(s), bytes.ToValidUTF8([]byte(s), nil)) {
		return errors.New("not UTF-8")
	}
	for _, r := range s {
		if r < ' ' || r == 0x7f {
			return errors.New("a control character")
		}
	}
	return nil
}

// BeginSignIn begins a sign-in by passkey. It asks for no name: the
// passkey (a discoverable credential) names its account. It returns the
// options for the browser's navigator.credentials.get (as JSON) and the
// ceremony's id, to give back to FinishSignIn.
func (s *Service) BeginSignIn(ctx context.Context) (*protocol.CredentialAssertion, string, error) {
	if err := s.passkeysOn(); err != nil {
		return nil, "", err
	}
	assertion, data, err := s.webauthn.BeginDiscoverableLogin()
	if err != nil {
		return nil, "", fmt.Errorf("account: begin sign-in: %w", err)
	}
	id, err := s.putCeremony(ctx, ceremonySignIn, "", data)
	if err != nil {
		return nil, "", err
	}
	return assertion, id, nil
}

// FinishSignIn finishes a sign-in by passkey with the browser's answer
// (the JSON of its PublicKeyCredential), ends the session whose token
// previous is, if any, and returns the account and its new session.
// A passkey whose signature counter went back (a cloned authenticator)
// is refused.
func (s *Service) FinishSignIn(ctx context.Context, ceremony string, response []byte, previous string) (*Account, *Session, error) {
	if err := s.passkeysOn(); err != nil {
		return nil, nil, err
	}
	if len(response) > MaxResponse {
		return nil, nil, Errorf(EINVALID, "passkey answer of %d bytes: at most %d", len(response), MaxResponse)
	}
	data, err := s.takeCeremony(ctx, ceremony, ceremonySignIn, "")
	if err != nil {
		return nil, nil, err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(response)
	if err != nil {
		return nil, nil, refused("sign in", err)
	}
	var found *user
	handler := func(rawID, userHandle []byte) (webauthn.User, error) {
		u, err := s.loadUser(ctx, string(userHandle))
		if err != nil {
			return nil, errors.New("no account has this passkey")
		}
		found = u
		return u, nil
	}
	_, cred, err := s.webauthn.ValidatePasskeyLogin(handler, *data, parsed)
	if err != nil {
		return nil, nil, refused("sign in", err)
	}
	if cred.Authenticator.CloneWarning {
		return nil, nil, Errorf(EUNAUTHORIZED, "sign in: the passkey was refused: its signature counter went back, as a cloned authenticator's would")
	}
	var p *store.Passkey
	for _, k := range found.keys {
		if bytes.Equal(k.ID, cred.ID) {
			p = k
		}
	}
	if p == nil {
		return nil, nil, Errorf(EUNAUTHORIZED, "sign in: the passkey was refused: the account has no such passkey")
	}
	p.SignCount, p.LastUsed = cred.Authenticator.SignCount, s.now()
	p.UserVerified, p.BackupEligible, p.BackupState = cred.Flags.UserVerified, cred.Flags.BackupEligible, cred.Flags.BackupState
	if err := s.st.UpdatePasskey(ctx, p); errors.Is(err, store.ErrNotFound) {
		return nil, nil, Errorf(EUNAUTHORIZED, "sign in: the passkey was removed")
	} else if err != nil {
		return nil, nil, storeError("sign in", err)
	}
	ses, err := s.startSession(ctx, found.a.ID, previous)
	if err != nil {
		return nil, nil, err
	}
	return publicAccount(found.a), ses, nil
}

// publicPasskey is a stored passkey as its holder may see it.
func publicPasskey(p *store.Passkey) *Passkey {
	return &Passkey{ID: p.ID, Name: p.Name, Transports: p.Transports, AAGUID: p.AAGUID, Synced: p.BackupEligible,
		Created: p.Created, LastUsed: p.LastUsed}
}

// Passkeys returns an account's passkeys, oldest first.
func (s *Service) Passkeys(ctx context.Context, accountID string) ([]*Passkey, error) {
	keys, err := s.st.Passkeys(ctx, accountID)
	if err != nil {
		return nil, storeError("passkeys", err)
	}
	var out []*Passkey
	for _, p := range keys {
		out = append(out, publicPasskey(p))
	}
	return out, nil
}

// RemovePasskey removes one of an account's passkeys: ENOTFOUND if it has
// no such passkey, ECONFLICT if it is the last one of an account with no
// password.
func (s *Service) RemovePasskey(ctx context.Context, accountID string, id []byte) error {
	switch err := s.st.DeletePasskey(ctx, accountID, id); {
	case errors.Is(err, store.ErrNotFound):
		return Errorf(ENOTFOUND, "the account has no such passkey")
	case errors.Is(err, store.ErrConflict):
		return Errorf(ECONFLICT, "the account's last passkey cannot be removed while it has no password: it could no longer sign in; set a password first")
	case err != nil:
		return storeError("remove passkey", err)
	}
	return nil
}
