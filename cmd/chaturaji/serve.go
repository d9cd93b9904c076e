package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/chaturaji/chaturaji/account"
	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/keyfile"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
	_ "github.com/chaturaji/chaturaji/store/postgres"
	"github.com/chaturaji/chaturaji/store/sqlite"
	"github.com/chaturaji/chaturaji/web"
)

var serveCommand = &command{
	name:    "serve",
	summary: "run the live game server",
	help:    serveHelp,
	run:     runServe,
}

const serveHelp = `usage: chaturaji serve [--addr HOST:PORT] [--db DATABASE] [--key-file FILE] [--origin URL]...
                       [--bot-time D] [--bot-delay D] [--max-bot-delay D] [--bot-workers N]
                       [--bot-memory SIZE] [--heap-headroom SIZE] [--max-bot-games N]
                       [--max-bot-games-per-client N] [--max-games-per-client N]
                       [--max-takeover-level N] [--grace D]
                       [--max-grace D] [--idle-limit D] [--expiry D] [--rematch-wait D]
                       [--start-wait D]
                       [--trusted-proxies CIDRS] [--request-rate N] [--costly-rate N]
                       [--max-conns N] [--max-conns-per-client N] [--body-timeout D]
                       [--retry-max D] [--public-url URL] [--account-rate N]
                       [--hash-concurrency N] [--hash-waiters N] [--log-level LEVEL] [--log-json]
                       [--retry-max D] [--lobby-round D] [--lobby-claim-wait D]
                       [--max-lobby-conns-per-client N] [--max-open-tables N]
                       [--correspondence-turn D] [--max-correspondence N]
                       [--log-level LEVEL] [--log-json]

Serve runs the authoritative game server: it keeps every game in the
database, rolls the dice from each game's seed, checks every action, runs
the bots and the clocks, and serves the HTTP and WebSocket API of
docs/api.md under /api/, with /healthz and Prometheus metrics at /metrics,
and the web client at / (open the URL in a browser to play). It prints
the URL it listens on:

	Chaturaji server listening on http://127.0.0.1:8080
	Records are signed with key 8f3e...77a0 (GET /api/key)
	Its secret keys are in /home/ann/chaturaji.key: keep that file secret, apart from the database

It keeps its secrets in a key file of their own, apart from the database
(docs/security.md): the ed25519 key that signs the record of every
finished game, whose public key it prints, the AES-256-GCM key that
seals the dice seeds in the database, so that a copy of the database
without the key file reveals no live game's dice, and the HMAC-SHA256 key
with which the nodes of a cluster sign what they forward to each other
(every node is given the same file; one made before that key has it
added by the first node started with it). Without --key-file it uses
chaturaji.key beside the SQLite database (in the working directory for
PostgreSQL), and makes it at first start, and warns in its log if that is
inside a git work tree (make serve keeps both in ~/.local/state/chaturaji);
a file given with --key-file must exist (chaturaji keygen makes one). The plain seeds of a database from
before are sealed at start.

On start it resumes every live game of the database where it was, and
gives the time it was down back to the open decisions' clocks. With
PostgreSQL, several servers (nodes) may share one database: each live game
is driven by one node, which holds a lease on it in the database, and is
adopted by another within about --lease when that node dies; any node
serves any client, relaying the events of the games others drive and
forwarding their actions to the driving node (docs/api.md, "Many nodes"). On SIGINT or
SIGTERM it stops gracefully: it refuses new requests, closes the
WebSockets with status 1001 (clients reconnect and catch up) and closes the
database; every action it acknowledged is saved already. If the database
fails while it runs, the games wait and try again by themselves, and
GET /readyz says the server is not ready until the database takes writes
again (docs/security.md, "Faults").

Flags:
	--addr HOST:PORT   where to listen (default 127.0.0.1:8080; port 0 picks a free one)
	--db DATABASE      sqlite:PATH (the default, sqlite:chaturaji.db), a bare PATH,
	                   or postgres://USER:PASS@HOST/DB; an SQLite file takes one
	                   server at a time (a second is refused: the lock PATH.lock)
	--key-file FILE    the server's key file (default chaturaji.key beside the
	                   SQLite database, made at first start)
	--origin URL       a browser origin besides the server's own that may act and
	                   open WebSockets, such as https://example.org; repeat it or
	                   separate with commas; * allows any
	--bot-time D       each bot decision's thinking time (default 300ms)
	--bot-delay D      the least time from a bot's decision opening to its action,
	                   its thinking included, for games that do not choose their
	                   own bot_delay_ms, so that people can follow the bots
	                   (default 800ms; 0 for none)
	--max-bot-delay D  the longest bot delay a new game may ask for (default 10s)
	--bot-workers N    how many searching bots think at once, over all games
	                   (default the number of CPUs); games with a human go first
	--bot-memory SIZE  the memory all bots share for their searches, such as
	                   256MiB (the default) or 1GiB
	--heap-headroom SIZE
	                   the memory the process's heap may hold besides
	                   --bot-memory (default 256MiB): the soft memory limit of
	                   the Go runtime is their sum, unless GOMEMLIMIT sets it,
	                   and the garbage collector runs as the process nears it,
	                   not each time the heap doubles, unless GOGC is set
	--max-bot-games N  the most live games with no human seat (default 100)
	--max-bot-games-per-client N
	                   the most of those created from one address (default 4)
	--max-games-per-client N
	                   the most live games of any kind created from one address
	                   (default 20)
	--max-takeover-level N
	                   the strongest bot a game may name to take over the seats
	                   of players who leave: random, greedy or a level up to N,
	                   1 to 8 (default 4)
	--grace D          the default time an absent player's turn waits before a bot
	                   takes the seat (default 2m)
	--max-grace D      the longest such time a new game may ask for (default 1h)
	--idle-limit D     the time a connected player's decision in an untimed game may
	                   stay open before a bot takes the seat (default 10m)
	--expiry D         how long a game may wait with none of its human players
	                   connected or acting before bots take every human seat
	                   (default 30m)
	--rematch-wait D   how long a finished game's rematch offer waits for its
	                   players' answers (default 2m)
	--start-wait D     how long a timed game's clocks wait for its invited players
	                   to claim their seats before bots take those still unclaimed
	                   (default 2m)
	--trusted-proxies CIDRS
	                   the reverse proxies whose X-Forwarded-For is believed, as
	                   addresses or CIDR prefixes separated by commas, such as
	                   10.0.0.0/8,::1 (default none: every peer is a client)
	--request-rate N   each client's requests a second, costly ones apart (default
	                   100, bursts of 400)
	--costly-rate N    each client's costly requests a second: new games, analyses,
	                   exports, verifications (default 1, bursts of 20)
	--retry-max D      the longest a game waits before it tries the database again
	                   after a failure (default 10s; the wait doubles from 500ms)
	--max-conns N      connections open at once, WebSockets included (default
	                   10000, or three quarters of the limit of open files if lower);
	                   past it a new connection is closed at once
	--max-conns-per-client N
	                   connections open at once from one client, a trusted proxy
	                   left out (default 1100, or a quarter of --max-conns if
	                   lower); a larger value than that quarter is lowered to
	                   it, with a warning, so that one client never holds every
	                   connection
	--body-timeout D   the longest a request's body may take to arrive after its
	                   headers (default 10s; past it the answer is 408 ETIMEOUT)
	--lobby-round D    how often the lobby pairs the pools with seekers on this
	                   server, and looks for the games other nodes made for them
	                   (default 250ms; a seek runs a round at once)
	--lobby-claim-wait D
	                   how long a table the lobby formed waits for its game
	                   before a node of its players makes it (default 5s)
	--max-lobby-conns-per-client N
	                   lobby WebSockets open at once from one client (default
	                   8): a guest's seek is its socket's
	--max-open-tables N
	                   open tables in the lobby at once, over every node
	                   (default 1000)
	--correspondence-turn D
	                   the least time per decision of the lobby's games by
	                   correspondence (default 24h): an absent player keeps
	                   the seat for each decision's whole time, with no grace
	                   and no expiry, and one out of time loses it to a bot
	--max-correspondence N
	                   live games by correspondence on this node (default
	                   1000): past it the lobby refuses seeks in their pools
	--lease DURATION   with PostgreSQL, how long a node's lease on a game lasts
	                   unless renewed (default 5s): a dead node's games are
	                   adopted by the others within about that
	--advertise URL    with PostgreSQL, the URL at which the other nodes reach
	                   this one (default http:// and the address listened on,
	                   127.0.0.1 for a wildcard: give it across machines)
	--public-url URL   the address players reach the site at, such as
	                   https://chaturaji.example: its host is the passkeys'
	                   relying party and its origin theirs (without it passkeys
	                   are off, and accounts sign in with passwords), and with
	                   https the session cookie is Secure
	--account-rate N   each client's sign-ups, sign-ins, recoveries, password
	                   changes and passkey ceremonies a second (default 0.2,
	                   12 a minute, bursts of 20)
	--hash-concurrency N
	                   the password hashes (argon2id, 19 MiB each) that run at
	                   once (default 2)
	--hash-waiters N   the password hashes that may wait for their turn
	                   (default 64); past it a sign-in is refused at once (503)
	--log-level LEVEL  debug, info, warn or error (default info)
	--log-json         write the logs as JSON (default text), on standard error
`

func runServe(e *env, args []string) error {
	fs := newFlagSet("serve")
	addr := fs.String("addr", "127.0.0.1:8080", "")
	dsn := fs.String("db", "sqlite:chaturaji.db", "")
	keyPath := fs.String("key-file", "", "")
	var origins []string
	fs.Func("origin", "", func(s string) error {
		for o := range strings.SplitSeq(s, ",") {
			if o = strings.TrimSpace(o); o != "" {
				origins = append(origins, o)
			}
		}
		return nil
	})
	botTime := fs.Duration("bot-time", 300*time.Millisecond, "")
	botDelay := fs.Duration("bot-delay", 800*time.Millisecond, "")
	maxBotDelay := fs.Duration("max-bot-delay", 10*time.Second, "")
	botWorkers := fs.Int("bot-workers", runtime.NumCPU(), "")
	botMemory := int64(256 << 20)
	fs.Func("bot-memory", "", func(s string) (err error) {
		botMemory, err = parseSize(s)
		return err
	})
	heapHeadroom := int64(256 << 20)
	fs.Func("heap-headroom", "", func(s string) (err error) {
		heapHeadroom, err = parseSize(s)
		return err
	})
	maxBotGames := fs.Int("max-bot-games", 100, "")
	maxBotGamesPerClient := fs.Int("max-bot-games-per-client", 4, "")
	maxTakeoverLevel := fs.Int("max-takeover-level", 4, "")
	maxGamesPerClient := fs.Int("max-games-per-client", 20, "")
	grace := fs.Duration("grace", 2*time.Minute, "")
	maxGrace := fs.Duration("max-grace", time.Hour, "")
	idleLimit := fs.Duration("idle-limit", 10*time.Minute, "")
	expiry := fs.Duration("expiry", 30*time.Minute, "")
	retryMax := fs.Duration("retry-max", 10*time.Second, "")
	rematchWait := fs.Duration("rematch-wait", 2*time.Minute, "")
	startWait := fs.Duration("start-wait", 2*time.Minute, "")
	var proxies []netip.Prefix
	fs.Func("trusted-proxies", "", func(s string) error {
		ps, err := server.ParseTrustedProxies(s)
		proxies = append(proxies, ps...)
		return err
	})
	requestRate := fs.Float64("request-rate", 100, "")
	costlyRate := fs.Float64("costly-rate", 1, "")
	maxConns := fs.Int("max-conns", 0, "")
	maxConnsPerClient := fs.Int("max-conns-per-client", 0, "")
	bodyTimeout := fs.Duration("body-timeout", 10*time.Second, "")
	lobbyRound := fs.Duration("lobby-round", 250*time.Millisecond, "")
	lobbyClaimWait := fs.Duration("lobby-claim-wait", 5*time.Second, "")
	correspondenceTurn := fs.Duration("correspondence-turn", 24*time.Hour, "")
	maxCorrespondence := fs.Int("max-correspondence", 1000, "")
	maxLobbyConnsPerClient := fs.Int("max-lobby-conns-per-client", 8, "")
	maxOpenTables := fs.Int("max-open-tables", 1000, "")
	lease := fs.Duration("lease", 5*time.Second, "")
	advertise := fs.String("advertise", "", "")
	publicURL := fs.String("public-url", "", "")
	accountRate := fs.Float64("account-rate", 0.2, "")
	hashConcurrency := fs.Int("hash-concurrency", 2, "")
	hashWaiters := fs.Int("hash-waiters", 64, "")
	level := fs.String("log-level", "info", "")
	logJSON := fs.Bool("log-json", false, "")
	if err := parseFlags(e, fs, serveHelp, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected arguments %q", fs.Args())
	}
	if *requestRate <= 0 || *costlyRate <= 0 {
		return usageError("--request-rate %g, --costly-rate %g: want rates above 0", *requestRate, *costlyRate)
	}
	if *idleLimit <= 0 || *retryMax <= 0 || *expiry <= 0 || *rematchWait <= 0 || *startWait <= 0 {
		return usageError("--idle-limit %v, --retry-max %v, --expiry %v, --rematch-wait %v, --start-wait %v: want durations above 0", *idleLimit, *retryMax, *expiry, *rematchWait, *startWait)
	}
	for _, f := range []struct {
		name string
		n    int
	}{{"max-conns", *maxConns}, {"max-conns-per-client", *maxConnsPerClient}} {
		if flagGiven(fs, f.name) && f.n < 1 {
			return usageError("--%s %d: want 1 or more", f.name, f.n)
		}
	}
	if *lobbyRound < 10*time.Millisecond || *lobbyClaimWait <= 0 {
		return usageError("--lobby-round %v, --lobby-claim-wait %v: want 10ms or more, and a duration above 0", *lobbyRound, *lobbyClaimWait)
	}
	if *correspondenceTurn < time.Second || *maxCorrespondence < 1 {
		return usageError("--correspondence-turn %v, --max-correspondence %d: want 1s or more, and 1 or more", *correspondenceTurn, *maxCorrespondence)
	}
	if *maxLobbyConnsPerClient < 1 || *maxOpenTables < 1 {
		return usageError("--max-lobby-conns-per-client %d, --max-open-tables %d: want 1 or more", *maxLobbyConnsPerClient, *maxOpenTables)
	}
	if *lease < 100*time.Millisecond {
		return usageError("--lease %v: want 100ms or more", *lease)
	}
	if *accountRate <= 0 || *hashConcurrency < 1 || *hashWaiters < 1 {
		return usageError("--account-rate %g, --hash-concurrency %d, --hash-waiters %d: want a rate above 0 and counts of 1 or more", *accountRate, *hashConcurrency, *hashWaiters)
	}
	accounts := account.Config{HashConcurrency: *hashConcurrency, HashWaiters: *hashWaiters}
	secure := false
	if *publicURL != "" {
		u, err := url.Parse(*publicURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" || u.Path != "" && u.Path != "/" {
			return usageError("--public-url %q: want the site's address, such as https://chaturaji.example", *publicURL)
		}
		accounts.RPID, accounts.RPOrigins = u.Hostname(), []string{u.Scheme + "://" + u.Host}
		secure = u.Scheme == "https"
	}
	if *bodyTimeout <= 0 {
		return usageError("--body-timeout %v: want a duration above 0", *bodyTimeout)
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		return usageError("--log-level %q: want debug, info, warn or error", *level)
	}
	opts := &slog.HandlerOptions{Level: lv}
	var h slog.Handler = slog.NewTextHandler(e.stderr, opts)
	if *logJSON {
		h = slog.NewJSONHandler(e.stderr, opts)
	}
	logger := slog.New(h)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	for name, n := range map[string]int{"bot-workers": *botWorkers, "max-bot-games": *maxBotGames, "max-bot-games-per-client": *maxBotGamesPerClient, "max-games-per-client": *maxGamesPerClient} {
		if n <= 0 {
			return usageError("--%s %d: want a number above 0", name, n)
		}
	}
	if *maxTakeoverLevel < 1 || *maxTakeoverLevel > len(ai.Levels) {
		return usageError("--max-takeover-level %d: want a level from 1 to %d", *maxTakeoverLevel, len(ai.Levels))
	}
	if *grace > *maxGrace {
		return usageError("--grace %v is longer than --max-grace %v", *grace, *maxGrace)
	}
	if *botDelay < 0 || *botDelay > *maxBotDelay {
		return usageError("--bot-delay %v: want 0 (none) to --max-bot-delay %v", *botDelay, *maxBotDelay)
	}
	if *botDelay == 0 {
		*botDelay = server.NoBotDelay // the Config's zero is its default
	}
	// The bots' tables are live heap: without a limit, garbage of any
	// kind could fill as much again as the bots' budget.
	gcLeft := memoryPolicy(botMemory + heapHeadroom)
	cfg := server.Config{
		Origins: origins, BotTime: *botTime, BotDelay: *botDelay, MaxBotDelay: *maxBotDelay, Grace: *grace,
		BotWorkers: *botWorkers, BotMemory: botMemory,
		MaxBotGames: *maxBotGames, MaxBotGamesPerClient: *maxBotGamesPerClient,
		MaxGamesPerClient: *maxGamesPerClient, MaxTakeoverLevel: *maxTakeoverLevel, MaxGrace: *maxGrace, IdleLimit: *idleLimit, Expiry: *expiry,
		TrustedProxies: proxies, RequestRate: *requestRate, CostlyRate: *costlyRate, RetryMax: *retryMax,
		RematchWait: *rematchWait, StartWait: *startWait,
		MaxConns: *maxConns, MaxConnsPerClient: *maxConnsPerClient, BodyTimeout: *bodyTimeout,
		Lease: *lease, Advertise: *advertise,
		Accounts: accounts, SecureCookies: secure, AccountRate: *accountRate,
		LobbyRound: *lobbyRound, LobbyClaimWait: *lobbyClaimWait, MaxLobbyConnsPerClient: *maxLobbyConnsPerClient, MaxOpenTables: *maxOpenTables,
		CorrespondenceTurn: *correspondenceTurn, MaxCorrespondence: *maxCorrespondence,
	}
	keys := keySource{path: *keyPath, explicit: flagGiven(fs, "key-file")}
	if !keys.explicit {
		keys.path = defaultKeyFile(*dsn)
	}
	run, err := startServer(ctx, cfg, *dsn, *addr, keys, logger)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Chaturaji server listening on %s\n", run.url)
	fmt.Fprintf(e.stdout, "Records are signed with key %s (GET /api/key)\n", run.publicKey)
	fmt.Fprintf(e.stdout, "Its secret keys are in %s: keep that file secret, apart from the database\n", run.keyFile)
	logger.Info("memory", "policy", memoryPolicyNote(botMemory+heapHeadroom, gcLeft))
	select {
	case <-ctx.Done():
		logger.Info("shutting down")
	case err := <-run.failed:
		logger.Error("serving", "err", err)
	}
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	return run.stop(sctx)
}

// keySource is where a server's key file is.
type keySource struct {
	path     string
	explicit bool // given with --key-file: it must exist
}

// running is a server listening and serving.
type running struct {
	url       string
	publicKey string // the key that signs its records, in hex
	keyFile   string // the key file, as an absolute path
	srv       *server.Server
	http      *http.Server
	store     store.Store
	lock      *sqlite.ServerLock // an SQLite database's server lock; nil on PostgreSQL
	failed    chan error         // the listener failed
}

// startServer opens the database and the key file, seals the database's
// plain seeds, resumes its live games and starts serving on addr.
func startServer(ctx context.Context, cfg server.Config, dsn, addr string, ks keySource, logger *slog.Logger) (*running, error) {
	var keys *keyfile.Keys
	if ks.explicit {
		var err error
		if keys, err = givenKeys(ks.path); err != nil {
			return nil, err
		}
	}
	// One server to an SQLite file: a second would drive the same games.
	var lock *sqlite.ServerLock
	if name, path, err := store.ParseDSN(dsn); err == nil && name == store.SQLite {
		if lock, err = sqlite.LockServer(path); err != nil {
			return nil, err
		}
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		lock.Release()
		return nil, err
	}
	st, keys, err = openKeys(ctx, st, ks, keys, logger)
	if err != nil {
		st.Close()
		lock.Release()
		return nil, err
	}
	// Listening first: a node of a cluster advertises where it listens.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		st.Close()
		lock.Release()
		return nil, err
	}
	cfg.SigningKey = keys.Signing
	if store.ClusterOf(st) != nil {
		// PostgreSQL: a node of a cluster, of one or more.
		cfg.Cluster = true
		if cfg.ClusterKey, err = clusterKey(keys, ks.path, logger); err != nil {
			ln.Close()
			st.Close()
			lock.Release()
			return nil, err
		}
		if cfg.Advertise == "" {
			a := *ln.Addr().(*net.TCPAddr)
			if a.IP.IsUnspecified() {
				a.IP = net.IPv4(127, 0, 0, 1) // one machine; across machines, --advertise
			}
			cfg.Advertise = "http://" + a.String()
		}
	}
	srv := server.New(cfg, st, logger)
	if err := srv.Start(ctx); err != nil {
		ln.Close()
		st.Close()
		lock.Release()
		return nil, err
	}
	r := &running{
		lock:      lock,
		url:       "http://" + displayAddr(ln.Addr().(*net.TCPAddr)),
		publicKey: record.FormatPublicKey(cfg.SigningKey.Public().(ed25519.PublicKey)),
		keyFile:   absPath(ks.path),
		srv:       srv,
		store:     st,
		http:      srv.HTTPServer(web.Mount(srv, web.Options{Logger: logger})),
		failed:    make(chan error, 1),
	}
	go func() {
		if err := r.http.Serve(srv.Listener(ln)); !errors.Is(err, http.ErrServerClosed) {
			r.failed <- err
		}
	}()
	return r, nil
}

// openKeys seals the plain seeds of st with the seed key of the server's
// key file (keys, if --key-file gave it, else the default one, made at
// first start) and returns st sealed and the keys.
func openKeys(ctx context.Context, st store.Store, ks keySource, keys *keyfile.Keys, logger *slog.Logger) (store.Store, *keyfile.Keys, error) {
	if keys == nil {
		var created bool
		var err error
		if keys, created, err = defaultKeys(ctx, st, ks.path); err != nil {
			return st, nil, err
		}
		if created {
			logger.Warn("made a new key file: keep it secret, apart from the database, and keep a copy", "key_file", ks.path)
		}
	}
	seedKey := store.NewSeedKey(keys.Seed)
	n, err := store.SealSeeds(ctx, st, seedKey)
	if errors.Is(err, store.ErrSeedKey) {
		return st, nil, fmt.Errorf("key file %s does not open the seeds of this database: %w", ks.path, err)
	}
	if err != nil {
		return st, nil, err
	}
	if n > 0 {
		logger.Info("sealed the plain seeds of the database", "games", n, "seed_key", seedKey.ID())
	}
	logger.Info("records are signed", "public_key", record.FormatPublicKey(keys.Public()), "key_file", ks.path)
	if root := workTree(ks.path); root != "" {
		logger.Warn("the key file is inside a git work tree: one `git add` there could publish the server's secrets; keep it elsewhere (--key-file), or make sure git ignores it",
			"key_file", absPath(ks.path), "work_tree", root)
	}
	return store.Sealed(st, seedKey), keys, nil
}

// clusterKey returns the cluster key of the key file at path, whose keys
// are keys: a key file made before there was one has a new one added, to
// be given to every node of the cluster.
func clusterKey(keys *keyfile.Keys, path string, logger *slog.Logger) ([]byte, error) {
	if keys.Cluster != nil {
		return keys.Cluster, nil
	}
	keys, added, err := keyfile.AddCluster(path)
	if err != nil {
		return nil, fmt.Errorf("key file %s has no cluster key, which the nodes of a cluster share, and one could not be added: %w", path, err)
	}
	if added {
		logger.Warn("added a cluster key to the key file: give every node of the cluster this same file", "key_file", path)
	}
	return keys.Cluster, nil
}

// stop shuts the server down gracefully and closes the database.
func (r *running) stop(ctx context.Context) error {
	done := make(chan error, 1)
	go func() { done <- r.http.Shutdown(ctx) }()
	err := r.srv.Shutdown(ctx)
	err = errors.Join(err, <-done, r.store.Close(), r.lock.Release())
	return err
}

// absPath is path made absolute, or path itself if it cannot be.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// displayAddr is the address to print: a wildcard address is shown as
// localhost.
func displayAddr(a *net.TCPAddr) string {
	if a.IP.IsUnspecified() {
		return fmt.Sprintf("localhost:%d", a.Port)
	}
	return a.String()
}
