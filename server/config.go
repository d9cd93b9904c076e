package server

import (
	"crypto/ed25519"
	"fmt"
	"net/netip"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/account"
	"github.com/chaturaji/chaturaji/ai"
)

// NoBotDelay is Config.BotDelay's value for no delay at all, zero being
// the default's.
const NoBotDelay time.Duration = -1

// Config tunes a Server. The zero value of a field means its default.
type Config struct {
	// SigningKey signs the records of finished games (record.Sign); its
	// public key is served at GET /api/key. Nil: records are not signed.
	SigningKey ed25519.PrivateKey

	// Origins are the browser origins, besides the server's own, that may
	// act and open WebSockets, such as "https://example.org"; "*" allows
	// any.
	Origins []string

	// BotTime is the thinking time of a bot's decision (default 300ms).
	BotTime time.Duration
	// BotDelay is the bot delay of the tables that do not choose their own
	// (bot_delay_ms): a bot's action is played no earlier than this after
	// its decision opened, its thinking included, so that people can follow
	// the game (bots answer in milliseconds; default 800ms). As for every
	// field, zero means the default: NoBotDelay (negative) means none, the
	// bots' actions going out as soon as they are chosen, which tests and
	// load tests want.
	BotDelay time.Duration
	// MaxBotDelay is the longest bot delay a table may ask for (default
	// 10s), so that a game of bots cannot be made to hold its place for
	// days.
	MaxBotDelay time.Duration
	// BotWorkers is how many searching bots may think at once, over all
	// games (default the number of CPUs); the others wait their game's
	// turn, games with a human seat first, and no game's loop waits for
	// any bot. Bots that do not search (random, greedy) never wait.
	BotWorkers int
	// BotMemory is the memory in bytes that the searching bots of all
	// games share for their tables and trees (default 256 MiB): a decision
	// borrows its share while it thinks, a smaller one (or none) when the
	// rest is lent (see ai.Pool).
	BotMemory int64
	// MaxBotGames caps the live games in which bots hold every seat
	// (default 100), and MaxBotGamesPerClient those of them created from
	// one client address (default 4). A game counts from its creation, or
	// from the moment a bot takes its last human seat; creating one over a
	// limit is refused, but a game plays on when its humans leave.
	MaxBotGames          int
	MaxBotGamesPerClient int // default 4; see MaxBotGames
	// MaxTakeoverLevel bounds the bot a table may name to take over its
	// seats (takeover): random, greedy, or a level from 1 to this (default
	// 4, some thousands of nodes a decision; at most 8, strong). A
	// stronger one is refused (EINVALID); a game stored with one before
	// gets this level instead. The games that bots take over from people
	// who left, expired ones first, are the ones nobody watches.
	MaxTakeoverLevel int

	// MaxGamesPerClient caps the live games, of every kind, created by
	// one client (default 20): so that one address cannot fill the
	// server's MaxLiveGames and lock everyone else out.
	MaxGamesPerClient int

	// Grace is the default time an absent player's turn waits before a bot
	// takes the seat, for tables that do not set their own (default 2m).
	Grace time.Duration
	// MaxGrace is the longest grace (abandon_ms) a table may ask for
	// (default 1h): an absent player's game is taken over by bots within
	// that time, so that a table nobody comes to cannot hold its place for
	// days.
	MaxGrace time.Duration
	// StartWait is how long a timed game's clocks wait for the players
	// of its human seats to arrive (default 2m): they start when every
	// human seat is held, or at the end of this wait, when bots take the
	// seats whose invites nobody claimed (clock_wait.go).
	StartWait time.Duration
	// MinTime is the shortest turn time, bank or grace a table may ask for
	// (default 1s; tests lower it).
	MinTime time.Duration

	// MaxMessage is the largest WebSocket message a client may send
	// (default 4 KiB); MaxBody the largest request body (default 8 KiB).
	MaxMessage int64
	MaxBody    int64 // in bytes, as MaxMessage
	// MaxCredentialBody is the largest body of an answer to a passkey
	// ceremony, which carries the browser's credential, its attestation
	// perhaps with certificates (default 64 KiB, account.MaxResponse).
	MaxCredentialBody int64

	// MessageRate and MessageBurst are the token bucket of each WebSocket
	// connection's messages (default 50/s, burst 100); a connection that
	// keeps going over it is closed.
	MessageRate  float64
	MessageBurst int // the bucket's size, in messages
	// RequestRate and RequestBurst are the token bucket of each client's
	// HTTP requests, pages, static files, /healthz, /readyz, /metrics and
	// WebSocket upgrades included, all but the costly ones (default 100/s,
	// burst 400).
	RequestRate  float64
	RequestBurst int // the bucket's size, in requests
	// CostlyRate and CostlyBurst are the token bucket of each client's
	// costly requests, those that cost real CPU or a scan of the database:
	// creating a game (its bots search), exporting records, analysing a
	// position, verifying a record (default 1/s, burst 20).
	CostlyRate  float64
	CostlyBurst int // the bucket's size, in requests
	// MaxClients caps the clients whose budgets are kept at once (default
	// 100000, some 40 MB); past it the one seen least recently is
	// forgotten. A client idle long enough for its buckets to fill up again
	// is forgotten too: a new bucket is as full.
	MaxClients int
	// TrustedProxies are the reverse proxies (CIDR prefixes) whose
	// X-Forwarded-For is believed: a request from one of them counts
	// against the budget of the right-most address of that header that is
	// not itself a trusted proxy. From any other peer the header is
	// ignored. Clients are told apart by IPv4 address and by IPv6 /64
	// network, which one subscriber usually holds whole.
	TrustedProxies []netip.Prefix

	// MaxConnsPerAddr caps the WebSockets open at once from one client, as
	// the budgets tell clients apart (default 1000).
	MaxConnsPerAddr int

	// MaxConns caps the connections open at once, WebSockets included, over
	// all clients (default 10000, or three quarters of the process's limit
	// of open files if that is lower, so that the database always has
	// some); MaxConnsPerClient those of one client, as the budgets tell
	// clients apart, a trusted proxy left out (default MaxConnsPerAddr +
	// 100, so that a client with all its WebSockets open can still make
	// requests, or ClientConnsShare of MaxConns if that is lower). A
	// connection past either is closed as soon as it is accepted
	// (Listener).
	MaxConns          int
	MaxConnsPerClient int // in connections, as MaxConns
	// ClientConnsShare is the largest share of MaxConns one client may
	// hold (default 0.25, a quarter; at most 1), so that one client can
	// never take every connection, however MaxConns was set: by hand, or
	// from a low limit of open files. A MaxConnsPerClient above
	// MaxConns × ClientConnsShare (at least 1) is lowered to it, and New
	// warns of it in the log.
	ClientConnsShare float64
	// HeaderTimeout bounds the time a request's headers take to arrive
	// (default 10s), and MaxHeader their size, the request line and the
	// headers' lines counted (default 16 KiB; 431 past it; at least 4097
	// bytes, the least net/http enforces). BodyTimeout bounds the time its body takes, from the headers
	// (default 10s; ETIMEOUT past it), and ResponseTimeout the time from
	// the headers to the end of the answer (default 1m; the connection is
	// closed past it). An accepted WebSocket is spared the last two: its
	// pings (PingInterval) and WriteTimeout bound it. IdleTimeout is how
	// long a kept-alive connection may wait for its next request (default
	// 2m).
	HeaderTimeout   time.Duration
	MaxHeader       int           // in bytes
	BodyTimeout     time.Duration // from the headers to the body's end
	ResponseTimeout time.Duration // from the headers to the answer's end
	IdleTimeout     time.Duration // between two requests of a connection

	// PingInterval is the longest a WebSocket goes without a ping (default
	// 20s; each wait is drawn between half of it and it, so that
	// connections opened together do not ping together);
	// WriteTimeout bounds one write to a client (default 10s).
	PingInterval time.Duration
	WriteTimeout time.Duration // the longest one write to a client may take
	// Buffer is how many events may wait for a slow subscriber before it
	// is dropped (default 256); it reconnects and catches up.
	Buffer int

	// IdleLimit is how long a connected seat holder's decision may stay
	// open in an untimed game before a bot takes the seat, as it takes an
	// absent player's (default 10m): from the decision's opening or the
	// holder's return (connecting when none of its connections was open),
	// whichever came later. Timed games go by their turn time.
	IdleLimit time.Duration
	// Expiry is how long a game may wait with none of its human seats'
	// holders connected and none acting before bots take every human seat
	// at once (default 30m), so that a table nobody comes back to ends,
	// and frees its creator's quota, within that time rather than one
	// absent seat's grace at a time. A restart starts the wait again.
	// A correspondence game has no expiry (CorrespondenceTurn).
	Expiry time.Duration
	// CorrespondenceTurn is the least time per decision of the lobby's
	// games played by correspondence (default a day): an absent player
	// keeps the seat for the whole of each decision, with neither Grace
	// nor Expiry, and a player out of time loses the seat to a bot, so
	// that a table nobody comes back to ends within a decision's time per
	// person.
	CorrespondenceTurn time.Duration
	// MaxCorrespondence caps the live correspondence games of a node
	// (default 1000): a game that waits for an absent player a day holds
	// its place that long, so past this count the node's lobby refuses
	// seeks in correspondence pools (EUNAVAILABLE) until some end.
	MaxCorrespondence int

	// RetryMin and RetryMax bound the wait of a game whose store failed
	// before it tries again by itself (default 500ms and 10s): the wait
	// doubles with each failure in a row, from RetryMin up to RetryMax,
	// and is drawn at random from its upper half, so that games do not
	// all come back to the database at once.
	RetryMin time.Duration
	RetryMax time.Duration // the longest wait between two tries
	// Heartbeat is how often the server writes to its store that it is
	// alive (default 1s): the time since the last heartbeat is what a
	// restart gives back to the players' clocks, and each heartbeat is
	// also the write GET /readyz reports on.
	Heartbeat time.Duration
	// ReadyTimeout bounds one heartbeat, the write that tells whether the
	// database accepts writes (default 2s).
	ReadyTimeout time.Duration
	// RepeatLog is how often a failure that repeats (the store failing
	// for many games, or for one game at every try) is logged again, once,
	// with how many times it happened since (default 10s).
	RepeatLog time.Duration

	// RematchWait is how long a rematch offer waits for the players'
	// answers before it lapses (default 2m), and how long a settled one is
	// kept for its players to fetch their new tokens.
	RematchWait time.Duration
	// MaxRematches caps the finished games whose rematch the server keeps
	// at once, offered or followed (default 10000): over it, an offer is
	// refused (EUNAVAILABLE) and a finished game's WebSocket closes at the
	// end as it would without ?rematch=1.
	MaxRematches int

	// Cluster makes the server one node of several that share a
	// PostgreSQL store (cluster.go): it drives only the live games leased
	// to it, adopts those whose lease lapses, relays the others' events to
	// its own clients and forwards their actions to the node that drives
	// them. The store must be a store.Cluster.
	Cluster bool
	// Lease is how long a node's lease on a live game lasts unless renewed
	// (default 5s): it renews them every Lease/3, and another node adopts
	// a game within about Lease (plus Lease/5) of its node's last renewal.
	Lease time.Duration
	// Advertise is the base URL at which the other nodes reach this one,
	// such as "http://10.0.0.5:8080" (with Cluster).
	Advertise string
	// ClusterKey is the secret, of 32 bytes or more, with which the nodes
	// sign the requests they forward to each other (forward.go); every
	// node of a cluster has the same (the key file's cluster-key), and
	// the store keeps none of it. Required with Cluster.
	ClusterKey []byte
	// ForwardWindow is how far from this node's clock the time of a
	// forwarded request's signature may be (default 30s): an older (or
	// later) one is refused, and a signature accepted is refused again
	// until it is that old.
	ForwardWindow time.Duration
	// MaxForwardSignatures caps the signatures of forwarded requests a
	// node remembers at once, to refuse them sent again (default 100000,
	// about 100 bytes each: 3,000 forwarded requests a second at the
	// default window). While it is reached, forwarded requests are
	// refused (EUNAVAILABLE) until the oldest signatures lapse.
	MaxForwardSignatures int

	// ChatEvery and ChatBurst are the token bucket of each seat's
	// messages to the other players of its game (chat.go), quick
	// messages and free text alike: one every ChatEvery (default 2s),
	// ChatBurst at once (default 3). MaxChatText bounds a free text
	// message, in bytes (default 200).
	ChatEvery   time.Duration
	ChatBurst   int // the bucket's size, in messages
	MaxChatText int // in bytes

	// Accounts are the settings of the players' accounts (package
	// account: the bounds on password hashing, HashConcurrency and
	// HashWaiters; the lifetimes of sessions; the passkeys' relying
	// party, RPID and RPOrigins, without which passkeys are off), served
	// under /api/account when the store keeps accounts
	// (store.AccountsOf). Their zero fields take account.DefaultConfig's.
	Accounts account.Config
	// SecureCookies marks the session cookie Secure on every answer, for
	// a site served over TLS by a proxy that does not say so in
	// X-Forwarded-Proto; a request that came over TLS, or that the header
	// says did, gets a Secure cookie anyway.
	SecureCookies bool
	// AccountRate and AccountBurst are the token bucket of each client's
	// requests that spend a password hash or a stored passkey ceremony:
	// sign-up, sign-in, recovery, password change, the passkey
	// ceremonies' beginnings and ends (default 0.2/s, 12 a minute, burst
	// 20). They draw on this budget alone (the Account class).
	AccountRate  float64
	AccountBurst int // the bucket's size, in requests
	// AccountInFlight caps the requests of the Account class one client
	// may have under way at once (default 2); past it a request is
	// refused at once (ETOOMANY). A flood from one address thus holds at
	// most that many of the password hashes' places (running or waiting:
	// Accounts.HashConcurrency + HashWaiters), and leaves the others to
	// other clients, whatever its budget's burst.
	AccountInFlight int
	// NameFailures caps the failed sign-ins (by password or recovery code)
	// under one username, whoever makes them, within NameWindow (default
	// 10 in 15m): past it, sign-ins under the name are refused (ETOOMANY)
	// until the window since the first failure ends, whether or not the
	// name exists, so that the answer tells nothing of it. Passkeys, which
	// ask for no name, are not stopped by it.
	NameFailures int
	NameWindow   time.Duration // see NameFailures
	// MaxNames caps the usernames whose failures are counted at once
	// (default 100000, some 10 MB); past it the one that failed least
	// recently is forgotten.
	MaxNames int
	// The lobby (lobby.go), served when the store keeps one
	// (store.LobbyOf): quick pairing in pools, and open tables.
	//
	// LobbyRound is how often the node runs a pairing round of each pool
	// in which it has seekers, looks for the tables that seat them made
	// by other nodes, and reads the lobby's news for its sockets (a seat
	// of an account's, a pair's seek of partners on two nodes) (default
	// 250ms); a seek made on the node runs a round at once.
	LobbyRound time.Duration
	// LobbyClaimWait is how long a table, claimed by a round or started,
	// may wait for its game (default 5s): past it, a node of its seekers
	// makes the game itself, the table's node having stopped or stalled.
	// The game's id is the table's, so only one is ever made.
	LobbyClaimWait time.Duration
	// LobbySeekLife is how long a seek, an open table and its seats, or
	// a pair invitation lives once its node stops refreshing it (default
	// 1m); the node refreshes its own four times as often. A pair
	// invitation taken, and the lobby's news, live as long.
	LobbySeekLife time.Duration
	// LobbyView is how often, at most, the node reads the lobby's view
	// (pools, seekers, open tables) from the store for GET /api/lobby and
	// sends it to its lobby WebSockets when it changed (default 1s).
	LobbyView time.Duration
	// LobbyViewSeeks caps the seekers the view lists per pool, the
	// longest waiting (default 50), and LobbyViewTables the open tables
	// it lists, the oldest (default 100).
	LobbyViewSeeks  int
	LobbyViewTables int // in tables, as LobbyViewSeeks
	// LobbyPools are the pools the view always lists, beside those in
	// which the node has seekers (default: DefaultLobbyPools).
	LobbyPools []string
	// MaxLobbyConns caps the node's lobby WebSockets open at once
	// (default 10000), and MaxLobbyConnsPerClient those of one client
	// (default 8): a guest's seek and open table are its socket's.
	MaxLobbyConns          int
	MaxLobbyConnsPerClient int // in sockets, as MaxLobbyConns
	// LobbyMakers caps the games the node's lobby makes at once (default
	// 16); the tables past it wait for a maker.
	LobbyMakers int
	// LobbyBotLevel is the strongest bot level that fills the seats of a
	// lobby's tables (default 4, as MaxTakeoverLevel's; at most 8).
	LobbyBotLevel int
	// MaxPairInvites caps the pair invitations open at once of one
	// player, over every node (default 4): a socket has one at a time,
	// so a guest has one; an account, one per device.
	MaxPairInvites int
	// MaxOpenTables caps the open tables, not yet started, in the
	// store (default 1000, over every node); MaxOpenTablesPerClient
	// those one client opens through a node (default 2).
	MaxOpenTables          int
	MaxOpenTablesPerClient int // in tables, as MaxOpenTables

	// MaxLiveGames caps the games live at once (default 10000).
	MaxLiveGames int
	// Recent is how many games GET /api/games lists by default (default 50).
	Recent int

	// Rated games and profiles (rated.go, profile.go).

	// RateSweep is how often the server looks for finished rated games
	// not yet rated (default 1m): a game whose node stopped between its
	// end and its rating is rated then, by any node. A server also looks
	// when it starts.
	RateSweep time.Duration
	// LeaderGames is the fewest rated games in a ruleset that put a
	// player on its leaderboard (default 10).
	LeaderGames int
	// LeaderActive is how recently a player must have played a rated game
	// in the ruleset to be on its leaderboard (default 30 days).
	LeaderActive time.Duration
	// MaxLeaders caps the players a page of GET /api/leaderboard lists
	// (?limit=, default 50 up to it; default 100).
	MaxLeaders int
	// MaxLeaderOffset caps how far down a leaderboard a page may start
	// (?offset=, default 10000): deeper pages cost the database a scan of
	// all the places before them.
	MaxLeaderOffset int
	// MaxProfileGames caps the recent games GET /api/players/{name} lists
	// (?games=, default 20 up to it; default 100).
	MaxProfileGames int
	// MaxProfileRulesets caps the rulesets whose history GET
	// /api/players/{name} gives, the most recently played (default 20);
	// the others are listed without it.
	MaxProfileRulesets int
	// MaxProfileHistory caps the points of rating history per ruleset GET
	// /api/players/{name} gives for its graph, the most recent (default
	// 500).
	MaxProfileHistory int
	// MaxExportGames caps the games GET /api/account/export lists, the
	// most recently updated first (default 10000); the answer says if
	// some were left out.
	MaxExportGames int
}

func (c Config) withDefaults() Config {
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	defInt := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.BotTime, 300*time.Millisecond)
	if c.BotDelay == 0 {
		c.BotDelay = 800 * time.Millisecond
	}
	def(&c.MaxBotDelay, 10*time.Second)
	c.MaxBotDelay = max(c.MaxBotDelay, c.BotDelay)
	def(&c.Grace, 2*time.Minute)
	def(&c.MaxGrace, time.Hour)
	def(&c.MinTime, time.Second)
	def(&c.StartWait, 2*time.Minute)
	def(&c.ChatEvery, 2*time.Second)
	defInt(&c.ChatBurst, 3)
	defInt(&c.MaxChatText, 200)
	def(&c.PingInterval, 20*time.Second)
	def(&c.WriteTimeout, 10*time.Second)
	def(&c.IdleLimit, 10*time.Minute)
	def(&c.Expiry, 30*time.Minute)
	def(&c.CorrespondenceTurn, 24*time.Hour)
	defInt(&c.MaxCorrespondence, 1000)
	def(&c.RetryMin, 500*time.Millisecond)
	def(&c.RetryMax, 10*time.Second)
	def(&c.Heartbeat, time.Second)
	def(&c.Lease, 5*time.Second)
	def(&c.ForwardWindow, 30*time.Second)
	def(&c.ReadyTimeout, 2*time.Second)
	def(&c.RepeatLog, 10*time.Second)
	def(&c.RematchWait, 2*time.Minute)
	c.RetryMax = max(c.RetryMax, c.RetryMin)
	defInt(&c.BotWorkers, runtime.NumCPU())
	defInt(&c.MaxBotGames, 100)
	defInt(&c.MaxBotGamesPerClient, 4)
	defInt(&c.MaxGamesPerClient, 20)
	defInt(&c.MaxTakeoverLevel, 4)
	c.MaxTakeoverLevel = min(c.MaxTakeoverLevel, len(ai.Levels))
	if c.BotMemory <= 0 {
		c.BotMemory = 256 << 20
	}
	defInt(&c.MessageBurst, 100)
	defInt(&c.RequestBurst, 400)
	defInt(&c.CostlyBurst, 20)
	defInt(&c.MaxClients, 100000)
	defInt(&c.Buffer, 256)
	defInt(&c.MaxConnsPerAddr, 1000)
	defInt(&c.MaxConns, defaultMaxConns())
	if c.ClientConnsShare <= 0 {
		c.ClientConnsShare = 0.25
	}
	c.ClientConnsShare = min(c.ClientConnsShare, 1)
	defInt(&c.MaxConnsPerClient, c.MaxConnsPerAddr+100)
	c.MaxConnsPerClient = min(c.MaxConnsPerClient, c.clientConnsShare())
	defInt(&c.MaxHeader, 16<<10)
	def(&c.HeaderTimeout, 10*time.Second)
	def(&c.BodyTimeout, 10*time.Second)
	def(&c.ResponseTimeout, time.Minute)
	def(&c.IdleTimeout, 2*time.Minute)
	defInt(&c.MaxLiveGames, 10000)
	defInt(&c.MaxRematches, 10000)
	defInt(&c.MaxForwardSignatures, 100000)
	defInt(&c.Recent, 50)
	if c.AccountRate <= 0 {
		c.AccountRate = 0.2
	}
	defInt(&c.AccountBurst, 20)
	defInt(&c.AccountInFlight, 2)
	defInt(&c.NameFailures, 10)
	def(&c.NameWindow, 15*time.Minute)
	defInt(&c.MaxNames, 100000)
	def(&c.RateSweep, time.Minute)
	defInt(&c.LeaderGames, 10)
	def(&c.LeaderActive, 30*24*time.Hour)
	defInt(&c.MaxLeaders, 100)
	defInt(&c.MaxLeaderOffset, 10000)
	defInt(&c.MaxProfileGames, 100)
	defInt(&c.MaxProfileHistory, 500)
	defInt(&c.MaxExportGames, 10000)
	defInt(&c.MaxProfileRulesets, 20)
	def(&c.LobbyRound, 250*time.Millisecond)
	def(&c.LobbyClaimWait, 5*time.Second)
	def(&c.LobbySeekLife, time.Minute)
	def(&c.LobbyView, time.Second)
	defInt(&c.LobbyViewSeeks, 50)
	defInt(&c.LobbyViewTables, 100)
	if c.LobbyPools == nil {
		c.LobbyPools = DefaultLobbyPools
	}
	defInt(&c.MaxLobbyConns, 10000)
	defInt(&c.MaxLobbyConnsPerClient, 8)
	defInt(&c.LobbyMakers, 16)
	defInt(&c.LobbyBotLevel, 4)
	defInt(&c.MaxPairInvites, 4)
	c.LobbyBotLevel = min(c.LobbyBotLevel, len(ai.Levels))
	defInt(&c.MaxOpenTables, 1000)
	defInt(&c.MaxOpenTablesPerClient, 2)
	if c.MaxMessage <= 0 {
		c.MaxMessage = 4 << 10
	}
	if c.MaxBody <= 0 {
		c.MaxBody = 8 << 10
	}
	if c.MaxCredentialBody <= 0 {
		c.MaxCredentialBody = account.MaxResponse
	}
	if c.MessageRate <= 0 {
		c.MessageRate = 50
	}
	if c.RequestRate <= 0 {
		c.RequestRate = 100
	}
	if c.CostlyRate <= 0 {
		c.CostlyRate = 1
	}
	return c
}

// checkTakeover checks a table's takeover bot against MaxTakeoverLevel:
// random, greedy, or a level ("N" or "level:N") from 1 to it, without
// settings.
func (c Config) checkTakeover(spec string) error {
	if spec == "random" || spec == "greedy" {
		return nil
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(spec, "level:")); err == nil && n >= 1 && n <= c.MaxTakeoverLevel {
		return nil
	}
	return fmt.Errorf("want random, greedy or a level from 1 to %d (the server's limit on takeover bots), without settings", c.MaxTakeoverLevel)
}

// takeover returns the bot that takes over a seat at a table whose
// takeover is spec: spec itself, or the strongest level allowed in place
// of a stronger bot a game stored before the limit named.
func (c Config) takeover(spec string) string {
	if c.checkTakeover(spec) != nil {
		return "level:" + strconv.Itoa(c.MaxTakeoverLevel)
	}
	return spec
}

// clientConnsShare is the most connections one client may hold:
// ClientConnsShare of MaxConns, at least 1.
func (c *Config) clientConnsShare() int {
	return max(int(float64(c.MaxConns)*c.ClientConnsShare), 1)
}
