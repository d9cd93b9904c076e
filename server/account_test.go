package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
)

// device is one browser of a player: a client with its own cookie jar.
type device struct {
	t   testing.TB
	ts  *testServer
	hc  *http.Client
	jar *cookiejar.Jar
}

// mustURL parses a URL.
func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func newDevice(ts *testServer) *device {
	jar, err := cookiejar.New(nil)
	if err != nil {
		ts.t.Fatal(err)
	}
	return &device{t: ts.t, ts: ts, hc: &http.Client{Jar: jar}, jar: jar}
}

// do sends a request with the device's cookies, a JSON body if body is not
// "", and header's pairs; it returns the answer with its body read.
func (d *device) do(method, path, body string, header ...string) (*http.Response, []byte) {
	d.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, d.ts.URL+path, rd)
	if err != nil {
		d.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := d.hc.Do(req)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		d.t.Fatal(err)
	}
	return resp, b
}

// want sends a request and fails the test unless it is answered status;
// it returns the body.
func (d *device) want(status int, method, path, body string, header ...string) []byte {
	d.t.Helper()
	resp, b := d.do(method, path, body, header...)
	if resp.StatusCode != status {
		d.t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, b, status)
	}
	return b
}

// session is the device's session token, "" if it has none.
func (d *device) session() string {
	for _, c := range d.jar.Cookies(mustURL(d.t, d.ts.URL)) {
		if c.Name == server.SessionCookie {
			return c.Value
		}
	}
	return ""
}

// me is the signed-in account, failing the test if there is none.
func (d *device) me() server.Me {
	d.t.Helper()
	var m server.Me
	if err := json.Unmarshal(d.want(http.StatusOK, "GET", "/api/account", ""), &m); err != nil {
		d.t.Fatal(err)
	}
	return m
}

// signUp makes an account on the device and returns its recovery codes.
func (d *device) signUp(name, password string) []string {
	d.t.Helper()
	var m server.Me
	body := `{"username": "` + name + `", "password": "` + password + `"}`
	if err := json.Unmarshal(d.want(http.StatusCreated, "POST", "/api/account", body), &m); err != nil {
		d.t.Fatal(err)
	}
	return m.RecoveryCodes
}

// signIn signs the device in with a password.
func (d *device) signIn(name, password string) {
	d.t.Helper()
	d.want(http.StatusOK, "POST", "/api/account/signin", `{"username": "`+name+`", "password": "`+password+`"}`)
}

// wantCode fails the test unless body is a JSON error of the code.
func wantCode(t testing.TB, what string, status int, body []byte, wantStatus int, code string) {
	t.Helper()
	var e struct{ Error server.Error }
	if status != wantStatus || json.Unmarshal(body, &e) != nil || e.Error.Code != code {
		t.Fatalf("%s: %d %s, want %d %s", what, status, body, wantStatus, code)
	}
}

// accountStores runs a test on a server of each store: SQLite and
// PostgreSQL.
func accountStores(t *testing.T, cfg server.Config, test func(t *testing.T, ts *testServer)) {
	t.Run("sqlite", func(t *testing.T) { test(t, newTestServer(t, cfg, nil)) })
	t.Run("postgres", func(t *testing.T) {
		st, err := store.Open(context.Background(), pgtest.Schema(t))
		if err != nil {
			t.Fatal(err)
		}
		test(t, newTestServer(t, cfg, st))
	})
}

func TestAccountPasswords(t *testing.T) {
	accountStores(t, testConfig(), func(t *testing.T, ts *testServer) {
		phone := newDevice(ts)
		resp, b := phone.do("POST", "/api/account", `{"username": "Asha", "password": "correct horse"}`)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("sign up: %d %s", resp.StatusCode, b)
		}
		var up server.Me
		json.Unmarshal(b, &up)
		if up.Name != "Asha" || len(up.RecoveryCodes) != 10 || up.Sessions != 1 || !up.HasPassword {
			t.Fatalf("signed up: %s", b)
		}
		var cookie *http.Cookie
		for _, c := range resp.Cookies() {
			if c.Name == server.SessionCookie {
				cookie = c
			}
		}
		if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Path != "/" || cookie.Secure || cookie.MaxAge <= 0 {
			t.Fatalf("session cookie %+v: want HttpOnly, SameSite=Lax, Path=/, not Secure over plain HTTP, lasting", cookie)
		}
		if m := phone.me(); m.Name != "Asha" || m.RecoveryCodesLeft != 10 || m.RecoveryCodes != nil {
			t.Fatalf("GET /api/account: %+v", m)
		}
		st, b := ts.request("POST", "/api/account", "", `{"username": "asha", "password": "another one"}`)
		wantCode(t, "the name taken, in another case", st, b, http.StatusConflict, server.ECONFLICT)

		// A wrong password and an unknown name: the same answer.
		laptop := newDevice(ts)
		_, wrong := laptop.do("POST", "/api/account/signin", `{"username": "Asha", "password": "wrong horse"}`)
		resp, unknown := laptop.do("POST", "/api/account/signin", `{"username": "Nobody", "password": "wrong horse"}`)
		if string(wrong) != string(unknown) || resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("wrong password %s, unknown name %d %s: want the same 401", wrong, resp.StatusCode, unknown)
		}
		laptop.want(http.StatusUnauthorized, "GET", "/api/account", "")

		// Signing in anew rotates the session: the old token opens nothing.
		laptop.signIn("Asha", "correct horse")
		first := laptop.session()
		laptop.signIn("asha", "correct horse")
		if second := laptop.session(); second == first || second == "" {
			t.Fatalf("the session was not rotated at sign-in")
		}
		st, b = ts.request("GET", "/api/account", "", "", "Cookie", server.SessionCookie+"="+first)
		wantCode(t, "the session before the sign-in", st, b, http.StatusUnauthorized, server.EUNAUTHORIZED)
		if m := phone.me(); m.Sessions != 2 {
			t.Fatalf("%d sessions, want the phone's and the laptop's", m.Sessions)
		}

		// A new password ends the other sessions, not this one.
		phone.want(http.StatusUnauthorized, "POST", "/api/account/password", `{"current": "wrong horse", "password": "battery staple"}`)
		phone.want(http.StatusOK, "POST", "/api/account/password", `{"current": "correct horse", "password": "battery staple"}`)
		laptop.want(http.StatusUnauthorized, "GET", "/api/account", "")
		phone.me()
		laptop.want(http.StatusUnauthorized, "POST", "/api/account/signin", `{"username": "Asha", "password": "correct horse"}`)
		laptop.signIn("Asha", "battery staple")

		// Sign out everywhere ends both; sign out ends one.
		var ended struct{ Ended int }
		json.Unmarshal(laptop.want(http.StatusOK, "POST", "/api/account/signout-everywhere", `{}`), &ended)
		if ended.Ended != 2 {
			t.Fatalf("signed out everywhere: %d sessions ended, want 2", ended.Ended)
		}
		phone.want(http.StatusUnauthorized, "GET", "/api/account", "")
		laptop.want(http.StatusUnauthorized, "GET", "/api/account", "")
		phone.signIn("Asha", "battery staple")
		phone.want(http.StatusOK, "POST", "/api/account/signout", `{}`)
		if phone.session() != "" {
			t.Fatalf("the cookie stays after signing out")
		}
		phone.want(http.StatusUnauthorized, "GET", "/api/account", "")

		// A recovery code signs in and sets a password, once.
		code := up.RecoveryCodes[3]
		recover := `{"username": "ASHA", "code": "` + strings.ToUpper(code) + `", "password": "new start 1"}`
		phone.want(http.StatusOK, "POST", "/api/account/recover", recover)
		if m := phone.me(); m.RecoveryCodesLeft != 9 {
			t.Fatalf("%d recovery codes left, want 9", m.RecoveryCodesLeft)
		}
		st, b = ts.request("POST", "/api/account/recover", "", recover)
		wantCode(t, "a recovery code used twice", st, b, http.StatusUnauthorized, server.EUNAUTHORIZED)
		laptop.signIn("Asha", "new start 1")

		// Export: everything kept, to download.
		resp, b = laptop.do("GET", "/api/account/export", "")
		var data struct {
			Account struct{ Name string }
			Sessions []json.RawMessage
		}
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment") ||
			json.Unmarshal(b, &data) != nil || data.Account.Name != "Asha" || len(data.Sessions) != 2 {
			t.Fatalf("export: %d %q %s", resp.StatusCode, resp.Header.Get("Content-Disposition"), b)
		}
		if strings.Contains(string(b), "argon2") {
			t.Fatalf("the export holds the password's hash: %s", b)
		}

		// Its game outlives the account, under the neutral name.
		var g server.Created
		json.Unmarshal(laptop.want(http.StatusCreated, "POST", "/api/games", `{"seats": ["human", "bot:random", "bot:random", "bot:random"], "names": ["Whoever"]}`), &g)
		if s := ts.state(g.ID).Seats[0]; s.Name != "Asha" || !s.Account {
			t.Fatalf("the signed-in creator's seat: %+v, want Asha's", s)
		}
		resp, b = laptop.do("POST", "/api/account/delete", `{"confirm": "Bala"}`)
		wantCode(t, "deletion confirmed with another name", resp.StatusCode, b, http.StatusBadRequest, server.EINVALID)
		laptop.want(http.StatusOK, "POST", "/api/account/delete", `{"confirm": "asha"}`)
		laptop.want(http.StatusUnauthorized, "GET", "/api/account", "")
		phone.want(http.StatusUnauthorized, "GET", "/api/account", "")
		st2, b := ts.request("POST", "/api/account/signin", "", `{"username": "Asha", "password": "new start 1"}`)
		if string(b) != string(unknown) {
			t.Fatalf("signing in to a deleted account: %d %s, want as for an unknown name", st2, b)
		}
		if s := ts.state(g.ID).Seats[0]; s.Name != store.DeletedName || !s.Account {
			t.Fatalf("the deleted account's seat: %+v, want %q", s, store.DeletedName)
		}
		var list server.List
		json.Unmarshal(ts.mustGet("/api/games"), &list)
		for _, sum := range list.Games {
			if sum.ID == g.ID && sum.Seats[0].Name != store.DeletedName {
				t.Fatalf("the list shows the deleted account's seat as %q", sum.Seats[0].Name)
			}
		}
	})
}

// mustGet is the body of a GET answered 200.
func (ts *testServer) mustGet(path string) []byte {
	ts.t.Helper()
	st, b := ts.request("GET", path, "", "")
	if st != http.StatusOK {
		ts.t.Fatalf("GET %s: %d %s", path, st, b)
	}
	return b
}

func TestSessionCookieSecure(t *testing.T) {
	for _, c := range []struct {
		name   string
		cfg    bool     // Config.SecureCookies
		header []string // of the sign-up
		want   bool
	}{
		{"plain HTTP", false, nil, false},
		{"a proxy that ended TLS says so", false, []string{"X-Forwarded-Proto", "https"}, true},
		{"the site is behind TLS", true, nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.SecureCookies = c.cfg
			d := newDevice(newTestServer(t, cfg, nil))
			resp, b := d.do("POST", "/api/account", `{"username": "Asha"}`, c.header...)
			if resp.StatusCode != http.StatusCreated || len(resp.Cookies()) != 1 || resp.Cookies()[0].Secure != c.want {
				t.Fatalf("%d %s, cookies %v: want one, Secure %v", resp.StatusCode, b, resp.Cookies(), c.want)
			}
		})
	}
}

func TestAccountCrossOrigin(t *testing.T) {
	for _, c := range []struct {
		name    string
		origins []string
		status  int
		code    string
	}{
		{"refused at the door", nil, http.StatusForbidden, server.EFORBIDDEN},
		{"any origin allowed: served as a guest's", []string{"*"}, http.StatusUnauthorized, server.EUNAUTHORIZED},
		{"an allowed origin: served as a guest's", []string{"https://friend.example"}, http.StatusUnauthorized, server.EUNAUTHORIZED},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.Origins = c.origins
			ts := newTestServer(t, cfg, nil)
			d := newDevice(ts)
			d.signUp("Asha", "correct horse")
			from := "https://evil.example"
			if len(c.origins) == 1 && c.origins[0] != "*" {
				from = c.origins[0]
			}
			for _, w := range []struct{ path, body string }{
				{"/api/account/signout-everywhere", `{}`},
				{"/api/account/delete", `{"confirm": "Asha"}`},
			} {
				resp, b := d.do("POST", w.path, w.body, "Origin", from, "Sec-Fetch-Site", "cross-site")
				wantCode(t, w.path+" from "+from, resp.StatusCode, b, c.status, c.code)
			}
			if m := d.me(); m.Sessions != 1 {
				t.Fatalf("after the cross-origin writes: %+v", m)
			}
			// The WebSocket of a game the account holds a seat of.
			var g server.Created
			json.Unmarshal(d.want(http.StatusCreated, "POST", "/api/games", `{"seats": ["human", "bot:random", "bot:random", "bot:random"]}`), &g)
			h := http.Header{"Origin": {from}, "Sec-Fetch-Site": {"cross-site"}, "Cookie": {server.SessionCookie + "=" + d.session()}}
			c2, err := ts.tryDial(g.ID, "", 0, h)
			if c.status == http.StatusForbidden {
				if de, ok := err.(*dialError); !ok || de.status != http.StatusForbidden {
					t.Fatalf("a cross-origin WebSocket with the cookie: %v, want 403", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c2.hello.Seat != "" {
				t.Fatalf("a cross-origin WebSocket with the cookie holds seat %q, want a spectator's", c2.hello.Seat)
			}
		})
	}
}
