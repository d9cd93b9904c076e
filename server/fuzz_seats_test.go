package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/server"
)

// FuzzClaimBody sends any body to POST .../claim: the server gives a seat's
// token only for that seat's own invite, and otherwise refuses with a JSON
// error and leaves the seats as they were.
func FuzzClaimBody(f *testing.F) {
	fts := newTestServer(f, testConfig(), nil)
	g := fts.create(`{"seats": ["human", "human", "human", "bot:1"]}`)
	west, north := g.Seats[1].Invite, g.Seats[2].Invite
	for _, s := range []string{
		`{"seat": "West", "invite": "` + west + `"}`, `{"seat": "North", "invite": "` + west + `"}`,
		`{"seat": "North", "invite": "` + north + `", "seat": "West"}`, `{"seat": "South", "invite": "x"}`,
		`{"seat": "East"}`, `{"Seat": "North", "invite": "` + north + `"}`, `{"seat": 3}`, `{}`, `[]`, ``, "{\"seat\": \"N\xfforth\"}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		ts := fts.with(t)
		before := ts.state(g.ID)
		status, b := ts.request("POST", "/api/games/"+g.ID+"/claim", "", body)
		after := ts.state(g.ID)
		if status == http.StatusOK {
			var c server.Claimed
			if err := json.Unmarshal(b, &c); err != nil || c.Token == "" {
				t.Fatalf("claimed, but the answer %s has no token (%v)", b, err)
			}
			invite := map[string]string{"West": west, "North": north}[c.Seat]
			if invite == "" || !strings.Contains(body, invite) || !before.Seats[seatAt(c.Seat)].Invited || after.Seats[seatAt(c.Seat)].Invited {
				t.Fatalf("body %q claimed %s", body, c.Seat)
			}
			return
		}
		checkRefusal(t, status, b)
		for i := range before.Seats {
			if before.Seats[i].Invited != after.Seats[i].Invited {
				t.Fatalf("refused (%s), yet seat %d changed", b, i)
			}
		}
	})
}

// seatAt is the index of a seat of the four.
func seatAt(name string) int {
	return strings.Index("SWNE", name[:1])
}

// FuzzRematchBody sends any body to POST .../rematch with a player's
// token: the server answers the offer as it stands, or refuses with a JSON
// error.
func FuzzRematchBody(f *testing.F) {
	fts := newTestServer(f, testConfig(), nil)
	g := fts.create(`{"seats": ["human", "human", "bot:1", "bot:1"], "host_seats": ["South", "West"]}`)
	fts.abort(g.ID, g.Seats[0].Token)
	for _, s := range []string{
		`{"answer": "offer"}`, `{"answer": "offer", "rotate": true}`, `{"answer": "accept"}`, `{"answer": "decline"}`,
		`{"answer": "start"}`, `{"answer": "accept", "rotate": false}`, `{"answer": "maybe"}`, `{"Answer": "offer"}`,
		`{"answer": "offer", "answer": "accept"}`, `{"answer": null}`, `{}`, ``, `{"answer": "offer"} {}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		ts := fts.with(t)
		status, b := ts.request("POST", "/api/games/"+g.ID+"/rematch", g.Seats[1].Token, body)
		if status == http.StatusOK {
			var r server.Rematch
			if err := json.Unmarshal(b, &r); err != nil || r.Game != g.ID || r.You != "West" || r.Status == "" {
				t.Fatalf("body %q answered %s (%v)", body, b, err)
			}
			return
		}
		checkRefusal(t, status, b)
	})
}
