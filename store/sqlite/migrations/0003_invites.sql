-- Invites: a human seat whose holder is yet to come keeps the SHA-256 of
-- its one-time invite here, and no token hash, until someone claims it
-- with the invite; the claim sets token_hash and clears invite_hash.

ALTER TABLE seats ADD COLUMN invite_hash BLOB;
