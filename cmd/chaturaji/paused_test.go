package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// reply is an answer read in full.
type reply struct {
	status int
	body   string
	err    error
}

// send sends a request and reads its answer, for a goroutine of its own.
func send(method, url, token, body string) reply {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return reply{err: err}
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		return reply{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, string(b), err}
}

// TestClusterPausedAnswers stops a node (SIGSTOP) past its lease, lets the
// other adopt its game of four people and move it on, and sends the
// stopped node a read of the game and an action after the new last
// event, which wait in its listener's queue. When it goes on (SIGCONT) it
// answers them before it has renewed anything: the read must not be the
// old state, and the action must be applied (forwarded) or refused as
// worth retrying, never as invalid for a seq "past the game's last
// event", which it is only in the stopped node's old copy.
func TestClusterPausedAnswers(t *testing.T) {
	c := newTestCluster(t, 2)
	g := createFor(t, c.base(0), `{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"]}`)
	tokens := map[string]string{}
	for _, s := range g.Seats {
		tokens[s.Seat] = s.Token
	}
	play := func(base string) *server.State {
		t.Helper()
		st := waitFor(t, base, g.ID, func(s *server.State) bool { return len(s.Actions) > 0 })
		r := send("POST", base+"/api/games/"+g.ID+"/actions", tokens[st.ToAct], fmt.Sprintf(`{"action": %q, "seq": %d}`, st.Actions[0], st.Seq))
		if r.err != nil || r.status != http.StatusOK {
			t.Fatalf("action on %s: %d %s %v", base, r.status, r.body, r.err)
		}
		return st
	}
	for range 3 {
		play(c.base(0))
	}

	c.procs[0].cmd.Process.Signal(syscall.SIGSTOP)
	defer c.procs[0].cmd.Process.Signal(syscall.SIGCONT)
	for end := time.Now().Add(30 * time.Second); !strings.Contains(c.procs[1].log.String(), "game adopted"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the stopped node's game was not adopted\n%s", c.logs())
		}
	}
	for range 3 {
		play(c.base(1))
	}
	now := waitFor(t, c.base(1), g.ID, func(s *server.State) bool { return len(s.Actions) > 0 })

	reads, acts := make(chan reply, 1), make(chan reply, 1)
	go func() { reads <- send("GET", c.base(0)+"/api/games/"+g.ID, "", "") }()
	go func() {
		acts <- send("POST", c.base(0)+"/api/games/"+g.ID+"/actions", tokens[now.ToAct], fmt.Sprintf(`{"action": %q, "seq": %d}`, now.Actions[0], now.Seq))
	}()
	time.Sleep(300 * time.Millisecond) // both wait in the stopped node's queue
	c.procs[0].cmd.Process.Signal(syscall.SIGCONT)

	read := <-reads
	var st server.State
	if read.err != nil || read.status != http.StatusOK || json.Unmarshal([]byte(read.body), &st) != nil {
		t.Fatalf("the resumed node's read: %d %s %v", read.status, read.body, read.err)
	}
	if st.Seq < now.Seq {
		t.Errorf("the resumed node served event %d of the game, its old copy; the game is at %d", st.Seq, now.Seq)
	}
	act := <-acts
	switch {
	case act.err != nil:
		t.Errorf("the resumed node's answer to the action: %v", act.err)
	case act.status == http.StatusOK:
	case act.status == http.StatusServiceUnavailable && strings.Contains(act.body, server.EUNAVAILABLE):
	default:
		t.Errorf("the resumed node answered the action %d %s; want it applied, or 503 to try again", act.status, act.body)
	}
}
