-- Seats held by accounts (issue 22): the account that holds a human seat,
-- NULL for a guest's seat, a bot's and a seat nobody holds yet. A seat
-- held by an account is acted for by that account's sessions, from any
-- device; its player's games are found by it.

ALTER TABLE seats ADD COLUMN account_id text;

CREATE INDEX seats_by_account ON seats (account_id, game_id) WHERE account_id IS NOT NULL;
