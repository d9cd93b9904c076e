package server

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/account"
)

// Accounts over HTTP, under /api/account (docs/api.md, "Accounts"). The
// handlers only turn requests into package account's calls and its
// answers into JSON and the session cookie (session.go); every refusal of
// package account keeps its code. Sign-up, sign-in, recovery, password
// changes, new recovery codes and the passkey ceremonies draw on the
// client's Account budget (Config.AccountRate), and failed sign-ins under
// one name are counted whoever makes them (signin.go).

// SignUp is the body of POST /api/account: a new account.
type SignUp struct {
	Username string `json:"username"`           // 3 to 24 letters, digits, '-', '_', '.'
	Password string `json:"password,omitempty"` // 8 characters to 1024 bytes; none: the account signs in with a passkey or a recovery code
}

// SignIn is the body of POST /api/account/signin.
type SignIn struct {
	Username string `json:"username"` // any case
	Password string `json:"password"` // as set
}

// Recover is the body of POST /api/account/recover: a recovery code, spent
// once, signs in and sets a new password.
type Recover struct {
	Username string `json:"username"` // any case
	Code     string `json:"code"`     // one of the account's recovery codes, any case, dashes or not
	Password string `json:"password"` // the new password
}

// PasswordChange is the body of POST /api/account/password.
type PasswordChange struct {
	Current  string `json:"current,omitempty"` // the password now; none if the account has none
	Password string `json:"password"`          // the new one
}

// DeleteAccount is the body of POST /api/account/delete: the account's
// username again, as a confirmation.
type DeleteAccount struct {
	Confirm string `json:"confirm"` // the account's username, any case
}

// PasskeyFinish is the body of POST /api/account/passkeys/register/finish
// and POST /api/account/passkeys/signin/finish: the ceremony's id and the
// browser's PublicKeyCredential as its toJSON() gives it.
type PasskeyFinish struct {
	Ceremony   string          `json:"ceremony"`       // the id its beginning gave
	Credential json.RawMessage `json:"credential"`     // PublicKeyCredential.toJSON()
	Name       string          `json:"name,omitempty"` // a new passkey's label (registration only), at most 64 bytes
}

// PasskeyRemove is the body of POST /api/account/passkeys/remove.
type PasskeyRemove struct {
	ID string `json:"id"` // the credential id, in base64url as the browser's rawId
}

// empty is the body of a POST that needs none: {}.
type empty struct{}

// Me is the signed-in account as its holder sees it: the answer of GET
// /api/account, of a sign-up (with its recovery codes) and of a sign-in.
type Me struct {
	Name              string        `json:"name"`                     // the username as its holder wrote it
	Created           time.Time     `json:"created"`                  // when the account was made
	HasPassword       bool          `json:"has_password"`             // whether it signs in with a password
	Passkeys          []PasskeyInfo `json:"passkeys"`                 // oldest first
	Sessions          int           `json:"sessions"`                 // the account's signed-in clients, this one included
	RecoveryCodesLeft int           `json:"recovery_codes_left"`      // recovery codes not spent
	RecoveryCodes     []string      `json:"recovery_codes,omitempty"` // after a sign-up or POST .../recovery-codes only: shown this once
}

// PasskeyInfo is one of an account's passkeys.
type PasskeyInfo struct {
	ID         string     `json:"id"`                   // the credential id, base64url (the browser's rawId)
	Name       string     `json:"name"`                 // the label its holder gave it
	Transports []string   `json:"transports,omitempty"` // how the browser reaches the authenticator
	Synced     bool       `json:"synced"`               // a passkey a provider syncs between devices
	Created    time.Time  `json:"created"`              // when it was registered
	LastUsed   *time.Time `json:"last_used,omitempty"`  // when it last signed in, if it did
}

// Ceremony is the answer that begins a passkey ceremony: its id, to send
// back with the answer, and the options for the browser, as
// navigator.credentials.create or get takes them ({"publicKey": ...};
// PublicKeyCredential.parseCreationOptionsFromJSON or
// parseRequestOptionsFromJSON reads options.publicKey).
type Ceremony struct {
	Ceremony string `json:"ceremony"` // to send back with the browser's answer
	Options  any    `json:"options"`  // {"publicKey": ...}, go-webauthn's protocol.CredentialCreation or CredentialAssertion
}

// accountRoutes adds the endpoints of accounts to the API.
func (s *Server) accountRoutes(handle func(string, Class, http.Handler)) {
	for _, r := range []struct {
		pattern string
		class   Class
		h       http.HandlerFunc
	}{
		{"POST /api/account", Account, s.handleSignUp},
		{"GET /api/account", General, s.handleMe},
		{"POST /api/account/signin", Account, s.handleSignIn},
		{"POST /api/account/signout", General, s.handleSignOut},
		{"POST /api/account/signout-everywhere", General, s.handleSignOutEverywhere},
		{"POST /api/account/password", Account, s.handlePassword},
		{"POST /api/account/recover", Account, s.handleRecover},
		{"POST /api/account/recovery-codes", Account, s.handleRecoveryCodes},
		{"POST /api/account/delete", General, s.handleDeleteAccount},
		{"GET /api/account/export", General, s.handleExport},
		{"GET /api/account/passkeys", General, s.handlePasskeys},
		{"POST /api/account/passkeys/register", Account, s.handleRegisterBegin},
		{"POST /api/account/passkeys/register/finish", Account, s.handleRegisterFinish},
		{"POST /api/account/passkeys/remove", General, s.handlePasskeyRemove},
		{"POST /api/account/passkeys/signin", Account, s.handlePasskeySignInBegin},
		{"POST /api/account/passkeys/signin/finish", Account, s.handlePasskeySignInFinish},
	} {
		handle(r.pattern, r.class, s.withAccounts(r.h))
	}
}

// withAccounts refuses the request if the server keeps no accounts.
func (s *Server) withAccounts(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.accounts == nil {
			s.fail(w, r, Errorf(ENOTFOUND, "this server keeps no accounts: its store cannot"))
			return
		}
		h(w, r)
	}
}

// accountError is an error of package account as the API's: the same
// code and message; a store's failure logged with its cause.
func (s *Server) accountError(err error) error {
	var ae *account.Error
	if !errors.As(err, &ae) {
		return err
	}
	if ae.Code == account.EUNAVAILABLE && errors.Unwrap(ae) != nil {
		s.repeats.Error("accounts: the store failed", "err", err)
		return unavailable(storeRetryAfter, "%s", ae.Message)
	}
	return Errorf(ae.Code, "%s", ae.Message)
}

// mustSignIn returns the signed-in account of r and its session's token,
// or fails the request with EUNAUTHORIZED.
func (s *Server) mustSignIn(w http.ResponseWriter, r *http.Request) (*account.Account, string, bool) {
	a, token := s.session(r)
	if a == nil {
		s.fail(w, r, Errorf(EUNAUTHORIZED, "not signed in: sign in first (the session cookie %s is missing, ended or expired)", SessionCookie))
		return nil, "", false
	}
	return a, token, true
}

// me answers with the account as its holder sees it, with codes if any.
func (s *Server) me(w http.ResponseWriter, r *http.Request, status int, accountID string, codes []string) {
	d, err := s.accounts.Export(r.Context(), accountID)
	if err != nil {
		s.fail(w, r, s.accountError(err))
		return
	}
	m := Me{Name: d.Account.Name, Created: d.Account.Created, HasPassword: d.Account.HasPassword,
		Passkeys: []PasskeyInfo{}, Sessions: len(d.Sessions), RecoveryCodesLeft: d.RecoveryCodesLeft, RecoveryCodes: codes}
	for _, p := range d.Passkeys {
		m.Passkeys = append(m.Passkeys, PasskeyInfo{ID: base64.RawURLEncoding.EncodeToString(p.ID), Name: p.Name,
			Transports: p.Transports, Synced: p.BackupEligible, Created: p.Created, LastUsed: p.LastUsed})
	}
	writeJSON(w, status, m)
}

// handleSignUp is POST /api/account: a new account, signed in.
func (s *Server) handleSignUp(w http.ResponseWriter, r *http.Request) {
	var b SignUp
	if err := s.readJSON(w, r, &b); err != nil {
		s.fail(w, r, err)
		return
	}
	a, ses, codes, err := s.accounts.SignUp(r.Context(), b.Username, b.Password)
	if err != nil {
		s.fail(w, r, s.accountError(err))
		return
	}
	if old := sessionToken(r); old != "" {
		s.accounts.SignOut(r.Context(), old) // a session is never carried into another account
	}
	s.setSession(w, r, ses)
	s.log.Info("account made", "name", a.Name)
	s.me(w, r, http.StatusCreated, a.ID, codes)
}

// handleMe is GET /api/account.
func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) {
	a, _, ok := s.mustSignIn(w, r)
	if !ok {
		return
	}
	s.me(w, r, http.StatusOK, a.ID, nil)
}

// nameKey is the key under which a sign-in's failures are counted: the
// name's folded form, or for a name no account can have, its lower case
// (bounded: it is refused all the same).
func nameKey(name string) string {
	if n, err := account.ParseName(name); err == nil {
		return n.Folded
	}
	if len(name) > account.MaxName*4 {
		name = name[:account.MaxName*4]
	}
	return "\x00" + strings.ToLower(name)
}

// nameAllowed fails the request with ETOOMANY if the name has had too many
// failed sign-ins of late.
func (s *Server) nameAllowed(w http.ResponseWriter, r *http.Request, key string) bool {
	ok, wait := s.names.allowed(key, time.Now())
	if ok {
		return true
	}
	e := Errorf(ETOOMANY, "too many failed sign-ins under this username: at most %d in %v; try again in %v, or sign in with a passkey",
		s.cfg.NameFailures, s.cfg.NameWindow, max(wait, time.Second).Round(time.Second))
	e.retry = wait
	s.fail(w, r, e)
	return false
}

// signedIn answers a sign-in: the new session's cookie and the account.
func (s *Server) answerSignIn(w http.ResponseWriter, r *http.Request, a *account.Account, ses *account.Session) {
	s.setSession(w, r, ses)
	s.me(w, r, http.StatusOK, a.ID, nil)
}

// handleSignIn is POST /api/account/signin: a username and password. A
// wrong password and an unknown name get the same answer after the same
// work.
func (s *Server) handleSignIn(w http.ResponseWriter, r *http.Request) {
	var b SignIn
	if err := s.readJSON(w, r, &b); err != nil {
		s.fail(w, r, err)
		return
	}
	key := nameKey(b.Username)
	if !s.nameAllowed(w, r, key) {
		return
	}
	a, ses, err := s.accounts.SignIn(r.Context(), b.Username, b.Password, sessionToken(r))
	if err != nil {
		if account.Code(err) == account.EUNAUTHORIZED {
			s.names.fail(key, time.Now())
		}
		s.fail(w, r, s.accountError(err))
		return
	}
	s.answerSignIn(w, r, a, ses)
}

// handleRecover is POST /api/account/recover: a recovery code signs in and
// sets a new password, ending every other session.
func (s *Server) handleRecover(w http.ResponseWriter, r *http.Request) {
	var b Recover
	if err := s.readJSON(w, r, &b); err != nil {
		s.fail(w, r, err)
		return
	}
	key := nameKey(b.Username)
	if !s.nameAllowed(w, r, key) {
		return
	}
	a, ses, err := s.accounts.Recover(r.Context(), b.Username, b.Code, b.Password, sessionToken(r))
	if err != nil {
		if account.Code(err) == account.EUNAUTHORIZED {
			s.names.fail(key, time.Now())
		}
		s.fail(w, r, s.accountError(err))
		return
	}
	s.answerSignIn(w, r, a, ses)
}

// handleSignOut is POST /api/account/signout: this client's session ends.
// Signed in or not, the answer is the same.
func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request) {
	if err := s.readJSON(w, r, &empty{}); err != nil {
		s.fail(w, r, err)
		return
	}
	if token := sessionToken(r); token != "" && sameOrigin(r) {
		if err := s.accounts.SignOut(r.Context(), token); err != nil {
			s.fail(w, r, s.accountError(err))
			return
		}
	}
	s.clearSession(w, r)
	writeJSON(w, http.StatusOK, struct {
		SignedOut bool `json:"signed_out"`
	}{true})
}

// handleSignOutEverywhere is POST /api/account/signout-everywhere: every
// session of the account ends, this one included.
func (s *Server) handleSignOutEverywhere(w http.ResponseWriter, r *http.Request) {
	a, _, ok := s.mustSignIn(w, r)
	if !ok {
		return
	}
	n, err := s.accounts.SignOutEverywhere(r.Context(), a.ID)
	if err != nil {
		s.fail(w, r, s.accountError(err))
		return
	}
	s.clearSession(w, r)
	writeJSON(w, http.StatusOK, struct {
		Ended int `json:"ended"`
	}{n})
}

// handlePassword is POST /api/account/password: a new password, given the
// current one; every other session of the account ends.
func (s *Server) handlePassword(w http.ResponseWriter, r *http.Request) {
	a, token, ok := s.mustSignIn(w, r)
	if !ok {
		return
	}
	var b PasswordChange
	if err := s.readJSON(w, r, &b); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.accounts.ChangePassword(r.Context(), a.ID, b.Current, b.Password, token); err != nil {
		s.fail(w, r, s.accountError(err))
		return
	}
	s.me(w, r, http.StatusOK, a.ID, nil)
}

// handleRecoveryCodes is POST /api/account/recovery-codes: ten new
// recovery codes in place of the old ones, shown this once.
func (s *Server) handleRecoveryCodes(w http.ResponseWriter, r *http.Request) {
	a, _, ok := s.mustSignIn(w, r)
	if !ok {
		return
	}
	codes, err := s.accounts.NewRecoveryCodes(r.Context(), a.ID)
	if err != nil {
		s.fail(w, r, s.accountError(err))
		return
	}
	s.me(w, r, http.StatusOK, a.ID, codes)
}

// handleDeleteAccount is POST /api/account/delete: the account goes, its
// games stay under store.DeletedName.
func (s *Server) handleDeleteAccount(w http.ResponseWriter, r *http.Request) {
	a, _, ok := s.mustSignIn(w, r)
	if !ok {
		return
	}
	var b DeleteAccount
	if err := s.readJSON(w, r, &b); err != nil {
		s.fail(w, r, err)
		return
	}
	if nameKey(b.Confirm) != nameKey(a.Name) {
		s.fail(w, r, Errorf(EINVALID, "confirm %q: write the account's username, %q, to delete it", b.Confirm, a.Name))
		return
	}
	if err := s.accounts.Delete(r.Context(), a.ID); err != nil {
		s.fail(w, r, s.accountError(err))
		return
	}
	s.clearSession(w, r)
	s.log.Info("account deleted")
	writeJSON(w, http.StatusOK, struct {
		Deleted bool `json:"deleted"`
	}{true})
}

// handlePasskeys is GET /api/account/passkeys.
func (s *Server) handlePasskeys(w http.ResponseWriter, r *http.Request) {
	a, _, ok := s.mustSignIn(w, r)
	if !ok {
		return
	}
	keys, err := s.accounts.Passkeys(r.Context(), a.ID)
	if err != nil {
		s.fail(w, r, s.accountError(err))
		return
	}
	out := []PasskeyInfo{}
	for _, p := range keys {
		pi := PasskeyInfo{ID: base64.RawURLEncoding.EncodeToString(p.ID), Name: p.Name, Transports: p.Transports, Synced: p.Synced, Created: p.Created}
		if !p.LastUsed.IsZero() {
			pi.LastUsed = &p.LastUsed
		}
		out = append(out, pi)
	}
	writeJSON(w, http.StatusOK, struct {
		Passkeys []PasskeyInfo `json:"passkeys"`
	}{out})
}

// handleRegisterBegin is POST /api/account/passkeys/register: the options
// of a new passkey for the browser.
func (s *Server) handleRegisterBegin(w http.ResponseWriter, r *http.Request) {
	a, _, ok := s.mustSignIn(w, r)
	if !ok {
		return
	}
	if err := s.readJSON(w, r, &empty{}); err != nil {
		s.fail(w, r, err)
		return
	}
	creation, id, err := s.accounts.BeginRegistration(r.Context(), a.ID)
	if err != nil {
		s.fail(w, r, s.accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, Ceremony{Ceremony: id, Options: creation})
}

// readPasskeyFinish reads the answer to a passkey ceremony, within
// Config.MaxCredentialBody.
func (s *Server) readPasskeyFinish(w http.ResponseWriter, r *http.Request) (*PasskeyFinish, error) {
	var b PasskeyFinish
	if err := s.readJSONUpTo(w, r, &b, s.cfg.MaxCredentialBody); err != nil {
		return nil, err
	}
	if b.Ceremony == "" || len(b.Credential) == 0 {
		return nil, Errorf(EINVALID, "the answer to a passkey ceremony needs the ceremony's id (ceremony) and the browser's credential (credential)")
	}
	return &b, nil
}

// handleRegisterFinish is POST /api/account/passkeys/register/finish: the
// browser's new credential, registered to the account.
func (s *Server) handleRegisterFinish(w http.ResponseWriter, r *http.Request) {
	a, _, ok := s.mustSignIn(w, r)
	if !ok {
		return
	}
	b, err := s.readPasskeyFinish(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p, err := s.accounts.FinishRegistration(r.Context(), a.ID, b.Ceremony, b.Credential, b.Name)
	if err != nil {
		s.fail(w, r, s.accountError(err))
		return
	}
	writeJSON(w, http.StatusCreated, PasskeyInfo{ID: base64.RawURLEncoding.EncodeToString(p.ID), Name: p.Name,
		Transports: p.Transports, Synced: p.Synced, Created: p.Created})
}

// handlePasskeyRemove is POST /api/account/passkeys/remove.
func (s *Server) handlePasskeyRemove(w http.ResponseWriter, r *http.Request) {
	a, _, ok := s.mustSignIn(w, r)
	if !ok {
		return
	}
	var b PasskeyRemove
	if err := s.readJSON(w, r, &b); err != nil {
		s.fail(w, r, err)
		return
	}
	id, err := base64.RawURLEncoding.DecodeString(b.ID)
	if err != nil || len(id) == 0 {
		s.fail(w, r, Errorf(EINVALID, "id %q: want a credential id in base64url without padding, as the passkey list gives it", b.ID))
		return
	}
	if err := s.accounts.RemovePasskey(r.Context(), a.ID, id); err != nil {
		s.fail(w, r, s.accountError(err))
		return
	}
	s.me(w, r, http.StatusOK, a.ID, nil)
}

// handlePasskeySignInBegin is POST /api/account/passkeys/signin: the
// options of a sign-in by passkey, which asks for no name.
func (s *Server) handlePasskeySignInBegin(w http.ResponseWriter, r *http.Request) {
	if err := s.readJSON(w, r, &empty{}); err != nil {
		s.fail(w, r, err)
		return
	}
	assertion, id, err := s.accounts.BeginSignIn(r.Context())
	if err != nil {
		s.fail(w, r, s.accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, Ceremony{Ceremony: id, Options: assertion})
}

// handlePasskeySignInFinish is POST /api/account/passkeys/signin/finish:
// the browser's assertion signs its account in.
func (s *Server) handlePasskeySignInFinish(w http.ResponseWriter, r *http.Request) {
	b, err := s.readPasskeyFinish(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if b.Name != "" {
		s.fail(w, r, Errorf(EINVALID, "name goes with a registration, not a sign-in"))
		return
	}
	a, ses, err := s.accounts.FinishSignIn(r.Context(), b.Ceremony, b.Credential, sessionToken(r))
	if err != nil {
		s.fail(w, r, s.accountError(err))
		return
	}
	s.answerSignIn(w, r, a, ses)
}
