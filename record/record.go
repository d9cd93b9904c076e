package record

import (
	"io"
	"slices"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/rules"
)

// TurnsPerLine is how many turn groups a written record puts on one line of
// movetext: a round of the four seats when none is skipped.
const TurnsPerLine = 4

// Record is one game's record: its tag pairs and its turns.
type Record struct {
	Tags  Tags         // the header; its Rules tag names the preset
	Turns []rules.Turn // the turns played, in order
	// Times, in a timed game's record, holds for each turn group the time
	// each of its decisions took, as the server counted it against the
	// clock (TimeControl): one for each action, written after them in
	// seconds ("b 25 a1c3,d2d3 {4.1,0.75}"), as PGN's %emt comments do. It
	// is nil, or one entry a turn group, nil for a group without times.
	Times [][]time.Duration

	src source // where a parsed record came from, for error messages
}

// source locates a parsed record in its text.
type source struct {
	game  int            // the record's place in its file, from 1
	tags  map[string]int // the line of each tag
	turns []int          // the line of each turn group
}

// FromGame returns the record of game g. Its tags are, in this order: Rules
// (the game's preset, whatever is given), the given tags (player names such
// as South, Date, ...), then Seed and SeedHash (left out when the game's
// seed is the zero seed), Start (only when the game did not start from the
// preset's start position) and Result, which are taken from the game and
// replace any given. While a game is live its seed is secret: delete the
// Seed tag before showing the record.
func FromGame(g *rules.Game, tags ...Tag) *Record {
	pr := g.Preset()
	r := &Record{Tags: Tags{{"Rules", pr.Name}}}
	for _, t := range tags {
		if t.Name != "Rules" {
			r.Tags.Set(t.Name, t.Value)
		}
	}
	for _, name := range []string{"Seed", "SeedHash", "Start", "Result"} {
		r.Tags.Delete(name)
	}
	if seed := g.Seed(); seed != (rules.Seed{}) {
		r.Tags.Set("Seed", seed.String())
		r.Tags.Set("SeedHash", seed.Commitment())
	}
	if start := g.Start(); !start.Equal(pr.StartPosition()) {
		r.Tags.Set("Start", start.String())
	}
	r.Tags.Set("Result", Result(g.Position()))
	for _, t := range g.Turns() {
		t.Actions = slices.Clone(t.Actions)
		r.Turns = append(r.Turns, t)
	}
	return r
}

// String returns the record in canonical form: one tag pair a line; then, if
// the game has turns, a blank line and the movetext, TurnsPerLine turn groups
// a line separated by two spaces. Every line ends with a line break.
func (r *Record) String() string {
	var b strings.Builder
	for _, t := range r.Tags {
		b.WriteString(t.String())
		b.WriteByte('\n')
	}
	if len(r.Turns) > 0 {
		b.WriteByte('\n')
	}
	pr, _ := r.preset()
	for i, t := range r.Turns {
		switch {
		case i == 0:
		case i%TurnsPerLine == 0:
			b.WriteByte('\n')
		default:
			b.WriteString("  ")
		}
		writeTurn(&b, pr, t)
		if i < len(r.Times) && len(r.Times[i]) > 0 && len(t.Actions) > 0 {
			writeTimes(&b, r.Times[i])
		}
	}
	if len(r.Turns) > 0 {
		b.WriteByte('\n')
	}
	return b.String()
}

// writeTurn writes one turn group: `b 5 d2d3`, or with two dice and two
// actions `b 25 a1c3,d2d3`. A turn whose roll awaits its action has no
// actions field: `b 5`.
func writeTurn(b *strings.Builder, pr *rules.Preset, t rules.Turn) {
	b.WriteByte(t.Seat.Letter())
	b.WriteByte(' ')
	b.WriteString(t.Roll.String())
	for i, a := range t.Actions {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteByte(',')
		}
		if pr != nil {
			b.WriteString(a.Format(pr))
		} else {
			b.WriteString(a.String())
		}
	}
}

// Write writes the record in canonical form to w.
func (r *Record) Write(w io.Writer) error {
	_, err := io.WriteString(w, r.String())
	return err
}

// WriteAll writes records to w in canonical form, a blank line between two
// records, as one record file.
func WriteAll(w io.Writer, rs []*Record) error {
	fw := NewFileWriter(w)
	for _, r := range rs {
		if err := fw.Write(r); err != nil {
			return err
		}
	}
	return nil
}

// FileWriter writes records one at a time as one record file: each in
// canonical form, a blank line between two (WriteAll, for records that
// come one by one).
type FileWriter struct {
	w io.Writer
	n int // the records written
}

// NewFileWriter returns a FileWriter that writes to w.
func NewFileWriter(w io.Writer) *FileWriter { return &FileWriter{w: w} }

// Write writes the next record of the file.
func (fw *FileWriter) Write(r *Record) error {
	if fw.n > 0 {
		if _, err := io.WriteString(fw.w, "\n"); err != nil {
			return err
		}
	}
	if err := r.Write(fw.w); err != nil {
		return err
	}
	fw.n++
	return nil
}

// Count returns how many records have been written.
func (fw *FileWriter) Count() int { return fw.n }

// Equal reports whether two records have the same tags, in the same order,
// and the same turns with the same times. Where they were read from does
// not matter.
func (r *Record) Equal(o *Record) bool {
	if !slices.Equal(r.Tags, o.Tags) || !slices.EqualFunc(r.Turns, o.Turns, func(a, b rules.Turn) bool {
		return a.Seat == b.Seat && a.Roll == b.Roll && slices.Equal(a.Actions, b.Actions)
	}) {
		return false
	}
	for i := range r.Turns {
		if !slices.Equal(r.timesOf(i), o.timesOf(i)) {
			return false
		}
	}
	return true
}

// timesOf returns the times of turn group i, nil if it has none.
func (r *Record) timesOf(i int) []time.Duration {
	if i < len(r.Times) {
		return r.Times[i]
	}
	return nil
}

// TurnLine returns the line of the file where turn group i (from 0) of a
// parsed record starts, or 0 if the record was not parsed.
func (r *Record) TurnLine(i int) int {
	if i < 0 || i >= len(r.src.turns) {
		return 0
	}
	return r.src.turns[i]
}

// Number returns the record's place in the file it was parsed from, from 1;
// 0 if it was not parsed.
func (r *Record) Number() int { return r.src.game }

// preset returns the preset that the Rules tag names.
func (r *Record) preset() (*rules.Preset, error) {
	name, ok := r.Tags.Get("Rules")
	if !ok {
		return nil, r.tagError("Rules", "", errNoRules)
	}
	pr, err := rules.Lookup(name)
	if err != nil {
		return nil, r.tagError("Rules", name, err)
	}
	return pr, nil
}

// tagError returns an error about the named tag, at its line if known.
func (r *Record) tagError(name, value string, err error) *Error {
	return &Error{Game: r.src.game, Line: r.src.tags[name], Tag: name, Token: value, Err: err}
}

// turnError returns an error about turn group i (from 0) and a token of it.
func (r *Record) turnError(i int, token string, err error) *Error {
	return &Error{Game: r.src.game, Line: r.TurnLine(i), Turn: i + 1, Token: token, Err: err}
}
