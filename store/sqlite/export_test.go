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
