package web_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/web/webtest"
)

// from returns an HTTP client whose connections come from the loopback
// address addr, such as 127.0.0.2: to the server, a machine of its own.
func from(t *testing.T, addr string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(addr)}}
	tr := &http.Transport{DialContext: d.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// TestAnalyzeLimited checks that the site as `chaturaji serve` mounts it
// refuses a client's analyses past its budget of costly requests, while
// another client's are served and the first one's pages still load.
func TestAnalyzeLimited(t *testing.T) {
	cfg := webtest.Config()
	cfg.CostlyRate, cfg.CostlyBurst = 0.01, 2
	site, err := webtest.NewSite(t.TempDir(), cfg)
	must(t, err)
	t.Cleanup(site.Close)
	const analysis = `{"pos": "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b 5 0,0,0,0 0", "movetime_ms": 20}`
	post := func(c *http.Client, path, body string) (int, string, http.Header) {
		t.Helper()
		resp, err := c.Post(site.Base+path, "application/json", strings.NewReader(body))
		must(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	a, b := from(t, "127.0.0.1"), from(t, "127.0.0.2")
	for i := range 2 {
		if status, body, _ := post(a, "/web/analyze", analysis); status != http.StatusOK {
			t.Fatalf("analysis %d of the budget: %d %s", i+1, status, body)
		}
	}
	status, body, h := post(a, "/web/analyze", analysis)
	var e struct {
		Error struct{ Code, Message string }
	}
	if status != http.StatusTooManyRequests || json.Unmarshal([]byte(body), &e) != nil || e.Error.Code != "ETOOMANY" || h.Get("Retry-After") == "" {
		t.Errorf("an analysis over the budget: %d %s, Retry-After %q; want 429 ETOOMANY with Retry-After", status, body, h.Get("Retry-After"))
	}
	if status, body, _ := post(a, "/web/verify", `{"record": ""}`); status != http.StatusTooManyRequests {
		t.Errorf("a verification over the same budget: %d %s, want 429", status, body)
	}
	if status, body, _ := post(b, "/web/analyze", analysis); status != http.StatusOK {
		t.Errorf("another client's analysis: %d %s", status, body)
	}
	resp, err := a.Get(site.Base + "/rules/chaturaji")
	must(t, err)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a page for the client out of costly requests: %d", resp.StatusCode)
	}
}

// TestAnalysisWaitsForBudget checks that the game page's analysis bar,
// refused for the client's budget of costly requests, asks again shortly
// and draws the bar, rather than showing the refusal.
func TestAnalysisWaitsForBudget(t *testing.T) {
	cfg := webtest.Config()
	cfg.CostlyRate, cfg.CostlyBurst = 0.5, 1
	site, err := webtest.NewSite(t.TempDir(), cfg)
	must(t, err)
	t.Cleanup(site.Close)
	c, err := site.Create(server.NewGame{Seats: []string{"human", "human", "human", "human"}, HostSeats: []string{"South", "West", "North", "East"}})
	must(t, err)
	p := newPage(t, 1280, 900, false)
	must(t, p.Go(fmt.Sprintf("%s/game/%s#seat=South&token=%s", site.URL, c.ID, c.Seats[0].Token)))
	must(t, p.Wait(`document.body.dataset.seq`, 10*time.Second))
	// The page's client spends its budget, so that the bar's first ask is
	// refused.
	spent := eval[bool](t, p, `(async () => {
		for (let i = 0; i < 5; i++) {
			const r = await fetch('/web/verify', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"record": ""}'});
			if (r.status === 429) return true;
		}
		return false;
	})()`)
	if !spent {
		t.Fatalf("five costly requests in a row were not refused")
	}
	must(t, p.ClickElement("#analysis-toggle"))
	must(t, p.Wait(`document.querySelectorAll('#evalbar .eval-seg').length === 4 || /unavailable/.test(document.querySelector('#evalbar').textContent)`, 15*time.Second))
	if text := eval[string](t, p, `document.querySelector('#evalbar').textContent`); strings.Contains(text, "unavailable") {
		t.Errorf("the bar shows the refusal: %q", text)
	}
}
