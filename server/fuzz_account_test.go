package server_test

import (
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/chaturaji/chaturaji/account"
)

// FuzzAccountBodies sends any body to each endpoint of accounts that takes
// one, signed in: each answers with success or a JSON refusal, and a
// refusal changes nothing (the session stays, the password too).
func FuzzAccountBodies(f *testing.F) {
	cfg := testConfig()
	cfg.AccountRate, cfg.AccountBurst = 1e6, 1e6
	cfg.NameFailures = 1e6
	cfg.Accounts.Params = account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32} // fast: the bodies are fuzzed, not the hash
	cfg.Accounts.RPID, cfg.Accounts.RPOrigins = "chaturaji.test", []string{"https://chaturaji.test"}
	fts := newTestServer(f, cfg, nil)
	paths := []string{"/api/account", "/api/account/signin", "/api/account/recover", "/api/account/password",
		"/api/account/passkeys/register/finish", "/api/account/passkeys/signin/finish", "/api/account/passkeys/remove",
		"/api/account/delete"}
	for i, s := range []string{
		`{"username": "Asha", "password": "correct horse"}`, `{"username": "Asha", "code": "aaaa-bbbb-cccc-dddd", "password": "x"}`,
		`{"current": "a", "password": "b"}`, `{"ceremony": "x", "credential": {"id": "AA", "type": "public-key"}}`,
		`{"ceremony": "x", "credential": null}`, `{"id": "!!"}`, `{"confirm": "Nobody"}`, `{"username": "ad\u0000min"}`,
		`{"username": "a", "username": "b"}`, `{"Username": "x"}`, `[]`, ``, "{\"username\": \"\xff\"}", `{"credential": [[[[[[]]]]]]}`,
	} {
		f.Add(uint8(i), s)
	}
	var n atomic.Int64
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		ts := fts.with(t)
		d := newDevice(ts)
		name := "fuzzer" + strconv.FormatInt(n.Add(1), 10)
		d.signUp(name, "correct horse")
		path := paths[int(which)%len(paths)]
		resp, b := d.do("POST", path, body)
		if resp.StatusCode < 300 {
			return
		}
		checkRefusal(t, resp.StatusCode, b)
		if m := d.me(); m.Name != name {
			t.Fatalf("refused (%s), yet the account is %+v", b, m)
		}
		newDevice(ts).signIn(name, "correct horse")
	})
}
