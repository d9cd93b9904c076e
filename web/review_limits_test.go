package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/review"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/web"
)

// postReview posts a record to /web/review and returns the status and the
// body.
func postReview(t *testing.T, url, rec string) (int, []byte) {
	t.Helper()
	return postReviewFrom(t, "127.0.0.1", url, rec)
}

// postReviewFrom posts a record to /web/review from the client address ip
// (one of 127/8) and returns the status and the body.
func postReviewFrom(t *testing.T, ip, url, rec string) (int, []byte) {
	t.Helper()
	body, _ := json.Marshal(web.ReviewRequest{Record: rec})
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	client := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
	defer client.CloseIdleConnections()
	resp, err := client.Post(url+"/web/review", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Error(err) // from any goroutine
		return 0, nil
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

func blunderRecord(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "review", "testdata", "blunder.cgn"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestReviewBounds: what POST /web/review refuses, and how its budget
// bounds what it does.
func TestReviewBounds(t *testing.T) {
	rec := blunderRecord(t)
	t.Run("refused", func(t *testing.T) {
		srv := httptest.NewServer(web.Handler(web.Options{ReviewNodes: 50, MaxBody: 64 << 10}))
		defer srv.Close()
		for _, tt := range []struct {
			name, rec string
			status    int
		}{
			{"a game not over", "[Rules \"chaturaji\"]\n\nb 5 d1e1\n", http.StatusBadRequest},
			{"no record", "", http.StatusBadRequest},
			{"an illegal move", "[Rules \"chaturaji\"]\n\nb 5 d1d5\n", http.StatusBadRequest},
			{"over the body's limit", rec + strings.Repeat("; a comment\n", 8<<10), http.StatusRequestEntityTooLarge},
		} {
			if status, b := postReview(t, srv.URL, tt.rec); status != tt.status {
				t.Errorf("%s: %d %s, want %d", tt.name, status, b, tt.status)
			}
		}
	})
	t.Run("in time", func(t *testing.T) {
		srv := httptest.NewServer(web.Handler(web.Options{ReviewNodes: 50000, ReviewTime: 300 * time.Millisecond}))
		defer srv.Close()
		start := time.Now()
		status, b := postReview(t, srv.URL, rec)
		if status != http.StatusOK {
			t.Fatalf("%d %s", status, b)
		}
		if el := time.Since(start); el > 3*time.Second {
			t.Errorf("a review of 300ms took %v", el)
		}
		var r review.Report
		must(t, json.Unmarshal(b, &r))
		if r.Complete || len(r.Decisions) >= r.Total || r.Total == 0 {
			t.Errorf("in 300ms at 50000 nodes a search, %d of %d decisions judged, complete %v", len(r.Decisions), r.Total, r.Complete)
		}
	})
	t.Run("one at a time", func(t *testing.T) {
		srv := httptest.NewServer(web.Handler(web.Options{ReviewNodes: 100000, ReviewTime: 2 * time.Second, AnalyzeWait: 100 * time.Millisecond, ReviewWorkers: 1}))
		defer srv.Close()
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			postReview(t, srv.URL, rec)
		}()
		time.Sleep(500 * time.Millisecond)
		if status, b := postReviewFrom(t, "127.0.0.2", srv.URL, rec); status != http.StatusServiceUnavailable {
			t.Errorf("a second review while one runs: %d %s, want 503", status, b)
		}
		wg.Wait()
	})
}

// TestReviewWithholdsHelpOff: in a finished record made up from the live
// position of a game whose table turned engine help off, played on to its
// end, the decision at that position is withheld, so that a review cannot
// be a hint; the others are judged.
func TestReviewWithholdsHelpOff(t *testing.T) {
	site := newSite(t)
	off := false
	c, err := site.Create(server.NewGame{Seats: []string{"human", "human", "human", "human"},
		HostSeats: []string{"South", "West", "North", "East"}, Help: &off})
	must(t, err)
	recs, err := record.ParseString(recordOf(t, site, c.ID))
	must(t, err)
	g, err := recs[0].Replay()
	must(t, err)
	live := 0 // the live position's decision: after those of the record
	for _, tn := range recs[0].Turns {
		live += len(tn.Actions)
	}
	greedy := ai.NewGreedy(1)
	for !g.Finished() {
		if g.Position().AwaitingRoll() {
			_, err = g.Roll()
			must(t, err)
			continue
		}
		a, err := greedy.Choose(context.Background(), g.Position(), ai.Budget{})
		must(t, err)
		must(t, g.Play(a))
	}
	status, b := postReview(t, site.Base, record.FromGame(g).String())
	if status != http.StatusOK {
		t.Fatalf("a record through a live position without help: %d %s", status, b)
	}
	var r review.Report
	must(t, json.Unmarshal(b, &r))
	if len(r.Decisions) < live+2 {
		t.Fatalf("%d decisions judged; the live position is decision %d", len(r.Decisions), live)
	}
	for i, d := range r.Decisions {
		if i == live && (!d.Withheld || d.Best != "" || d.Class != "good") {
			t.Errorf("the live position's decision %d: %+v, want it withheld", i, d)
		}
		if i != live && (d.Withheld || d.Best == "") {
			t.Errorf("decision %d: %+v, want it judged", i, d)
		}
	}
}

// TestReviewShared floods /web/review from one client, four requests at a
// time over and over, while another asks for reviews one after another:
// the flooder has one review running or waiting at once
// (ReviewsPerClient), its others refused at once with 429 naming the
// limit, and the other client is served every time.
func TestReviewShared(t *testing.T) {
	rec := blunderRecord(t)
	srv := httptest.NewServer(web.Handler(web.Options{ReviewNodes: 100000, ReviewTime: time.Second, AnalyzeWait: 200 * time.Millisecond, ReviewWorkers: 2}))
	defer srv.Close()

	stop := make(chan struct{})
	answered := make(chan struct{}, 1)
	var mu sync.Mutex
	statuses := map[int]int{}
	var refusal []byte
	var flood sync.WaitGroup
	for range 4 {
		flood.Add(1)
		go func() {
			defer flood.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				status, b := postReviewFrom(t, "127.0.0.1", srv.URL, rec)
				mu.Lock()
				statuses[status]++
				if status == http.StatusTooManyRequests {
					refusal = b
				}
				mu.Unlock()
				select {
				case answered <- struct{}{}:
				default:
				}
				if status != http.StatusOK {
					select { // a refused client tries again soon, not in a spin
					case <-stop:
						return
					case <-time.After(20 * time.Millisecond):
					}
				}
			}
		}()
	}
	<-answered // the flood is on
	for i := range 3 {
		if status, b := postReviewFrom(t, "127.0.0.2", srv.URL, rec); status != http.StatusOK {
			t.Errorf("review %d of another client while one floods: %d %s, want 200", i+1, status, b)
		}
	}
	close(stop)
	flood.Wait()
	if statuses[http.StatusTooManyRequests] == 0 || !strings.Contains(string(refusal), "the limit of one client") || !strings.Contains(string(refusal), "ETOOMANY") {
		t.Errorf("the flooder's answers: %v, the last refusal %s; want some refused with 429 naming the limit", statuses, refusal)
	}
}
