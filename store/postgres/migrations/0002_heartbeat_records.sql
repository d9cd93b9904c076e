-- The server's heartbeat, and the records of finished games: the same
-- tables as SQLite's second migration.

CREATE TABLE heartbeat (
	id integer     NOT NULL PRIMARY KEY CHECK (id = 1),
	at timestamptz NOT NULL
);

CREATE TABLE records (
	game_id text NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
	text    text NOT NULL
);
