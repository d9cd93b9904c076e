-- The nodes' secret leaves the database (issue 21): anyone who could read
-- the database, or a backup of it, could sign requests as a node. The
-- nodes share the key in their key file now (cluster-key), and each says
-- here only which key it holds (a hash of it), so that a node given
-- another key file is refused when it joins.

DROP TABLE cluster;

ALTER TABLE nodes ADD COLUMN key_id text;
