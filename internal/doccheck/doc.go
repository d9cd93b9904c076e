// Package doccheck holds no code, only tests of the repository's text:
// every exported name of the module's packages (top-level declarations,
// methods of exported types and fields of exported struct types) has a doc
// comment or a trailing comment, and no file points outside the repository
// to the team's private workbench, which a user's clone does not have.
package doccheck
