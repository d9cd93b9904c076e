// Package accounttest is a software WebAuthn authenticator for tests of
// passkeys: it answers the server's registration and sign-in options as a
// browser and its authenticator would, writing its answers by hand as the
// WebAuthn spec says, so that go-webauthn verifies them for real. Package
// account's tests and package server's use it.
package accounttest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/fxamacker/cbor/v2"
)

// The relying party the authenticator answers for: its id, whose hash
// is in every answer, and the origin of its sign-ins.
const (
	RPID   = "chaturaji.test"
	Origin = "https://chaturaji.test"
)

// The flags of authenticator data (WebAuthn §6.1).
const (
	FlagUP = 0x01 // user present
	FlagUV = 0x04 // user verified
	FlagBE = 0x08 // backup eligible
	FlagBS = 0x10 // backed up
	FlagAT = 0x40 // attested credential data included
)

// Authenticator is a software WebAuthn authenticator holding one
// discoverable ECDSA P-256 credential, which writes its answers by hand as
// the spec says, for package webauthn to verify for real.
type Authenticator struct {
	Key   *ecdsa.PrivateKey // the credential's private key
	ID    []byte            // the credential id
	User  []byte            // the user handle it was registered for
	Count uint32            // the signature counter

	flags  byte // extra flags it sets (FlagBE, FlagBS)
	aaguid [16]byte
}

// NewAuthenticator returns an authenticator with a new key and credential
// id, which sets flags (FlagBE, FlagBS or none) besides those of each
// answer.
func NewAuthenticator(t testing.TB, flags byte) *Authenticator {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	a := &Authenticator{Key: key, ID: make([]byte, 32), flags: flags}
	rand.Read(a.ID)
	return a
}

var b64 = base64.RawURLEncoding

// clientData is the JSON a browser hashes for the authenticator.
func clientData(t testing.TB, typ string, challenge []byte, origin string) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"type": typ, "challenge": b64.EncodeToString(challenge), "origin": origin, "crossOrigin": false})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// authData is authenticator data (§6.1) for rpID, with the attested
// credential data if attested.
func (a *Authenticator) authData(t testing.TB, flags byte, attested bool) []byte {
	t.Helper()
	rp := sha256.Sum256([]byte(RPID))
	out := append(rp[:], flags|a.flags)
	out = binary.BigEndian.AppendUint32(out, a.Count)
	if attested {
		x, y := make([]byte, 32), make([]byte, 32)
		a.Key.X.FillBytes(x)
		a.Key.Y.FillBytes(y)
		// COSE_Key (RFC 9052): kty EC2, alg ES256, crv P-256, x, y.
		cose, err := cbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: x, -3: y})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, a.aaguid[:]...)
		out = binary.BigEndian.AppendUint16(out, uint16(len(a.ID)))
		out = append(out, a.ID...)
		out = append(out, cose...)
	}
	return out
}

// Register answers navigator.credentials.create's options (the JSON the
// server gives) from origin: a PublicKeyCredential with "none"
// attestation, as the JSON of its toJSON.
func (a *Authenticator) Register(t testing.TB, options []byte, origin string) []byte {
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
	if a.User, err = b64.DecodeString(opts.PublicKey.User.ID); err != nil {
		t.Fatal(err)
	}
	att, err := cbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": a.authData(t, FlagUP|FlagUV|FlagAT, true)})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{
		"id": b64.EncodeToString(a.ID), "rawId": b64.EncodeToString(a.ID), "type": "public-key",
		"response": map[string]any{
			"clientDataJSON":    b64.EncodeToString(clientData(t, "webauthn.create", challenge, origin)),
			"attestationObject": b64.EncodeToString(att),
			"transports":        []string{"internal", "hybrid"},
		},
	})
	return b
}

// SignIn answers navigator.credentials.get's options (the JSON the server
// gives) from Origin: an assertion signed with key (the credential's own,
// Key, or another, to be refused), counting one more use, as the JSON of
// its toJSON.
func (a *Authenticator) SignIn(t testing.TB, options []byte, key *ecdsa.PrivateKey) []byte {
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
	a.Count++
	data := a.authData(t, FlagUP|FlagUV, false)
	cd := clientData(t, "webauthn.get", challenge, Origin)
	h := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte{}, data...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, key, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{
		"id": b64.EncodeToString(a.ID), "rawId": b64.EncodeToString(a.ID), "type": "public-key",
		"response": map[string]any{
			"clientDataJSON":    b64.EncodeToString(cd),
			"authenticatorData": b64.EncodeToString(data),
			"signature":         b64.EncodeToString(sig),
			"userHandle":        b64.EncodeToString(a.User),
		},
	})
	return b
}
