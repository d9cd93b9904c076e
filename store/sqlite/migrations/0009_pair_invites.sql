-- Pair invitations (issue 22): an inviter's invitation to seek as
-- partners in a team pool, kept by the SHA-256 of its code, so that a
-- partner whose socket reaches another node takes it. seek is set when a
-- partner takes it (once: the update sets it only while it is NULL).
-- node serves the inviter and refreshes the invitation while it is open;
-- updated is its last refresh.

CREATE TABLE lobby_invites (
	hash        BLOB    NOT NULL PRIMARY KEY,
	pool        TEXT    NOT NULL,
	bots        INTEGER NOT NULL CHECK (bots IN (0, 1)),
	bot_wait_ms INTEGER NOT NULL CHECK (bot_wait_ms >= 0),
	player      TEXT    NOT NULL,
	name        TEXT    NOT NULL,
	guest       INTEGER NOT NULL CHECK (guest IN (0, 1)),
	rating      REAL    NOT NULL,
	mu          REAL    NOT NULL,
	sigma       REAL    NOT NULL,
	token_hash  BLOB,
	node        TEXT    NOT NULL,
	created     INTEGER NOT NULL,
	updated     INTEGER NOT NULL,
	seek        TEXT
) STRICT;

CREATE INDEX lobby_invites_open ON lobby_invites (player) WHERE seek IS NULL;
CREATE INDEX lobby_invites_by_node ON lobby_invites (node) WHERE seek IS NULL;
CREATE INDEX lobby_invites_by_updated ON lobby_invites (updated);

-- The lobby's news: what a player's sockets, on whichever node, are to be
-- told (a seat, a pair's seek taken or withdrawn), in bytes the server
-- wrote. Every node reads the news by time; old news expires.

CREATE TABLE lobby_news (
	id     TEXT    NOT NULL PRIMARY KEY,
	player TEXT    NOT NULL,
	data   BLOB    NOT NULL,
	at     INTEGER NOT NULL
) STRICT;

CREATE INDEX lobby_news_by_at ON lobby_news (at, id);
