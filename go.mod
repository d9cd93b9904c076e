module github.com/chaturaji/chaturaji

go 1.26

require github.com/rogpeppe/go-internal v1.16.0

require (
	golang.org/x/sys v0.26.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
