package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/store"
)

// Many nodes, one database. A node that has joined (Join) holds a lease
// on each live game it drives, at the game's epoch, which every adoption
// moves on. Every write of a game it makes carries the fence in its
// statement: owner, epoch and a lease that has not lapsed by the
// database's clock (now()), so that a node that stopped (a pause, a
// partition) and comes back cannot write after another node adopted the
// game, whatever its own clock says.

// The channels of the nodes' notifications, before the schema's name.
// NOTIFY is delivered on commit, in commit order, to every session of the
// database that listens, whatever its schema.
const (
	eventsChannel   = "chaturaji_events"   // payload "ID:SEQ", sent by each append
	releasedChannel = "chaturaji_released" // payload the node's id, sent by Release
	rematchChannel  = "chaturaji_rematch"  // payload a finished game's id, sent by Rematched
)

// nameChannels names the store's channels after its schema (the first of
// the search path), such as chaturaji_events.public: two clusters in two
// schemas of one database, or two tests, do not hear each other. A
// channel's name is cut at 63 bytes, as PostgreSQL cuts identifiers.
func (s *Store) nameChannels(ctx context.Context) error {
	var schema string
	if err := s.pool.QueryRow(ctx, `SELECT coalesce(current_schema(), '')`).Scan(&schema); err != nil {
		return fmt.Errorf("reading the schema: %w", err)
	}
	name := func(ch string) string {
		n := ch + "." + schema
		if len(n) > 63 {
			n = n[:63]
		}
		return n
	}
	s.eventsCh, s.releasedCh, s.rematchCh = name(eventsChannel), name(releasedChannel), name(rematchChannel)
	return nil
}

var _ store.Cluster = (*Store)(nil)

// node is the store's state as a node of a cluster.
type node struct {
	id    string
	lease time.Duration

	mu   sync.Mutex
	held map[string]int64 // the epoch of each game the node holds
}

// fence returns the node and the epoch at which it holds game id; ok is
// false if the store has not joined (no fence applies). A joined node
// that does not hold the game gets ErrFenced.
func (s *Store) fence(id string) (n *node, epoch int64, err error) {
	n = s.node.Load()
	if n == nil {
		return nil, 0, nil
	}
	n.mu.Lock()
	epoch, ok := n.held[id]
	n.mu.Unlock()
	if !ok {
		return nil, 0, store.ErrFenced
	}
	return n, epoch, nil
}

// fenced notes that game id is not the node's any more (a write was
// fenced), and returns ErrFenced.
func (n *node) fenced(id string, epoch int64) error {
	n.mu.Lock()
	if n.held[id] == epoch {
		delete(n.held, id)
	}
	n.mu.Unlock()
	return store.ErrFenced
}

// fenceSQL is the fence as the statement of a fenced write checks it on
// the game's row, in the statement's WHERE: $1 is the node's id (NULL for
// a store that has not joined: no fence applies) and $2 the epoch at which
// it holds the game. Each write of a game is one statement (as appends
// are): a node holds no row lock while it waits for an answer, so one that
// is paused (a long garbage collection, SIGSTOP, a frozen machine) between
// two round trips never keeps another node from adopting its games.
const fenceSQL = `($1::text IS NULL OR (owner = $1 AND epoch = $2 AND lease_until > now()))`

// fenceOwner returns $1 of fenceSQL: the node's id, nil for no node.
func fenceOwner(n *node) *string {
	if n == nil {
		return nil
	}
	return &n.id
}

// gameRow is what unwritten reads of a game's row.
type gameRow struct {
	status store.Status
	result string
	seats  int
}

// errWritten says, from the judge of unwritten, that the game is already
// as the write would have left it.
var errWritten = errors.New("written already")

// unwritten says why a fenced write of game id wrote nothing, from its row
// as it is after the write: ErrNotFound if there is no game; ErrFenced if
// node n (not nil) does not hold its lease at epoch; else what judge says
// of the row (nil if errWritten). If judge finds nothing amiss, the fence
// stopped the write, the lease having lapsed and been renewed since:
// ErrFenced, as after any lapse.
func (s *Store) unwritten(ctx context.Context, n *node, epoch int64, id string, judge func(gameRow) error) error {
	var row gameRow
	var status string
	var held bool
	err := s.pool.QueryRow(ctx, `SELECT status, result, coalesce(owner = $2 AND epoch = $3 AND lease_until > now(), false),
		(SELECT count(*) FROM seats WHERE game_id = $1)
		FROM games WHERE id = $1`, id, fenceOwner(n), epoch).Scan(&status, &row.result, &held, &row.seats)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ErrNotFound
	} else if err != nil {
		return err
	}
	row.status = store.Status(status)
	if n != nil && !held {
		return n.fenced(id, epoch)
	}
	if err := judge(row); errors.Is(err, errWritten) {
		return nil
	} else if err != nil {
		return err
	}
	if n != nil {
		return n.fenced(id, epoch)
	}
	return fmt.Errorf("the game changed while it was written: %w", store.ErrConflict)
}

// seconds is a duration as PostgreSQL's make_interval takes it.
func seconds(d time.Duration) float64 { return d.Seconds() }

// Join makes the store act as node id, reached at addr, with leases of
// lease, holding the cluster key keyID; it refuses (ErrClusterKey) if
// another node seen within a lease holds another.
func (s *Store) Join(ctx context.Context, id, addr string, lease time.Duration, keyID string) error {
	if id == "" || lease <= 0 || keyID == "" {
		return fmt.Errorf("postgres: join: node %q with a lease of %v and cluster key %q: want an id, a lease above 0 and a key", id, lease, keyID)
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// Joins one at a time, so that two nodes with different keys
		// cannot both miss the other.
		if _, err := tx.Exec(ctx, `LOCK TABLE nodes IN SHARE ROW EXCLUSIVE MODE`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO nodes (id, address, key_id) VALUES ($1, $2, $3)
			ON CONFLICT (id) DO UPDATE SET address = excluded.address, key_id = excluded.key_id, last_seen = now()`, id, addr, keyID); err != nil {
			return err
		}
		var other, otherKey string
		err := tx.QueryRow(ctx, `SELECT id, key_id FROM nodes
			WHERE id <> $1 AND key_id <> $2 AND last_seen > now() - make_interval(secs => $3)
			ORDER BY id LIMIT 1`, id, keyID, seconds(lease)).Scan(&other, &otherKey)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		} else if err != nil {
			return err
		}
		return fmt.Errorf("%w: node %q holds cluster key %s, this one %s: give every node the same key file", store.ErrClusterKey, other, otherKey, keyID)
	})
	if err != nil {
		return fmt.Errorf("postgres: join as node %q: %w", id, err)
	}
	if !s.node.CompareAndSwap(nil, &node{id: id, lease: lease, held: make(map[string]int64)}) {
		return fmt.Errorf("postgres: join as node %q: the store has joined already", id)
	}
	return nil
}

// Renew renews the node's leases in one statement and returns the games
// it held that are not its own any more.
func (s *Store) Renew(ctx context.Context) ([]string, error) {
	n := s.node.Load()
	if n == nil {
		return nil, errors.New("postgres: renew: the store has not joined")
	}
	n.mu.Lock()
	ids := make([]string, 0, len(n.held))
	epochs := make([]int64, 0, len(n.held))
	for id, e := range n.held {
		ids, epochs = append(ids, id), append(epochs, e)
	}
	n.mu.Unlock()
	rows, err := s.pool.Query(ctx, `WITH seen AS (
			UPDATE nodes SET last_seen = now() WHERE id = $1
		), renewed AS (
			UPDATE games g SET lease_until = now() + make_interval(secs => $4), renewed = now()
			FROM unnest($2::text[], $3::bigint[]) AS h(id, epoch)
			WHERE g.id = h.id AND g.epoch = h.epoch AND g.owner = $1 AND g.status = 'live'
			RETURNING g.id
		)
		SELECT id FROM renewed`, n.id, ids, epochs, seconds(n.lease))
	if err != nil {
		return nil, fmt.Errorf("postgres: renew the leases of node %q: %w", n.id, err)
	}
	kept, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("postgres: renew the leases of node %q: %w", n.id, err)
	}
	ok := make(map[string]bool, len(kept))
	for _, id := range kept {
		ok[id] = true
	}
	var lost []string
	n.mu.Lock()
	for i, id := range ids {
		if !ok[id] && n.held[id] == epochs[i] {
			delete(n.held, id)
			lost = append(lost, id)
		}
	}
	n.mu.Unlock()
	return lost, nil
}

// Adopt takes at most max live games whose lease lapsed or that have no
// owner, the longest lapsed first, skipping those another node is taking.
func (s *Store) Adopt(ctx context.Context, max int) ([]store.Adopted, error) {
	n := s.node.Load()
	if n == nil {
		return nil, errors.New("postgres: adopt: the store has not joined")
	}
	if max <= 0 {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, `WITH lapsed AS (
			SELECT id, owner, renewed FROM games
			WHERE status = 'live' AND (owner IS NULL OR lease_until IS NULL OR lease_until <= now())
			ORDER BY lease_until NULLS FIRST, id
			LIMIT $2
			FOR UPDATE SKIP LOCKED
		)
		UPDATE games g SET owner = $1, epoch = g.epoch + 1,
			lease_until = now() + make_interval(secs => $3), renewed = now()
		FROM lapsed
		WHERE g.id = lapsed.id
		RETURNING g.id, g.epoch, coalesce(lapsed.owner, ''), lapsed.owner IS NULL AND lapsed.renewed IS NOT NULL,
			coalesce(lapsed.renewed, (SELECT at FROM heartbeat WHERE id = 1))`, n.id, max, seconds(n.lease))
	if err != nil {
		return nil, fmt.Errorf("postgres: adopt games as node %q: %w", n.id, err)
	}
	var out []store.Adopted
	var epochs []int64
	for rows.Next() {
		var a store.Adopted
		var epoch int64
		var held *time.Time
		if err := rows.Scan(&a.ID, &epoch, &a.From, &a.Released, &held); err != nil {
			rows.Close()
			return nil, fmt.Errorf("postgres: adopt games as node %q: %w", n.id, err)
		}
		if held != nil {
			a.LastHeld = utc(*held)
		}
		out, epochs = append(out, a), append(epochs, epoch)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: adopt games as node %q: %w", n.id, err)
	}
	n.mu.Lock()
	for i, a := range out {
		n.held[a.ID] = epochs[i]
	}
	n.mu.Unlock()
	return out, nil
}

// Orphans counts the live games without a lease in force, the live games
// in all, and the nodes seen within a lease.
func (s *Store) Orphans(ctx context.Context) (games, live, nodes int, err error) {
	n := s.node.Load()
	if n == nil {
		return 0, 0, 0, errors.New("postgres: orphans: the store has not joined")
	}
	err = s.pool.QueryRow(ctx, `SELECT
		count(*) FILTER (WHERE owner IS NULL OR lease_until IS NULL OR lease_until <= now()),
		count(*),
		(SELECT count(*) FROM nodes WHERE last_seen > now() - make_interval(secs => $1))
		FROM games WHERE status = 'live'`, seconds(n.lease)).Scan(&games, &live, &nodes)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("postgres: orphans: %w", err)
	}
	return games, live, nodes, nil
}

// Release gives up every lease the node holds, removes it from the nodes
// and tells the others, in one statement (so that a node paused halfway
// through does not keep its games locked: fenceSQL).
func (s *Store) Release(ctx context.Context) error {
	n := s.node.Load()
	if n == nil {
		return errors.New("postgres: release: the store has not joined")
	}
	_, err := s.pool.Exec(ctx, `WITH freed AS (
			UPDATE games SET owner = NULL, lease_until = now(), renewed = now()
			WHERE owner = $1 AND status = 'live'
		), gone AS (
			DELETE FROM nodes WHERE id = $1
		)
		SELECT pg_notify($2, $1)`, n.id, s.releasedCh)
	if err != nil {
		return fmt.Errorf("postgres: release the games of node %q: %w", n.id, err)
	}
	n.mu.Lock()
	clear(n.held)
	n.mu.Unlock()
	return nil
}

// Drop forgets game id: the node's later writes of it are fenced.
func (s *Store) Drop(id string) {
	if n := s.node.Load(); n != nil {
		n.mu.Lock()
		delete(n.held, id)
		n.mu.Unlock()
	}
}

// Holds reports whether the node holds game id, as far as it knows.
func (s *Store) Holds(id string) bool {
	n := s.node.Load()
	if n == nil {
		return false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	_, ok := n.held[id]
	return ok
}

// Owner returns the node whose lease on game id is in force and its
// address; "" if none is.
func (s *Store) Owner(ctx context.Context, id string) (string, string, error) {
	var owner, addr *string
	var valid bool
	err := s.pool.QueryRow(ctx, `SELECT g.owner, n.address, coalesce(g.lease_until > now(), false)
		FROM games g LEFT JOIN nodes n ON n.id = g.owner WHERE g.id = $1`, id).Scan(&owner, &addr, &valid)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", fmt.Errorf("postgres: owner of game %q: %w", id, store.ErrNotFound)
	} else if err != nil {
		return "", "", fmt.Errorf("postgres: owner of game %q: %w", id, err)
	}
	if !valid || owner == nil || addr == nil {
		return "", "", nil
	}
	return *owner, *addr, nil
}

// Home returns the node that keeps finished game id's rematch offer: its
// last driver if that node was seen within a lease, else the first such
// node by id.
func (s *Store) Home(ctx context.Context, id string) (string, string, error) {
	n := s.node.Load()
	if n == nil {
		return "", "", errors.New("postgres: home: the store has not joined")
	}
	var owner *string
	err := s.pool.QueryRow(ctx, `SELECT owner FROM games WHERE id = $1`, id).Scan(&owner)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", fmt.Errorf("postgres: home of game %q: %w", id, store.ErrNotFound)
	} else if err != nil {
		return "", "", fmt.Errorf("postgres: home of game %q: %w", id, err)
	}
	var node, addr string
	err = s.pool.QueryRow(ctx, `SELECT id, address FROM nodes
		WHERE last_seen > now() - make_interval(secs => $1)
		ORDER BY (id = $2) IS TRUE DESC, id LIMIT 1`, seconds(n.lease), owner).Scan(&node, &addr)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", nil
	} else if err != nil {
		return "", "", fmt.Errorf("postgres: home of game %q: %w", id, err)
	}
	return node, addr, nil
}

// Rematched notifies every node that game id's rematch offer changed.
func (s *Store) Rematched(ctx context.Context, id string) error {
	if _, err := s.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, s.rematchCh, id); err != nil {
		return fmt.Errorf("postgres: rematch of game %q: %w", id, err)
	}
	return nil
}

// Listen holds a connection of its own that listens to the nodes'
// channels, and calls f with each note until ctx is done; it reconnects
// after a failure, waiting from 50 ms up to 5 s.
func (s *Store) Listen(ctx context.Context, f func(store.Note)) error {
	cfg := s.pool.Config().ConnConfig.Copy()
	wait := 50 * time.Millisecond
	for ctx.Err() == nil {
		err := s.listen(ctx, cfg, f, func() { wait = 50 * time.Millisecond })
		if ctx.Err() != nil {
			break
		}
		_ = err // the caller sees notes resume; a failure is retried
		select {
		case <-time.After(wait):
		case <-ctx.Done():
		}
		wait = min(wait*2, 5*time.Second)
	}
	return ctx.Err()
}

// listen is one connection of Listen's, until it fails.
func (s *Store) listen(ctx context.Context, cfg *pgx.ConnConfig, f func(store.Note), connected func()) error {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	for _, ch := range []string{s.eventsCh, s.releasedCh, s.rematchCh} {
		if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{ch}.Sanitize()); err != nil {
			return err
		}
	}
	connected()
	f(store.Note{Kind: store.NoteConnected})
	for {
		nt, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		switch nt.Channel {
		case s.releasedCh:
			f(store.Note{Kind: store.NoteReleased})
		case s.rematchCh:
			f(store.Note{Kind: store.NoteRematch, ID: nt.Payload})
		case s.eventsCh:
			id, seq, ok := strings.Cut(nt.Payload, ":")
			n, err := strconv.ParseInt(seq, 10, 64)
			if ok && err == nil {
				f(store.Note{Kind: store.NoteEvents, ID: id, Seq: n})
			}
		}
	}
}
