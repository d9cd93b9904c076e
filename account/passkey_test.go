package account_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/account"
	"github.com/chaturaji/chaturaji/account/accounttest"
)

// passkeyService returns accounts with passkeys on, for the test
// authenticator's relying party (accounttest.RPID, accounttest.Origin).
func passkeyService(t *testing.T, now func() time.Time) *account.Service {
	s, _ := newService(t, account.Config{RPID: accounttest.RPID, RPOrigins: []string{accounttest.Origin}, Now: now})
	return s
}

// mustJSON is v as JSON.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// registerPasskey registers a's credential to an account.
func registerPasskey(t *testing.T, s *account.Service, accountID string, a *accounttest.Authenticator, name string) *account.Passkey {
	t.Helper()
	creation, id, err := s.BeginRegistration(t.Context(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.FinishRegistration(t.Context(), accountID, id, a.Register(t, mustJSON(t, creation), accounttest.Origin), name)
	if err != nil {
		t.Fatalf("FinishRegistration: %v", err)
	}
	return p
}

// passkeySignIn signs in with a's credential, signed with key.
func passkeySignIn(t *testing.T, s *account.Service, a *accounttest.Authenticator, key *ecdsa.PrivateKey) (*account.Account, *account.Session, error) {
	t.Helper()
	assertion, id, err := s.BeginSignIn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return s.FinishSignIn(t.Context(), id, a.SignIn(t, mustJSON(t, assertion), key), "")
}

func TestPasskeyRegisterAndSignIn(t *testing.T) {
	s := passkeyService(t, nil)
	acc, up, _ := signUp(t, s, "Asha", "")
	auth := accounttest.NewAuthenticator(t, accounttest.FlagBE|accounttest.FlagBS)
	p := registerPasskey(t, s, acc.ID, auth, "Phone")
	if string(p.ID) != string(auth.ID) || p.Name != "Phone" || !p.Synced || len(p.Transports) != 2 {
		t.Errorf("registered %+v", p)
	}

	got, ses, err := passkeySignIn(t, s, auth, auth.Key)
	if err != nil {
		t.Fatalf("FinishSignIn: %v", err)
	}
	if got.ID != acc.ID || ses.Token == up.Token {
		t.Errorf("signed in as %+v with token %q", got, ses.Token)
	}
	mustAuthenticate(t, s, ses.Token, acc.ID)
	keys, err := s.Passkeys(t.Context(), acc.ID)
	if err != nil || len(keys) != 1 || keys[0].LastUsed.IsZero() {
		t.Errorf("Passkeys = %+v, %v; want the one, used", keys, err)
	}
	d, err := s.Export(t.Context(), acc.ID)
	if err != nil || len(d.Passkeys) != 1 || d.Passkeys[0].SignCount != 1 || !d.Passkeys[0].BackupState {
		t.Errorf("export: %+v, %v; want the passkey at count 1, backed up", d.Passkeys, err)
	}
	if _, _, err := passkeySignIn(t, s, auth, auth.Key); err != nil {
		t.Errorf("a second sign-in: %v", err)
	}
}

func TestPasskeyRefused(t *testing.T) {
	c := newClock()
	s := passkeyService(t, c.Now)
	acc, _, _ := signUp(t, s, "Asha", "")
	auth := accounttest.NewAuthenticator(t, 0)
	registerPasskey(t, s, acc.ID, auth, "Key")

	// Signed with another key.
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	_, _, err := passkeySignIn(t, s, auth, other)
	wantError(t, "a signature by another key", err, account.EUNAUTHORIZED, "passkey was refused")

	// Answered twice: the ceremony is gone.
	assertion, id, err := s.BeginSignIn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	answer := auth.SignIn(t, mustJSON(t, assertion), auth.Key)
	if _, _, err := s.FinishSignIn(t.Context(), id, answer, ""); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.FinishSignIn(t.Context(), id, answer, "")
	wantError(t, "a ceremony finished twice", err, account.EUNAUTHORIZED, "no passkey ceremony")

	// The answer to one ceremony given to another.
	_, id2, err := s.BeginSignIn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = s.FinishSignIn(t.Context(), id2, answer, "")
	wantError(t, "another ceremony's answer", err, account.EUNAUTHORIZED, "passkey was refused")

	// A counter that goes back: a cloned authenticator.
	assertion, id, _ = s.BeginSignIn(t.Context())
	auth.Count -= 2
	_, _, err = s.FinishSignIn(t.Context(), id, auth.SignIn(t, mustJSON(t, assertion), auth.Key), "")
	wantError(t, "a counter gone back", err, account.EUNAUTHORIZED, "cloned")
	auth.Count += 10

	// A registration ceremony is no sign-in's.
	creation, rid, err := s.BeginRegistration(t.Context(), acc.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = s.FinishSignIn(t.Context(), rid, auth.SignIn(t, mustJSON(t, creation), auth.Key), "")
	wantError(t, "a registration's ceremony", err, account.EUNAUTHORIZED, "not this account's signin")

	// From another origin.
	creation, rid, _ = s.BeginRegistration(t.Context(), acc.ID)
	_, err = s.FinishRegistration(t.Context(), acc.ID, rid, accounttest.NewAuthenticator(t, 0).Register(t, mustJSON(t, creation), "https://evil.test"), "x")
	wantError(t, "a registration from another origin", err, account.EUNAUTHORIZED, "passkey was refused")

	// Too late.
	assertion, id, _ = s.BeginSignIn(t.Context())
	c.Add(5*time.Minute + time.Second)
	_, _, err = s.FinishSignIn(t.Context(), id, auth.SignIn(t, mustJSON(t, assertion), auth.Key), "")
	wantError(t, "a ceremony expired", err, account.EUNAUTHORIZED, "no passkey ceremony")

	// The same credential registered again.
	c.Add(-5*time.Minute - time.Second)
	creation, rid, _ = s.BeginRegistration(t.Context(), acc.ID)
	_, err = s.FinishRegistration(t.Context(), acc.ID, rid, auth.Register(t, mustJSON(t, creation), accounttest.Origin), "again")
	wantError(t, "a credential registered twice", err, account.ECONFLICT, "registered already")
}

func TestPasskeyRemove(t *testing.T) {
	s := passkeyService(t, nil)
	acc, ses, _ := signUp(t, s, "Asha", "")
	one, two := accounttest.NewAuthenticator(t, 0), accounttest.NewAuthenticator(t, 0)
	registerPasskey(t, s, acc.ID, one, "one")
	registerPasskey(t, s, acc.ID, two, "two")
	if err := s.RemovePasskey(t.Context(), acc.ID, one.ID); err != nil {
		t.Fatal(err)
	}
	_, _, err := passkeySignIn(t, s, one, one.Key)
	wantError(t, "a removed passkey", err, account.EUNAUTHORIZED, "passkey was refused")
	wantError(t, "removed again", s.RemovePasskey(t.Context(), acc.ID, one.ID), account.ENOTFOUND)
	wantError(t, "the last passkey without a password", s.RemovePasskey(t.Context(), acc.ID, two.ID), account.ECONFLICT, "set a password first")
	if err := s.ChangePassword(t.Context(), acc.ID, "", "correct horse", ses.Token); err != nil {
		t.Fatal(err)
	}
	if err := s.RemovePasskey(t.Context(), acc.ID, two.ID); err != nil {
		t.Errorf("the last passkey with a password: %v", err)
	}
	// A deleted account's passkey signs nobody in.
	b, _, _ := signUp(t, s, "Bala", "")
	three := accounttest.NewAuthenticator(t, 0)
	registerPasskey(t, s, b.ID, three, "three")
	if err := s.Delete(t.Context(), b.ID); err != nil {
		t.Fatal(err)
	}
	_, _, err = passkeySignIn(t, s, three, three.Key)
	wantError(t, "a deleted account's passkey", err, account.EUNAUTHORIZED)
}

func TestPasskeysOff(t *testing.T) {
	s, _ := newService(t, account.Config{})
	acc, _, _ := signUp(t, s, "Asha", "")
	_, _, err := s.BeginRegistration(t.Context(), acc.ID)
	wantError(t, "passkeys off", err, account.EUNAVAILABLE, "not set up")
	_, _, err = s.BeginSignIn(t.Context())
	wantError(t, "passkeys off", err, account.EUNAVAILABLE, "not set up")
}

func TestCeremoniesBounded(t *testing.T) {
	s, _ := newService(t, account.Config{RPID: accounttest.RPID, RPOrigins: []string{accounttest.Origin}, MaxCeremonies: 3})
	for range 3 {
		if _, _, err := s.BeginSignIn(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := s.BeginSignIn(t.Context())
	wantError(t, "a fourth ceremony", err, account.EUNAVAILABLE, "too many passkey ceremonies")
}
