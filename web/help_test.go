package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// TestAnalyzeRefusesHelpOff asks POST /web/analyze, over HTTP, about the
// live position of a game whose table turned engine help off: refused
// (403), also with its scores and clock changed or its dice taken away; the
// same position is analysed once the game is over, and a game with help is
// analysed as ever.
func TestAnalyzeRefusesHelpOff(t *testing.T) {
	site := newSite(t)
	off := false
	c, err := site.Create(server.NewGame{Seats: []string{"human", "human", "bot:greedy", "bot:greedy"}, HostSeats: []string{"South", "West"}, Help: &off})
	must(t, err)
	tokens := map[string]string{"South": c.Seats[0].Token, "West": c.Seats[1].Token}
	// The position holds while a human decides.
	st, err := site.State(c.ID)
	for deadline := time.Now().Add(10 * time.Second); err == nil && tokens[st.ToAct] == "" && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		st, err = site.State(c.ID)
	}
	must(t, err)
	if tokens[st.ToAct] == "" {
		t.Fatalf("no human to act: %+v", st)
	}
	analyze := func(pos string) (int, string) {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"rules": "chaturaji", "pos": pos, "movetime_ms": 50})
		resp, err := http.Post(site.Base+"/web/analyze", "application/json", strings.NewReader(string(body)))
		must(t, err)
		defer resp.Body.Close()
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		json.NewDecoder(resp.Body).Decode(&e)
		return resp.StatusCode, e.Error.Code + ": " + e.Error.Message
	}
	f := strings.Fields(st.Position)
	for _, pos := range []string{
		st.Position,
		strings.Join([]string{f[0], f[1], f[2], "7,0,3,1", "12"}, " "),
		strings.Join([]string{f[0], f[1], "-", f[3], f[4]}, " "),
	} {
		if status, msg := analyze(pos); status != http.StatusForbidden || !strings.HasPrefix(msg, "EFORBIDDEN: ") || !strings.Contains(msg, "engine help off") {
			t.Errorf("analyze %s: %d %s, want 403 EFORBIDDEN", pos, status, msg)
		}
	}
	// South moves, so that the game without help leaves the start, where
	// the game with help stands.
	must(t, site.Act(c.ID, tokens[st.ToAct], st.Actions[0]))
	on, err := site.Create(server.NewGame{Seats: []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}})
	must(t, err)
	onSt, err := site.State(on.ID)
	must(t, err)
	if status, msg := analyze(onSt.Position); status != http.StatusOK {
		t.Errorf("analyze the position of a game with help: %d %s", status, msg)
	}
	req, _ := http.NewRequest("POST", site.Base+"/api/games/"+c.ID+"/actions", strings.NewReader(`{"kind": "abort"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.Seats[0].Token)
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("abort: %d", resp.StatusCode)
	}
	if status, msg := analyze(st.Position); status != http.StatusOK {
		t.Errorf("analyze a position of the game once over: %d %s", status, msg)
	}
}
