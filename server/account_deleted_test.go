package server_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
)

// spectate reads every message a spectator's WebSocket of finished game
// id sends, from its first event, until the server closes it.
func spectate(t *testing.T, ts *testServer, id string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/games/"+id+"/ws?after=0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	var msgs []string
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) != websocket.StatusNormalClosure {
				t.Fatalf("spectating game %s: %v after %d messages", id, err, len(msgs))
			}
			return msgs
		}
		msgs = append(msgs, string(data))
	}
}

// startSeats returns the seats of the start event among msgs.
func startSeats(t *testing.T, msgs []string) []server.SeatInfo {
	t.Helper()
	for _, m := range msgs {
		var e server.Event
		if err := json.Unmarshal([]byte(m), &e); err != nil {
			t.Fatalf("message %s: %v", m, err)
		}
		if e.Kind == server.KindStart {
			return e.Seats
		}
	}
	t.Fatalf("no start event among %d messages", len(msgs))
	return nil
}

// TestDeletedAccountName plays a rated game of two accounts to its end,
// deletes one, and checks that what the server shows of the game to
// others no longer names it: the start event on the game's WebSocket and
// in GET /api/games/{id}/events name its seat store.DeletedName, its
// profile is gone and the leaderboard lists only the other; the signed
// record keeps the names it was signed with, and its signature holds.
// Before the deletion each of them showed the name, so that the test sees
// a change.
func TestDeletedAccountName(t *testing.T) {
	cfg := ratedConfig()
	_, cfg.SigningKey, _ = ed25519.GenerateKey(nil)
	accountStores(t, cfg, func(t *testing.T, ts *testServer) {
		d := newDevice(ts)
		d.signUp("Asha", "correct horse")
		asha, err := store.AccountsOf(ts.store).AccountNamed(context.Background(), "asha")
		if err != nil {
			t.Fatal(err)
		}
		bo := mustAccount(t, ts.store, "Bo_2")
		g, err := ts.srv.CreateGame(context.Background(), &server.NewGame{
			Rules: "chaturaji", Seats: []string{"human", "bot:1", "human", "bot:greedy"}, Names: []string{"Asha", "", "Bo_2", ""},
			HostSeats: []string{"South", "North"}, Accounts: []string{asha.ID, "", bo, ""}, Rated: true, AutoPass: new(bool),
		})
		if err != nil {
			t.Fatal(err)
		}
		playHumans(t, ts, g, 7)
		waitRated(t, ts.store, g.ID)

		shown := func(path string) string {
			t.Helper()
			return string(ts.mustGet(path))
		}
		if s := startSeats(t, spectate(t, ts, g.ID)); s[0].Name != "Asha" || !s[0].Account {
			t.Fatalf("before the deletion, the start event's South: %+v; want Asha's account", s[0])
		}
		for _, path := range []string{"/api/games/" + g.ID + "/events", "/api/leaderboard?rules=chaturaji", "/api/players/asha"} {
			if b := shown(path); !strings.Contains(b, "Asha") {
				t.Fatalf("before the deletion, GET %s: %s; want Asha named", path, b)
			}
		}

		d.want(http.StatusOK, "POST", "/api/account/delete", `{"confirm": "Asha"}`)

		msgs := spectate(t, ts, g.ID)
		if s := startSeats(t, msgs); s[0].Name != store.DeletedName || !s[0].Account || s[2].Name != "Bo_2" {
			t.Errorf("the start event's seats on the WebSocket: %+v; want South %q, North Bo_2", s, store.DeletedName)
		}
		for _, m := range msgs {
			if strings.Contains(m, "Asha") {
				t.Errorf("the WebSocket names the deleted account: %s", m)
			}
		}
		var evs struct{ Events []json.RawMessage }
		b := ts.mustGet("/api/games/" + g.ID + "/events")
		json.Unmarshal(b, &evs)
		if strings.Contains(string(b), "Asha") || len(evs.Events) == 0 {
			t.Errorf("GET /api/games/%s/events names the deleted account: %.300s", g.ID, b)
		}
		var start server.Event
		if json.Unmarshal(evs.Events[0], &start); start.Kind != server.KindStart || start.Seats[0].Name != store.DeletedName {
			t.Errorf("GET .../events' first: %s; want the start, South %q", evs.Events[0], store.DeletedName)
		}
		status, b := ts.request("GET", "/api/players/asha", "", "")
		wantCode(t, "the deleted account's profile", status, b, http.StatusNotFound, server.ENOTFOUND)
		if b := shown("/api/leaderboard?rules=chaturaji"); strings.Contains(b, "Asha") || !strings.Contains(b, "Bo_2") {
			t.Errorf("the leaderboard after the deletion: %s; want Bo_2 alone", b)
		}
		if b := shown("/api/players/bo_2"); strings.Contains(b, "Asha") {
			t.Errorf("Bo_2's profile names the deleted account: %s", b)
		}

		// The signed record keeps what was signed.
		text := string(ts.mustGet("/api/games/" + g.ID + "/record"))
		recs, err := record.ParseString(text)
		if err != nil || len(recs) != 1 {
			t.Fatalf("the record: %v\n%s", err, text)
		}
		if south, _ := recs[0].Tags.Get("South"); south != "Asha" {
			t.Errorf("the signed record's South: %q; want Asha, as signed", south)
		}
		if err := recs[0].CheckSignature(cfg.SigningKey.Public().(ed25519.PublicKey)); err != nil {
			t.Errorf("the record's signature: %v", err)
		}
	})
}

// TestDeletedDuringGame deletes an account while its game goes on: the
// record the game signs when it ends names the seat store.DeletedName, not
// the username it was seated under, and verifies.
func TestDeletedDuringGame(t *testing.T) {
	cfg := ratedConfig()
	_, cfg.SigningKey, _ = ed25519.GenerateKey(nil)
	accountStores(t, cfg, func(t *testing.T, ts *testServer) {
		d := newDevice(ts)
		d.signUp("Asha", "correct horse")
		asha, err := store.AccountsOf(ts.store).AccountNamed(context.Background(), "asha")
		if err != nil {
			t.Fatal(err)
		}
		g, err := ts.srv.CreateGame(context.Background(), &server.NewGame{
			Rules: "chaturaji", Seats: []string{"human", "bot:1", "bot:2", "bot:greedy"}, Names: []string{"Asha"},
			HostSeats: []string{"South"}, Accounts: []string{asha.ID}, AutoPass: new(bool),
		})
		if err != nil {
			t.Fatal(err)
		}
		d.want(http.StatusOK, "POST", "/api/account/delete", `{"confirm": "Asha"}`)
		playHumans(t, ts, g, 11)

		text := string(ts.mustGet("/api/games/" + g.ID + "/record"))
		recs, err := record.ParseString(text)
		if err != nil || len(recs) != 1 {
			t.Fatalf("the record: %v\n%s", err, text)
		}
		if south, _ := recs[0].Tags.Get("South"); south != store.DeletedName {
			t.Errorf("the record of a game whose player deleted the account while it went on names South %q; want %q", south, store.DeletedName)
		}
		if strings.Contains(text, "Asha") {
			t.Errorf("the record names the deleted account:\n%s", text)
		}
		if err := recs[0].CheckSignature(cfg.SigningKey.Public().(ed25519.PublicKey)); err != nil {
			t.Errorf("the record's signature: %v", err)
		}
	})
}
