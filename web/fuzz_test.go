package web_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/review"
	"github.com/chaturaji/chaturaji/web"
)

// postFuzzed posts body to path and checks the answer: 200 with JSON, or
// a 4xx refusal that is the API's JSON error. It returns the status and
// body.
func postFuzzed(t *testing.T, url, body string) (int, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case resp.StatusCode == http.StatusOK:
		if !json.Valid(b) {
			t.Fatalf("body %q: answered %s, not JSON", body, b)
		}
	case resp.StatusCode >= 400 && resp.StatusCode < 500:
		var e struct {
			Error struct{ Code, Message string }
		}
		if json.Unmarshal(b, &e) != nil || e.Error.Code == "" || e.Error.Message == "" {
			t.Fatalf("body %q: refused with %d %s, not a JSON error", body, resp.StatusCode, b)
		}
	default:
		t.Fatalf("body %q: %d %s", body, resp.StatusCode, b)
	}
	return resp.StatusCode, b
}

// FuzzAnalyzeBody posts any body to /web/analyze: an analysis or a clear
// refusal, never a failure.
func FuzzAnalyzeBody(f *testing.F) {
	start := "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b 5 0,0,0,0 0"
	for _, s := range []string{
		`{"pos": "` + start + `", "movetime_ms": 10}`,
		`{"rules": "chaturaji-2dice", "pos": "` + start + `"}`,
		`{"pos": "` + strings.Replace(start, " b 5 ", " b - ", 1) + `"}`,
		`{"pos": "nonsense"}`, `{"rules": "chess", "pos": ""}`, `{"pos": "x", "movetime_ms": -1}`,
		`{"POS": "x"}`, `{"pos": "a", "pos": "b"}`, "{\"pos\": \"\xff\"}", `[]`, `{} {}`, ``,
	} {
		f.Add(s)
	}
	srv := httptest.NewServer(web.Handler(web.Options{AnalyzeTime: 10 * time.Millisecond, AnalyzeWorkers: 1}))
	f.Cleanup(srv.Close)
	f.Fuzz(func(t *testing.T, body string) {
		postFuzzed(t, srv.URL+"/web/analyze", body)
	})
}

// FuzzVerifyBody posts any body to /web/verify: a verdict or a clear
// refusal, never a failure; a verdict that says ok names no problem.
func FuzzVerifyBody(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "record", "testdata", "*", "*.cgn"))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		b, _ := json.Marshal(web.VerifyRequest{Record: string(data)})
		f.Add(string(b))
	}
	for _, s := range []string{`{"record": ""}`, `{"RECORD": ""}`, `{"record": "a", "record": "b"}`, "{\"record\": \"\xff\"}", `[]`, ``} {
		f.Add(s)
	}
	srv := httptest.NewServer(web.Handler(web.Options{}))
	f.Cleanup(srv.Close)
	f.Fuzz(func(t *testing.T, body string) {
		status, b := postFuzzed(t, srv.URL+"/web/verify", body)
		if status != http.StatusOK {
			return
		}
		var v web.Verification
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		if v.OK == (v.Problem != "") {
			t.Fatalf("body %q: ok %v with problem %q", body, v.OK, v.Problem)
		}
	})
}

// FuzzReviewBody posts any body to /web/review: a review or a clear
// refusal, never a failure; a review holds no more decisions than the
// game, each with a score per seat.
func FuzzReviewBody(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "record", "testdata", "*", "*.cgn"))
	files = append(files, filepath.Join("..", "review", "testdata", "blunder.cgn"))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		b, _ := json.Marshal(web.ReviewRequest{Record: string(data)})
		f.Add(string(b))
	}
	for _, s := range []string{`{"record": ""}`, `{"RECORD": ""}`, `{"record": "a", "record": "b"}`, "{\"record\": \"\xff\"}", `[]`, ``} {
		f.Add(s)
	}
	srv := httptest.NewServer(web.Handler(web.Options{ReviewNodes: 50, ReviewTime: 100 * time.Millisecond}))
	f.Cleanup(srv.Close)
	f.Fuzz(func(t *testing.T, body string) {
		status, b := postFuzzed(t, srv.URL+"/web/review", body)
		if status != http.StatusOK {
			return
		}
		var r review.Report
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Decisions) > r.Total || r.Complete != (len(r.Decisions) == r.Total) {
			t.Fatalf("body %q: %d decisions of %d, complete %v", body, len(r.Decisions), r.Total, r.Complete)
		}
		for _, d := range r.Decisions {
			if len(d.Before) != len(r.Seats) || len(d.After) != len(r.Seats) || d.Loss < 0 {
				t.Fatalf("body %q: decision %+v for seats %v", body, d, r.Seats)
			}
		}
	})
}
