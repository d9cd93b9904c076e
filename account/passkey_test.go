package account_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/chaturaji/chaturaji/account"
)

// The relying party of the tests.
const (
	rpID   = "chaturaji.test"
	origin = "https://chaturaji.test"
)

// The flags of authenticator data (WebAuthn §6.1).
const (
	flagUP = 0x01 // user present
	flagUV = 0x04 // user verified
	flagBE = 0x08 // backup eligible
	flagBS = 0x10 // backed up
	flagAT = 0x40 // attested credential data included
)

// authenticator is a software WebAuthn authenticator holding one
// discoverable ECDSA P-256 credential, which writes its answers by hand as
// the spec says, for package webauthn to verify for real.
type authenticator struct {
	key    *ecdsa.PrivateKey
	id     []byte // the credential id
	user   []byte // the user handle it was registered for
	count  uint32 // the signature counter
	flags  byte   // extra flags it sets (BE, BS)
	aaguid [16]byte
}

func newAuthenticator(t *testing.T, flags byte) *authenticator {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	a := &authenticator{key: key, id: make([]byte, 32), flags: flags}
	rand.Read(a.id)
	return a
}

var b64 = base64.RawURLEncoding

// clientData is the JSON a browser hashes for the authenticator.
func clientData(t *testing.T, typ string, challenge []byte, origin string) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"type": typ, "challenge": b64.EncodeToString(challenge), "origin": origin, "crossOrigin": false})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// authData is authenticator data (§6.1) for rpID, with the attested
// credential data if attested.
func (a *authenticator) authData(t *testing.T, flags byte, attested bool) []byte {
	t.Helper()
	rp := sha256.Sum256([]byte(rpID))
	out := append(rp[:], flags|a.flags)
	out = binary.BigEndian.AppendUint32(out, a.count)
	if attested {
		x, y := make([]byte, 32), make([]byte, 32)
		a.key.X.FillBytes(x)
		a.key.Y.FillBytes(y)
		// COSE_Key (RFC 9052): kty EC2, alg ES256, crv P-256, x, y.
		cose, err := cbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: x, -3: y})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, a.aaguid[:]...)
		out = binary.BigEndian.AppendUint16(out, uint16(len(a.id)))
		out = append(out, a.id...)
		out = append(out, cose...)
	}
	return out
}

// register answers navigator.credentials.create's options: a
// PublicKeyCredential with "none" attestation, as JSON.
func (a *authenticator) register(t *testing.T, options []byte, origin string) []byte {
	t.Helper()
	var opts struct {
		PublicKey struct {
			Challenge string `json:"challenge"`
			User      struct {
				ID string `json:"id"`
			} `json:"user"`
		} `json:"publicKey"`
	}
	if err := json.Unmarshal(options, &opts); err != nil {
		t.Fatal(err)
	}
	challenge, err := b64.DecodeString(opts.PublicKey.Challenge)
	if err != nil {
		t.Fatal(err)
	}
	if a.user, err = b64.DecodeString(opts.PublicKey.User.ID); err != nil {
		t.Fatal(err)
	}
	att, err := cbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": a.authData(t, flagUP|flagUV|flagAT, true)})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{
		"id": b64.EncodeToString(a.id), "rawId": b64.EncodeToString(a.id), "type": "public-key",
		"response": map[string]any{
			"clientDataJSON":    b64.EncodeToString(clientData(t, "webauthn.create", challenge, origin)),
			"attestationObject": b64.EncodeToString(att),
			"transports":        []string{"internal", "hybrid"},
		},
	})
	return b
}

// signIn answers navigator.credentials.get's options: an assertion signed
// with the credential's key, counting one more use, as JSON.
func (a *authenticator) signIn(t *testing.T, options []byte, key *ecdsa.PrivateKey) []byte {
	t.Helper()
	var opts struct {
		PublicKey struct {
			Challenge string `json:"challenge"`
		} `json:"publicKey"`
	}
	if err := json.Unmarshal(options, &opts); err != nil {
		t.Fatal(err)
	}
	challenge, err := b64.DecodeString(opts.PublicKey.Challenge)
	if err != nil {
		t.Fatal(err)
	}
	a.count++
	data := a.authData(t, flagUP|flagUV, false)
	cd := clientData(t, "webauthn.get", challenge, origin)
	h := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte{}, data...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, key, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{
		"id": b64.EncodeToString(a.id), "rawId": b64.EncodeToString(a.id), "type": "public-key",
		"response": map[string]any{
			"clientDataJSON":    b64.EncodeToString(cd),
			"authenticatorData": b64.EncodeToString(data),
			"signature":         b64.EncodeToString(sig),
			"userHandle":        b64.EncodeToString(a.user),
		},
	})
	return b
}

// passkeyService returns accounts with passkeys on, for rpID and origin.
func passkeyService(t *testing.T, now func() time.Time) *account.Service {
	s, _ := newService(t, account.Config{RPID: rpID, RPOrigins: []string{origin}, Now: now})
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
func registerPasskey(t *testing.T, s *account.Service, accountID string, a *authenticator, name string) *account.Passkey {
	t.Helper()
	creation, id, err := s.BeginRegistration(t.Context(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.FinishRegistration(t.Context(), accountID, id, a.register(t, mustJSON(t, creation), origin), name)
	if err != nil {
		t.Fatalf("FinishRegistration: %v", err)
	}
	return p
}

// passkeySignIn signs in with a's credential, signed with key.
func passkeySignIn(t *testing.T, s *account.Service, a *authenticator, key *ecdsa.PrivateKey) (*account.Account, *account.Session, error) {
	t.Helper()
	assertion, id, err := s.BeginSignIn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return s.FinishSignIn(t.Context(), id, a.signIn(t, mustJSON(t, assertion), key), "")
}

func TestPasskeyRegisterAndSignIn(t *testing.T) {
	s := passkeyService(t, nil)
	acc, up, _ := signUp(t, s, "Asha", "")
	auth := newAuthenticator(t, flagBE|flagBS)
	p := registerPasskey(t, s, acc.ID, auth, "Phone")
	if string(p.ID) != string(auth.id) || p.Name != "Phone" || !p.Synced || len(p.Transports) != 2 {
		t.Errorf("registered %+v", p)
	}

	got, ses, err := passkeySignIn(t, s, auth, auth.key)
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
	if _, _, err := passkeySignIn(t, s, auth, auth.key); err != nil {
		t.Errorf("a second sign-in: %v", err)
	}
}

func TestPasskeyRefused(t *testing.T) {
	c := newClock()
	s := passkeyService(t, c.Now)
	acc, _, _ := signUp(t, s, "Asha", "")
	auth := newAuthenticator(t, 0)
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
	answer := auth.signIn(t, mustJSON(t, assertion), auth.key)
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
	auth.count -= 2
	_, _, err = s.FinishSignIn(t.Context(), id, auth.signIn(t, mustJSON(t, assertion), auth.key), "")
	wantError(t, "a counter gone back", err, account.EUNAUTHORIZED, "cloned")
	auth.count += 10

	// A registration ceremony is no sign-in's.
	creation, rid, err := s.BeginRegistration(t.Context(), acc.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = s.FinishSignIn(t.Context(), rid, auth.signIn(t, mustJSON(t, creation), auth.key), "")
	wantError(t, "a registration's ceremony", err, account.EUNAUTHORIZED, "not this account's signin")

	// From another origin.
	creation, rid, _ = s.BeginRegistration(t.Context(), acc.ID)
	_, err = s.FinishRegistration(t.Context(), acc.ID, rid, newAuthenticator(t, 0).register(t, mustJSON(t, creation), "https://evil.test"), "x")
	wantError(t, "a registration from another origin", err, account.EUNAUTHORIZED, "passkey was refused")

	// Too late.
	assertion, id, _ = s.BeginSignIn(t.Context())
	c.Add(5*time.Minute + time.Second)
	_, _, err = s.FinishSignIn(t.Context(), id, auth.signIn(t, mustJSON(t, assertion), auth.key), "")
	wantError(t, "a ceremony expired", err, account.EUNAUTHORIZED, "no passkey ceremony")

	// The same credential registered again.
	c.Add(-5*time.Minute - time.Second)
	creation, rid, _ = s.BeginRegistration(t.Context(), acc.ID)
	_, err = s.FinishRegistration(t.Context(), acc.ID, rid, auth.register(t, mustJSON(t, creation), origin), "again")
	wantError(t, "a credential registered twice", err, account.ECONFLICT, "registered already")
}

func TestPasskeyRemove(t *testing.T) {
	s := passkeyService(t, nil)
	acc, ses, _ := signUp(t, s, "Asha", "")
	one, two := newAuthenticator(t, 0), newAuthenticator(t, 0)
	registerPasskey(t, s, acc.ID, one, "one")
	registerPasskey(t, s, acc.ID, two, "two")
	if err := s.RemovePasskey(t.Context(), acc.ID, one.id); err != nil {
		t.Fatal(err)
	}
	_, _, err := passkeySignIn(t, s, one, one.key)
	wantError(t, "a removed passkey", err, account.EUNAUTHORIZED, "passkey was refused")
	wantError(t, "removed again", s.RemovePasskey(t.Context(), acc.ID, one.id), account.ENOTFOUND)
	wantError(t, "the last passkey without a password", s.RemovePasskey(t.Context(), acc.ID, two.id), account.ECONFLICT, "set a password first")
	if err := s.ChangePassword(t.Context(), acc.ID, "", "correct horse", ses.Token); err != nil {
		t.Fatal(err)
	}
	if err := s.RemovePasskey(t.Context(), acc.ID, two.id); err != nil {
		t.Errorf("the last passkey with a password: %v", err)
	}
	// A deleted account's passkey signs nobody in.
	b, _, _ := signUp(t, s, "Bala", "")
	three := newAuthenticator(t, 0)
	registerPasskey(t, s, b.ID, three, "three")
	if err := s.Delete(t.Context(), b.ID); err != nil {
		t.Fatal(err)
	}
	_, _, err = passkeySignIn(t, s, three, three.key)
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
	s, _ := newService(t, account.Config{RPID: rpID, RPOrigins: []string{origin}, MaxCeremonies: 3})
	for range 3 {
		if _, _, err := s.BeginSignIn(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := s.BeginSignIn(t.Context())
	wantError(t, "a fourth ceremony", err, account.EUNAVAILABLE, "too many passkey ceremonies")
}
