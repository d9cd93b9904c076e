module github.com/chaturaji/chaturaji

go 1.26
