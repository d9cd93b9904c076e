-- Pair invitations (issue 22): an inviter's invitation to seek as
-- partners in a team pool, kept by the SHA-256 of its code, so that a
-- partner whose socket reaches another node takes it. seek is set when a
-- partner takes it (once: the update sets it only while it is NULL, on
-- the row it locks). node serves the inviter and refreshes the
-- invitation while it is open; updated is its last refresh.

CREATE TABLE lobby_invites (
	hash        bytea            NOT NULL PRIMARY KEY,
	pool        text             NOT NULL,
	bots        boolean          NOT NULL,
	bot_wait_ms bigint           NOT NULL CHECK (bot_wait_ms >= 0),
	player      text             NOT NULL,
	name        text             NOT NULL,
	guest       boolean          NOT NULL,
	rating      double precision NOT NULL,
	mu          double precision NOT NULL,
	sigma       double precision NOT NULL,
	token_hash  bytea,
	node        text             NOT NULL,
	created     timestamptz      NOT NULL,
	updated     timestamptz      NOT NULL,
	seek        text
);

CREATE INDEX lobby_invites_open ON lobby_invites (player) WHERE seek IS NULL;
CREATE INDEX lobby_invites_by_node ON lobby_invites (node) WHERE seek IS NULL;
CREATE INDEX lobby_invites_by_updated ON lobby_invites (updated);

-- The lobby's news: what a player's sockets, on whichever node, are to be
-- told (a seat, a pair's seek taken or withdrawn), in bytes the server
-- wrote. Every node reads the news by time (at is the database's clock,
-- so that the nodes' clocks do not matter); old news expires.

CREATE TABLE lobby_news (
	id     text        NOT NULL PRIMARY KEY,
	player text        NOT NULL,
	data   bytea       NOT NULL,
	at     timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE INDEX lobby_news_by_at ON lobby_news (at, id);
