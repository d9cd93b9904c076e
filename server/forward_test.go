package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
)

// courier stands between the other nodes and one node, as a network
// would: it passes on what they send it and keeps a copy of each
// request, as an eavesdropper could; the first presence report it loses
// (answering 502), so that one signature is never seen by the node.
type courier struct {
	to string // the node's URL

	mu   sync.Mutex
	sent []sentRequest
	lost bool // the first presence report is lost already
}

// sentRequest is a request the courier carried, and the node's answer.
type sentRequest struct {
	method, uri string
	header      http.Header
	body        []byte
	status      int // 0: lost
}

func (c *courier) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	sr := sentRequest{method: r.Method, uri: r.RequestURI, header: r.Header.Clone(), body: body}
	c.mu.Lock()
	lose := !c.lost && strings.HasSuffix(r.URL.Path, "/presence")
	c.lost = c.lost || lose
	c.mu.Unlock()
	if !lose {
		status, header, answer := send(c.to, sr, body)
		for k, v := range header {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		w.Write(answer)
		sr.status = status
	} else {
		w.WriteHeader(http.StatusBadGateway)
	}
	c.mu.Lock()
	c.sent = append(c.sent, sr)
	c.mu.Unlock()
}

// first returns the first request carried to a path ending in suffix
// that the node answered with status (0: that was lost).
func (c *courier) first(t *testing.T, suffix string, status int) sentRequest {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, sr := range c.sent {
		if strings.HasSuffix(sr.uri, suffix) && sr.status == status {
			return sr
		}
	}
	t.Fatalf("no request to ...%s answered %d among the %d carried", suffix, status, len(c.sent))
	return sentRequest{}
}

// send sends a copy of sr, with body, to the node at url, and returns its
// answer; 0 if it could not be sent.
func send(url string, sr sentRequest, body []byte) (int, http.Header, []byte) {
	req, err := http.NewRequest(sr.method, url+sr.uri, bytes.NewReader(body))
	if err != nil {
		return 0, nil, []byte(err.Error())
	}
	req.Header = sr.header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, []byte(err.Error())
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, answer
}

// databaseSecret returns the cluster's secret as a copy of the database
// shows it, nil if the database keeps none.
func databaseSecret(t *testing.T, dsn string) []byte {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var secret []byte
	err = conn.QueryRow(context.Background(), `SELECT secret FROM cluster WHERE id = 1`).Scan(&secret)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && (pgErr.Code == "42P01" || pgErr.Code == "42703") { // no such table, or column
		return nil
	} else if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		t.Fatal(err)
	}
	return secret
}

// TestClusterForwardSigned checks that the requests between nodes cannot
// be forged, replayed or altered: one signed with the secret a copy of
// the database shows, a signed one sent again, and a signature moved to
// another body are refused; the nodes' own forwarded requests still go
// through.
func TestClusterForwardSigned(t *testing.T) {
	dsn := pgtest.Schema(t)
	var la, lb lockedBuffer
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	aURL := "http://" + ln.Addr().String()
	cr := &courier{to: aURL}
	via := httptest.NewServer(cr)
	t.Cleanup(via.Close)
	// B reaches A through the courier. Leases long enough that no
	// presence report lapses while the test runs.
	a := nodeOn(t, dsn, 2*time.Second, &la, ln, via.URL)
	b := newNode(t, dsn, 2*time.Second, &lb)
	g := a.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"]}`)
	token := map[string]string{}
	for _, s := range g.Seats {
		token[s.Seat] = s.Token
	}

	// South's holder is connected to B: B's first report is lost, a later
	// one tells A.
	b.dial(g.ID, token["South"], 0)
	a.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return s.Seats[0].Online != nil && *s.Seats[0].Online })

	act := func(how string) {
		t.Helper()
		st := a.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return len(s.Actions) > 0 })
		body := `{"action": "` + st.Actions[0] + `", "seq": ` + itoa(st.Seq) + `}`
		if code, ans := b.request("POST", "/api/games/"+g.ID+"/actions", token[st.ToAct], body); code != http.StatusOK {
			t.Fatalf("%s: an action through B: %d %s", how, code, ans)
		}
	}
	act("before the attempts")

	refused := func(what string, status int, answer []byte) {
		t.Helper()
		if status != http.StatusForbidden {
			t.Errorf("%s: A answered %d %s, want it refused (403)", what, status, answer)
		}
	}
	// The signature of the lost report, which A never saw, moved to a
	// report that says West's holder is connected to B too.
	lost := cr.first(t, "/presence", 0)
	var p server.Presence
	if err := json.Unmarshal(lost.body, &p); err != nil || len(p.Seats) < 2 {
		t.Fatalf("the lost report %s: %v", lost.body, err)
	}
	p.N, p.Seats[1] = p.N+1000, 1
	moved, _ := json.Marshal(p)
	status, _, answer := send(aURL, lost, moved)
	refused("a signature moved to another body", status, answer)

	// Requests that A took, sent again as they were.
	report := cr.first(t, "/presence", http.StatusNoContent)
	status, _, answer = send(aURL, report, report.body)
	refused("a presence report sent again", status, answer)
	action := cr.first(t, "/actions", http.StatusOK)
	status, _, answer = send(aURL, action, action.body)
	refused("a forwarded action sent again", status, answer)

	// Requests signed with the secret a copy of the database shows: a
	// report, and new games for clients of the forger's choosing.
	secret := databaseSecret(t, dsn)
	forged := []struct{ what, method, path, body string }{
		{"a forged presence report", "POST", "/api/games/" + g.ID + "/presence", `{"node": "forger", "n": 1, "seats": [0, 1, 0, 0]}`},
		{"a forged new game", "POST", "/api/games", `{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"]}`},
	}
	for _, f := range forged {
		req, err := http.NewRequest(f.method, aURL+f.path, strings.NewReader(f.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		server.ForgeForwarded(req, []byte(f.body), secret, "192.0.2.1/32", "forger")
		status, _, answer := send(aURL, sentRequest{method: f.method, uri: f.path, header: req.Header}, []byte(f.body))
		refused(f.what+" (signed with the database's secret)", status, answer)
	}

	if st := a.state(g.ID); st.Seats[1].Online != nil && *st.Seats[1].Online {
		t.Error("A counts West's holder as connected: a report that is not B's was believed")
	}
	act("after the attempts")
}

// TestClusterKeyNeeded checks that a node without a cluster key of 32
// bytes or more is refused at start, naming the setting.
func TestClusterKeyNeeded(t *testing.T) {
	dsn := pgtest.Schema(t)
	for _, key := range [][]byte{nil, []byte("short")} {
		st, err := store.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		cfg := testConfig()
		cfg.Cluster, cfg.Advertise, cfg.ClusterKey = true, "http://127.0.0.1:1", key
		err = server.New(cfg, st, slog.New(slog.DiscardHandler)).Start(context.Background())
		st.Close()
		if err == nil || !strings.Contains(err.Error(), "Config.ClusterKey") {
			t.Fatalf("a node with cluster key %q: %v, want it refused", key, err)
		}
	}
}
