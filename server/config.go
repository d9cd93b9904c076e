package server

import (
	"crypto/ed25519"
	"net/netip"
	"runtime"
	"time"
)

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
	// BotWorkers is how many searching bots may think at once, over all
	// games (default the number of CPUs); the others wait their turn, and
	// no game's loop waits for any bot. Bots that do not search (random,
	// greedy) never wait.
	BotWorkers int

	// Grace is the default time an absent player's turn waits before a bot
	// takes the seat, for tables that do not set their own (default 2m).
	Grace time.Duration
	// MinTime is the shortest turn time or grace a table may ask for
	// (default 1s; tests lower it).
	MinTime time.Duration

	// MaxMessage is the largest WebSocket message a client may send
	// (default 4 KiB); MaxBody the largest request body (default 8 KiB).
	MaxMessage int64
	MaxBody    int64 // in bytes, as MaxMessage

	// MessageRate and MessageBurst are the token bucket of each WebSocket
	// connection's messages (default 50/s, burst 100); a connection that
	// keeps going over it is closed.
	MessageRate  float64
	MessageBurst int // the bucket's size, in messages
	// RequestRate and RequestBurst are the token bucket of each client's
	// HTTP requests, pages, static files, /healthz, /metrics and WebSocket
	// upgrades included, all but the costly ones (default 100/s, burst 400).
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
	// requests). A connection past either is closed as soon as it is
	// accepted (Listener).
	MaxConns          int
	MaxConnsPerClient int // in connections, as MaxConns
	// HeaderTimeout bounds the time a request's headers take to arrive
	// (default 10s), and MaxHeader their size (default 16 KiB; 431 past
	// it). BodyTimeout bounds the time its body takes, from the headers
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

	// PingInterval is how often a WebSocket is pinged (default 20s);
	// WriteTimeout bounds one write to a client (default 10s).
	PingInterval time.Duration
	WriteTimeout time.Duration // the longest one write to a client may take
	// Buffer is how many events may wait for a slow subscriber before it
	// is dropped (default 256); it reconnects and catches up.
	Buffer int

	// MaxLiveGames caps the games live at once (default 10000).
	MaxLiveGames int
	// Recent is how many games GET /api/games lists by default (default 50).
	Recent int
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
	def(&c.Grace, 2*time.Minute)
	def(&c.MinTime, time.Second)
	def(&c.PingInterval, 20*time.Second)
	def(&c.WriteTimeout, 10*time.Second)
	defInt(&c.BotWorkers, runtime.NumCPU())
	defInt(&c.MessageBurst, 100)
	defInt(&c.RequestBurst, 400)
	defInt(&c.CostlyBurst, 20)
	defInt(&c.MaxClients, 100000)
	defInt(&c.Buffer, 256)
	defInt(&c.MaxConnsPerAddr, 1000)
	defInt(&c.MaxConns, defaultMaxConns())
	defInt(&c.MaxConnsPerClient, c.MaxConnsPerAddr+100)
	defInt(&c.MaxHeader, 16<<10)
	def(&c.HeaderTimeout, 10*time.Second)
	def(&c.BodyTimeout, 10*time.Second)
	def(&c.ResponseTimeout, time.Minute)
	def(&c.IdleTimeout, 2*time.Minute)
	defInt(&c.MaxLiveGames, 10000)
	defInt(&c.Recent, 50)
	if c.MaxMessage <= 0 {
		c.MaxMessage = 4 << 10
	}
	if c.MaxBody <= 0 {
		c.MaxBody = 8 << 10
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
