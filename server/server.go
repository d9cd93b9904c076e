package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/chaturaji/chaturaji/account"
	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// Server is the game server: its live games, each run by a loop of its own,
// and the API that reaches them.
type Server struct {
	cfg     Config
	store   store.Store
	log     *slog.Logger
	metrics *metrics
	ctx     context.Context // cancelled by Shutdown: bots and background work stop
	cancel  context.CancelFunc
	bots    *scheduler                  // the bot workers, shared among the games
	memory  *ai.Pool                    // the search memory of every bot
	budgets *budgets                    // each client's request budgets
	conns   *connCounter                // WebSockets open by client
	hashing *connCounter                // Account requests under way by client
	cop     *http.CrossOriginProtection // nil if any origin is allowed
	api     http.Handler                // the API, /healthz and /metrics, guarded (routes)
	apiMux  *http.ServeMux              // the same, unguarded: it tells a request's route
	classes map[string]Class            // the class of each of apiMux's patterns
	origins []string                    // Config.Origins as browsers write them (normalOrigin); nil if any is allowed

	repeats     *repeats  // logs failures that repeat once an interval
	health      health    // the heartbeat and the games' writes (health.go)
	heldSince   time.Time // when this server began to hold the games (downtime.go)
	damagedSeen sync.Map  // the ids of the damaged games logged already (damage.go)
	help        helpIndex // the live positions of the games without engine help (help.go)
	rematches   rematches // the rematch offers of finished games (rematch.go)
	node        *node     // with Config.Cluster, this node of the cluster, set by Start (cluster.go)
	hall        *hall     // the lobby, if the store keeps one (lobby.go)

	accounts    *account.Service // the players' accounts; nil if the store keeps none (session.go)
	accountsErr error            // why the accounts could not be set up, for Start to report
	names       *nameFailures    // the failed sign-ins under each username (signin.go)

	loading sync.Mutex // one game loads at a time, so none loads twice
	mu      sync.Mutex
	games   map[string]*live
	closing bool
	wg      sync.WaitGroup // game loops and WebSocket connections

	// The games of bots alone being created, not yet in games; guarded by
	// mu (see admit).
	pending reserved

	toRate chan string // finished rated games for the rater (rated.go)
}

// New returns a server that keeps its games in st and logs to logger. Start
// loads the live games; Handler serves the API.
func New(cfg Config, st store.Store, logger *slog.Logger) *Server {
	perClient := cfg.MaxConnsPerClient
	cfg = cfg.withDefaults()
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if perClient > cfg.MaxConnsPerClient {
		logger.Warn("lowering the cap on connections per client to its share of the total",
			"max_conns_per_client", perClient, "max_conns", cfg.MaxConns, "client_conns_share", cfg.ClientConnsShare, "lowered_to", cfg.MaxConnsPerClient)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		cfg:     cfg,
		store:   st,
		log:     logger,
		metrics: newMetrics(),
		ctx:     ctx,
		cancel:  cancel,
		bots:    newScheduler(cfg.BotWorkers),
		memory:  ai.NewPool(cfg.BotMemory),
		budgets: newBudgets(cfg),
		conns:   newConnCounter(cfg.MaxConnsPerAddr),
		hashing: newConnCounter(cfg.AccountInFlight),
		games:   make(map[string]*live),
		toRate:  make(chan string, rateRequests),
		repeats: newRepeats(logger, cfg.RepeatLog),
		// Before its first heartbeat: a game's last heartbeat before it is
		// another server's (downtime.go).
		heldSince: time.Now(),
	}
	s.hall = newHall(s)
	s.cop = s.crossOriginProtection()
	s.names = newNameFailures(cfg.NameFailures, cfg.NameWindow, cfg.MaxNames)
	if as := store.AccountsOf(st); as != nil {
		s.accounts, s.accountsErr = account.New(as, cfg.Accounts)
	}
	s.metrics.countClients(s.budgets.len)
	s.metrics.countNode(s.owned, s.relayed)
	s.routes()
	return s
}

// Start loads every live game from the store and resumes it exactly where
// it was (first it reports the accounts' settings that New could not take,
// Config.Accounts): its events are replayed, and its bots and clocks start again.
// Deadlines are absolute times, so a restart honours them, and the time
// since the last server's last heartbeat is given back to the open
// decisions (downtime.go). It returns once every game has saved what was
// due, and then writes the server's heartbeat every Config.Heartbeat. A
// damaged game is logged and left out; the others resume.
//
// With Config.Cluster, the server joins the other nodes instead
// (cluster.go): it adopts its share of the games no node holds, and
// more as leases lapse.
func (s *Server) Start(ctx context.Context) error {
	if s.accountsErr != nil {
		return fmt.Errorf("server: accounts: %w", s.accountsErr)
	}
	if s.cfg.Cluster {
		if err := s.startCluster(ctx); err != nil {
			return err
		}
		go s.sweep()
		if s.track() {
			go s.heartbeat()
		}
		s.startRater()
		s.startLobby()
		return nil
	}
	games, err := s.store.Games(ctx, store.Filter{Status: store.Live, Limit: math.MaxInt32})
	if err != nil {
		return fmt.Errorf("server: listing live games: %w", err)
	}
	var loaded []*live
	for _, g := range games {
		l, err := s.load(ctx, g.ID)
		var d *damagedError
		switch {
		case errors.As(err, &d):
			s.noteDamaged(g.ID, d.err)
			continue
		case err != nil:
			s.log.Error("loading game", "game", g.ID, "err", err)
			continue
		}
		loaded = append(loaded, l)
	}
	for _, l := range loaded {
		l.call(ctx, func() {}) // its loop has resumed
	}
	s.log.Info("live games resumed", "games", len(loaded))
	go s.sweep()
	if s.track() {
		go s.heartbeat()
	}
	s.startRater()
	s.startLobby()
	return nil
}

// startLobby runs the lobby's loop, if the store keeps a lobby.
func (s *Server) startLobby() {
	if s.hall != nil && s.track() {
		go s.hall.run()
	}
}

// Shutdown stops the server's games and closes its WebSockets (with a
// going-away status: clients reconnect and catch up). Every accepted action
// has been saved already; what is in flight is refused. It returns when
// everything has stopped or ctx is done.
func (s *Server) Shutdown(ctx context.Context) error {
	released := s.owned()
	s.mu.Lock()
	if !s.closing {
		s.closing = true
		for _, l := range s.games {
			close(l.quit)
		}
	}
	s.mu.Unlock()
	s.rematches.close()
	s.cancel()
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	// The last heartbeat: until now a server held the games.
	s.beat()
	if s.node != nil {
		s.releaseAll(ctx, released)
	}
	s.repeats.stop()
	return nil
}

// shuttingDown reports whether Shutdown has been called.
func (s *Server) shuttingDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

// track counts a goroutine that Shutdown waits for; false if the server is
// shutting down.
func (s *Server) track() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.wg.Add(1)
	return true
}

// start registers a live game and runs its loop.
func (s *Server) start(l *live) bool {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return false
	}
	s.games[l.id] = l
	s.wg.Add(1)
	s.mu.Unlock()
	s.metrics.gamesLive.Inc()
	go func() {
		defer s.wg.Done()
		l.run()
	}()
	return true
}

// startNew registers a game just stored and runs its loop, even if the
// server is shutting down: the loop then saves the game's first events
// and stops with the others. Only create calls it, counted by track, so
// that Shutdown's wait cannot be over yet.
func (s *Server) startNew(l *live) {
	s.mu.Lock()
	s.games[l.id] = l
	s.wg.Add(1)
	if s.closing {
		close(l.quit)
	}
	s.mu.Unlock()
	s.metrics.gamesLive.Inc()
	go func() {
		defer s.wg.Done()
		l.run()
	}()
}

// remove forgets a game whose loop has stopped.
func (s *Server) remove(l *live) {
	s.mu.Lock()
	if s.games[l.id] == l {
		delete(s.games, l.id)
	}
	s.mu.Unlock()
	s.metrics.gamesLive.Dec()
}

// lookup returns the live game with the given id, or if it is not live, its
// stored table. A live game that is not loaded (its loop stopped after a
// store failure) is loaded again.
func (s *Server) lookup(ctx context.Context, id string) (*live, *store.Game, error) {
	if !validID(id) {
		return nil, nil, Errorf(ENOTFOUND, "no game %q", id)
	}
	s.mu.Lock()
	l, closing := s.games[id], s.closing
	s.mu.Unlock()
	if l != nil {
		return l, nil, nil
	}
	info, err := s.store.Game(ctx, id)
	if err != nil {
		return nil, nil, s.storeError(id, damaged(id, err))
	}
	if info.Status == store.Live && !closing && s.node == nil {
		l, err := s.load(ctx, id)
		if err != nil {
			return nil, nil, s.storeError(id, err)
		}
		return l, nil, nil
	}
	return nil, info, nil
}

// load loads a live game from the store and starts its loop, unless it is
// loaded already.
func (s *Server) load(ctx context.Context, id string) (*live, error) {
	s.loading.Lock()
	defer s.loading.Unlock()
	s.mu.Lock()
	l := s.games[id]
	s.mu.Unlock()
	if l != nil {
		return l, nil
	}
	r, err := s.read(ctx, id)
	if err != nil {
		return nil, err
	}
	l = newLive(s, r)
	l.unheld = s.lastHeld(ctx, id)
	if !s.start(l) {
		return nil, Errorf(EUNAVAILABLE, "the server is shutting down")
	}
	return l, nil
}

// read rebuilds a game from the store. A game that cannot be rebuilt from
// what the store gives is damaged (damagedError); any other error is the
// store's.
func (s *Server) read(ctx context.Context, id string) (*replayed, error) {
	return readGame(ctx, s.store, id)
}

// readGame rebuilds game id from st, as Server.read does.
func readGame(ctx context.Context, st store.Store, id string) (*replayed, error) {
	r, _, err := readGameEvents(ctx, st, id)
	return r, err
}

// readGameEvents is readGame that also returns the events it replayed.
func readGameEvents(ctx context.Context, st store.Store, id string) (*replayed, []store.Event, error) {
	info, err := st.Game(ctx, id)
	if err != nil {
		return nil, nil, damaged(id, err)
	}
	evs, err := st.Events(ctx, id, 0)
	if err != nil {
		return nil, nil, err
	}
	r, err := replay(info, evs)
	if err != nil && !errors.Is(err, errNoSeedKey) {
		return nil, nil, &damagedError{id: id, err: err}
	}
	return r, evs, err
}

// validID reports whether id could be a game's id, so that garbage never
// reaches the store.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range []byte(id) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Created is the answer to POST /api/games: the new game's id, the hash of
// its dice seed, and its seats with the secret token of each human seat
// the creator holds, and the one-time invite of each other human seat,
// shown this once.
type Created struct {
	ID       string        `json:"id"`        // the new game's id
	Rules    string        `json:"rules"`     // the preset's name
	SeedHash string        `json:"seed_hash"` // SHA-256 of the dice seed, hex
	Seats    []CreatedSeat `json:"seats"`     // in seat order, South first
	Table    Table         `json:"table"`     // the settings, defaults filled in
}

// CreatedSeat is one seat of a new game.
type CreatedSeat struct {
	Seat   string `json:"seat"`             // "South", "West", "North", "East"
	Player string `json:"player"`           // "human" or "bot:SPEC", as requested
	Name   string `json:"name,omitempty"`   // the player's name, if given
	Token  string `json:"token,omitempty"`  // a human seat the creator holds: the bearer token that acts for it
	Invite string `json:"invite,omitempty"` // any other human seat: the one-time invite its player claims it with
}

// opening is a new game's table: the rules, the settings, who sits where
// and which human seats the creator holds (the others get invites).
type opening struct {
	pr      *rules.Preset
	table   Table
	players []string // per seat: Human or "bot:SPEC"
	names   []string // per seat, or fewer
	hosts   []int    // the human seats the creator holds, ascending
	holders []string // per seat, or fewer: the account that holds it, if any
	rematch string   // the finished game whose rematch this is, if it is one

	// A game the lobby makes (lobby_game.go): its id, chosen by the
	// lobby (its table's); the token hash of each seat, held by the
	// seekers' nodes (no token is made, and hosts are the seats given
	// one), whose accounts are in holders; and no client's quota to
	// count in.
	id    string
	held  [][]byte // per seat: the hash of the token that holds it, or nil
	lobby bool
}

// errGameTaken is open's error for a game whose id (given by the lobby)
// is taken: the game was made already, by this node or another.
var errGameTaken = errors.New("server: the game's id is taken")

// create starts a new game for the client at address client, as a
// request to POST /api/games asks (open); the seats the creator takes are
// its account's if it is signed in (creator not nil).
func (s *Server) create(ctx context.Context, ng *NewGame, client string, creator *account.Account) (*Created, error) {
	pr, table, err := ng.check(s.cfg)
	if err != nil {
		return nil, err
	}
	hosts, err := ng.hosts(pr)
	if err != nil {
		return nil, err
	}
	table.Help = ng.Help == nil || *ng.Help
	o := &opening{pr: pr, table: table, players: ng.Seats, names: ng.Names, hosts: hosts}
	if creator != nil {
		// A signed-in creator's seats are its account's, under its name.
		o.names = make([]string, len(ng.Seats))
		copy(o.names, ng.Names)
		o.holders = make([]string, len(ng.Seats))
		for _, i := range hosts {
			o.names[i], o.holders[i] = creator.Name, creator.ID
		}
	}
	if ng.Accounts != nil { // the lobby's seats
		o.holders = ng.Accounts
	}
	return s.open(ctx, o, client)
}

// open starts a new game for the client at address client: a fresh seed
// from the operating system's cryptographic source, whose SHA-256 is
// published now; a token for each human seat the creator holds and an
// invite for each other, of which the store keeps only the hashes. A game
// of bots alone must fit in the server's and the client's limits. It
// returns once the start event and the first roll are saved.
func (s *Server) open(ctx context.Context, o *opening, client string) (*Created, error) {
	// Shutdown waits for a creation under way: a game once stored starts
	// (and saves its first events) even if the server stops meanwhile.
	if !s.track() {
		return nil, Errorf(EUNAVAILABLE, "the server is shutting down")
	}
	defer s.wg.Done()
	s.mu.Lock()
	n := len(s.games)
	s.mu.Unlock()
	if n >= s.cfg.MaxLiveGames {
		return nil, Errorf(EUNAVAILABLE, "the server has %d live games, its limit; try again later", n)
	}
	pr := o.pr
	if err := checkRated(pr, o.table.Rated, o.players, o.holders); err != nil {
		return nil, err // the one rule every way of making a game passes
	}
	creator := creatorKey(client)
	release := func() {}
	var err error
	if o.lobby {
		// Each its own creator: the seekers' one seek at a time bounds
		// their games, and a lobby game its people leave counts among
		// the server's games of bots alone, not a client's.
		creator = creatorKey("lobby " + o.id)
	} else if release, err = s.admit(creator, !slices.Contains(o.players, Human)); err != nil {
		return nil, err
	}
	defer release() // by then the game is running, and counts itself
	set, err := json.Marshal(settings{Table: o.table, Creator: creator, Hosts: o.hosts, Rematch: o.rematch})
	if err != nil {
		return nil, err
	}
	seed := rules.NewSeed()
	now := stamp()
	id := o.id
	if id == "" {
		id = newID()
	}
	info := newGameRow(id, pr, seed, set, o.table.Rated, now)
	c := &Created{ID: info.ID, Rules: info.Rules, SeedHash: info.SeedHash, Table: o.table}
	for i, player := range o.players {
		seat := store.Seat{Player: player}
		if i < len(o.names) {
			seat.Name = o.names[i]
		}
		if i < len(o.holders) && player == Human {
			seat.Account = o.holders[i]
		}
		cs := CreatedSeat{Seat: pr.Seats()[i].String(), Player: player, Name: seat.Name}
		switch {
		case player != Human:
		case o.held != nil:
			seat.TokenHash = o.held[i]
		case slices.Contains(o.hosts, i):
			cs.Token, seat.TokenHash = newToken()
		default:
			cs.Invite, seat.InviteHash = newToken()
		}
		info.Seats = append(info.Seats, seat)
		c.Seats = append(c.Seats, cs)
	}
	t0 := time.Now()
	err = s.store.CreateGame(ctx, info)
	s.metrics.committed(opCreate, t0)
	if err != nil && o.id != "" && errors.Is(err, store.ErrConflict) {
		return nil, errGameTaken
	}
	if err != nil {
		s.storeFailed(opCreate, "creating game", info.ID, err)
		return nil, unavailable(storeRetryAfter, "the game could not be saved, so it was not created; try again")
	}
	s.wrote(nil)
	l := newLive(s, &replayed{info: cloneGame(info), table: o.table, creator: creator, hosts: o.hosts, game: rules.NewGame(pr, seed)})
	l.owned.Store(true) // a node's new game is leased to it
	s.startNew(l)
	s.metrics.gamesTotal.Inc()
	s.log.Info("game created", "game", info.ID, "rules", info.Rules, "seats", o.players)
	l.call(ctx, func() {}) // the loop has saved the start and the first roll
	return c, nil
}

// newGameRow is a new game as the store keeps it, without its seats: live
// and created at now, of pr from its start position, with seed and its
// commitment and the settings set.
func newGameRow(id string, pr *rules.Preset, seed rules.Seed, set []byte, rated bool, now time.Time) *store.Game {
	return &store.Game{
		ID:       id,
		Rules:    pr.Name,
		Seed:     seed[:],
		SeedHash: seed.Commitment(),
		Start:    pr.StartPosition().String(),
		Settings: set,
		Status:   store.Live,
		Created:  now,
		Updated:  now,
		Rated:    rated,
	}
}

// sweep forgets the clients of the request budgets that have been idle
// long enough, and drops the bots' memory that nobody has used since the
// last time, now and then.
func (s *Server) sweep() {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case now := <-t.C:
			s.budgets.sweep(now)
			s.memory.Trim()
			s.rematches.sweep(s)
			s.names.sweep(now)
			s.purgeSessions()
		}
	}
}
