-- Many server nodes on one database (issue 14): each live game is leased
-- to the node that drives it, fenced by an epoch that every adoption
-- moves on; nodes say where they are reached; and a secret, made once
-- here, lets the nodes trust each other's forwarded requests.

ALTER TABLE games
	ADD COLUMN owner       text,
	ADD COLUMN epoch       bigint NOT NULL DEFAULT 0,
	ADD COLUMN lease_until timestamptz,
	ADD COLUMN renewed     timestamptz;

-- The adopters look for live games whose lease lapsed.
CREATE INDEX games_by_lease ON games (lease_until) WHERE status = 'live';
CREATE INDEX games_by_owner ON games (owner) WHERE status = 'live';

CREATE TABLE nodes (
	id        text        NOT NULL PRIMARY KEY,
	address   text        NOT NULL,
	started   timestamptz NOT NULL DEFAULT now(),
	last_seen timestamptz NOT NULL DEFAULT now()
);

-- Two version-4 UUIDs: 244 bits from PostgreSQL's strong random source.
CREATE TABLE cluster (
	id     integer NOT NULL PRIMARY KEY CHECK (id = 1),
	secret bytea   NOT NULL
);
INSERT INTO cluster (id, secret)
	VALUES (1, uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()));
