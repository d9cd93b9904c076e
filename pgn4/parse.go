package pgn4

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chaturaji/chaturaji/record"
)

// Game is one game of a PGN4 file as written: its tag pairs, in order, and
// its moves, one for each turn taken. Parse reads the form only; Replay
// checks the game against the rules.
type Game struct {
	Tags  record.Tags // the tag pairs, in the order written
	Moves []Move      // the moves, one a turn taken
	// Result is the game termination marker written after the last move
	// (*, 1-0, 0-1 or 1/2-1/2), empty if none.
	Result string

	Number int // the game's place in its file, from 1; 0 if not parsed
	Line   int // the line where it starts, from 1; 0 if not parsed
}

// MaxNesting bounds how deeply variations may nest, (a (b (c ...))), in
// what Parse reads.
const MaxNesting = 64

// Parse reads every game of a PGN4 file: for each, its tag pairs (a value
// may run over several lines, as chess.com writes its FEN4; white space in
// it, line breaks included, becomes one space), then its movetext. A game
// starts at the first tag pair after the previous game's movetext. In the
// movetext, move numbers (1. 1... and the like) set the Round of the moves
// that follow them; the periods chess.com writes between the players'
// moves (..) separate moves and mean nothing more; comments {...} and
// rest-of-line comments ; ..., variations (...), and the annotations $N, !
// and ? are skipped; a result marker (*, 1-0, 0-1, 1/2-1/2) ends the
// movetext. It reads the whole input; its caller bounds its size.
//
// An error is a *ParseError naming the game, the line and the text.
func Parse(rd io.Reader) ([]*Game, error) {
	b, err := io.ReadAll(rd)
	if err != nil {
		return nil, err
	}
	return ParseString(string(b))
}

// ParseError is text that is not PGN4: where it is and why.
type ParseError struct {
	Game int    // the game's place in the file, from 1
	Line int    // the line, from 1
	Text string // the offending text; empty if none
	Err  error  // why
}

// Error returns the problem as one line: `pgn4: game 1: line 3: "Qd4-d5": why`.
func (e *ParseError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pgn4: game %d: line %d: ", e.Game, e.Line)
	if e.Text != "" {
		fmt.Fprintf(&b, "%q: ", e.Text)
	}
	b.WriteString(strings.TrimPrefix(e.Err.Error(), "pgn4: "))
	return b.String()
}

// Unwrap returns why.
func (e *ParseError) Unwrap() error { return e.Err }

// ParseString is Parse of a string.
func ParseString(s string) ([]*Game, error) {
	p := &parser{s: s, line: 1}
	return p.run()
}

// parser reads PGN4 text.
type parser struct {
	s     string
	i     int
	line  int
	games []*Game
	g     *Game // the game being read
	moves bool  // the game's movetext has begun
	round int   // the last move number read
}

func (p *parser) fail(line int, text string, format string, args ...any) error {
	return &ParseError{Game: len(p.games), Line: line, Text: text, Err: fmt.Errorf(format, args...)}
}

// begin starts a new game.
func (p *parser) begin() {
	p.g = &Game{Number: len(p.games) + 1, Line: p.line}
	p.games = append(p.games, p.g)
	p.moves, p.round = false, 0
}

func (p *parser) run() ([]*Game, error) {
	for {
		p.space()
		if p.i == len(p.s) {
			// Comments alone make no game.
			games := p.games[:0]
			for _, g := range p.games {
				if len(g.Tags) > 0 || len(g.Moves) > 0 || g.Result != "" {
					games = append(games, g)
				}
			}
			return games, nil
		}
		c := p.s[p.i]
		switch {
		case p.g == nil || p.moves && c == '[':
			p.begin()
		case p.g.Result != "" && c != '{' && c != ';':
			return nil, p.fail(p.line, p.word(), "text after the result %s: a new game starts with its tag pairs", p.g.Result)
		}
		if c == '[' && !p.moves {
			if err := p.tag(); err != nil {
				return nil, err
			}
			continue
		}
		p.moves = true
		if err := p.token(); err != nil {
			return nil, err
		}
	}
}

// space skips white space, counting lines.
func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '\n':
			p.line++
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return
		}
		p.i++
	}
}

// word returns the text from i to the next white space or bracket, for
// error messages, without consuming it.
func (p *parser) word() string {
	j := p.i
	for j < len(p.s) && !strings.ContainsRune(" \t\r\n{}()[];", rune(p.s[j])) {
		j++
	}
	if j == p.i && j < len(p.s) {
		j++
	}
	return p.s[p.i:j]
}

// tag reads one tag pair: [Name "value"], the value perhaps over lines.
func (p *parser) tag() error {
	line := p.line
	p.i++ // [
	p.space()
	j := p.i
	for j < len(p.s) && isNameByte(p.s[j]) {
		j++
	}
	name := p.s[p.i:j]
	if name == "" || !isLetter(name[0]) {
		return p.fail(line, p.word(), "a tag pair is [Name \"value\"], its name a letter followed by letters, digits or _")
	}
	p.i = j
	p.space()
	if p.i == len(p.s) || p.s[p.i] != '"' {
		return p.fail(line, name, "the tag's value must be one string in double quotes")
	}
	p.i++
	var v strings.Builder
	space := false
	for {
		if p.i == len(p.s) {
			return p.fail(line, name, "the tag's value has no closing \"")
		}
		c := p.s[p.i]
		p.i++
		switch {
		case c == '"':
			p.space()
			if p.i == len(p.s) || p.s[p.i] != ']' {
				return p.fail(line, name, "the tag pair must end with ] after its value")
			}
			p.i++
			if _, dup := p.g.Tags.Get(name); dup {
				return p.fail(line, name, "tag %s appears twice", name)
			}
			p.g.Tags = append(p.g.Tags, record.Tag{Name: name, Value: strings.TrimSpace(v.String())})
			return nil
		case c == '\\' && p.i < len(p.s) && (p.s[p.i] == '"' || p.s[p.i] == '\\'):
			c = p.s[p.i]
			p.i++
		case c == '\n' || c < 0x20 || c == 0x7f:
			if c == '\n' {
				p.line++
			}
			space = true
			continue
		}
		if space && v.Len() > 0 {
			v.WriteByte(' ')
		}
		space = false
		v.WriteByte(c)
	}
}

func isLetter(c byte) bool   { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
func isNameByte(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' || c == '_' }

// token reads one item of movetext.
func (p *parser) token() error {
	line := p.line
	switch c := p.s[p.i]; {
	case c == '{':
		return p.comment()
	case c == ';':
		for p.i < len(p.s) && p.s[p.i] != '\n' {
			p.i++
		}
		return nil
	case c == '(':
		return p.variation()
	case c == ')':
		return p.fail(line, ")", "a ) closes no variation")
	case c == '}':
		return p.fail(line, "}", "a } closes no comment")
	case c == '.':
		for p.i < len(p.s) && p.s[p.i] == '.' {
			p.i++
		}
		return nil
	case c == '$':
		j := p.i + 1
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		if j == p.i+1 {
			return p.fail(line, p.word(), "an annotation $ is followed by its number")
		}
		p.i = j
		return nil
	case c >= '0' && c <= '9':
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		if j < len(p.s) && p.s[j] == '.' {
			n, err := strconv.Atoi(p.s[p.i:j])
			if err != nil || n < 1 || n > 1_000_000 {
				return p.fail(line, p.s[p.i:j], "a move number is a whole number from 1 to 1000000")
			}
			p.round, p.i = n, j
			for p.i < len(p.s) && p.s[p.i] == '.' {
				p.i++
			}
			return nil
		}
	}
	w := p.word()
	p.i += len(w)
	switch w {
	case "*", "1-0", "0-1", "1/2-1/2":
		p.g.Result = w
		return nil
	}
	m, err := ParseMove(w)
	if err != nil {
		return &ParseError{Game: len(p.games), Line: line, Text: w, Err: moveError(p.round, len(p.g.Moves), err)}
	}
	m.Round, m.Line = p.round, line
	p.g.Moves = append(p.g.Moves, m)
	return nil
}

// moveError adds the move number to a move's error.
func moveError(round, ply int, err error) error {
	msg := strings.TrimPrefix(err.Error(), "pgn4: ")
	if round > 0 {
		return fmt.Errorf("move %d (the game's %s move): %s", round, ordinal(ply+1), msg)
	}
	return fmt.Errorf("the game's %s move: %s", ordinal(ply+1), msg)
}

// ordinal writes n as 1st, 2nd, 3rd, 4th, ...
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// comment skips a comment {...}, which may run over lines.
func (p *parser) comment() error {
	line := p.line
	for p.i++; p.i < len(p.s); p.i++ {
		switch p.s[p.i] {
		case '\n':
			p.line++
		case '}':
			p.i++
			return nil
		}
	}
	return p.fail(line, "{", "the comment has no closing }")
}

// variation skips a variation (...), with the variations and comments in
// it, up to MaxNesting deep.
func (p *parser) variation() error {
	line, depth := p.line, 0
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '\n':
			p.line++
		case '(':
			if depth++; depth > MaxNesting {
				return p.fail(p.line, "(", "variations nest more than %d deep", MaxNesting)
			}
		case ')':
			if depth--; depth == 0 {
				p.i++
				return nil
			}
		case '{':
			if err := p.comment(); err != nil {
				return err
			}
			continue
		}
		p.i++
	}
	return p.fail(line, "(", "the variation has no closing )")
}
