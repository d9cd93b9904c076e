package server_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/server"
)

// TestStrictBodies checks that bodies and messages are read exactly as
// docs/api.md writes them: keys in their case, each once, strings in
// UTF-8, event numbers not negative. Each is refused with EINVALID, a
// message that names the place, and changes nothing.
func TestStrictBodies(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	for _, c := range []struct {
		name string
		body func(legal string) string // the body; legal is an action South may play
		want string                    // in the error's message
	}{
		{"a key in capitals", func(a string) string { return `{"ACTION": "` + a + `"}` }, `unknown field "ACTION"`},
		{"a key in mixed case", func(a string) string { return `{"action": "` + a + `", "Seq": 0}` }, `unknown field "Seq"`},
		{"a key twice, the last legal", func(a string) string { return `{"action": "h8h1", "action": "` + a + `"}` }, `key "action" given twice`},
		{"a negative event number", func(a string) string { return `{"action": "` + a + `", "seq": -1}` }, `seq -1`},
		{"invalid UTF-8 in the action", func(a string) string { return "{\"action\": \"" + a + "\xff\"}" }, `action: not valid UTF-8`},
	} {
		t.Run("HTTP "+c.name, func(t *testing.T) {
			tb := newTable(t, ts)
			before := ts.state(tb.game.ID)
			status, body := ts.request("POST", "/api/games/"+tb.game.ID+"/actions", tb.tokens["South"], c.body(before.Actions[0]))
			wantError(t, status, body, http.StatusBadRequest, server.EINVALID)
			if !strings.Contains(string(body), jsonEscape(c.want)) {
				t.Errorf("error %s does not say %q", body, c.want)
			}
			sameState(t, before, ts.state(tb.game.ID))
		})
		t.Run("WebSocket "+c.name, func(t *testing.T) {
			tb := newTable(t, ts)
			before := ts.state(tb.game.ID)
			body := strings.Replace(c.body(before.Actions[0]), "{", `{"kind": "action", `, 1)
			tb.south.sendRaw([]byte(body))
			e := tb.south.wantErrorMsg(server.EINVALID)
			if !strings.Contains(e.Error.Message, c.want) {
				t.Errorf("error %q does not say %q", e.Error.Message, c.want)
			}
			sameState(t, before, ts.state(tb.game.ID))
		})
	}
}

// TestStrictNewGame checks the strict reading of POST /api/games: nothing
// is created from a body with keys in another case, a key twice, a name
// that is not UTF-8 or a bot setting that is not a finite number.
func TestStrictNewGame(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	for _, c := range []struct{ body, want string }{
		{`{"SEATS": ["human", "human", "human", "human"]}`, `unknown field "SEATS"`},
		{`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "Turn_MS": 5000}`, `unknown field "Turn_MS"`},
		{`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "seats": ["human", "human", "human", "bot:1"]}`, `key "seats" given twice`},
		{"{\"seats\": [\"human\", \"human\", \"human\", \"human\"], \"names\": [\"ann\", \"b\xe9b\"]}", `names[1]: not valid UTF-8`},
		{`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "names": ["\udc00"]}`, `names[0]: a lone surrogate`},
		{`{"seats": ["human", "bot:strong?material=NaN", "human", "human"]}`, `material="NaN"`},
		{`{"seats": ["human", "bot:strong?temp=Inf", "human", "human"]}`, `temp="Inf"`},
	} {
		t.Run(c.body, func(t *testing.T) {
			before := countGames(t, ts.store)
			status, body := ts.request("POST", "/api/games", "", c.body)
			wantError(t, status, body, http.StatusBadRequest, server.EINVALID)
			if !strings.Contains(string(body), jsonEscape(c.want)) {
				t.Errorf("error %s does not say %q", body, c.want)
			}
			if after := countGames(t, ts.store); after != before {
				t.Errorf("refused, yet the store went from %d to %d games", before, after)
			}
		})
	}
}

// jsonEscape is s as it appears inside a JSON string.
func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// TestMethodNotAllowed checks that every endpoint answers a method it does
// not take with 405, an Allow header listing the ones it takes, and the
// API's JSON error; a path with no endpoint is still 404.
func TestMethodNotAllowed(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(fourHumans)
	for _, c := range []struct{ method, path, allow string }{
		{"PUT", "/api/games", "GET, HEAD, POST"},
		{"DELETE", "/api/games", "GET, HEAD, POST"},
		{"DELETE", "/api/games/" + g.ID, "GET, HEAD"},
		{"POST", "/api/games/" + g.ID + "/record", "GET, HEAD"},
		{"PATCH", "/api/games/" + g.ID + "/events", "GET, HEAD"},
		{"GET", "/api/games/" + g.ID + "/actions", "POST"},
		{"POST", "/api/games/" + g.ID + "/ws", "GET, HEAD"},
		{"POST", "/api/records", "GET, HEAD"},
		{"POST", "/healthz", "GET, HEAD"},
		{"PUT", "/readyz", "GET, HEAD"},
		{"DELETE", "/metrics", "GET, HEAD"},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, ts.URL+c.path, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var e struct{ Error server.Error }
			if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
				t.Fatalf("%d, body not JSON: %v", resp.StatusCode, err)
			}
			if resp.StatusCode != http.StatusMethodNotAllowed || e.Error.Code != server.EMETHOD || resp.Header.Get("Allow") != c.allow {
				t.Fatalf("%d %s %q, Allow %q; want 405 %s, Allow %q", resp.StatusCode, e.Error.Code, e.Error.Message, resp.Header.Get("Allow"), server.EMETHOD, c.allow)
			}
		})
	}
	for _, path := range []string{"/api/nothing", "/api/games/" + g.ID + "/nothing"} {
		status, body := ts.request("DELETE", path, "", "")
		wantError(t, status, body, http.StatusNotFound, server.ENOTFOUND)
	}
}

// TestOriginScheme checks that an origin is its scheme and host together:
// a page at http://host is not the server at https://host (nor the other
// way round), whether it is the server's own host or an allowed origin,
// for WebSockets and for writes.
func TestOriginScheme(t *testing.T) {
	cfg := testConfig()
	cfg.Origins = []string{"https://client.example", "HTTP://Plain.Example/"}
	ts := newTestServer(t, cfg, nil)
	g := ts.create(fourHumans)
	host := strings.TrimPrefix(ts.URL, "http://") // the server is plain HTTP
	for _, c := range []struct {
		name   string
		header []string // request headers, name and value
		ok     bool
	}{
		{"no origin: not a browser", nil, true},
		{"the server's own origin", []string{"Origin", "http://" + host}, true},
		{"the server's host over the other scheme", []string{"Origin", "https://" + host}, false},
		{"the server's host over the other scheme, behind TLS", []string{"Origin", "http://" + host, "X-Forwarded-Proto", "https"}, false},
		{"the server's own origin, behind TLS", []string{"Origin", "https://" + host, "X-Forwarded-Proto", "https"}, true},
		{"same-origin by fetch metadata", []string{"Origin", "http://" + host, "Sec-Fetch-Site", "same-origin"}, true},
		{"the server's host over the other scheme, by fetch metadata", []string{"Origin", "https://" + host, "Sec-Fetch-Site", "cross-site"}, false},
		{"an allowed origin", []string{"Origin", "https://client.example"}, true},
		{"an allowed origin by fetch metadata", []string{"Origin", "https://client.example", "Sec-Fetch-Site", "cross-site"}, true},
		{"an allowed host over the other scheme", []string{"Origin", "http://client.example"}, false},
		{"an allowed host over the other scheme, by fetch metadata", []string{"Origin", "http://client.example", "Sec-Fetch-Site", "cross-site"}, false},
		{"an allowed origin written in capitals", []string{"Origin", "http://plain.example", "Sec-Fetch-Site", "cross-site"}, true},
		{"the other scheme of an origin written in capitals", []string{"Origin", "https://plain.example", "Sec-Fetch-Site", "cross-site"}, false},
		{"another origin", []string{"Origin", "https://evil.example"}, false},
	} {
		t.Run("WebSocket: "+c.name, func(t *testing.T) {
			h := http.Header{}
			for i := 0; i+1 < len(c.header); i += 2 {
				h.Set(c.header[i], c.header[i+1])
			}
			cl, err := ts.tryDial(g.ID, "", 0, h)
			if cl != nil {
				cl.conn.CloseNow()
			}
			var de *dialError
			switch {
			case c.ok && err != nil:
				t.Fatalf("refused: %v", err)
			case !c.ok && (!errors.As(err, &de) || de.status != http.StatusForbidden):
				t.Fatalf("dial: %v, want status 403", err)
			}
		})
		t.Run("POST: "+c.name, func(t *testing.T) {
			status, body := ts.request("POST", "/api/games", "", fourHumans, c.header...)
			if c.ok && status != http.StatusCreated {
				t.Fatalf("refused: %d %s", status, body)
			}
			if !c.ok {
				wantError(t, status, body, http.StatusForbidden, server.EFORBIDDEN)
			}
		})
	}
}
