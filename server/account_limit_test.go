package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

func TestAccountBudget(t *testing.T) {
	cfg := testConfig()
	cfg.AccountRate, cfg.AccountBurst = 0.001, 3
	ts := newTestServer(t, cfg, nil)
	d := newDevice(ts)
	d.signUp("Asha", "correct horse")
	d.signIn("Asha", "correct horse")
	d.want(http.StatusUnauthorized, "POST", "/api/account/signin", `{"username": "Asha", "password": "wrong horse"}`)
	resp, b := d.do("POST", "/api/account/signin", `{"username": "Asha", "password": "correct horse"}`)
	wantCode(t, "a fourth sign-in", resp.StatusCode, b, http.StatusTooManyRequests, server.ETOOMANY)
	if resp.Header.Get("Retry-After") == "" {
		t.Errorf("no Retry-After")
	}
	// The other classes' budgets are the client's still.
	d.me()
}

func TestNameFailures(t *testing.T) {
	cfg := testConfig()
	cfg.AccountRate, cfg.AccountBurst = 1000, 1000
	cfg.NameFailures, cfg.NameWindow = 3, time.Hour
	ts := newTestServer(t, cfg, nil)
	d := newDevice(ts)
	d.signUp("Asha", "correct horse")
	// Three failures each under a name that exists and one that does not.
	for range 3 {
		d.want(http.StatusUnauthorized, "POST", "/api/account/signin", `{"username": "Asha", "password": "wrong horse"}`)
		d.want(http.StatusUnauthorized, "POST", "/api/account/signin", `{"username": "Nobody", "password": "wrong horse"}`)
	}
	// Then both are refused alike, even with the right password, from
	// another client too.
	resp, asha := newDevice(ts).do("POST", "/api/account/signin", `{"username": "ASHA", "password": "correct horse"}`)
	wantCode(t, "Asha after 3 failures", resp.StatusCode, asha, http.StatusTooManyRequests, server.ETOOMANY)
	_, nobody := d.do("POST", "/api/account/signin", `{"username": "nobody", "password": "correct horse"}`)
	// The same answer but for the wait left, each name's own.
	if before, _, _ := strings.Cut(string(asha), "try again"); !strings.HasPrefix(string(nobody), before) || !strings.Contains(before, "too many failed sign-ins") {
		t.Fatalf("a name that exists: %s; one that does not: %s; want the same", asha, nobody)
	}
	resp, b := d.do("POST", "/api/account/recover", `{"username": "Asha", "code": "aaaa-aaaa-aaaa-aaaa", "password": "correct horse"}`)
	wantCode(t, "recovery under a stopped name", resp.StatusCode, b, http.StatusTooManyRequests, server.ETOOMANY)
	// Other names still sign in; and the account's session stays.
	d.signUp("Bala", "correct horse")
	newDevice(ts).signIn("Bala", "correct horse")
	d.me()
}
