-- Games, their seats and their events.
--
-- The same tables as SQLite's first migration, in PostgreSQL's types:
-- timestamptz (microseconds) for times, json (kept byte for byte, checked
-- to be JSON) for the server's settings and event data, bytea for hashes
-- and seeds.

CREATE TABLE games (
	id         text        NOT NULL PRIMARY KEY,
	rules      text        NOT NULL,
	seed       bytea,
	seed_hash  text        NOT NULL,
	start      text        NOT NULL,
	settings   json,
	status     text        NOT NULL CHECK (status IN ('live', 'finished')),
	result     text        NOT NULL DEFAULT '',
	created    timestamptz NOT NULL,
	updated    timestamptz NOT NULL,
	last_event bigint      NOT NULL DEFAULT 0 CHECK (last_event >= 0)
);

-- Games lists most recently updated first, optionally of one status.
CREATE INDEX games_by_updated ON games (updated DESC, id);
CREATE INDEX games_by_status ON games (status, updated DESC, id);

CREATE TABLE seats (
	game_id    text    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	idx        integer NOT NULL CHECK (idx >= 0),
	player     text    NOT NULL,
	name       text    NOT NULL,
	token_hash bytea,
	PRIMARY KEY (game_id, idx)
);

-- The primary key is what makes two appends of the same number conflict.
CREATE TABLE events (
	game_id text        NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seq     bigint      NOT NULL CHECK (seq > 0),
	kind    text        NOT NULL,
	data    json,
	at      timestamptz NOT NULL,
	PRIMARY KEY (game_id, seq)
);
