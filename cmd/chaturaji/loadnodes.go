package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/keyfile"
)

// loadNodes is the cluster a load test starts itself (--start-nodes): n
// `chaturaji serve` processes of this program's own binary, on free ports
// of 127.0.0.1, on a schema of the run's own in a PostgreSQL database,
// dropped at the end. Starting them is what lets the load test kill one
// (it holds the process) and know which games the others adopted (it
// reads their logs).
type loadNodes struct {
	db     string // the database's URL, as given
	schema string
	dir    string // the key file's directory
	lease  time.Duration
	procs  []*nodeProcess
}

// nodeProcess is one node of a loadNodes.
type nodeProcess struct {
	index  int
	url    string
	cmd    *exec.Cmd
	exited chan struct{} // closed once it has exited and its output is read

	mu      sync.Mutex
	id      string     // the id it joined the cluster as
	adopted []adoption // the games it adopted, in order
	tail    []string   // its last lines of log
	killed  time.Time  // when the load test killed it
}

// adoption is a game a node adopted, by its log.
type adoption struct {
	game, from string
	at         time.Time
}

// startNodes starts n nodes on a new schema of the database db, with the
// lease given; adopted is told of each game a node adopts.
func startNodes(ctx context.Context, db string, n int, lease time.Duration, adopted func(game string, node int, at time.Time)) (_ *loadNodes, err error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(db)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || !loopback(u.Hostname()) {
		return nil, usageError("--db %q: want postgres://USER:PASS@HOST:PORT/DATABASE on a loopback address", db)
	}
	ns := &loadNodes{db: db, lease: lease}
	if ns.dir, err = os.MkdirTemp("", "chaturaji-loadtest-"); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			ns.stop()
		}
	}()
	key := filepath.Join(ns.dir, keyFileName)
	if _, err := keyfile.Create(key); err != nil {
		return nil, err
	}
	var suffix [4]byte
	rand.Read(suffix[:])
	schema := fmt.Sprintf("loadtest_%d_%s", os.Getpid(), hex.EncodeToString(suffix[:]))
	if err := execSQL(ctx, db, "CREATE SCHEMA "+pgx.Identifier{schema}.Sanitize()); err != nil {
		return nil, fmt.Errorf("making the run's schema: %w", err)
	}
	ns.schema = schema
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	for i := range n {
		p, err := startNode(ctx, exe, i, adopted, "serve", "--addr", "127.0.0.1:0", "--db", u.String(), "--key-file", key,
			"--lease", lease.String(), "--log-json", "--request-rate", "1000", "--costly-rate", "100")
		if p != nil {
			ns.procs = append(ns.procs, p)
		}
		if err != nil {
			return nil, fmt.Errorf("node %d: %w", i+1, err)
		}
	}
	return ns, nil
}

// startNode starts a node and waits for it to say where it listens.
func startNode(ctx context.Context, exe string, i int, adopted func(game string, node int, at time.Time), args ...string) (*nodeProcess, error) {
	p := &nodeProcess{index: i, cmd: exec.Command(exe, args...), exited: make(chan struct{})}
	p.cmd.Dir = os.TempDir()
	p.cmd.SysProcAttr = childAttr()
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	listening := make(chan string, 1)
	var output sync.WaitGroup
	output.Go(func() { p.readLog(stderr, adopted) })
	output.Go(func() {
		rd := bufio.NewReader(stdout)
		line, _ := rd.ReadString('\n')
		listening <- line
		io.Copy(io.Discard, rd)
	})
	go func() {
		output.Wait() // before Wait, which closes the pipes
		p.cmd.Wait()
		close(p.exited)
	}()
	select {
	case line := <-listening:
		u, ok := strings.CutPrefix(strings.TrimSpace(line), "Chaturaji server listening on ")
		if ok {
			p.url = u
			return p, nil
		}
		p.cmd.Process.Kill()
		<-p.exited
		return p, fmt.Errorf("it said %q:\n%s", line, p.log())
	case <-time.After(time.Minute):
	case <-ctx.Done():
	}
	p.cmd.Process.Kill()
	<-p.exited
	return p, fmt.Errorf("it did not start within a minute:\n%s", p.log())
}

// readLog reads the node's log (JSON, one record a line) to its end,
// keeping its id, the games it adopts and its last lines.
func (p *nodeProcess) readLog(r io.Reader, adopted func(game string, node int, at time.Time)) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec struct {
			Time time.Time `json:"time"`
			Msg  string    `json:"msg"`
			Node string    `json:"node"`
			Game string    `json:"game"`
			From string    `json:"from"`
		}
		json.Unmarshal(sc.Bytes(), &rec)
		p.mu.Lock()
		p.tail = append(p.tail, sc.Text())
		if len(p.tail) > 20 {
			p.tail = p.tail[1:]
		}
		switch rec.Msg {
		case "joined the cluster":
			p.id = rec.Node
		case "game adopted":
			p.adopted = append(p.adopted, adoption{game: rec.Game, from: rec.From, at: rec.Time})
		}
		p.mu.Unlock()
		if rec.Msg == "game adopted" && adopted != nil {
			adopted(rec.Game, p.index, rec.Time)
		}
	}
}

// log returns the node's last lines of log.
func (p *nodeProcess) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.tail, "\n")
}

// nodeID returns the id the node joined the cluster as, once it has
// logged it.
func (p *nodeProcess) nodeID() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.id
}

// kill kills the node with SIGKILL, as a crash would, and returns when.
func (p *nodeProcess) kill() time.Time {
	p.cmd.Process.Kill()
	at := time.Now()
	p.mu.Lock()
	p.killed = at
	p.mu.Unlock()
	return at
}

// stop stops the nodes still running with SIGTERM (each hands its games
// over and closes its database), then drops the run's schema and the key
// file.
func (ns *loadNodes) stop() error {
	var errs []error
	for _, p := range ns.procs {
		select {
		case <-p.exited:
			continue
		default:
		}
		p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(20 * time.Second):
			p.cmd.Process.Kill()
			<-p.exited
			errs = append(errs, fmt.Errorf("node %d did not stop within 20s of SIGTERM", p.index+1))
		}
	}
	if ns.schema != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := execSQL(ctx, ns.db, "DROP SCHEMA "+pgx.Identifier{ns.schema}.Sanitize()+" CASCADE"); err != nil {
			errs = append(errs, fmt.Errorf("dropping the run's schema %s: %w", ns.schema, err))
		}
	}
	os.RemoveAll(ns.dir)
	return errors.Join(errs...)
}

// execSQL runs one statement on a connection of its own to db.
func execSQL(ctx context.Context, db, sql string) error {
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}
