-- Accounts: players' identities, their credentials and sessions (package
-- account), the same tables as SQLite's fourth migration in PostgreSQL's
-- types. No password, session token or recovery code is kept in plain
-- form: a password as the PHC string of its argon2id hash, the others as
-- SHA-256 hashes.
--
-- A deleted account keeps its row, with no name, password or
-- credentials, so that its games still refer to it; its folded name is
-- NULL then, and free for another (a UNIQUE column takes many NULLs).

CREATE TABLE accounts (
	id               text        NOT NULL PRIMARY KEY,
	name             text,
	folded           text        UNIQUE,
	password         text,
	password_changed timestamptz,
	created          timestamptz NOT NULL,
	deleted          timestamptz,
	CHECK ((deleted IS NULL) = (name IS NOT NULL AND folded IS NOT NULL))
);

CREATE TABLE recovery_codes (
	account_id text  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	hash       bytea NOT NULL,
	PRIMARY KEY (account_id, hash)
);

CREATE TABLE sessions (
	token_hash bytea       NOT NULL PRIMARY KEY,
	account_id text        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created    timestamptz NOT NULL,
	seen       timestamptz NOT NULL,
	expires    timestamptz NOT NULL
);

CREATE INDEX sessions_by_account ON sessions (account_id, created);
CREATE INDEX sessions_by_expiry ON sessions (expires);

CREATE TABLE passkeys (
	id              bytea       NOT NULL PRIMARY KEY,
	account_id      text        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	public_key      bytea       NOT NULL,
	sign_count      bigint      NOT NULL CHECK (sign_count BETWEEN 0 AND 4294967295),
	transports      text        NOT NULL, -- comma-separated
	aaguid          bytea,
	user_verified   boolean     NOT NULL,
	backup_eligible boolean     NOT NULL,
	backup_state    boolean     NOT NULL,
	name            text        NOT NULL,
	created         timestamptz NOT NULL,
	last_used       timestamptz
);

CREATE INDEX passkeys_by_account ON passkeys (account_id, created);

-- WebAuthn ceremonies under way: kept in the database, not in one node's
-- memory, so that a ceremony begun through one node can finish through
-- another.
CREATE TABLE ceremonies (
	id         text        NOT NULL PRIMARY KEY,
	kind       text        NOT NULL,
	account_id text        REFERENCES accounts (id) ON DELETE CASCADE,
	data       json        NOT NULL,
	expires    timestamptz NOT NULL
);

CREATE INDEX ceremonies_by_expiry ON ceremonies (expires);
