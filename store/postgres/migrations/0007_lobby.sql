-- The lobby (issue 22): seeks waiting to be seated in a pool, and their
-- seekers, one seek per player at a time (the players' primary key). A
-- pairing claims seeks into a table by setting tbl; until then tbl is
-- NULL and the seek is open.

CREATE TABLE lobby_seeks (
	id          text        NOT NULL PRIMARY KEY,
	pool        text        NOT NULL,
	bots        boolean     NOT NULL,
	bot_wait_ms bigint      NOT NULL CHECK (bot_wait_ms >= 0),
	node        text        NOT NULL,
	created     timestamptz NOT NULL,
	updated     timestamptz NOT NULL,
	tbl         text
);

-- A pool's open seeks, oldest first; a node's open seeks; stale seeks; a
-- table's seeks.
CREATE INDEX lobby_seeks_open ON lobby_seeks (pool, created, id) WHERE tbl IS NULL;
CREATE INDEX lobby_seeks_by_node ON lobby_seeks (node) WHERE tbl IS NULL;
CREATE INDEX lobby_seeks_by_updated ON lobby_seeks (updated);
CREATE INDEX lobby_seeks_by_table ON lobby_seeks (tbl) WHERE tbl IS NOT NULL;

CREATE TABLE lobby_seekers (
	player text             NOT NULL PRIMARY KEY,
	seek   text             NOT NULL REFERENCES lobby_seeks (id) ON DELETE CASCADE,
	idx    integer          NOT NULL CHECK (idx >= 0),
	name   text             NOT NULL,
	guest  boolean          NOT NULL,
	rating double precision NOT NULL,
	mu     double precision NOT NULL,
	sigma  double precision NOT NULL,
	UNIQUE (seek, idx)
);
