package server_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/chaturaji/chaturaji/account/accounttest"
	"github.com/chaturaji/chaturaji/server"
)

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
	cfg.Accounts.RPID, cfg.Accounts.RPOrigins = accounttest.RPID, []string{accounttest.Origin}
	accountStores(t, cfg, func(t *testing.T, ts *testServer) {
		phone := newDevice(ts)
		phone.signUp("Asha", "") // no password: passkeys only
		auth := accounttest.NewAuthenticator(t, accounttest.FlagBE|accounttest.FlagBS)
		id, options := phone.ceremony("/api/account/passkeys/register")
		var p server.PasskeyInfo
		json.Unmarshal(phone.want(http.StatusCreated, "POST", "/api/account/passkeys/register/finish", finish(id, auth.Register(t, options, accounttest.Origin), "Phone")), &p)
		if p.ID != base64.RawURLEncoding.EncodeToString(auth.ID) || p.Name != "Phone" || !p.Synced {
			t.Fatalf("registered %+v", p)
		}
		// The same ceremony's answer again: refused, nothing added.
		resp, b := phone.do("POST", "/api/account/passkeys/register/finish", finish(id, auth.Register(t, options, accounttest.Origin), "Again"))
		wantCode(t, "a registration finished twice", resp.StatusCode, b, http.StatusUnauthorized, server.EUNAUTHORIZED)
		// Another origin's registration.
		id, options = phone.ceremony("/api/account/passkeys/register")
		resp, b = phone.do("POST", "/api/account/passkeys/register/finish", finish(id, accounttest.NewAuthenticator(t, 0).Register(t, options, "https://evil.test"), "Evil"))
		wantCode(t, "a registration from another origin", resp.StatusCode, b, http.StatusUnauthorized, server.EUNAUTHORIZED)

		// A new device signs in with no name, and gets its own session.
		laptop := newDevice(ts)
		id, options = laptop.ceremony("/api/account/passkeys/signin")
		var m server.Me
		json.Unmarshal(laptop.want(http.StatusOK, "POST", "/api/account/passkeys/signin/finish", finish(id, auth.SignIn(t, options, auth.Key), "")), &m)
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
		resp, b = stranger.do("POST", "/api/account/passkeys/signin/finish", finish(id, auth.SignIn(t, options, other), ""))
		wantCode(t, "an assertion by another key", resp.StatusCode, b, http.StatusUnauthorized, server.EUNAUTHORIZED)
		stranger.want(http.StatusUnauthorized, "GET", "/api/account", "")

		// The last passkey of an account without a password stays.
		resp, b = laptop.do("POST", "/api/account/passkeys/remove", `{"id": "`+p.ID+`"}`)
		wantCode(t, "the last passkey", resp.StatusCode, b, http.StatusConflict, server.ECONFLICT)
		laptop.want(http.StatusOK, "POST", "/api/account/password", `{"password": "correct horse"}`)
		laptop.want(http.StatusOK, "POST", "/api/account/passkeys/remove", `{"id": "`+p.ID+`"}`)
		id, options = stranger.ceremony("/api/account/passkeys/signin")
		resp, b = stranger.do("POST", "/api/account/passkeys/signin/finish", finish(id, auth.SignIn(t, options, auth.Key), ""))
		wantCode(t, "a removed passkey", resp.StatusCode, b, http.StatusUnauthorized, server.EUNAUTHORIZED)
	})
}

func TestPasskeysOff(t *testing.T) {
	d := newDevice(newTestServer(t, testConfig(), nil))
	resp, b := d.do("POST", "/api/account/passkeys/signin", `{}`)
	wantCode(t, "passkeys without a relying party", resp.StatusCode, b, http.StatusServiceUnavailable, server.EUNAVAILABLE)
}
