package sqlite

import "context"

// Pragma returns the value of a PRAGMA on the store's writing connection,
// or on one of its reading connections if write is false.
func Pragma(ctx context.Context, s *Store, name string, write bool) (string, error) {
	db := s.read
	if write {
		db = s.write
	}
	var v string
	err := db.QueryRowContext(ctx, "PRAGMA "+name).Scan(&v)
	return v, err
}

// HoldSyncs makes the store's syncs of its write-ahead log wait until
// release is called; in memory it does nothing.
func HoldSyncs(s *Store) (release func()) {
	if s.log == nil {
		return func() {}
	}
	hold := make(chan struct{})
	s.log.mu.Lock()
	s.log.hold = hold
	s.log.mu.Unlock()
	return func() {
		s.log.mu.Lock()
		s.log.hold = nil
		s.log.mu.Unlock()
		close(hold)
	}
}

// HoldCheckpoints makes the store's checkpointer wait before its next
// checkpoint until release is called; in memory it does nothing.
func HoldCheckpoints(s *Store) (release func()) {
	if s.ckpt == nil {
		return func() {}
	}
	hold := make(chan struct{})
	s.ckpt.hold.Store(&hold)
	return func() {
		s.ckpt.hold.Store(nil)
		close(hold)
	}
}

// Queued returns how many writes wait for the committer, and how many it
// has taken from its queue.
func Queued(s *Store) (waiting int, taken uint64) {
	s.writes.mu.Lock()
	defer s.writes.mu.Unlock()
	return len(s.writes.queue), s.writes.taken
}

// Commits returns how many transactions the store has committed on its
// file since it was opened; in memory, 0.
func Commits(s *Store) uint64 {
	if s.log == nil {
		return 0
	}
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	return s.log.committed
}

// RestartPages is how many pages the write-ahead log may hold before the
// checkpointer has it start over.
const RestartPages = restartPages

// StepCheckpoints has f told each step of the store's checkpoints as it
// begins ("copy", "sync", "hold"); in memory it does nothing.
func StepCheckpoints(s *Store, f func(step string)) {
	if s.ckpt != nil {
		s.ckpt.step.Store(&f)
	}
}
