package record

import (
	"fmt"
	"strings"
)

// Error is a problem found in a game record: where it is (the game, the
// line, the turn or tag, and the offending token, as far as they are known)
// and why.
type Error struct {
	Game  int    // the record's place in its file, from 1; 0 if unknown
	Line  int    // the line in the file, from 1; 0 if unknown
	Turn  int    // the turn group, from 1; 0 if the problem is not in a turn
	Tag   string // the tag pair's name, if the problem is in one
	Token string // the offending text; empty if none
	Err   error  // why
}

// Error returns the problem as one line, such as
// `record: game 2: line 14: turn 37 "a7c6": illegal action a7c6 in ...`.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("record: ")
	if e.Game > 0 {
		fmt.Fprintf(&b, "game %d: ", e.Game)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	var where []string
	if e.Turn > 0 {
		where = append(where, fmt.Sprintf("turn %d", e.Turn))
	}
	if e.Tag != "" {
		where = append(where, "tag "+e.Tag)
	}
	if e.Token != "" {
		where = append(where, fmt.Sprintf("%q", e.Token))
	}
	if len(where) > 0 {
		b.WriteString(strings.Join(where, " "))
		b.WriteString(": ")
	}
	// The rules package prefixes its own errors; inside ours it is noise.
	b.WriteString(strings.TrimPrefix(e.Err.Error(), "rules: "))
	return b.String()
}

// Unwrap returns the underlying error, so that errors.Is sees through it
// (for example to rules.ErrFinished).
func (e *Error) Unwrap() error { return e.Err }
