// Package doccheck holds no code, only a test: every exported name of the
// module's packages (top-level declarations, methods of exported types and
// fields of exported struct types) has a doc comment or a trailing comment.
package doccheck
