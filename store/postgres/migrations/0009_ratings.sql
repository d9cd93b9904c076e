-- Ratings (issue 22): whether a game counts for ratings and when it was
-- rated; one rating per account and ruleset (a game's rules, house rules
-- included); a point of history per rated game and account.
--
-- A game is rated exactly once: the transaction that writes its ratings
-- sets rated_at, and only where it is NULL (the row's lock makes a second
-- rater wait, then find it set). The partial index keeps the rated games
-- still to rate, for a node that starts or adopts after another died
-- between a game's end and its rating.

ALTER TABLE games ADD COLUMN rated boolean NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN rated_at timestamptz;

CREATE INDEX games_unrated ON games (updated, id) WHERE rated AND rated_at IS NULL;

CREATE TABLE ratings (
	account_id text             NOT NULL REFERENCES accounts (id),
	rules      text             NOT NULL,
	mu         double precision NOT NULL,
	sigma      double precision NOT NULL CHECK (sigma > 0),
	games      integer          NOT NULL CHECK (games >= 0),
	firsts     integer          NOT NULL CHECK (firsts >= 0 AND firsts <= games),
	score_sum  bigint           NOT NULL,
	played     timestamptz      NOT NULL,
	PRIMARY KEY (account_id, rules)
);

-- A ruleset's leaderboard, best first.
CREATE INDEX ratings_by_rules ON ratings (rules, mu DESC, account_id);

CREATE TABLE rating_history (
	account_id   text             NOT NULL REFERENCES accounts (id),
	game_id      text             NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	rules        text             NOT NULL,
	at           timestamptz      NOT NULL,
	mu_before    double precision NOT NULL,
	sigma_before double precision NOT NULL,
	mu           double precision NOT NULL,
	sigma        double precision NOT NULL,
	rank         integer          NOT NULL CHECK (rank >= 1),
	score        integer          NOT NULL,
	PRIMARY KEY (account_id, game_id)
);

-- An account's history in a ruleset, in time order.
CREATE INDEX rating_history_by_rules ON rating_history (account_id, rules, at, game_id);
