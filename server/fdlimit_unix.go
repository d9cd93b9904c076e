//go:build unix

package server

import "syscall"

// openFilesLimit returns the process's limit of open files (its soft
// RLIMIT_NOFILE, which Go raises to the hard one at start), or 0 if it
// cannot be read.
func openFilesLimit() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur > 1<<30 {
		return 0
	}
	return int(lim.Cur)
}
