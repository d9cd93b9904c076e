package web_test

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/web"
)

// TestMount routes as `chaturaji serve` does: the API, health and metrics
// to the game server, every page and static file to the web client.
func TestMount(t *testing.T) {
	site := newSite(t)
	g, err := site.Create(server.NewGame{Seats: []string{"human", "bot:random", "bot:random", "bot:random"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path   string
		status int
		want   string // in the body
	}{
		{"/", 200, `src="/static/js/home.js"`},
		{"/game/" + g.ID, 200, `src="/static/js/game.js"`},
		{"/replay/" + g.ID, 200, `src="/static/js/replay.js"`},
		// A game that does not exist: the page, which says so, with 404.
		{"/game/abc", 404, `src="/static/js/game.js"`},
		{"/replay/abc", 404, `src="/static/js/replay.js"`},
		{"/rules/winther", 200, `src="/static/js/rules.js"`},
		{"/static/js/board.js", 200, "export class Board"},
		{"/static/game.html", 404, "Not found"},
		{"/nowhere", 404, "Not found"},
		{"/api/games", 200, `{"games":[`},
		{"/api/nothing", 404, `"code":"ENOTFOUND"`},
		{"/healthz", 200, "ok\n"},
		{"/readyz", 200, `{"ready":true}`},
		{"/metrics", 200, "chaturaji_games_live 1\n"}, // the game made above
		{"/web/presets", 200, `"name":"chaturaji"`},
		{"/web/rules/chaturaji+nonsense", 404, `"code":"ENOTFOUND"`},
		{"/web/nothing", 404, `"code":"ENOTFOUND"`},
	} {
		resp, err := http.Get(site.Base + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.want) {
			t.Errorf("GET %s: %d %.120q, want %d with %q", tc.path, resp.StatusCode, body, tc.status, tc.want)
		}
		if resp.Header.Get("Content-Security-Policy") == "" && !strings.HasPrefix(tc.path, "/api/") && tc.path != "/healthz" && tc.path != "/readyz" && tc.path != "/metrics" {
			t.Errorf("GET %s: no Content-Security-Policy", tc.path)
		}
	}
	// The client's requests pass the server's front door: they are counted
	// by route.
	resp, err := http.Get(site.Base + "/metrics")
	must(t, err)
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`chaturaji_http_requests_total{code="200",route="GET /static/"} 1`,
		`chaturaji_http_requests_total{code="404",route="/"} 1`,
		`chaturaji_http_requests_total{code="404",route="GET /static/"} 1`,
		`chaturaji_http_requests_total{code="200",route="GET /rules/{name}"} 1`,
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("/metrics has no %s", want)
		}
	}
}

// TestMethodNotAllowed checks that every page, file and endpoint of the
// client answers a method it does not take with 405, an Allow header and
// the API's JSON error; a path with nothing there is still 404.
func TestMethodNotAllowed(t *testing.T) {
	srv := httptest.NewServer(web.Handler(web.Options{}))
	defer srv.Close()
	for _, tc := range []struct{ method, path, allow string }{
		{"POST", "/", "GET, HEAD"},
		{"DELETE", "/game/abc", "GET, HEAD"},
		{"POST", "/replay/abc", "GET, HEAD"},
		{"PUT", "/rules/winther", "GET, HEAD"},
		{"POST", "/static/js/board.js", "GET, HEAD"},
		{"GET", "/web/verify", "POST"},
		{"PUT", "/web/analyze", "POST"},
		{"POST", "/web/presets", "GET, HEAD"},
		{"DELETE", "/web/rules/chaturaji", "GET, HEAD"},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e struct {
			Error struct{ Code, Message string }
		}
		err = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || err != nil || e.Error.Code != "EMETHOD" || resp.Header.Get("Allow") != tc.allow {
			t.Errorf("%s %s: %d %+v (%v), Allow %q; want 405 EMETHOD, Allow %q", tc.method, tc.path, resp.StatusCode, e, err, resp.Header.Get("Allow"), tc.allow)
		}
	}
	for _, path := range []string{"/nowhere", "/web/nothing"} {
		req, _ := http.NewRequest("POST", srv.URL+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("POST %s: %d, want 404", path, resp.StatusCode)
		}
	}
}

// TestEndpoints posts good and bad requests to the client's own JSON
// endpoints: a bad one gets an error that names what is wrong.
func TestEndpoints(t *testing.T) {
	srv := httptest.NewServer(web.Handler(web.Options{AnalyzeTime: 200 * time.Millisecond}))
	defer srv.Close()
	start := "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b 5 0,0,0,0 0"
	for _, tc := range []struct {
		name, path, ctype, body string
		status                  int
		want                    string
	}{
		{"analysis of a roll of 5", "/web/analyze", "application/json", `{"pos": "` + start + `", "movetime_ms": 100}`, 200, `"best":"`},
		{"analysis awaiting the roll", "/web/analyze", "application/json", `{"pos": "` + strings.Replace(start, " b 5 ", " b - ", 1) + `", "movetime_ms": 100}`, 200, `"expected":[`},
		{"a position that does not parse", "/web/analyze", "application/json", `{"pos": "nonsense"}`, 400, `"code":"EINVALID"`},
		{"unknown rules", "/web/analyze", "application/json", `{"rules": "chess", "pos": "` + start + `"}`, 400, `chess`},
		{"a negative time", "/web/analyze", "application/json", `{"pos": "` + start + `", "movetime_ms": -1}`, 400, `movetime_ms -1`},
		{"not JSON", "/web/analyze", "text/plain", `{}`, 400, `Content-Type: application/json`},
		{"an unknown field", "/web/analyze", "application/json", `{"position": "x"}`, 400, `unknown field`},
		{"two values", "/web/verify", "application/json", `{"record": ""} {}`, 400, `more than one JSON value`},
		{"an empty record", "/web/verify", "application/json", `{"record": ""}`, 200, `"ok":false`},
		{"a body over the limit", "/web/verify", "application/json", `{"record": "` + strings.Repeat("x", 300<<10) + `"}`, 413, `"code":"ETOOLARGE"`},
		// Bodies are read strictly: keys in their case, each once, UTF-8.
		{"a key in capitals", "/web/verify", "application/json", `{"RECORD": ""}`, 400, `unknown field \"RECORD\"`},
		{"a key in mixed case", "/web/analyze", "application/json", `{"pos": "` + start + `", "MoveTime_MS": 100}`, 400, `unknown field \"MoveTime_MS\"`},
		{"a key twice", "/web/analyze", "application/json", `{"pos": "nonsense", "pos": "` + start + `"}`, 400, `key \"pos\" given twice`},
		{"invalid UTF-8", "/web/verify", "application/json", "{\"record\": \"[Rules \\\"chaturaji\xff\\\"]\"}", 400, `record: not valid UTF-8`},
	} {
		resp, err := http.Post(srv.URL+tc.path, tc.ctype, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: %d %.200s, want %d with %q", tc.name, resp.StatusCode, body, tc.status, tc.want)
		}
		if resp.StatusCode >= 400 {
			var e struct {
				Error struct{ Code, Message string }
			}
			if json.Unmarshal(body, &e) != nil || e.Error.Code == "" || e.Error.Message == "" {
				t.Errorf("%s: the refusal %s is not {\"error\": {\"code\", \"message\"}}", tc.name, body)
			}
		}
	}
}

// TestAnalyzeAwaitingRollOff analyzes a martian position before its
// roll-off, whose outcomes are which team starts, not the dice of a turn:
// the analysis searches both and expects points for every seat (it used to
// try the turn's dice, which a roll-off does not take, and answer zeros).
func TestAnalyzeAwaitingRollOff(t *testing.T) {
	srv := httptest.NewServer(web.Handler(web.Options{AnalyzeTime: 200 * time.Millisecond}))
	defer srv.Close()
	pr, err := rules.Lookup("martian")
	if err != nil {
		t.Fatal(err)
	}
	start := rules.NewGame(pr, rules.Seed{}).Position()
	if !start.AwaitingRollOff() {
		t.Fatalf("martian's start %s does not await its roll-off", start)
	}
	body := fmt.Sprintf(`{"rules": "martian", "pos": %q, "movetime_ms": 200}`, start)
	resp, err := http.Post(srv.URL+"/web/analyze", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a web.Analysis
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST /web/analyze: %d %v", resp.StatusCode, err)
	}
	if a.Nodes == 0 {
		t.Errorf("the analysis searched nothing: %+v", a)
	}
	for i, x := range a.Expected {
		if x <= 0 {
			t.Errorf("seat %d expects %v points, want more than 0: %+v", i, x, a)
		}
	}
}

// TestSymbolsHaveGlyphs keeps the pages to the symbols that the fonts of
// Debian's Chromium (DejaVu) draw: any other shows as an empty box there.
// Icons beyond these are drawn in SVG.
func TestSymbolsHaveGlyphs(t *testing.T) {
	const drawn = "·—…←→↓▶◀○●✓✗❚"
	err := fs.WalkDir(os.DirFS("static"), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(filepath.Join("static", path))
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, r := range line {
				if r > 127 && !strings.ContainsRune(drawn, r) {
					t.Errorf("static/%s:%d: %q (U+%04X) may have no glyph: use one of %s or an SVG icon", path, i+1, r, r, drawn)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestModulesAreChecked keeps the client as it is built: plain ES modules
// that TypeScript checks from their JSDoc (`// @ts-check`), served as they
// are; nothing is generated, so `go build` needs no Node.
func TestModulesAreChecked(t *testing.T) {
	files, err := filepath.Glob("static/js/*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no modules in static/js: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), "// @ts-check\n") {
			t.Errorf("%s does not start with // @ts-check", f)
		}
	}
	for _, f := range []string{"tsconfig.json", "package.json", "static/js/bundle.js"} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s exists: a build step would need a check that its output is up to date", f)
		}
	}
}

// TestVerifyEndpoint checks POST /web/verify on the signed records of
// ../record/testdata/signed: what it proves of each, and the state of its
// signature with and without the key.
func TestVerifyEndpoint(t *testing.T) {
	srv := httptest.NewServer(web.Handler(web.Options{}))
	defer srv.Close()
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("..", "record", "testdata", "signed", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	key := strings.TrimSpace(read("test-key.pub"))
	for _, tc := range []struct {
		file, key string
		ok        bool
		signature string
		problem   string
	}{
		{"signed.cgn", key, true, web.SignatureValid, ""},
		{"signed.cgn", "", true, web.SignatureUnchecked, ""},
		{"move-changed.cgn", "", true, web.SignatureUnchecked, ""},
		{"move-changed.cgn", key, false, web.SignatureInvalid, "the record was changed after it was signed"},
		{"truncated.cgn", "", false, web.SignatureUnchecked, "no Result tag"},
		{"illegal.cgn", key, false, web.SignatureInvalid, "illegal action h1h8"},
		{"result.cgn", "", false, web.SignatureUnchecked, `tag Result "54,2,13,10"`},
	} {
		body, _ := json.Marshal(web.VerifyRequest{Record: read(tc.file), Key: tc.key})
		resp, err := http.Post(srv.URL+"/web/verify", "application/json", strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		var v web.Verification
		err = json.NewDecoder(resp.Body).Decode(&v)
		resp.Body.Close()
		if err != nil || v.OK != tc.ok || v.Signature != tc.signature || !strings.Contains(v.Problem, tc.problem) || (tc.problem == "") != (v.Problem == "") {
			t.Errorf("%s with key %q: %+v (%v); want ok %v, signature %s, problem with %q", tc.file, tc.key, v, err, tc.ok, tc.signature, tc.problem)
		}
		if v.OK && (v.Result != "2,54,13,10" || v.Rolls != 199 || v.Signer != key) {
			t.Errorf("%s: %+v", tc.file, v)
		}
	}
	resp, err := http.Post(srv.URL+"/web/verify", "application/json", strings.NewReader(`{"record": "", "key": "abc"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a malformed key: %d, want 400", resp.StatusCode)
	}
}
