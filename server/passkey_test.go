package server_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/chaturaji/chaturaji/server"
)

// A software WebAuthn authenticator, as package account's tests have it,
// to drive the passkey endpoints with go-webauthn's real verification.

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

// ceremony begins a passkey ceremony at path and returns its id and the
// browser's options, as JSON.
func (d *device) ceremony(path string) (string, []byte) {
	d.t.Helper()
	var c struct {
		Ceremony string          `json:"ceremony"`
		Options  json.RawMessage `json:"options"`
	}
	if err := json.Unmarshal(d.want(http.StatusOK, "POST", path, `{}`), &c); err != nil || c.Ceremony == "" {
		d.t.Fatalf("POST %s: no ceremony (%v)", path, err)
	}
	return c.Ceremony, c.Options
}

// finish is the body that answers a ceremony.
func finish(ceremony string, credential []byte, name string) string {
	b, _ := json.Marshal(map[string]any{"ceremony": ceremony, "credential": json.RawMessage(credential), "name": name})
	if name == "" {
		b, _ = json.Marshal(map[string]any{"ceremony": ceremony, "credential": json.RawMessage(credential)})
	}
	return string(b)
}

func TestPasskeysOverHTTP(t *testing.T) {
	cfg := testConfig()
	cfg.Accounts.RPID, cfg.Accounts.RPOrigins = rpID, []string{origin}
	accountStores(t, cfg, func(t *testing.T, ts *testServer) {
		phone := newDevice(ts)
		phone.signUp("Asha", "") // no password: passkeys only
		auth := newAuthenticator(t, flagBE|flagBS)
		id, options := phone.ceremony("/api/account/passkeys/register")
		var p server.PasskeyInfo
		json.Unmarshal(phone.want(http.StatusCreated, "POST", "/api/account/passkeys/register/finish", finish(id, auth.register(t, options, origin), "Phone")), &p)
		if p.ID != b64.EncodeToString(auth.id) || p.Name != "Phone" || !p.Synced {
			t.Fatalf("registered %+v", p)
		}
		// The same ceremony's answer again: refused, nothing added.
		resp, b := phone.do("POST", "/api/account/passkeys/register/finish", finish(id, auth.register(t, options, origin), "Again"))
		wantCode(t, "a registration finished twice", resp.StatusCode, b, http.StatusUnauthorized, server.EUNAUTHORIZED)
		// Another origin's registration.
		id, options = phone.ceremony("/api/account/passkeys/register")
		resp, b = phone.do("POST", "/api/account/passkeys/register/finish", finish(id, newAuthenticator(t, 0).register(t, options, "https://evil.test"), "Evil"))
		wantCode(t, "a registration from another origin", resp.StatusCode, b, http.StatusUnauthorized, server.EUNAUTHORIZED)

		// A new device signs in with no name, and gets its own session.
		laptop := newDevice(ts)
		id, options = laptop.ceremony("/api/account/passkeys/signin")
		var m server.Me
		json.Unmarshal(laptop.want(http.StatusOK, "POST", "/api/account/passkeys/signin/finish", finish(id, auth.signIn(t, options, auth.key), "")), &m)
		if m.Name != "Asha" || m.Sessions != 2 || len(m.Passkeys) != 1 || m.Passkeys[0].LastUsed == nil {
			t.Fatalf("signed in by passkey: %+v", m)
		}
		if laptop.session() == "" || laptop.session() == phone.session() {
			t.Fatalf("the passkey sign-in gave no session of its own")
		}
		// Signed by another key: refused, no session.
		other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		stranger := newDevice(ts)
		id, options = stranger.ceremony("/api/account/passkeys/signin")
		resp, b = stranger.do("POST", "/api/account/passkeys/signin/finish", finish(id, auth.signIn(t, options, other), ""))
		wantCode(t, "an assertion by another key", resp.StatusCode, b, http.StatusUnauthorized, server.EUNAUTHORIZED)
		stranger.want(http.StatusUnauthorized, "GET", "/api/account", "")

		// The last passkey of an account without a password stays.
		resp, b = laptop.do("POST", "/api/account/passkeys/remove", `{"id": "`+p.ID+`"}`)
		wantCode(t, "the last passkey", resp.StatusCode, b, http.StatusConflict, server.ECONFLICT)
		laptop.want(http.StatusOK, "POST", "/api/account/password", `{"password": "correct horse"}`)
		laptop.want(http.StatusOK, "POST", "/api/account/passkeys/remove", `{"id": "`+p.ID+`"}`)
		id, options = stranger.ceremony("/api/account/passkeys/signin")
		resp, b = stranger.do("POST", "/api/account/passkeys/signin/finish", finish(id, auth.signIn(t, options, auth.key), ""))
		wantCode(t, "a removed passkey", resp.StatusCode, b, http.StatusUnauthorized, server.EUNAUTHORIZED)
	})
}

func TestPasskeysOff(t *testing.T) {
	d := newDevice(newTestServer(t, testConfig(), nil))
	resp, b := d.do("POST", "/api/account/passkeys/signin", `{}`)
	wantCode(t, "passkeys without a relying party", resp.StatusCode, b, http.StatusServiceUnavailable, server.EUNAVAILABLE)
}
