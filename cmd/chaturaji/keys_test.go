package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/keyfile"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
)

// TestKeyFile runs the real binary on an SQLite database: at first start
// it makes the key file beside the database, keeps the live game's seed
// sealed (the database's files do not hold it), goes on after a restart
// with the key file, and refuses to start without it or with another,
// saying why. The record of a finished game verifies with the key it
// prints.
func TestKeyFile(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "games.db")
	keyPath := filepath.Join(dir, keyFileName)
	addr := freeAddr(t)
	base := "http://" + addr

	srv := startBinary(t, bin, addr, "sqlite:"+db)
	if info, err := os.Stat(keyPath); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the key file beside the database: %v, %v", info, err)
	}
	if key := getText(t, base+"/api/key"); key != srv.key+"\n" {
		t.Fatalf("GET /api/key: %q, the server printed %s", key, srv.key)
	}
	g := createFor(t, base, `{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "auto_pass": false}`)
	actor := &httpActor{base: base, id: g.ID, tokens: map[string]string{}, rng: rand.New(rand.NewPCG(5, 5))}
	for _, s := range g.Seats {
		actor.tokens[s.Seat] = s.Token
	}
	playSome(t, actor, 6)
	bots := createFor(t, base, `{"seats": ["bot:random", "bot:greedy", "bot:random", "bot:random"]}`)
	waitFor(t, base, bots.ID, func(s *server.State) bool { return s.Status == "finished" })
	before := getState(t, base, g.ID)
	record := getText(t, base+"/api/games/"+bots.ID+"/record")
	stopBinary(t, srv)

	// The record proves itself with the key the server printed.
	recPath := filepath.Join(dir, "bots.cgn")
	os.WriteFile(recPath, []byte(record), 0o644)
	if out, err := exec.Command(bin, "verify", "--key", srv.key, recPath).CombinedOutput(); err != nil || !strings.Contains(string(out), "; signed by "+srv.key) {
		t.Fatalf("verify --key: %v\n%s", err, out)
	}

	// The live game's seed is nowhere in the database's files.
	seed := liveSeed(t, db, keyPath, g.ID)
	files, _ := filepath.Glob(db + "*")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, seed) || bytes.Contains(data, []byte(hex.EncodeToString(seed))) {
			t.Errorf("%s holds the live game's seed %x", f, seed)
		}
	}

	// With the key file, the game goes on where it was.
	srv = startBinary(t, bin, addr, "sqlite:"+db)
	sameGameState(t, before, getState(t, base, g.ID))
	playSome(t, actor, 2)
	stopBinary(t, srv)

	// Without it, or with another, the server does not start, and says why.
	hidden := filepath.Join(t.TempDir(), "elsewhere.key")
	if err := os.Rename(keyPath, hidden); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other.key")
	keygen(t, bin, other)
	for _, c := range []struct {
		name  string
		flags []string
		want  string
	}{
		{"no key file", nil, "no key file at " + keyPath + ", but the database's seeds are sealed"},
		{"a key file given that is not there", []string{"--key-file", keyPath}, "key file " + keyPath + " does not exist"},
		{"another key file", []string{"--key-file", other}, "key file " + other + " does not open the seeds of this database"},
	} {
		out, err := exec.Command(bin, append([]string{"serve", "--addr", addr, "--db", "sqlite:" + db}, c.flags...)...).CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), c.want) {
			t.Errorf("%s: %v\n%s\nwant exit status 1 and %q", c.name, err, out, c.want)
		}
	}
	if _, err := os.Stat(keyPath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused start made a key file: %v", err)
	}
	// Nor can export read the games without it.
	out, err := exec.Command(bin, "export", "--db", "sqlite:"+db, "--status", "all").CombinedOutput()
	if want := "its seed is sealed with key "; err == nil || !strings.Contains(string(out), want) {
		t.Errorf("export without the key file: %v\n%s\nwant an error with %q", err, out, want)
	}
	if out, err := exec.Command(bin, "export", "--db", "sqlite:"+db, "--key-file", hidden).CombinedOutput(); err != nil || !strings.Contains(string(out), "[Signature ") {
		t.Errorf("export with the key file: %v\n%s", err, out)
	}

	// Given its place, the key file opens the database again.
	srv = startBinary(t, bin, addr, "sqlite:"+db, "--key-file", hidden)
	if srv.key != getText(t, base+"/api/key")[:64] {
		t.Errorf("the key changed")
	}
	stopBinary(t, srv)
}

// TestSealsOldSeeds starts the binary on a database that a server without
// sealing wrote: it seals the plain seeds at start, after which the
// database's files no longer hold them, and the game goes on.
func TestSealsOldSeeds(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "games.db")
	ctx := context.Background()
	st, err := store.Open(ctx, "sqlite:"+db)
	if err != nil {
		t.Fatal(err)
	}
	old := server.New(server.Config{}, st, nil)
	if err := old.Start(ctx); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	hs := &http.Server{Handler: old.Handler()}
	go hs.Serve(ln)
	g := createFor(t, "http://"+addr, `{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"]}`)
	raw, err := st.Game(ctx, g.ID)
	if err != nil || len(raw.Seed) != 32 {
		t.Fatalf("the old server kept %x, %v", raw.Seed, err)
	}
	old.Shutdown(ctx)
	hs.Close()
	st.Close()

	srv := startBinary(t, bin, addr, "sqlite:"+db)
	if !strings.Contains(srv.log.String(), `msg="sealed the plain seeds of the database" games=1`) {
		t.Errorf("log:\n%s", srv.log.String())
	}
	if st := getState(t, "http://"+addr, g.ID); st.Status != "live" {
		t.Errorf("the game after sealing: %+v", st)
	}
	stopBinary(t, srv)
	files, _ := filepath.Glob(db + "*")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if bytes.Contains(data, raw.Seed) {
			t.Errorf("%s still holds the plain seed", f)
		}
	}
	if seed := liveSeed(t, db, filepath.Join(dir, keyFileName), g.ID); !bytes.Equal(seed, raw.Seed) {
		t.Errorf("the sealed seed opens to %x, not %x", seed, raw.Seed)
	}
}

// liveSeed reads a game's seed from the database with the key file.
func liveSeed(t *testing.T, db, keyPath, id string) []byte {
	t.Helper()
	keys, err := keyfile.Load(keyPath)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), "sqlite:"+db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := store.Sealed(st, store.NewSeedKey(keys.Seed)).Game(context.Background(), id)
	if err != nil || len(g.Seed) != 32 {
		t.Fatalf("game %s: seed %x, %v", id, g.Seed, err)
	}
	return g.Seed
}

// playSome plays n actions of the actor's game.
func playSome(t *testing.T, a *httpActor, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for want := a.acked() + n; a.acked() < want; {
		st, err := a.state(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Status != "live" {
			t.Fatalf("game %s over", a.id)
		}
		if len(st.Actions) == 0 {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		if err := a.step(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
}

// stopBinary stops a server gracefully.
func stopBinary(t *testing.T, srv *serverProcess) {
	t.Helper()
	srv.cmd.Process.Signal(os.Interrupt)
	if err := srv.wait(); err != nil {
		t.Fatalf("stopping the server: %v\n%s", err, srv.log.String())
	}
}

// getText returns the body of a GET.
func getText(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %v", url, resp.Status, err)
	}
	return string(b)
}

// sameGameState checks that a game's state did not change.
func sameGameState(t *testing.T, a, b *server.State) {
	t.Helper()
	if a.Seq != b.Seq || a.Position != b.Position || a.ToAct != b.ToAct {
		t.Fatalf("the game changed: event %d %s to act in %s, then event %d %s in %s", a.Seq, a.ToAct, a.Position, b.Seq, b.ToAct, b.Position)
	}
}

// TestKeysOutOfTheWorkTree: the server's key file, its secrets, stays out
// of what git publishes. The repository ignores chaturaji.key; make serve
// keeps its database and key file in the user's state directory, not in
// the work tree; and the server says where its key file is when it starts,
// and warns when that is inside a git work tree.
func TestKeysOutOfTheWorkTree(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal("no git to ask what the repository ignores")
	}
	for _, path := range []string{"chaturaji.key", "cmd/chaturaji/chaturaji.key"} {
		if out, err := exec.Command(git, "-C", root, "check-ignore", "--no-index", path).CombinedOutput(); err != nil {
			t.Errorf("git check-ignore %s: %v %s; want the repository to ignore it", path, err, out)
		}
	}

	state := t.TempDir()
	cmd := exec.Command("make", "-n", "-C", root, "serve")
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n serve: %v\n%s", err, out)
	}
	if want := `serve --db "sqlite:` + filepath.Join(state, "chaturaji", "chaturaji.db") + `"`; !strings.Contains(string(out), want) {
		t.Errorf("make -n serve:\n%s\nwant the database, and the key file beside it, in the state directory: %s", out, want)
	}

	bin := buildBinary(t)
	for _, tc := range []struct {
		name   string
		git    bool // the database's directory is in a git work tree
		warned bool
	}{
		{name: "outside a work tree"},
		{name: "inside a work tree", git: true, warned: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.git {
				if err := os.Mkdir(filepath.Join(dir, ".git"), 0o700); err != nil {
					t.Fatal(err)
				}
				dir = filepath.Join(dir, "data")
				if err := os.Mkdir(dir, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			srv := startBinary(t, bin, freeAddr(t), "sqlite:"+filepath.Join(dir, "games.db"))
			defer stopBinary(t, srv)
			if want := filepath.Join(dir, keyFileName); srv.keyFile != want {
				t.Errorf("the server said its key file is %q, want %q", srv.keyFile, want)
			}
			const warning = "the key file is inside a git work tree"
			if got := strings.Contains(srv.log.String(), warning); got != tc.warned {
				t.Errorf("warned %v, want %v:\n%s", got, tc.warned, srv.log.String())
			}
		})
	}
}
