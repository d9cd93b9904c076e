//go:build unix

package sqlite

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive flock on f without waiting.
func lockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}
