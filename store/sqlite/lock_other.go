//go:build !unix

package sqlite

import "os"

// lockFile takes no lock where flock is not available: there, one server
// to a database is the operator's care.
func lockFile(f *os.File) error { return nil }
