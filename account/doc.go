// Package account owns players' identities, their credentials and their
// sessions, behind store.Accounts; the server only turns HTTP requests
// into its calls (Service). Guests need none of it: an account is
// optional.
//
// # Usernames
//
// A username is checked by PRECIS (RFC 8265, UsernameCaseMapped, package
// golang.org/x/text/secure/precis), holds 3 to 24 letters, digits, '-',
// '_' and '.', starting with a letter or a digit, and is unique without
// regard to case: the store keeps its case-folded form (Folded) beside
// the form its holder chose. Names that could pass for the server's staff
// or for a bot ("admin", "greedy", "level3", "strong-bot"; Reserved) are
// refused, with an error that says why.
//
// # Passwords
//
// A password is 8 characters to 1024 bytes, normalised by PRECIS
// OpaqueString (so the same password typed on another device matches),
// and kept as its argon2id hash with OWASP's parameters (19 MiB, 2
// passes, 1 lane; Params) and a random salt, in the PHC string format,
// which names its parameters: raising them later (Config.Params) rehashes
// each password at its next sign-in. At most Config.HashConcurrency
// hashes run at once, and at most Config.HashWaiters wait for their turn;
// past that a sign-in is refused at once (EUNAVAILABLE), so a flood of
// sign-ins takes neither all the memory nor all the cores. A sign-in
// under an unknown name hashes all the same, against a dummy hash, and
// fails with the same error as a wrong password: the answer never tells
// whether a username exists.
//
// # Recovery codes
//
// Sign-up gives ten one-time recovery codes (RecoveryCodes), shown once
// and kept as SHA-256 hashes: each has 80 random bits, too many to guess,
// so a slow hash would add nothing. One code signs in once and sets a new
// password, ending every other session (Recover).
//
// # Sessions
//
// A session's token is 256 random bits, given to the client once; the
// store keeps its SHA-256 with when it was created, last seen and when it
// expires: after Config.IdleLifetime unused, and Config.SessionLifetime
// after sign-in whatever happens. Each sign-in makes a new session (and
// ends the one the client held, if any): a token set before sign-in is
// never the signed-in one. "Sign out everywhere" ends them all.
//
// # Passkeys
//
// Passkeys are WebAuthn credentials (github.com/go-webauthn/webauthn),
// discoverable, so that signing in asks for no name (and so tells nobody
// which names exist). An account registers any number; the last one of
// an account with no password cannot be removed. The server's half of a
// ceremony (its challenge) is kept in the store, keyed by a random id,
// for Config.CeremonyLifetime, not in one node's memory: a ceremony
// begun through one node of a cluster finishes through another. At most
// Config.MaxCeremonies are under way at once.
//
// # Deletion and export
//
// Delete removes an account's name, password, passkeys, recovery codes
// and sessions; its row stays so that its games do too, shown under
// store.DeletedName. Export is everything kept about an account, as
// JSON-ready data.
//
// # Errors
//
// Every refusal is an *Error with a code (EINVALID, EUNAUTHORIZED,
// ECONFLICT, ENOTFOUND, EUNAVAILABLE) that the server maps to a status,
// and a message for people.
package account
