package server_test

import (
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/server"
)

// TestRecords checks GET /api/records: the records of the games a list
// selects, the oldest first, each the game's own record (as GET
// /api/games/{id}/record gives it), filtered by status and rules; a live
// game's without its seed; bad filters refused.
func TestRecords(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	var finished []string
	for _, body := range []string{
		`{"seats": ["bot:random", "bot:random", "bot:greedy", "bot:random"]}`,
		`{"rules": "chaturanga-2p", "seats": ["bot:random", "bot:random"]}`,
		`{"rules": "chaturaji+clock=40", "seats": ["bot:greedy", "bot:random", "bot:random", "bot:random"]}`,
	} {
		g := ts.create(body)
		ts.waitState(g.ID, 60*time.Second, func(s *server.State) bool { return s.Status == "finished" })
		finished = append(finished, g.ID)
	}
	live := ts.create(fourHumans)
	rng := rand.New(rand.NewPCG(21, 22))
	for range 6 {
		ts.step(live.ID, tokensOf(live), rng)
	}

	get := func(query string) []*record.Record {
		t.Helper()
		status, body := ts.request("GET", "/api/records"+query, "", "")
		if status != http.StatusOK {
			t.Fatalf("GET /api/records%s: %d %s", query, status, body)
		}
		recs, err := record.ParseString(string(body))
		if err != nil {
			t.Fatalf("GET /api/records%s: %v\n%s", query, err, body)
		}
		return recs
	}
	ids := func(recs []*record.Record) []string {
		var out []string
		for _, r := range recs {
			id, _ := r.Tags.Get("Game")
			out = append(out, id)
		}
		return out
	}

	// Finished games, in the order they finished; each its own record,
	// which replays and proves its dice.
	recs := get("?status=finished")
	if got := ids(recs); !slices.Equal(got, finished) {
		t.Fatalf("finished games %v, want %v (the oldest first)", got, finished)
	}
	for i, r := range recs {
		if own := ts.record(finished[i]); !r.Equal(own) {
			t.Errorf("game %s: exported\n%s\nits record\n%s", finished[i], r, own)
		}
		if _, err := r.Replay(); err != nil {
			t.Errorf("game %s: %v", finished[i], err)
		}
		if err := r.VerifyDice(); err != nil {
			t.Errorf("game %s: %v", finished[i], err)
		}
	}

	if got := ids(get("?rules=chaturanga-2p")); !slices.Equal(got, finished[1:2]) {
		t.Errorf("chaturanga-2p games %v, want %v", got, finished[1:2])
	}
	if got := ids(get("?status=finished&rules=chaturaji%2Bclock%3D40")); !slices.Equal(got, finished[2:]) {
		t.Errorf("chaturaji+clock=40 games %v, want %v", got, finished[2:])
	}
	if got := ids(get("?status=finished&limit=2")); !slices.Equal(got, finished[1:]) {
		t.Errorf("the two latest finished games %v, want %v", got, finished[1:])
	}
	lives := get("?status=live")
	if got := ids(lives); !slices.Equal(got, []string{live.ID}) {
		t.Fatalf("live games %v, want %s", got, live.ID)
	}
	if _, ok := lives[0].Tags.Get("Seed"); ok {
		t.Errorf("a live game's export shows its seed:\n%s", lives[0])
	}
	if res, _ := lives[0].Tags.Get("Result"); res != "*" || len(lives[0].Turns) < 6 || !lives[0].Equal(ts.record(live.ID)) {
		t.Errorf("the live game's export (Result %q, %d turns):\n%s\nits record:\n%s", res, len(lives[0].Turns), lives[0], ts.record(live.ID))
	}
	if got := ids(get("")); len(got) != 4 {
		t.Errorf("all games %v, want 4", got)
	}

	for _, query := range []string{"?status=over", "?rules=chess", "?limit=0", "?limit=501", "?limit=x"} {
		status, body := ts.request("GET", "/api/records"+query, "", "")
		wantError(t, status, body, http.StatusBadRequest, server.EINVALID)
	}
}
