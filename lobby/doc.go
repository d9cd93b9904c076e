// Package lobby seats strangers together: players ask to be seated in a
// pool (a ruleset, a time control, rated or casual), and a pairing round
// forms tables of the seekers closest in rating, the accepted range
// widening as they wait, with bots of about their strength in the seats
// that stay empty for the seekers who allow it, once the wait they set
// has passed.
//
// Pair is the pairing itself: a pure function of a pool's open seeks and
// the time, deterministic, with no storage. A Pairer keeps the seeks in a
// store.Lobby (the database: PostgreSQL for a cluster, SQLite on one
// node) and runs rounds: it reads a pool's open seeks, pairs them, and
// claims each table in the store, which puts a seek in at most one table
// however many nodes pair at once. The tables a round wins are the
// caller's to make games of; the lobby knows nothing of games, HTTP or
// WebSockets.
package lobby
