package postgres

// MaxConns returns the size of the store's pool of connections.
func MaxConns(s *Store) int32 {
	return s.pool.Config().MaxConns
}
