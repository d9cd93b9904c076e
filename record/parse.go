package record

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/chaturaji/chaturaji/rules"
)

var errNoRules = errors.New("no Rules tag: a record must name its preset")

// Parse reads every record of a record file. It checks the form of the
// text and of each token against the preset the Rules tag names, not
// whether the game is legal: that is Replay's question. An error is an
// *Error naming the game and the line.
//
// The reader is lenient where no meaning is lost: lines may end in CRLF,
// blanks may surround tokens and lines, turn groups may be split across
// lines and blank lines may stand inside movetext. Lines whose first
// non-blank character is `;` are comments and are skipped.
func Parse(rd io.Reader) ([]*Record, error) {
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	return ParseString(string(data))
}

// ParseString is Parse on a string.
func ParseString(s string) ([]*Record, error) {
	var p parser
	for i, line := range strings.Split(s, "\n") {
		if err := p.line(i+1, strings.Trim(line, " \t\r")); err != nil {
			return nil, err
		}
	}
	if err := p.flush(); err != nil {
		return nil, err
	}
	return p.records, nil
}

// parser reads a record file line by line. A tag line that does not follow
// another tag line (comments aside) begins a new record; other lines are
// movetext of the current record.
type parser struct {
	records []*Record
	cur     *Record
	inTags  bool    // the last line that was not a comment was a tag
	tokens  []token // the current record's movetext
}

// token is a word of movetext and its line.
type token struct {
	text string
	line int
}

func (p *parser) line(n int, text string) error {
	switch {
	case text == "":
		p.inTags = false
	case text[0] == ';':
	case text[0] == '[':
		if !p.inTags {
			if err := p.flush(); err != nil {
				return err
			}
			p.cur = &Record{src: source{game: len(p.records) + 1, tags: map[string]int{}}}
			p.inTags = true
		}
		t, err := parseTag(text)
		if err != nil {
			return p.errorAt(n, err)
		}
		if _, dup := p.cur.Tags.Get(t.Name); dup {
			return p.errorAt(n, fmt.Errorf("tag %s given twice (first on line %d)", t.Name, p.cur.src.tags[t.Name]))
		}
		p.cur.Tags = append(p.cur.Tags, t)
		p.cur.src.tags[t.Name] = n
	default:
		if p.cur == nil {
			return &Error{Line: n, Err: errors.New("movetext before any tag pair: a record starts with its tags, such as [Rules \"chaturaji\"]")}
		}
		p.inTags = false
		for _, w := range strings.FieldsFunc(text, func(c rune) bool { return c == ' ' || c == '\t' }) {
			p.tokens = append(p.tokens, token{w, n})
		}
	}
	return nil
}

// errorAt returns an error at a line of the current record's tags.
func (p *parser) errorAt(line int, err error) error {
	return &Error{Game: p.cur.src.game, Line: line, Err: err}
}

// flush ends the current record: it reads its movetext into turns.
func (p *parser) flush() error {
	r := p.cur
	if r == nil {
		return nil
	}
	toks := p.tokens
	p.cur, p.tokens = nil, nil
	pr, err := r.preset()
	if err != nil {
		return err
	}
	for i := 0; i < len(toks); {
		n := len(r.Turns)
		r.src.turns = append(r.src.turns, toks[i].line)
		t, used, bad := parseTurn(pr, toks[i:])
		if bad != nil {
			return &Error{Game: r.src.game, Line: bad.tok.line, Turn: n + 1, Token: bad.tok.text, Err: bad.err}
		}
		r.Turns = append(r.Turns, t)
		i += used
		if i < len(toks) && strings.HasPrefix(toks[i].text, "{") {
			times, err := parseTimes(toks[i].text, len(t.Actions))
			if err != nil {
				return &Error{Game: r.src.game, Line: toks[i].line, Turn: n + 1, Token: toks[i].text, Err: err}
			}
			for len(r.Times) < n {
				r.Times = append(r.Times, nil)
			}
			r.Times = append(r.Times, times)
			i++
		}
	}
	p.records = append(p.records, r)
	return nil
}

// tokenError is a malformed token of movetext and why.
type tokenError struct {
	tok token
	err error
}

// parseTurn reads the turn group at the start of toks: colour, dice and,
// unless the turn still awaits its action, the actions joined by commas.
// It returns how many tokens it used.
func parseTurn(pr *rules.Preset, toks []token) (rules.Turn, int, *tokenError) {
	var t rules.Turn
	c := toks[0]
	seat, ok := rules.NoSeat, false
	if len(c.text) == 1 {
		seat, ok = rules.SeatOfLetter(c.text[0])
	}
	if !ok || !slices.Contains(pr.Seats(), seat) {
		return t, 0, &tokenError{c, fmt.Errorf("want the colour letter of a seat of %s (%s) to begin a turn", pr.Name, seatLetters(pr))}
	}
	t.Seat = seat
	if len(toks) < 2 {
		return t, 0, &tokenError{c, errors.New("the turn ends before its dice")}
	}
	d := toks[1]
	switch {
	case pr.Die == nil && d.text != "-":
		return t, 0, &tokenError{d, fmt.Errorf("%s has no dice: the dice field is -", pr.Name)}
	case pr.Die != nil:
		r, err := rules.ParseRoll(d.text)
		if err != nil || r.String() != d.text {
			return t, 0, &tokenError{d, fmt.Errorf("want the faces rolled in ascending order, such as %d", pr.Die.Faces[len(pr.Die.Faces)-1])}
		}
		t.Roll = r
	}
	// A one-letter token is the next turn's colour: this turn awaits its
	// action.
	if len(toks) < 3 || len(toks[2].text) == 1 || strings.HasPrefix(toks[2].text, "{") {
		return t, 2, nil
	}
	as := toks[2]
	for _, s := range strings.Split(as.text, ",") {
		a, err := rules.ParseAction(pr, s)
		if err != nil {
			return t, 0, &tokenError{as, err}
		}
		if f := a.Format(pr); f != s {
			return t, 0, &tokenError{as, fmt.Errorf("action %q is written %q", s, f)}
		}
		t.Actions = append(t.Actions, a)
	}
	return t, 3, nil
}

func seatLetters(pr *rules.Preset) string {
	var b strings.Builder
	for i, s := range pr.Seats() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte(s.Letter())
	}
	return b.String()
}
