package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

var loadtestCommand = &command{
	name:    "loadtest",
	summary: "play many games at once against a server and measure it",
	help:    loadtestHelp,
	run:     runLoadtest,
}

const loadtestHelp = `usage: chaturaji loadtest [--games N] [--url URL | --nodes URL,URL...] [--think D] [--timeout D] [--seed S]
       chaturaji loadtest --idle N [--url URL]

Loadtest plays N games at once against a game server on this machine, each
with four human seats, each seat a WebSocket client that plays a random
legal action when it is to act, after a pause of up to --think. It
reports:

	time         from an action sent to its broadcast arriving at each of the
	             game's four clients: p50, p99 and max
	lost, dups   events missing or received twice: every client checks that it
	             gets events 1, 2, 3... to the end, reconnecting with its last
	             event number whenever it is dropped
	actions/s    the games' actions, over the run
	memory       the server's peak resident memory and Go memory, from its
	             /metrics, with its commits' mean time
	CPU          the server's CPU time over the run, and its mean use in cores

and exits with status 1 if any game did not finish, or an event was lost or
duplicated. Without --url it starts a server in this process on a new
SQLite file in a temporary directory (the memory it reports then includes
the load clients'); with --url it uses a running server, which must be on a
loopback address and whose limits must let the players of 16 games create
their games and open their WebSockets at once from one address (such as
chaturaji serve --request-rate 1000 --costly-rate 100). It stops by itself
after --timeout.

With --idle N it plays nothing: it opens N WebSockets that watch one game
where nobody moves, and reports what the server's memory grew by for each
(resident, Go's and the heap's) and its goroutines.

Against a server on 127.0.0.1 the clients come from the loopback addresses
127.0.0.2, 127.0.0.3... (Linux answers on all of 127.0.0.0/8): the players
of 16 games, or 400 idle WebSockets, from each, within a server's default
limits of live games, connections and WebSockets per client.

Flags:
	--games N     how many games at once (default 200)
	--url URL     the server, such as http://127.0.0.1:8080 (default: one in this process)
	--think D     the longest pause of a player before it acts, drawn uniformly
	              from 0 to D (default 1s: a quick bot; 0 is a stress test, whose
	              times are those of a queue at the database's one writer)
	--timeout D   give up after D (default 10m)
	--seed S      the seed of the players' choices (default 1)
	--idle N      open N idle WebSockets and measure them instead
	--nodes URL,URL,...
	              the nodes of a cluster on one PostgreSQL (chaturaji serve on
	              each), instead of --url: game i is created on node i mod n,
	              and its players connect to that node and the next ones, so
	              that some hear the game from the node that drives it and
	              some from a node that relays it; the times are reported
	              for each kind apart
`

// loadTest is one run of the load test.
type loadTest struct {
	base, wsBase string
	http         *http.Client
	think        time.Duration
	seed         uint64

	actions, events, lost, dups, reconnects, dialRetries atomic.Int64

	// nodes: the base URLs of a cluster's nodes (--nodes), over which
	// the games and their players are spread; nil for one server.
	nodes []string

	mu        sync.Mutex
	latencies []time.Duration
	relayed   []time.Duration // with nodes, the deliveries to clients of a node that relays the game
	errors    map[string]int

	// spread: the clients come from the loopback addresses 127.0.0.2,
	// 127.0.0.3... rather than all from one (Linux answers on all of
	// 127.0.0.0/8), so that a server's limits per client are those of a
	// few hundred players each.
	spread  bool
	clients map[int]*http.Client // by address
}

// gamesPerAddress is how many games' players share an address when the
// load test spreads its clients: within a server's default limit of 20
// live games per client (and 64 WebSockets, within 1,000).
const gamesPerAddress = 16

// clientOf returns the HTTP client of the i-th address, if the load test
// spreads its clients, and its one client if not.
func (lt *loadTest) clientOf(i int) *http.Client {
	if !lt.spread {
		return lt.http
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if c := lt.clients[i]; c != nil {
		return c
	}
	n := 2 + i
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, byte(n/256), byte(n%256))}, Timeout: 10 * time.Second}
	c := &http.Client{Timeout: lt.http.Timeout, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 64}}
	if lt.clients == nil {
		lt.clients = make(map[int]*http.Client)
	}
	lt.clients[i] = c
	return c
}

func (lt *loadTest) observe(d time.Duration, relayed bool) {
	lt.mu.Lock()
	if relayed {
		lt.relayed = append(lt.relayed, d)
	} else {
		lt.latencies = append(lt.latencies, d)
	}
	lt.mu.Unlock()
}

func (lt *loadTest) countError(code string) {
	lt.mu.Lock()
	lt.errors[code]++
	lt.mu.Unlock()
}

func runLoadtest(e *env, args []string) error {
	fs := newFlagSet("loadtest")
	games := fs.Int("games", 200, "")
	base := fs.String("url", "", "")
	think := fs.Duration("think", time.Second, "")
	timeout := fs.Duration("timeout", 10*time.Minute, "")
	seed := fs.Uint64("seed", 1, "")
	idle := fs.Int("idle", 0, "")
	nodeList := fs.String("nodes", "", "")
	if err := parseFlags(e, fs, loadtestHelp, args); err != nil {
		return err
	}
	var nodes []string
	if *nodeList != "" {
		if *base != "" || *idle > 0 {
			return usageError("--nodes: not with --url or --idle")
		}
		for n := range strings.SplitSeq(*nodeList, ",") {
			n = strings.TrimSuffix(strings.TrimSpace(n), "/")
			u, err := url.Parse(n)
			if err != nil || u.Scheme != "http" || u.Host == "" || !loopback(u.Hostname()) {
				return usageError("--nodes: %q: want http://HOST:PORT on a loopback address", n)
			}
			nodes = append(nodes, n)
		}
		*base = nodes[0]
	}
	if fs.NArg() > 0 {
		return usageError("unexpected arguments %q", fs.Args())
	}
	if *games < 1 || *games > 10000 {
		return usageError("--games %d: want 1 to 10000", *games)
	}
	if *idle < 0 || *idle > 20000 {
		return usageError("--idle %d: want 0 to 20000", *idle)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()

	where := *base
	if *base == "" {
		dir, err := os.MkdirTemp("", "chaturaji-loadtest-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		db := filepath.Join(dir, "games.db")
		// The server's defaults, but for the per-client limits of
		// requests, game creations, WebSockets and connections: every
		// client of the test comes from one address.
		conns := max(4**games, *idle)
		cfg := server.Config{BotDelay: server.NoBotDelay, RequestRate: 1000, RequestBurst: conns + *games + 100, CostlyRate: 100, CostlyBurst: *games + 10,
			MaxConnsPerAddr: conns + 100, MaxConnsPerClient: conns + *games + 200, MaxConns: conns + *games + 1000,
			MaxGamesPerClient: *games + 10}
		keys := keySource{path: filepath.Join(dir, keyFileName)}
		run, err := startServer(ctx, cfg, "sqlite:"+db, "127.0.0.1:0", keys, slog.New(slog.DiscardHandler))
		if err != nil {
			return err
		}
		defer run.stop(context.Background())
		*base = run.url
		where = run.url + " (in this process, SQLite " + db + ")"
	}
	u, err := url.Parse(*base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageError("--url %q: want http://HOST:PORT", *base)
	}
	if !loopback(u.Hostname()) {
		return usageError("--url %q: the load test runs against loopback addresses only", *base)
	}
	lt := &loadTest{
		base:   strings.TrimSuffix(*base, "/"),
		wsBase: "ws" + strings.TrimPrefix(strings.TrimSuffix(*base, "/"), "http"),
		http:   &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
		think:  *think,
		seed:   *seed,
		errors: make(map[string]int),
		spread: u.Hostname() == "127.0.0.1",
		nodes:  nodes,
	}
	if *idle > 0 {
		fmt.Fprintf(e.stdout, "loadtest: %d idle WebSockets, server %s\n", *idle, where)
		return lt.idle(ctx, e.stdout, *idle)
	}
	if len(nodes) > 0 {
		where = fmt.Sprintf("%d nodes %s (memory and CPU: the first's)", len(nodes), strings.Join(nodes, ", "))
	}
	fmt.Fprintf(e.stdout, "loadtest: %d games, %d WebSockets, server %s\n", *games, 4**games, where)

	mem := &memoryPeak{}
	mem.scrape(ctx, lt)
	cpu0 := mem.cpu
	mctx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() { mem.watch(mctx, lt); close(watched) }()

	start := time.Now()
	errs := make(chan error, *games)
	for n := range *games {
		go func() { errs <- lt.playGame(ctx, n) }()
	}
	failed := 0
	var first error
	for range *games {
		if err := <-errs; err != nil {
			failed++
			if first == nil {
				first = err
			}
		}
	}
	elapsed := time.Since(start)
	stopWatch()
	<-watched
	mem.scrape(context.Background(), lt)

	lt.report(e.stdout, *games, failed, elapsed, mem, mem.cpu-cpu0)
	switch {
	case failed > 0:
		return fmt.Errorf("%d of %d games failed; the first: %v", failed, *games, first)
	case lt.lost.Load() > 0 || lt.dups.Load() > 0:
		return fmt.Errorf("%d events lost, %d duplicated", lt.lost.Load(), lt.dups.Load())
	}
	return nil
}

// report prints the figures.
func (lt *loadTest) report(w io.Writer, games, failed int, elapsed time.Duration, mem *memoryPeak, cpu float64) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	slices.Sort(lt.latencies)
	slices.Sort(lt.relayed)
	quantile := func(ds []time.Duration, p float64) string {
		if len(ds) == 0 {
			return "-"
		}
		i := min(int(p*float64(len(ds))), len(ds)-1)
		return fmtMS(ds[i])
	}
	q := func(p float64) string { return quantile(lt.latencies, p) }
	acts := lt.actions.Load()
	fmt.Fprintf(w, "games finished:    %d of %d in %.1fs\n", games-failed, games, elapsed.Seconds())
	fmt.Fprintf(w, "actions:           %d, %.0f/s; events received %d\n", acts, float64(acts)/elapsed.Seconds(), lt.events.Load())
	if len(lt.nodes) == 0 {
		fmt.Fprintf(w, "action->broadcast: p50 %s  p99 %s  max %s  (%d deliveries)\n", q(0.50), q(0.99), q(1), len(lt.latencies))
	} else {
		r := func(p float64) string { return quantile(lt.relayed, p) }
		fmt.Fprintf(w, "action->broadcast, clients of the driving node: p50 %s  p99 %s  max %s  (%d deliveries)\n", q(0.50), q(0.99), q(1), len(lt.latencies))
		fmt.Fprintf(w, "action->broadcast, clients of a relaying node: p50 %s  p99 %s  max %s  (%d deliveries)\n", r(0.50), r(0.99), r(1), len(lt.relayed))
	}
	fmt.Fprintf(w, "events lost:       %d\n", lt.lost.Load())
	fmt.Fprintf(w, "events duplicated: %d\n", lt.dups.Load())
	codes := make([]string, 0, len(lt.errors))
	for c, n := range lt.errors {
		codes = append(codes, fmt.Sprintf("%s %d", c, n))
	}
	slices.Sort(codes)
	if len(codes) == 0 {
		codes = append(codes, "none")
	}
	fmt.Fprintf(w, "refused messages:  %s; reconnections %d; dials retried %d\n", strings.Join(codes, ", "), lt.reconnects.Load(), lt.dialRetries.Load())
	fmt.Fprintf(w, "server memory:     peak RSS %s, Go memory %s", fmtMiB(mem.rss), fmtMiB(mem.goMem))
	if mem.commits > 0 {
		fmt.Fprintf(w, "; commits %d, mean %s", mem.commits, fmtMS(time.Duration(mem.commitSum*float64(time.Second)/float64(mem.commits))))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "server CPU:        %.1fs, %.2f cores\n", cpu, cpu/elapsed.Seconds())
}

func fmtMS(d time.Duration) string {
	return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
}

func fmtMiB(b int64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}

// loopback reports whether host names this machine.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// memoryPeak follows the server's memory through its /metrics.
type memoryPeak struct {
	rss, goMem int64
	commits    int64
	commitSum  float64
	cpu        float64 // the process's CPU seconds, at the last scrape
}

// watch scrapes the metrics every half second until ctx is done.
func (m *memoryPeak) watch(ctx context.Context, lt *loadTest) {
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		m.scrape(ctx, lt)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// scrape reads the metrics once, keeping the peaks.
func (m *memoryPeak) scrape(ctx context.Context, lt *loadTest) {
	fig, err := lt.metrics(ctx)
	if err != nil {
		return
	}
	m.rss = max(m.rss, int64(fig["process_resident_memory_bytes"]))
	m.goMem = max(m.goMem, int64(fig["go_memory_classes_total_bytes"]))
	m.commits = int64(fig["chaturaji_store_append_seconds_count"])
	m.commitSum = fig["chaturaji_store_append_seconds_sum"]
	m.cpu = fig["process_cpu_seconds_total"]
}

// metrics reads the server's /metrics: each figure without labels, by
// name.
func (lt *loadTest) metrics(ctx context.Context) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", lt.base+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := lt.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics: %s", resp.Status)
	}
	fig := make(map[string]float64)
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok || strings.HasPrefix(name, "#") {
			continue
		}
		if v, err := strconv.ParseFloat(value, 64); err == nil {
			fig[name] = v
		}
	}
	return fig, sc.Err()
}
