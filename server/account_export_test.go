package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/rating"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
)

// export downloads the device's account's data.
func (d *device) export() (server.AccountData, string) {
	d.ts.t.Helper()
	resp, b := d.do("GET", "/api/account/export", "")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment") {
		d.ts.t.Fatalf("export: %d %q %s", resp.StatusCode, resp.Header.Get("Content-Disposition"), b)
	}
	var data server.AccountData
	if err := json.Unmarshal(b, &data); err != nil {
		d.ts.t.Fatalf("export %s: %v", b, err)
	}
	return data, string(b)
}

// TestAccountExportGames checks that "download my data" lists the
// account's games, rated and not, live and finished, the latest first,
// with its seat and a finished game's result, place and score as the
// game's record and final state give them, and its ratings as its profile
// shows them, with the model's numbers moved from a newcomer's; at most
// MaxExportGames games, saying when some were left out.
func TestAccountExportGames(t *testing.T) {
	cfg := ratedConfig()
	cfg.MaxExportGames = 2
	accountStores(t, cfg, func(t *testing.T, ts *testServer) {
		d := newDevice(ts)
		d.signUp("Asha", "correct horse")
		if data, _ := d.export(); data.Account.Name != "Asha" || len(data.Games) != 0 || len(data.Ratings) != 0 || data.GamesLeftOut {
			t.Fatalf("a new account's export: %+v; want Asha with no games or ratings", data)
		}
		asha, err := store.AccountsOf(ts.store).AccountNamed(context.Background(), "asha")
		if err != nil {
			t.Fatal(err)
		}
		bo := mustAccount(t, ts.store, "Bo_2")
		// Asha at East: not the first seat, so that a seat's index is read.
		rated, err := ts.srv.CreateGame(context.Background(), &server.NewGame{
			Rules: "chaturaji", Seats: []string{"human", "bot:1", "bot:greedy", "human"}, Names: []string{"Bo_2", "", "", "Asha"},
			HostSeats: []string{"South", "East"}, Accounts: []string{bo, "", "", asha.ID}, Rated: true, AutoPass: new(bool),
		})
		if err != nil {
			t.Fatal(err)
		}
		end := playHumans(t, ts, rated, 3)
		waitRated(t, ts.store, rated.ID)
		var casual server.Created
		json.Unmarshal(d.want(http.StatusCreated, "POST", "/api/games", `{"seats": ["human", "bot:random", "bot:random", "bot:random"]}`), &casual)

		data, text := d.export()
		if strings.Contains(text, "argon2") {
			t.Fatalf("the export holds the password's hash: %s", text)
		}
		if ids := []string{gameID(data, 0), gameID(data, 1)}; !slices.Equal(ids, []string{casual.ID, rated.ID}) || data.GamesLeftOut {
			t.Fatalf("the export's games %v (left out: %v); want the casual game, then the rated one", ids, data.GamesLeftOut)
		}
		if c := data.Games[0]; c.Rules != "chaturaji" || c.Seat != "South" || c.Status != "live" || c.Rated || c.Result != "" {
			t.Errorf("the casual game: %+v; want live, unrated, at South", c)
		}
		rec := ts.record(rated.ID)
		result, _ := rec.Tags.Get("Result")
		place := 1
		for _, s := range end.Scores {
			if s > end.Scores[3] {
				place++
			}
		}
		g := data.Games[1]
		if g.Rules != "chaturaji" || g.Seat != "East" || g.Status != "finished" || !g.Rated || g.Result != result || result == "" ||
			g.Rank != place || g.Score == nil || *g.Score != end.Scores[3] || g.Change == nil {
			t.Errorf("the rated game: %+v; want finished, rated, at East, result %q, place %d, score %d, a change", g, result, place, end.Scores[3])
		}

		var p server.Profile
		json.Unmarshal(ts.mustGet("/api/players/asha"), &p)
		if len(data.Ratings) != 1 || len(p.Ratings) != 1 {
			t.Fatalf("ratings: export %+v, profile %+v; want one each", data.Ratings, p.Ratings)
		}
		r := data.Ratings[0]
		if r.Rules != "chaturaji" || r.Shown != p.Ratings[0].Shown || r.Games != 1 || len(r.History) != 1 || r.History[0].Game != rated.ID ||
			r.Mu == rating.DefaultMu || r.Sigma >= rating.DefaultSigma {
			t.Errorf("the export's rating %+v; want the profile's %+v after one game, its Mu moved and its Sigma down", r, p.Ratings[0])
		}

		// A third game: the oldest is left out, and the answer says so.
		d.want(http.StatusCreated, "POST", "/api/games", `{"seats": ["human", "bot:random", "bot:random", "bot:random"]}`)
		data, _ = d.export()
		if len(data.Games) != 2 || !data.GamesLeftOut || gameID(data, 1) != casual.ID {
			t.Errorf("three games, at most 2: %d listed, the second %s, left out %v; want the two latest and left out", len(data.Games), gameID(data, 1), data.GamesLeftOut)
		}
	})
}

// gameID returns the id of the i-th game of an export, or "" if it has none.
func gameID(d server.AccountData, i int) string {
	if i >= len(d.Games) {
		return ""
	}
	return d.Games[i].ID
}
