-- The server's heartbeat, and the records of finished games.
--
-- heartbeat has one row, the time the server holding the live games last
-- showed it was alive: a restart gives the players back the time since.
-- records keeps each finished game's record text (signed, as served),
-- built once when the game finished, so that serving it replays nothing.

CREATE TABLE heartbeat (
	id INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
	at INTEGER NOT NULL -- microseconds since 1970 UTC
) STRICT;

CREATE TABLE records (
	game_id TEXT NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
	text    TEXT NOT NULL
) STRICT;
