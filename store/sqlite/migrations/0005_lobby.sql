-- The lobby (issue 22): seeks waiting to be seated in a pool, and their
-- seekers, one seek per player at a time (the players' primary key). A
-- pairing claims seeks into a table by setting tbl; until then tbl is
-- NULL and the seek is open.

CREATE TABLE lobby_seeks (
	id          TEXT    NOT NULL PRIMARY KEY,
	pool        TEXT    NOT NULL,
	bots        INTEGER NOT NULL CHECK (bots IN (0, 1)),
	bot_wait_ms INTEGER NOT NULL CHECK (bot_wait_ms >= 0),
	node        TEXT    NOT NULL,
	created     INTEGER NOT NULL,
	updated     INTEGER NOT NULL,
	tbl         TEXT
) STRICT;

-- A pool's open seeks, oldest first; a node's open seeks; stale seeks; a
-- table's seeks.
CREATE INDEX lobby_seeks_open ON lobby_seeks (pool, created, id) WHERE tbl IS NULL;
CREATE INDEX lobby_seeks_by_node ON lobby_seeks (node) WHERE tbl IS NULL;
CREATE INDEX lobby_seeks_by_updated ON lobby_seeks (updated);
CREATE INDEX lobby_seeks_by_table ON lobby_seeks (tbl) WHERE tbl IS NOT NULL;

CREATE TABLE lobby_seekers (
	player TEXT    NOT NULL PRIMARY KEY,
	seek   TEXT    NOT NULL REFERENCES lobby_seeks (id) ON DELETE CASCADE,
	idx    INTEGER NOT NULL CHECK (idx >= 0),
	name   TEXT    NOT NULL,
	guest  INTEGER NOT NULL CHECK (guest IN (0, 1)),
	rating REAL    NOT NULL,
	mu     REAL    NOT NULL,
	sigma  REAL    NOT NULL,
	UNIQUE (seek, idx)
) STRICT;
