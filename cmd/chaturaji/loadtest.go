package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

var loadtestCommand = &command{
	name:    "loadtest",
	summary: "play many games at once against a server and measure it",
	help:    loadtestHelp,
	run:     runLoadtest,
}

const loadtestHelp = `usage: chaturaji loadtest [--games N] [--url URL | --nodes URL,URL...] [--think D] [--timeout D] [--seed S] [--sync-dir DIR] [--windows] [--memory-limit SIZE]
       chaturaji loadtest --start-nodes N --db postgres://... [--lease D] [--kill-after D] [--games N] ...
       chaturaji loadtest --idle N [--url URL]
       chaturaji loadtest --lobby N [--lobby-rate R] [--url URL]
       chaturaji loadtest --signin-flood N [--signin-every D] [--flood-time D] [--flood-conns N] [--url URL]

Loadtest plays N games at once against a game server on this machine, each
with four human seats, each seat a WebSocket client that plays a random
legal action when it is to act, after a pause of up to --think. It
reports:

	time         from an action sent to its broadcast arriving at each of the
	             game's four clients: p50, p99 and max
	windows      the same times split into windows of 10s from the first
	             delivery: the p99 of the window with the most deliveries,
	             and the highest p99 of a window; while every game is live
	             the load is at its peak, and a run's p99 as a whole also
	             depends on how long its quieter end lasts; with --windows,
	             a line for each window: its deliveries, their p99 and how
	             many took over 50ms, beside what else happened in it (with
	             the server in this process: the garbage collections that
	             ended in it, the CPU they took, and the p99 of the time a
	             goroutine waited for a core once runnable; with the disk
	             measured: the time in its syncs of 50ms or more, and its
	             longest sync), and a sum of the slow ones against the 1%
	             a p99 under 50ms allows
	disk sync    the disk's own time to sync a 4 KiB write, measured in the
	             same run in the database's directory (a file synced every
	             20ms): p50, p99 and max; an action is broadcast only after a
	             sync of the database's log, so this is the part of its time
	             that depends on the disk
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
the load clients'), under the memory policy of chaturaji serve: a soft
memory limit of --memory-limit (default 1GiB: serve's default of 512MiB,
and as much again for the clients), near which the garbage collector runs,
and not each time the heap doubles (GOMEMLIMIT and GOGC, when set, win
over it); with --url it uses a running server, which must be on a
loopback address and whose limits must let the players of 16 games create
their games and open their WebSockets at once from one address (such as
chaturaji serve --request-rate 1000 --costly-rate 100). It stops by itself
after --timeout.

With --nodes or --start-nodes it runs against the nodes of a cluster on one
PostgreSQL (docs/api.md, "Many nodes"): game i is created on node i mod n,
which drives it, and its four players connect to that node and the next
ones, so that some hear the game from the node that drives it and some from
a node that relays it; the times are reported for each kind apart, and the
memory and CPU for each node, one line each. A player whose node is gone
reconnects to the next node. --nodes uses nodes running already;
--start-nodes starts them itself: N processes of this binary (chaturaji
serve) on free ports of 127.0.0.1, with --lease, on a new schema of the
database --db names (dropped at the end: the role must be allowed to create
schemas there), and stops them at the end with SIGTERM.

With --kill-after D (with --start-nodes: the load test must hold the
process to kill, and read the others' logs to know which games they
adopted, which a running node's /metrics cannot tell) it kills the last
node with SIGKILL once D has passed and every game has been created, as a
crash would, and reports the failover: how many of the live games that
node drove the others adopted, and for those games, from the kill to the
adoption (by the adopter's log) and from the kill to the game's first new
event at any of its clients (p50, p99, max). An action sent before the kill
and broadcast after it, or before its game's adoption, is counted apart
("held up by the failover"), not in the times of the broadcasts. A player
that was connected to the dead node sends its last action again, as it
chose it, once reconnected.

With --idle N it plays nothing: it opens N WebSockets that watch one game
where nobody moves, and reports what the server's memory grew by for each
(resident, Go's and the heap's) and its goroutines.

With --lobby N it plays nothing either: N seekers (a multiple of 20 seats
them all) open the lobby's WebSocket, 8 from each loopback address, and
seek --lobby-rate a second, spread over five pools (chaturaji at 15s, 1m
and 1d a decision, chaturaji-teams and chaturanga-2p at 15s), for people
only. It reports how many were seated, each exactly once, and for each
game, from its table's last seeker's seek to the last of its players
told of its seat (p50, p99, max), with the server's memory and CPU; it
exits with status 1 if a seeker was seated twice or not at all.

With --signin-flood N it plays nothing either: N clients, each from an
address of its own, sign up, and then sign in with their passwords once
every --signin-every, while one more address floods POST
/api/account/signin for --flood-time with wrong passwords under ever new
names, over --flood-conns connections, each sending its next request as
soon as it has the answer. It reports how many of the N clients'
sign-ins were answered 200 and their times (p50, p99, max), the flood's
requests and their answers by status and code, and the server's peak
memory (resident, Go's, and the Go heap's objects) and CPU; it exits
with status 1 if one of the N clients' sign-ins was not answered 200.
The server's limits of accounts are left as they are (in this process,
its defaults): they are what the run measures. It needs a server on
127.0.0.1, for the addresses.

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
	--sync-dir DIR
	              where to time the disk's syncs (default: the directory of the
	              server's database in this process; none with --url, --nodes
	              or --start-nodes, whose database may be elsewhere)
	--idle N      open N idle WebSockets and measure them instead
	--lobby N     seat N seekers through the lobby and measure it instead
	--lobby-rate R
	              with --lobby, how many seek a second once all are connected
	              (default 250; 0 for all at once)
	--signin-flood N
	              flood the sign-in from one address while N clients of others
	              sign in, and measure it instead
	--signin-every D
	              with --signin-flood, how often each client signs in (default
	              5s, the pace a server's default budget of a client keeps up
	              with for ever: 20 at once, then one every 5s)
	--flood-time D
	              with --signin-flood, how long the flood lasts (default 30s)
	--flood-conns N
	              with --signin-flood, the flood's connections (default 64; 0 for
	              no flood, to measure the sign-ins alone)
	--nodes URL,URL,...
	              the running nodes of a cluster (chaturaji serve on each, on one
	              PostgreSQL), instead of --url
	--start-nodes N
	              start N nodes (1 to 16) and run against them, instead of --url
	--db URL      with --start-nodes, the PostgreSQL database they share, such as
	              postgres://USER:PASS@127.0.0.1:5432/DB?sslmode=disable
	--lease D     with --start-nodes, the nodes' --lease (default 5s, as serve's)
	--kill-after D
	              with --start-nodes, two or more, kill the last node with
	              SIGKILL after D and report the failover (default 0: none)
`

// loadTest is one run of the load test.
type loadTest struct {
	base, wsBase string
	http         *http.Client
	think        time.Duration
	seed         uint64

	actions, events, lost, dups, reconnects, dialRetries atomic.Int64
	opened                                               atomic.Int64 // games whose creation was tried
	want                                                 int          // the games to play (--games)

	// byWindow: report each window of loadWindow (--windows), with what
	// the runtime did in it if runtime is not nil (the server in this
	// process).
	byWindow bool
	runtime  *runtimeSampler

	// nodes: the base URLs of a cluster's nodes (--nodes, --start-nodes),
	// over which the games and their players are spread; nil for one
	// server.
	nodes []string
	// timeline: each game keeps when each of its events first reached a
	// client (a node is to be killed: the failover's figures).
	timeline bool

	mu        sync.Mutex
	latencies []time.Duration
	// delivered: when each of latencies was delivered (nanoseconds since
	// 1970), in the same order; not time.Time, whose pointer the garbage
	// collector of the process, the server's with the server in it, would
	// follow in each of some 500,000
	delivered []int64
	relayed   []time.Duration // with nodes, the deliveries to clients of a node that relays the game
	errors    map[string]int
	games     map[string]*loadGame // by id
	killAt    time.Time            // when a node was killed (--kill-after)
	held      int                  // actions whose broadcast waited for the failover

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

// observe notes the broadcast of g's action sent at sent, delivered at
// now to a client of a node that relays the game or drives it.
func (lt *loadTest) observe(g *loadGame, sent, now time.Time, relayed bool) {
	held := lt.heldUp(g, sent, now)
	lt.mu.Lock()
	switch {
	case held:
		lt.held++
	case relayed:
		lt.relayed = append(lt.relayed, now.Sub(sent))
	default:
		lt.latencies = append(lt.latencies, now.Sub(sent))
		lt.delivered = append(lt.delivered, now.UnixNano())
	}
	lt.mu.Unlock()
}

// addGame notes a game created.
func (lt *loadTest) addGame(g *loadGame) {
	lt.mu.Lock()
	if lt.games == nil {
		lt.games = make(map[string]*loadGame)
	}
	lt.games[g.id] = g
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
	lobbyN := fs.Int("lobby", 0, "")
	lobbyRate := fs.Float64("lobby-rate", 250, "")
	floodN := fs.Int("signin-flood", 0, "")
	signinEvery := fs.Duration("signin-every", 5*time.Second, "")
	floodTime := fs.Duration("flood-time", 30*time.Second, "")
	floodConns := fs.Int("flood-conns", 64, "")
	nodeList := fs.String("nodes", "", "")
	startN := fs.Int("start-nodes", 0, "")
	db := fs.String("db", "", "")
	lease := fs.Duration("lease", 5*time.Second, "")
	killAfter := fs.Duration("kill-after", 0, "")
	syncDir := fs.String("sync-dir", "", "")
	byWindow := fs.Bool("windows", false, "")
	memoryLimit := int64(1 << 30)
	fs.Func("memory-limit", "", func(v string) (err error) {
		memoryLimit, err = parseSize(v)
		return err
	})
	if err := parseFlags(e, fs, loadtestHelp, args); err != nil {
		return err
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
	if *lobbyN < 0 || *lobbyN > 20000 || *lobbyRate < 0 {
		return usageError("--lobby %d, --lobby-rate %g: want 0 to 20000 seekers, and a rate of 0 or more", *lobbyN, *lobbyRate)
	}
	if *lobbyN > 0 && (*idle > 0 || *startN > 0 || *nodeList != "") {
		return usageError("--lobby: not with --idle, --nodes or --start-nodes")
	}
	if *floodN < 0 || *floodN > 10000 || *signinEvery <= 0 || *floodTime <= 0 || *floodConns < 0 || *floodConns > 10000 {
		return usageError("--signin-flood %d, --signin-every %v, --flood-time %v, --flood-conns %d: want 0 to 10000 clients, durations above 0 and 0 to 10000 connections",
			*floodN, *signinEvery, *floodTime, *floodConns)
	}
	if *floodN > 0 && (*idle > 0 || *lobbyN > 0 || *startN > 0 || *nodeList != "") {
		return usageError("--signin-flood: not with --idle, --lobby, --nodes or --start-nodes")
	}
	switch {
	case *startN != 0 && (*startN < 1 || *startN > 16):
		return usageError("--start-nodes %d: want 1 to 16", *startN)
	case *startN > 0 && (*base != "" || *nodeList != "" || *idle > 0):
		return usageError("--start-nodes: not with --url, --nodes or --idle")
	case *startN > 0 && *db == "":
		return usageError("--start-nodes: give --db postgres://..., the database the nodes share")
	case *startN == 0 && (*db != "" || flagGiven(fs, "lease") || *killAfter != 0):
		return usageError("--db, --lease and --kill-after go with --start-nodes")
	case *lease < 100*time.Millisecond:
		return usageError("--lease %v: want 100ms or more", *lease)
	case *killAfter < 0 || (*killAfter > 0 && *startN < 2):
		return usageError("--kill-after %v: want a duration above 0, and two nodes or more to adopt the games", *killAfter)
	}
	if *syncDir != "" {
		if fi, err := os.Stat(*syncDir); err != nil || !fi.IsDir() {
			return usageError("--sync-dir %q: want a directory", *syncDir)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	// Interrupted, it still stops the nodes it started and drops their
	// schema.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	lt := &loadTest{
		http:     &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
		think:    *think,
		seed:     *seed,
		errors:   make(map[string]int),
		timeline: *killAfter > 0,
		want:     *games,
		byWindow: *byWindow,
	}
	var nodes []string
	var started *loadNodes
	switch {
	case *startN > 0:
		var err error
		if started, err = startNodes(ctx, *db, *startN, *lease, lt.adopted); err != nil {
			return err
		}
		defer func() {
			if err := started.stop(); err != nil {
				fmt.Fprintf(e.stderr, "loadtest: %v\n", err)
			}
		}()
		for _, p := range started.procs {
			nodes = append(nodes, p.url)
		}
		*base = nodes[0]
	case *nodeList != "":
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

	where := *base
	if *base == "" {
		dir, err := os.MkdirTemp("", "chaturaji-loadtest-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		db := filepath.Join(dir, "games.db")
		if *syncDir == "" {
			*syncDir = dir
		}
		// The server's defaults, but for the per-client limits of
		// requests, game creations, WebSockets and connections: every
		// client of the test comes from one address, which may hold
		// nearly every connection.
		conns := max(4**games, *idle, *lobbyN)
		cfg := server.Config{BotDelay: server.NoBotDelay, RequestRate: 1000, RequestBurst: conns + *games + 100, CostlyRate: 100, CostlyBurst: *games + 10,
			MaxConnsPerAddr: conns + 100, MaxConnsPerClient: conns + *games + 200, MaxConns: conns + *games + 1000, ClientConnsShare: 1,
			MaxGamesPerClient: *games + 10}
		keys := keySource{path: filepath.Join(dir, keyFileName)}
		run, err := startServer(ctx, cfg, "sqlite:"+db, "127.0.0.1:0", keys, slog.New(slog.DiscardHandler))
		if err != nil {
			return err
		}
		defer run.stop(context.Background())
		*base = run.url
		left := memoryPolicy(memoryLimit)
		where = run.url + " (in this process, SQLite " + db + "; " + memoryPolicyNote(memoryLimit, left) + ")"
		if *byWindow {
			lt.runtime = &runtimeSampler{}
		}
	}
	u, err := url.Parse(*base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageError("--url %q: want http://HOST:PORT", *base)
	}
	if !loopback(u.Hostname()) {
		return usageError("--url %q: the load test runs against loopback addresses only", *base)
	}
	lt.base = strings.TrimSuffix(*base, "/")
	lt.wsBase = "ws" + strings.TrimPrefix(lt.base, "http")
	lt.spread = u.Hostname() == "127.0.0.1"
	lt.nodes = nodes
	if *idle > 0 {
		fmt.Fprintf(e.stdout, "loadtest: %d idle WebSockets, server %s\n", *idle, where)
		return lt.idle(ctx, e.stdout, *idle)
	}
	if *floodN > 0 {
		if !lt.spread {
			return usageError("--signin-flood: want a server on 127.0.0.1, so that the clients come from addresses of their own (127.0.0.2...)")
		}
		fmt.Fprintf(e.stdout, "loadtest: a sign-in flood from one address for %v over %d connections, %d other clients signing in every %v, server %s\n",
			*floodTime, *floodConns, *floodN, *signinEvery, where)
		return lt.signinFlood(ctx, e.stdout, *floodN, *floodConns, *signinEvery, *floodTime)
	}
	if *lobbyN > 0 {
		fmt.Fprintf(e.stdout, "loadtest: %d lobby seekers, %g a second, server %s\n", *lobbyN, *lobbyRate, where)
		return lt.lobby(ctx, e.stdout, *lobbyN, *lobbyRate, *syncDir)
	}
	switch {
	case started != nil:
		where = fmt.Sprintf("%d nodes started on PostgreSQL (schema %s), lease %v", len(nodes), started.schema, *lease)
	case len(nodes) > 0:
		where = fmt.Sprintf("%d nodes", len(nodes))
	}
	fmt.Fprintf(e.stdout, "loadtest: %d games, %d WebSockets, server %s\n", *games, 4**games, where)
	// Room for the deliveries up front (a 1,000-game run measures some
	// 570,000): grown by appends, their arrays were copied over and over,
	// a twentieth of what the process allocated while every game was live.
	lt.latencies = make([]time.Duration, 0, 600**games)
	lt.delivered = make([]int64, 0, 600**games)

	mems := []*memoryPeak{{base: lt.base}}
	if len(nodes) > 0 {
		mems = mems[:0]
		for _, n := range nodes {
			mems = append(mems, &memoryPeak{base: n})
		}
	}
	for _, m := range mems {
		m.scrape(ctx, lt)
	}
	mctx, stopWatch := context.WithCancel(ctx)
	var watched sync.WaitGroup
	for _, m := range mems {
		watched.Go(func() { m.watch(mctx, lt) })
	}

	var probe *syncProbe
	if *syncDir != "" {
		probe = &syncProbe{dir: *syncDir}
		watched.Go(func() { probe.run(mctx) })
	}
	if lt.runtime != nil {
		watched.Go(func() { lt.runtime.run(mctx) })
	}
	start := time.Now()
	var kill *failover
	if *killAfter > 0 {
		kill = &failover{node: started.procs[len(started.procs)-1], after: *killAfter}
		watched.Go(func() { lt.killLater(mctx, kill, *games, start) })
	}
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
	watched.Wait()
	for _, m := range mems {
		m.scrape(context.Background(), lt)
	}

	lt.report(e.stdout, *games, failed, elapsed, probe)
	if kill != nil {
		lt.reportFailover(e.stdout, kill, started, start)
	}
	lt.reportServers(e.stdout, mems, started, start, elapsed)
	switch {
	case failed > 0:
		return fmt.Errorf("%d of %d games failed; the first: %v", failed, *games, first)
	case lt.lost.Load() > 0 || lt.dups.Load() > 0:
		return fmt.Errorf("%d events lost, %d duplicated", lt.lost.Load(), lt.dups.Load())
	}
	return nil
}

// report prints the figures of the games.
func (lt *loadTest) report(w io.Writer, games, failed int, elapsed time.Duration, probe *syncProbe) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	ws := windows(lt.delivered, lt.latencies, loadWindow)
	slices.Sort(lt.latencies)
	slices.Sort(lt.relayed)
	q := func(p float64) string { return quantile(lt.latencies, p) }
	acts := lt.actions.Load()
	fmt.Fprintf(w, "games finished:    %d of %d in %.1fs\n", games-failed, games, elapsed.Seconds())
	fmt.Fprintf(w, "actions:           %d, %.0f/s; events received %d\n", acts, float64(acts)/elapsed.Seconds(), lt.events.Load())
	if len(lt.nodes) == 0 {
		fmt.Fprintf(w, "action->broadcast: p50 %s  p99 %s  max %s  (%d deliveries)\n", q(0.50), q(0.99), q(1), len(lt.latencies))
		fmt.Fprintf(w, "windows of %.0fs:    %s\n", loadWindow.Seconds(), busiest(ws, loadWindow))
	} else {
		r := func(p float64) string { return quantile(lt.relayed, p) }
		fmt.Fprintf(w, "action->broadcast, clients of the driving node: p50 %s  p99 %s  max %s  (%d deliveries)\n", q(0.50), q(0.99), q(1), len(lt.latencies))
		fmt.Fprintf(w, "action->broadcast, clients of a relaying node: p50 %s  p99 %s  max %s  (%d deliveries)\n", r(0.50), r(0.99), r(1), len(lt.relayed))
	}
	fmt.Fprintf(w, "disk sync:         %s\n", probe.line())
	if lt.byWindow && len(lt.delivered) > 0 {
		fmt.Fprintf(w, "by window of %.0fs:\n", loadWindow.Seconds())
		breakdown(w, ws, slices.Min(lt.delivered), loadWindow, lt.runtime, probe)
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
}

// reportServers prints each server's memory and CPU: one server's on two
// lines, a cluster's on one line for each node.
func (lt *loadTest) reportServers(w io.Writer, mems []*memoryPeak, started *loadNodes, start time.Time, elapsed time.Duration) {
	if len(lt.nodes) == 0 {
		memory, cpu := mems[0].line(elapsed)
		fmt.Fprintf(w, "server memory:     %s\n", memory)
		fmt.Fprintf(w, "server CPU:        %s\n", cpu)
		fmt.Fprintf(w, "server's part:     %s\n", mems[0].within("chaturaji_action_latency_seconds"))
		fmt.Fprintf(w, "commits:           %s\n", mems[0].within("chaturaji_store_append_seconds"))
		return
	}
	for i, m := range mems {
		d, note := elapsed, ""
		if started != nil {
			p := started.procs[i]
			p.mu.Lock()
			killed := p.killed
			p.mu.Unlock()
			if !killed.IsZero() {
				d = m.last.Sub(start)
				note = fmt.Sprintf(" (killed at %.1fs: until then)", killed.Sub(start).Seconds())
			}
		}
		memory, cpu := m.line(d)
		fmt.Fprintf(w, "node %d %s: %s; CPU %s%s\n", i+1, m.base, memory, cpu, note)
	}
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
