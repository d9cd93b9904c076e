-- The lobby in the server (issue 22). Each seeker's seat token, as its
-- SHA-256: the seat it takes in its table's game is held by that token,
-- whichever node makes the game, and only the seeker's node knows the
-- token itself. A node finds its seeks claimed into tables, to tell
-- their seekers, by lobby_seeks_claimed.

ALTER TABLE lobby_seekers ADD COLUMN token_hash bytea;

CREATE INDEX lobby_seeks_claimed ON lobby_seeks (node, tbl) WHERE tbl IS NOT NULL;

-- Open tables: a player opens a table with some seats open to people
-- (open true), the others being bots'; others take its open seats, and
-- the opener starts it (started set), the seats still empty going to
-- bots. A player holds one seat of an open table at a time (player is
-- unique). node is the node that serves the seat's holder, and the
-- table's opener for the table; updated is their last refresh.

CREATE TABLE lobby_tables (
	id         text             NOT NULL PRIMARY KEY,
	rules      text             NOT NULL,
	turn_ms    bigint           NOT NULL CHECK (turn_ms >= 0),
	rated      boolean          NOT NULL,
	min_rating double precision NOT NULL,
	max_rating double precision NOT NULL,
	opener     text             NOT NULL,
	node       text             NOT NULL,
	created    timestamptz      NOT NULL,
	updated    timestamptz      NOT NULL,
	started    timestamptz
);

CREATE INDEX lobby_tables_open ON lobby_tables (created, id) WHERE started IS NULL;
CREATE INDEX lobby_tables_by_updated ON lobby_tables (updated);

CREATE TABLE lobby_table_seats (
	tbl        text             NOT NULL REFERENCES lobby_tables (id) ON DELETE CASCADE,
	idx        integer          NOT NULL CHECK (idx >= 0),
	open       boolean          NOT NULL,
	player     text UNIQUE,
	name       text             NOT NULL DEFAULT '',
	guest      boolean          NOT NULL DEFAULT false,
	rating     double precision NOT NULL DEFAULT 0,
	mu         double precision NOT NULL DEFAULT 0,
	sigma      double precision NOT NULL DEFAULT 0,
	token_hash bytea,
	node       text             NOT NULL DEFAULT '',
	updated    timestamptz      NOT NULL DEFAULT now(),
	PRIMARY KEY (tbl, idx)
);

CREATE INDEX lobby_table_seats_by_node ON lobby_table_seats (node) WHERE player IS NOT NULL;
