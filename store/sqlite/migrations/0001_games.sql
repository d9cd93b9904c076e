-- Games, their seats and their events.
--
-- Times are INTEGER microseconds since 1970-01-01 UTC, the precision
-- PostgreSQL's timestamptz keeps. JSON is TEXT, kept byte for byte but
-- checked to be JSON, as PostgreSQL's json type does. The tables are STRICT
-- so a value of the wrong type is refused, again as PostgreSQL would.

CREATE TABLE games (
	id         TEXT    NOT NULL PRIMARY KEY,
	rules      TEXT    NOT NULL,
	seed       BLOB,
	seed_hash  TEXT    NOT NULL,
	start      TEXT    NOT NULL,
	settings   TEXT    CHECK (settings IS NULL OR json_valid(settings)),
	status     TEXT    NOT NULL CHECK (status IN ('live', 'finished')),
	result     TEXT    NOT NULL DEFAULT '',
	created    INTEGER NOT NULL,
	updated    INTEGER NOT NULL,
	last_event INTEGER NOT NULL DEFAULT 0 CHECK (last_event >= 0)
) STRICT;

-- Games lists most recently updated first, optionally of one status.
CREATE INDEX games_by_updated ON games (updated DESC, id);
CREATE INDEX games_by_status ON games (status, updated DESC, id);

CREATE TABLE seats (
	game_id    TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	idx        INTEGER NOT NULL CHECK (idx >= 0),
	player     TEXT    NOT NULL,
	name       TEXT    NOT NULL,
	token_hash BLOB,
	PRIMARY KEY (game_id, idx)
) STRICT, WITHOUT ROWID;

-- The primary key is what makes two appends of the same number conflict.
CREATE TABLE events (
	game_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seq     INTEGER NOT NULL CHECK (seq > 0),
	kind    TEXT    NOT NULL,
	data    TEXT    CHECK (data IS NULL OR json_valid(data)),
	at      INTEGER NOT NULL,
	PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;
