// Package server is the authoritative live game server of Chaturaji: it keeps
// every live game in one goroutine of its own that owns the game's
// rules.Game, rolls the dice from the game's seed, checks every action
// against the rules, runs the bots and the clocks, commits every accepted
// event to a store.Store before it broadcasts it, and serves an open HTTP and
// WebSocket API (docs/api.md) to players, bots and spectators.
//
// A Server is made with New, its live games are loaded from the store and
// started with Start, its API is served by Handler, and Shutdown stops it:
//
//	srv := server.New(server.Config{}, st, logger)
//	if err := srv.Start(ctx); err != nil { ... }
//	httpServer := srv.HTTPServer(srv.Handler())
//	go httpServer.Serve(srv.Listener(ln))
//	...
//	srv.Shutdown(ctx)
//
// Site serves the API with another handler beside it (package web's client,
// in `chaturaji serve`); Handler and Site put every request through one
// front door, where the per-client limits of Config apply (limit.go,
// client.go) and the metrics count it (metrics.go, exposed at /metrics with
// github.com/prometheus/client_golang). HTTPServer and Listener hold the
// limits on connections: how many are open, from each client, and how long
// a slow one may hold on (listener.go, conn.go).
// With Config.SigningKey the server signs the record of every finished game
// it serves (GET /api/games/{id}/record, GET /api/records, ExportRecords)
// and serves the public key at GET /api/key. Seeds are sealed at rest when
// the store given to New is store.Sealed.
//
// Faults cost players nothing. A game whose store fails does not stop: it
// holds what the store holds and tries again by itself, with backoff
// (recover.go); GET /healthz says the process lives, GET /readyz whether
// the database takes writes (health.go); the time no server could run a
// game is given back to the open decision's clock (downtime.go); a damaged
// game is left out of lists, records and exports, which name it
// (damage.go); a failure that repeats is logged once an interval
// (repeats.go). A finished game's record is built once, when it ends, and
// kept in the store (records.go).
//
// Seats belong to people (claim.go): the creator holds the seats it names,
// and every other human seat has a one-time invite that one client claims
// for the seat's token. A table may turn engine help off, which package
// web asks about through HelpOff (help.go). A player may resign or, in the
// first round, abort the game (resign.go; in a preset with dead armies
// resigning and running out of time are the rules' own, dead.go), or
// leave it to a bot at any
// time; once nobody is left playing, the bots play the game out without
// their delay (leave.go); once a game is over its
// players may agree on a rematch, kept in memory per finished game and
// carried by the game's WebSockets opened with ?rematch=1 (rematch.go);
// in a cluster, by one node that every other forwards to
// (rematch_home.go).
//
// A table's clock is a time for each decision or a bank of time for each
// seat with an increment or a delay (clock_bank.go, with the arithmetic in
// record.TimeControl); a timed game's clocks wait for its invited players
// (clock_wait.go). The players may send each other quick messages, and
// free text at a table that allows it (chat.go), which are broadcast and
// never stored.
//
// Accounts are optional: when the store keeps them (store.AccountsOf), the
// server serves package account under /api/account (account.go), with the
// session in a cookie that counts only on the server's own pages
// (session.go), failed sign-ins counted per username (signin.go), and the
// seats of signed-in players held by their accounts, which act for them
// from any device without the seats' tokens (holder.go).
//
// A table made Rated counts for its players' ratings (rated.go): every
// human seat held by an account, bots at their measured ratings
// (rating.Bots); once it is finished the server rates it off the game's
// loop, exactly once, through store.Ratings, and rates at start and every
// Config.RateSweep the games a stopped node left unrated. GET
// /api/players/{name} and GET /api/leaderboard read the ratings back
// (profile.go).
//
// The lobby (lobby*.go) seats strangers together, over package lobby:
// on GET /api/lobby/ws a client seeks in a pool, or opens or joins an open
// table, and watches the lobby (GET /api/lobby reads it without a
// WebSocket). A loop per node pairs the pools of its seekers
// (lobby.Pairer), makes the game of each table it claims through the same
// path as POST /api/games, the table's id as the game's, and tells its
// seekers of their seats; a seeker's token is made by its own node, whose
// hash the store keeps with the seek, so that whichever node makes the
// game the seat is the seeker's, and any node of a table's seekers makes
// a game its claimer left unmade (LobbyClaimWait). Open tables are rows
// of the store (store.OpenTables), started by their opener or when full.
// Two partners seek as one in a team pool (lobby_pair.go): one opens an
// invitation, a row of the store (store.PairInvites), the other takes it
// by its code through any node, and their seek holds both. What a node
// has to tell a player whose sockets may be on other nodes (an account's
// seat, for its other devices; a pair's seek taken, withdrawn or seated,
// for a partner served by another node) is the lobby's news
// (store.LobbyNews, lobby_news.go), which every node reads each round.
// A lobby game of CorrespondenceTurn or more a decision is played by
// correspondence (Table.Correspondence): its absent players keep their
// seats for each decision's whole time, bounded by its clock alone.
//
// Every error the API returns is an *Error with one of the codes EINVALID,
// EUNAUTHORIZED, EFORBIDDEN, ENOTFOUND, EMETHOD, ECONFLICT, ETIMEOUT,
// ETOOLARGE, ETOOMANY, EUNAVAILABLE or EINTERNAL; the HTTP layer maps each code to its status in
// one place (see StatusCode).
package server
