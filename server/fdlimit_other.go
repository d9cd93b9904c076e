//go:build !unix

package server

// openFilesLimit returns 0: there is no limit of open files to read.
func openFilesLimit() int {
	return 0
}
