-- Ratings (issue 22): whether a game counts for ratings and when it was
-- rated; one rating per account and ruleset (a game's rules, house rules
-- included); a point of history per rated game and account.
--
-- A game is rated exactly once: the transaction that writes its ratings
-- sets rated_at, and only where it is NULL. The partial index keeps the
-- rated games still to rate, for a server that starts after a node died
-- between a game's end and its rating.

ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
ALTER TABLE games ADD COLUMN rated_at INTEGER;

CREATE INDEX games_unrated ON games (updated, id) WHERE rated = 1 AND rated_at IS NULL;

CREATE TABLE ratings (
	account_id TEXT    NOT NULL REFERENCES accounts (id),
	rules      TEXT    NOT NULL,
	mu         REAL    NOT NULL,
	sigma      REAL    NOT NULL CHECK (sigma > 0),
	games      INTEGER NOT NULL CHECK (games >= 0),
	firsts     INTEGER NOT NULL CHECK (firsts >= 0 AND firsts <= games),
	score_sum  INTEGER NOT NULL,
	played     INTEGER NOT NULL, -- microseconds since 1970 UTC
	PRIMARY KEY (account_id, rules)
) STRICT, WITHOUT ROWID;

-- A ruleset's leaderboard, best first.
CREATE INDEX ratings_by_rules ON ratings (rules, mu DESC, account_id);

CREATE TABLE rating_history (
	account_id   TEXT    NOT NULL REFERENCES accounts (id),
	game_id      TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	rules        TEXT    NOT NULL,
	at           INTEGER NOT NULL,
	mu_before    REAL    NOT NULL,
	sigma_before REAL    NOT NULL,
	mu           REAL    NOT NULL,
	sigma        REAL    NOT NULL,
	rank         INTEGER NOT NULL CHECK (rank >= 1),
	score        INTEGER NOT NULL,
	PRIMARY KEY (account_id, game_id)
) STRICT, WITHOUT ROWID;

-- An account's history in a ruleset, in time order.
CREATE INDEX rating_history_by_rules ON rating_history (account_id, rules, at, game_id);
