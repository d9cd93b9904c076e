-- Accounts: players' identities, their credentials and sessions (package
-- account). No password, session token or recovery code is kept in plain
-- form: a password as the PHC string of its argon2id hash, the others as
-- SHA-256 hashes.
--
-- A deleted account keeps its row, with no name, password or
-- credentials, so that its games still refer to it; its folded name is
-- NULL then, and free for another (a UNIQUE column takes many NULLs).

CREATE TABLE accounts (
	id               TEXT    NOT NULL PRIMARY KEY,
	name             TEXT,
	folded           TEXT    UNIQUE,
	password         TEXT,
	password_changed INTEGER,
	created          INTEGER NOT NULL,
	deleted          INTEGER,
	CHECK ((deleted IS NULL) = (name IS NOT NULL AND folded IS NOT NULL))
) STRICT;

CREATE TABLE recovery_codes (
	account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	hash       BLOB NOT NULL,
	PRIMARY KEY (account_id, hash)
) STRICT, WITHOUT ROWID;

CREATE TABLE sessions (
	token_hash BLOB    NOT NULL PRIMARY KEY,
	account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created    INTEGER NOT NULL,
	seen       INTEGER NOT NULL,
	expires    INTEGER NOT NULL
) STRICT;

CREATE INDEX sessions_by_account ON sessions (account_id, created);
CREATE INDEX sessions_by_expiry ON sessions (expires);

CREATE TABLE passkeys (
	id              BLOB    NOT NULL PRIMARY KEY,
	account_id      TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	public_key      BLOB    NOT NULL,
	sign_count      INTEGER NOT NULL CHECK (sign_count BETWEEN 0 AND 4294967295),
	transports      TEXT    NOT NULL, -- comma-separated
	aaguid          BLOB,
	user_verified   INTEGER NOT NULL CHECK (user_verified IN (0, 1)),
	backup_eligible INTEGER NOT NULL CHECK (backup_eligible IN (0, 1)),
	backup_state    INTEGER NOT NULL CHECK (backup_state IN (0, 1)),
	name            TEXT    NOT NULL,
	created         INTEGER NOT NULL,
	last_used       INTEGER
) STRICT;

CREATE INDEX passkeys_by_account ON passkeys (account_id, created);

-- WebAuthn ceremonies under way: kept in the database, not in one node's
-- memory, so that a ceremony begun through one node can finish through
-- another.
CREATE TABLE ceremonies (
	id         TEXT    NOT NULL PRIMARY KEY,
	kind       TEXT    NOT NULL,
	account_id TEXT    REFERENCES accounts (id) ON DELETE CASCADE,
	data       TEXT    NOT NULL CHECK (json_valid(data)),
	expires    INTEGER NOT NULL
) STRICT;

CREATE INDEX ceremonies_by_expiry ON ceremonies (expires);
