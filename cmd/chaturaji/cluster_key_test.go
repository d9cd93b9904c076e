package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/keyfile"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
)

// TestClusterKeyFile checks how the nodes of a cluster come by the key
// that signs what they forward to each other: a key file made before
// there was one gets one added by the first node that starts with it,
// and a second node given the same file forwards to the first; a node
// given another key file (a copy taken before, to which it adds a key
// of its own) is refused when it joins, naming the two keys.
func TestClusterKeyFile(t *testing.T) {
	bin, db, dir := buildBinary(t), pgtest.Schema(t), t.TempDir()
	old := keyfile.New()
	old.Cluster = nil // as keygen made key files before
	shared, copied := filepath.Join(dir, "shared.key"), filepath.Join(dir, "copied.key")
	for _, path := range []string{shared, copied} {
		if err := os.WriteFile(path, old.Marshal(), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	aAddr := freeAddr(t)
	a := startBinary(t, bin, aAddr, db, "--key-file", shared, "--lease", clusterLease)
	if !strings.Contains(a.log.String(), "added a cluster key to the key file") {
		t.Errorf("the first node did not say it added a cluster key:\n%s", a.log.String())
	}
	k, err := keyfile.Load(shared)
	if err != nil || len(k.Cluster) != 32 || !k.Signing.Equal(old.Signing) || k.Seed != old.Seed {
		t.Fatalf("the key file after the first node: %v, cluster key %x", err, k.Cluster)
	}
	bAddr := freeAddr(t)
	startBinary(t, bin, bAddr, db, "--key-file", shared, "--lease", clusterLease)

	// An action on A's game, sent to B, is forwarded to A and applied.
	aBase := "http://" + aAddr
	g := createFor(t, aBase, `{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"]}`)
	tokens := map[string]string{}
	for _, s := range g.Seats {
		tokens[s.Seat] = s.Token
	}
	var st *server.State
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if st = getState(t, aBase, g.ID); len(st.Actions) > 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("game %s has no action to play: %+v", g.ID, st)
		}
	}
	body := `{"action": "` + st.Actions[0] + `", "seq": ` + strconv.FormatInt(st.Seq, 10) + `}`
	req, _ := http.NewRequest("POST", "http://"+bAddr+"/api/games/"+g.ID+"/actions", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tokens[st.ToAct])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("an action through the second node: %s", resp.Status)
	}
	if got := getState(t, aBase, g.ID); got.Seq <= st.Seq {
		t.Fatalf("the first node has event %d, the action was sent after %d", got.Seq, st.Seq)
	}

	// A node with another key file: refused, the two keys named.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, serveArgs(freeAddr(t), db, "--key-file", copied, "--lease", clusterLease)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("a node with another key file went on running:\n%s", out.String())
	}
	if err == nil || !strings.Contains(out.String(), "holds cluster key") || !strings.Contains(out.String(), "give every node the same key file") {
		t.Fatalf("a node with another key file: %v\n%s", err, out.String())
	}
}
