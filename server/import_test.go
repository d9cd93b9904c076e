package server_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/pgn4"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
)

// events returns a game's events as GET /api/games/{id}/events gives them.
func (ts *testServer) events(id string) []server.Event {
	ts.t.Helper()
	status, b := ts.request("GET", "/api/games/"+id+"/events", "", "")
	if status != 200 {
		ts.t.Fatalf("GET /api/games/%s/events: %d %s", id, status, b)
	}
	var page struct {
		Events []server.Event `json:"events"`
	}
	if err := json.Unmarshal(b, &page); err != nil {
		ts.t.Fatal(err)
	}
	return page.Events
}

// played is an event less what differs between two games of the same
// moves: when, the seed, who held the seats and what made each action.
func played(e server.Event) server.Event {
	e.At, e.SeedHash, e.Seed, e.Seats, e.By, e.Table = time.Time{}, "", "", nil, "", nil
	return e
}

// TestImportAsPlayed has a server's bots play games of chesscom-chaturaji
// to their end, then imports each game's record into the same SQLite
// store: the imported game is finished, its seats human under the
// record's names, unrated, and its events are the played game's, event
// for event (but for times, seeds, seats and who acted); its record has
// the same turns and result and is signed with the server's key.
func TestImportAsPlayed(t *testing.T) {
	cfg := testConfig()
	pub, key, _ := ed25519.GenerateKey(nil)
	cfg.SigningKey = key
	ts := newTestServer(t, cfg, nil)
	for _, body := range []string{
		`{"rules": "chesscom-chaturaji", "seats": ["bot:greedy", "bot:random", "bot:greedy", "bot:random"]}`,
		`{"rules": "chesscom-chaturaji", "seats": ["bot:random", "bot:random", "bot:random", "bot:random"], "auto_pass": true}`,
	} {
		c := ts.create(body)
		ts.waitState(c.ID, 30*time.Second, func(s *server.State) bool { return s.Status == "finished" })
		rec := ts.record(c.ID)
		rec.Tags.Set("South", "ann")
		rec.Tags.Set("North", "cy")
		rec.Tags.Set("West", "bot:random") // as the server writes an unnamed seat
		rec.Tags.Set("East", "bot:random")

		id, err := ts.srv.Import(context.Background(), rec)
		if err != nil {
			t.Fatalf("import of game %s: %v", c.ID, err)
		}
		st := ts.state(id)
		names := []string{}
		for _, s := range st.Seats {
			if s.Player != server.Human || s.Account {
				t.Errorf("seat %s: %+v, want a human's without an account", s.Seat, s)
			}
			names = append(names, s.Name)
		}
		if st.Status != "finished" || st.Table.Rated || st.Table.TurnMS != 0 || !slices.Equal(names, []string{"ann", "bot:random", "cy", "bot:random"}) {
			t.Errorf("imported game: status %s, rated %v, turn_ms %d, names %q; want finished, unrated, untimed, the record's names", st.Status, st.Table.Rated, st.Table.TurnMS, names)
		}
		want, got := ts.events(c.ID), ts.events(id)
		if len(got) != len(want) {
			t.Fatalf("the imported game has %d events, the game played %d", len(got), len(want))
		}
		for i := range want {
			w, g := played(want[i]), played(got[i])
			wb, _ := json.Marshal(w)
			gb, _ := json.Marshal(g)
			if string(wb) != string(gb) {
				t.Errorf("event %d: imported\n %s\nplayed\n %s", i+1, gb, wb)
			}
		}
		back := ts.record(id)
		if err := back.CheckSignature(pub); err != nil {
			t.Errorf("the imported game's record: %v", err)
		}
		for _, name := range []string{"Result", "Rules", "South", "North"} {
			a, _ := rec.Tags.Get(name)
			b, _ := back.Tags.Get(name)
			if a != b {
				t.Errorf("tag %s: imported %q, record %q", name, b, a)
			}
		}
		if len(back.Turns) != len(rec.Turns) || back.String() == rec.String() {
			t.Errorf("the imported game's record:\n%s\nthe record imported:\n%s", back, rec)
		}
		for i := range rec.Turns {
			if !slices.Equal(back.Turns[i].Actions, rec.Turns[i].Actions) {
				t.Errorf("turn %d: %v, want %v", i+1, back.Turns[i].Actions, rec.Turns[i].Actions)
			}
		}
	}
}

// TestImportChesscom imports pgn4/testdata/blunder.pgn4, a game written by
// hand that ends in a resignation and a timeout, after Green took Red's
// king: the resignation is the player's, the timeout the server's, the end
// event ranks Green first with 9 points (3 for Red's king, 3 for each of
// the two left standing), and the seats carry the PGN4's players; in an
// SQLite file and in a PostgreSQL schema.
func TestImportChesscom(t *testing.T) {
	for _, db := range []struct {
		name string
		open func(t *testing.T) database
	}{{"sqlite", sqliteDatabase}, {"postgres", postgresDatabase}} {
		t.Run(db.name, func(t *testing.T) {
			st, err := store.Open(context.Background(), db.open(t).dsn)
			if err != nil {
				t.Fatal(err)
			}
			importChesscom(t, newTestServer(t, testConfig(), st))
		})
	}
}

func importChesscom(t *testing.T, ts *testServer) {
	rec := chesscomRecord(t)
	if err := ts.srv.CheckImport(rec); err != nil {
		t.Fatalf("CheckImport of a game Import takes: %v", err)
	}
	id, err := ts.srv.Import(context.Background(), rec)
	if err != nil {
		t.Fatal(err)
	}
	evs := ts.events(id)
	var got []string
	for _, e := range evs {
		if e.Kind == server.KindAction {
			got = append(got, e.Seat+" "+e.Action+" "+e.By+" "+e.Reason)
		}
	}
	wantTail := []string{"East e3d1 player ", "West resign player ", "North timeout timeout timeout"}
	if len(got) != 14 || !slices.Equal(got[11:], wantTail) {
		t.Errorf("actions %q, want 14 ending %q", got, wantTail)
	}
	end := evs[len(evs)-1]
	if end.Kind != server.KindEnd || end.Result != "0,0,0,9" || !slices.Equal(end.Ranks, []int{2, 2, 2, 1}) {
		t.Errorf("the last event: %+v; want the end, 0,0,0,9, East first", end)
	}
	st := ts.state(id)
	for i, want := range []string{"ann", "bob", "cy", "di"} {
		if st.Seats[i].Name != want {
			t.Errorf("seat %s named %q, want %q", st.Seats[i].Seat, st.Seats[i].Name, want)
		}
	}
	status, b := ts.request("GET", "/api/games?status=finished", "", "")
	if status != 200 || !strings.Contains(string(b), id) {
		t.Errorf("the game list (%d) does not list %s: %s", status, id, b)
	}
}

// chesscomRecord is the record of pgn4/testdata/blunder.pgn4.
func chesscomRecord(t *testing.T) *record.Record {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "pgn4", "testdata", "blunder.pgn4"))
	if err != nil {
		t.Fatal(err)
	}
	games, err := pgn4.ParseString(string(data))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := games[0].Record()
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestImportRefused imports records the server cannot take as its own
// finished games: each is refused with EINVALID naming why, and the store
// holds no game more.
func TestImportRefused(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	unfinished := chesscomRecord(t)
	unfinished.Turns = unfinished.Turns[:len(unfinished.Turns)-1]
	unfinished.Tags.Set("Result", "*")
	named := chesscomRecord(t)
	named.Tags.Set("West", strings.Repeat("b", 41))
	dice, err := record.ParseString("[Rules \"chaturaji\"]\n[Seed \"" + strings.Repeat("ab", 32) + "\"]\n[Result \"*\"]\n\n")
	if err != nil {
		t.Fatal(err)
	}
	illegal := chesscomRecord(t)
	illegal.Turns[0].Actions[0] = illegal.Turns[1].Actions[0]
	for _, c := range []struct {
		name string
		rec  *record.Record
		want string
	}{
		{"a game not over", unfinished, "the game is not over"},
		{"a name over the server's limit", named, "name of seat 2 (West): 41 bytes"},
		{"a game with dice", dice[0], "a game of chaturaji has dice"},
		{"an illegal move", illegal, "record"},
	} {
		t.Run(c.name, func(t *testing.T) {
			checked := ts.srv.CheckImport(c.rec)
			_, err := ts.srv.Import(context.Background(), c.rec)
			var se *server.Error
			if !errors.As(err, &se) || se.Code != server.EINVALID || !strings.Contains(err.Error(), c.want) {
				t.Errorf("import: %v; want EINVALID with %q", err, c.want)
			}
			if checked == nil || checked.Error() != err.Error() {
				t.Errorf("CheckImport: %v; want Import's refusal, %v", checked, err)
			}
			games, err := ts.store.Games(context.Background(), store.Filter{})
			if err != nil || len(games) != 0 {
				t.Errorf("the store holds %d games (%v), want none", len(games), err)
			}
		})
	}
}
