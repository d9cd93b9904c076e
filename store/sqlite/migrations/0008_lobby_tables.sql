-- The lobby in the server (issue 22). Each seeker's seat token, as its
-- SHA-256: the seat it takes in its table's game is held by that token,
-- whichever node makes the game, and only the seeker's node knows the
-- token itself. A node finds its seeks claimed into tables, to tell
-- their seekers, by lobby_seeks_claimed.

ALTER TABLE lobby_seekers ADD COLUMN token_hash BLOB;

CREATE INDEX lobby_seeks_claimed ON lobby_seeks (node, tbl) WHERE tbl IS NOT NULL;

-- Open tables: a player opens a table with some seats open to people
-- (open = 1), the others being bots'; others take its open seats, and
-- the opener starts it (started set), the seats still empty going to
-- bots. A player holds one seat of an open table at a time (player is
-- unique). node is the node that serves the seat's holder, and the
-- table's opener for the table; updated is their last refresh.

CREATE TABLE lobby_tables (
	id         TEXT    NOT NULL PRIMARY KEY,
	rules      TEXT    NOT NULL,
	turn_ms    INTEGER NOT NULL CHECK (turn_ms >= 0),
	rated      INTEGER NOT NULL CHECK (rated IN (0, 1)),
	min_rating REAL    NOT NULL,
	max_rating REAL    NOT NULL,
	opener     TEXT    NOT NULL,
	node       TEXT    NOT NULL,
	created    INTEGER NOT NULL,
	updated    INTEGER NOT NULL,
	started    INTEGER
) STRICT;

CREATE INDEX lobby_tables_open ON lobby_tables (created, id) WHERE started IS NULL;
CREATE INDEX lobby_tables_by_updated ON lobby_tables (updated);

CREATE TABLE lobby_table_seats (
	tbl        TEXT    NOT NULL REFERENCES lobby_tables (id) ON DELETE CASCADE,
	idx        INTEGER NOT NULL CHECK (idx >= 0),
	open       INTEGER NOT NULL CHECK (open IN (0, 1)),
	player     TEXT UNIQUE,
	name       TEXT    NOT NULL DEFAULT '',
	guest      INTEGER NOT NULL DEFAULT 0 CHECK (guest IN (0, 1)),
	rating     REAL    NOT NULL DEFAULT 0,
	mu         REAL    NOT NULL DEFAULT 0,
	sigma      REAL    NOT NULL DEFAULT 0,
	token_hash BLOB,
	node       TEXT    NOT NULL DEFAULT '',
	updated    INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (tbl, idx)
) STRICT;

CREATE INDEX lobby_table_seats_by_node ON lobby_table_seats (node) WHERE player IS NOT NULL;
