package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
)

// TestKillAndRestart runs the real binary, kills it with SIGKILL in the
// middle of games, starts it again on the same database and checks that
// nothing acknowledged was lost: the games go on from where they were, the
// players reconnect and finish, bots and clocks included, and the record
// proves its dice. It does so on SQLite and on PostgreSQL.
func TestKillAndRestart(t *testing.T) {
	bin := buildBinary(t)
	t.Run("sqlite", func(t *testing.T) {
		killAndRestart(t, bin, "sqlite:"+filepath.Join(t.TempDir(), "games.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		killAndRestart(t, bin, pgtest.Schema(t))
	})
}

// built is the command as the tests run it, built once for all of them
// into a temporary directory that TestMain removes.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// buildBinary builds the command, once for the package's tests, and
// returns the binary's path.
func buildBinary(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "chaturaji-test-bin-")
		if built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "chaturaji")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// keygen makes a new key file with the binary.
func keygen(t *testing.T, bin, path string) {
	t.Helper()
	if out, err := exec.Command(bin, "keygen", path).CombinedOutput(); err != nil || !strings.Contains(string(out), "public key ") {
		t.Fatalf("keygen: %v\n%s", err, out)
	}
}

// killAndRestart is TestKillAndRestart on the database db.
func killAndRestart(t *testing.T, bin, db string) {
	dir := t.TempDir()
	addr := freeAddr(t)
	keys := filepath.Join(dir, "server.key")
	keygen(t, bin, keys)
	// Its players, an actor over HTTP and the checks' reads all come from
	// one address: the request rate is theirs together, not a person's.
	flags := []string{"--key-file", keys, "--request-rate", "2000"}
	srv := startBinary(t, bin, addr, db, flags...)
	base := "http://" + addr
	lt := &loadTest{base: base, wsBase: "ws://" + addr, http: http.DefaultClient, think: 5 * time.Millisecond, seed: 9, errors: map[string]int{}}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// A game of four humans played over plain HTTP, as a simple bot would,
	// which keeps every answer the server gave: what it acknowledged.
	g4 := createFor(t, base, `{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"]}`)
	actor := &httpActor{base: base, id: g4.ID, tokens: map[string]string{}, rng: rand.New(rand.NewPCG(3, 3))}
	for _, s := range g4.Seats {
		actor.tokens[s.Seat] = s.Token
	}
	actorDone := make(chan error, 1)
	go func() { actorDone <- actor.run(ctx) }()
	for actor.acked() < 6 {
		if time.Since(srv.start) > 30*time.Second {
			t.Fatal("the HTTP game did not get going")
		}
		time.Sleep(5 * time.Millisecond)
	}

	// A game of two humans and two bots, played by two clients and watched
	// by a spectator, who records every event.
	// Random bots: a greedy one could end the game before the kill.
	g1 := createFor(t, base, `{"seats": ["human", "bot:random", "human", "bot:random"], "host_seats": ["South", "North"]}`)
	game := &loadGame{id: g1.ID, sent: map[int64]time.Time{}}
	game.ready.Add(3)
	var mu sync.Mutex
	var watched [][]byte
	var seen atomic.Int64
	var ended atomic.Bool
	players := []*loadPlayer{
		{lt: lt, game: game, seat: "South", token: g1.Seats[0].Token, rng: rand.New(rand.NewPCG(1, 1))},
		{lt: lt, game: game, seat: "North", token: g1.Seats[2].Token, rng: rand.New(rand.NewPCG(2, 2))},
		{lt: lt, game: game, onEvent: func(data []byte, e *loadEvent) {
			mu.Lock()
			watched = append(watched, bytes.Clone(data))
			mu.Unlock()
			seen.Store(e.Seq)
			if e.Kind == server.KindEnd {
				ended.Store(true)
			}
		}},
	}
	done := make(chan error, len(players))
	for _, p := range players {
		go func() { done <- p.play(ctx) }()
	}

	// A timed game nobody plays: each turn times out and passes.
	g2 := createFor(t, base, `{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "turn_ms": 1000, "auto_pass": false}`)

	// A game of bots at several levels, watched by a spectator.
	g3 := createFor(t, base, `{"seats": ["bot:strong", "bot:3", "bot:greedy", "bot:random"]}`)
	bots := &loadGame{id: g3.ID, sent: map[int64]time.Time{}}
	bots.ready.Add(1)
	var botsWatched [][]byte
	botsSpectator := &loadPlayer{lt: lt, game: bots, onEvent: func(data []byte, e *loadEvent) {
		mu.Lock()
		botsWatched = append(botsWatched, bytes.Clone(data))
		mu.Unlock()
	}}
	botsDone := make(chan error, 1)
	go func() { botsDone <- botsSpectator.play(ctx) }()

	// The kill comes early, in the second round or so: a finished game
	// would test nothing. (With a greedy bot at the table the game was
	// over in five rounds, once before a loaded machine got to the kill.)
	for seen.Load() < 16 {
		if time.Since(srv.start) > 30*time.Second {
			t.Fatal("the games did not get going")
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	before := len(watched)
	mu.Unlock()
	timedBefore := getState(t, base, g2.ID)
	srv.kill(t)
	ackedBefore := actor.acked()
	if ended.Load() {
		t.Fatalf("the game was over at event %d, before the kill", seen.Load())
	}
	t.Logf("killed after event %d of the game (the spectator had %d), %d HTTP actions acknowledged", seen.Load(), before, ackedBefore)

	srv = startBinary(t, bin, addr, db, flags...)
	timedAfter := getState(t, base, g2.ID)
	if timedAfter.Seq < timedBefore.Seq || timedAfter.Deadline == nil {
		t.Fatalf("timed game after restart: %+v\nbefore: %+v", timedAfter, timedBefore)
	}

	for range players {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range players {
		if p.lost != 0 || p.dups != 0 || !p.over {
			t.Fatalf("%s: lost %d, duplicated %d, over %v", p.seat, p.lost, p.dups, p.over)
		}
	}
	if lt.reconnects.Load() < 3 {
		t.Errorf("%d reconnections, want one per client at least", lt.reconnects.Load())
	}

	// Every event the spectator saw, before and after the kill, is the
	// stored one, byte for byte, and the store has no other.
	stored := getEvents(t, base, g1.ID)
	if len(stored) != len(watched) {
		t.Fatalf("%d events stored, the spectator saw %d", len(stored), len(watched))
	}
	for i := range stored {
		if !bytes.Equal(stored[i], watched[i]) {
			t.Fatalf("event %d:\nstored %s\n  seen %s", i+1, stored[i], watched[i])
		}
	}

	// The bots finished their game, and what the spectator saw of it is
	// what the store has.
	if err := <-botsDone; err != nil {
		t.Fatal(err)
	}
	if stored := getEvents(t, base, g3.ID); len(stored) != len(botsWatched) || !botsSpectator.over {
		t.Fatalf("bots' game: %d events stored, the spectator saw %d, over %v", len(stored), len(botsWatched), botsSpectator.over)
	} else {
		for i := range stored {
			if !bytes.Equal(stored[i], botsWatched[i]) {
				t.Fatalf("bots' game, event %d:\nstored %s\n  seen %s", i+1, stored[i], botsWatched[i])
			}
		}
	}

	// Every action the server acknowledged over HTTP, before the kill and
	// after, is in the store as the answer showed it.
	if err := <-actorDone; err != nil {
		t.Fatal(err)
	}
	stored = getEvents(t, base, g4.ID)
	var prev int64
	for i, ack := range actor.acks {
		if ack.Seq <= prev || ack.Seq > int64(len(stored)) {
			t.Fatalf("answer %d: event %d, after %d; %d events stored", i, ack.Seq, prev, len(stored))
		}
		prev = ack.Seq
		var e server.Event
		if err := json.Unmarshal(stored[ack.Seq-1], &e); err != nil {
			t.Fatal(err)
		}
		if e.Position != ack.Position || e.ToAct != ack.ToAct {
			t.Fatalf("acknowledged event %d: %s to act in %s; stored: %s to act in %s", ack.Seq, ack.ToAct, ack.Position, e.ToAct, e.Position)
		}
	}
	if last := getState(t, base, g4.ID); last.Status != "finished" || len(actor.acks) <= ackedBefore {
		t.Fatalf("HTTP game: %s, %d answers, %d of them before the kill", last.Status, len(actor.acks), ackedBefore)
	}

	// The record replays, and verify proves its dice.
	resp, err := http.Get(base + "/api/games/" + g1.ID + "/record")
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	recs, err := record.ParseString(string(text))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := recs[0].Replay(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "game.cgn")
	os.WriteFile(path, text, 0o644)
	out, err := exec.Command(bin, "verify", "--key", srv.key, path).CombinedOutput()
	if err != nil || !strings.Contains(string(out), ": proved: dice fair") || !strings.Contains(string(out), "; signed by "+srv.key) {
		t.Fatalf("verify: %v\n%s", err, out)
	}

	// The timed game went on by its deadlines after the restart.
	deadline := *timedAfter.Deadline
	st := waitFor(t, base, g2.ID, func(s *server.State) bool { return s.Seq > timedAfter.Seq })
	// On PostgreSQL the restarted server is a new node, which adopts the
	// games once the dead one's leases lapse, giving the time back then
	// (a clock event) rather than at its start.
	st = waitFor(t, base, g2.ID, func(s *server.State) bool {
		evs := getEvents(t, base, g2.ID)
		for _, data := range evs[timedAfter.Seq:] {
			var e server.Event
			json.Unmarshal(data, &e)
			if e.Kind != server.KindClock {
				return true
			}
		}
		return false
	})
	evs := getEvents(t, base, g2.ID)
	var e server.Event
	next := timedAfter.Seq
	for json.Unmarshal(evs[next], &e); e.Kind == server.KindClock; json.Unmarshal(evs[next], &e) {
		next++
	}
	if e.Kind != server.KindAction || e.By != server.ByTimeout || e.At.Before(deadline) {
		t.Fatalf("after the restart: %s; the deadline was %v", evs[next], deadline)
	}
	_ = st

	// A graceful stop.
	srv.cmd.Process.Signal(syscall.SIGTERM)
	if err := srv.wait(); err != nil {
		t.Fatalf("after SIGTERM: %v\n%s", err, srv.log.String())
	}
	if !strings.Contains(srv.log.String(), "shutting down") {
		t.Errorf("log:\n%s", srv.log.String())
	}
}

// httpActor plays every seat of a game through POST .../actions and keeps
// each answer the server gave: the state after an action it has saved.
// While the server is down it waits and tries again.
type httpActor struct {
	base, id string
	tokens   map[string]string
	rng      *rand.Rand
	n        atomic.Int64    // len(acks), for other goroutines
	acks     []*server.State // read once run has returned
}

func (a *httpActor) acked() int { return int(a.n.Load()) }

// run plays until the game is over.
func (a *httpActor) run(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		st, err := a.state(ctx)
		if err != nil {
			time.Sleep(20 * time.Millisecond) // the server is down
			continue
		}
		if st.Status != "live" {
			return nil
		}
		if len(st.Actions) == 0 {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		if err := a.step(ctx, st); err != nil {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// step plays a random legal action in the state st and keeps the answer
// if the server acknowledged it; it returns an error for an answer it did
// not expect.
func (a *httpActor) step(ctx context.Context, st *server.State) error {
	act := st.Actions[a.rng.IntN(len(st.Actions))]
	body := fmt.Sprintf(`{"action": %q, "seq": %d}`, act, st.Seq)
	req, _ := http.NewRequestWithContext(ctx, "POST", a.base+"/api/games/"+a.id+"/actions", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+a.tokens[st.ToAct])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil // no answer: nothing was acknowledged
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	switch {
	case err != nil:
		return nil
	case resp.StatusCode == http.StatusOK:
		var after server.State
		if err := json.Unmarshal(data, &after); err != nil {
			return fmt.Errorf("answer %s: %v", data, err)
		}
		a.acks = append(a.acks, &after)
		a.n.Add(1)
	case resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusConflict:
		// Shutting down, or the game moved on: look again.
	case resp.StatusCode == http.StatusTooManyRequests:
		// Over the server's rate limit: slow down, as a polite bot does
		// (the server says when in Retry-After; a fraction is enough).
		time.Sleep(200 * time.Millisecond)
	default:
		return fmt.Errorf("action %s after event %d: %s %s", act, st.Seq, resp.Status, data)
	}
	return nil
}

func (a *httpActor) state(ctx context.Context) (*server.State, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", a.base+"/api/games/"+a.id, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s", resp.Status)
	}
	var st server.State
	return &st, json.NewDecoder(resp.Body).Decode(&st)
}

// serverProcess is the server binary running.
type serverProcess struct {
	key     string // the public key that signs its records, as it printed it
	keyFile string // where it said its key file is
	cmd     *exec.Cmd
	start   time.Time
	log     *syncBuffer
	done    chan struct{} // closed when it has exited
	err     error         // how it exited
}

// startBinary starts `chaturaji serve` with the given flags besides, in
// a directory of its own, and waits for it to say where it listens and
// which key signs its records.
func startBinary(t *testing.T, bin, addr, db string, flags ...string) *serverProcess {
	t.Helper()
	return startCommand(t, exec.Command(bin, serveArgs(addr, db, flags...)...), addr)
}

// serveArgs are the arguments of `chaturaji serve` as startBinary runs it.
func serveArgs(addr, db string, flags ...string) []string {
	return append([]string{"serve", "--addr", addr, "--db", db, "--bot-time", "20ms", "--bot-delay", "0"}, flags...)
}

// startCommand is startBinary with the command to run given.
func startCommand(t *testing.T, cmd *exec.Cmd, addr string) *serverProcess {
	t.Helper()
	cmd.Dir = t.TempDir()
	b := &serverProcess{cmd: cmd, start: time.Now(), log: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stderr = b.log
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rd := bufio.NewReader(stdout)
	line, err := rd.ReadString('\n')
	if want := "Chaturaji server listening on http://" + addr + "\n"; err != nil || line != want {
		cmd.Process.Kill()
		t.Fatalf("server said %q, %v; want %q\n%s", line, err, want, b.log.String())
	}
	line, err = rd.ReadString('\n')
	key, ok := strings.CutPrefix(line, "Records are signed with key ")
	if b.key, _, _ = strings.Cut(key, " "); err != nil || !ok || len(b.key) != 64 {
		cmd.Process.Kill()
		t.Fatalf("server said %q, %v; want the key that signs its records\n%s", line, err, b.log.String())
	}
	line, err = rd.ReadString('\n')
	keyFile, ok := strings.CutPrefix(line, "Its secret keys are in ")
	if b.keyFile, _, _ = strings.Cut(keyFile, ": keep that file secret"); err != nil || !ok {
		cmd.Process.Kill()
		t.Fatalf("server said %q, %v; want where its key file is\n%s", line, err, b.log.String())
	}
	go func() {
		io.Copy(io.Discard, rd)
		b.err = cmd.Wait()
		close(b.done)
	}()
	t.Cleanup(func() { cmd.Process.Kill(); <-b.done })
	return b
}

func (b *serverProcess) kill(t *testing.T) {
	t.Helper()
	b.cmd.Process.Kill()
	if err := b.wait(); err == nil {
		t.Fatal("the killed server exited cleanly")
	}
}

func (b *serverProcess) wait() error {
	select {
	case <-b.done:
		return b.err
	case <-time.After(20 * time.Second):
		return fmt.Errorf("not stopped in 20s")
	}
}

// syncBuffer is a buffer safe for one writer and readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// freeAddr returns a loopback address with a port free now.
func freeAddr(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func createFor(t *testing.T, base, body string) *server.Created {
	t.Helper()
	resp, err := http.Post(base+"/api/games", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c server.Created
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %s, %v", resp.Status, err)
	}
	return &c
}

func getState(t *testing.T, base, id string) *server.State {
	t.Helper()
	resp, err := http.Get(base + "/api/games/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET /api/games/%s: %s %s", id, resp.Status, data)
	}
	var st server.State
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return &st
}

func getEvents(t *testing.T, base, id string) []json.RawMessage {
	t.Helper()
	resp, err := http.Get(base + "/api/games/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET /api/games/%s/events: %s %s", id, resp.Status, data)
	}
	var v struct{ Events []json.RawMessage }
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v.Events
}

func waitFor(t *testing.T, base, id string, ok func(*server.State) bool) *server.State {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if st := getState(t, base, id); ok(st) {
			return st
		}
	}
	t.Fatalf("game %s: state not reached", id)
	return nil
}
