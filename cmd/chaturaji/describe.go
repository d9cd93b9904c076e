package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/chaturaji/chaturaji/rules"
)

// describe writes what is known of preset pr in plain English, generated
// from the preset value alone. It is the seed of the full rules text: each
// rule a preset field sets gets a sentence here.
func describe(w io.Writer, pr *rules.Preset) {
	fmt.Fprintf(w, "%s: %s\n", pr.Name, pr.Title)
	fmt.Fprintf(w, "Sources: %s\n\n", pr.Source)
	describeSeats(w, pr)
	describePieces(w, pr)
	describeDice(w, pr)
	describeRules(w, pr)
	describeStart(w, pr)
}

func describeSeats(w io.Writer, pr *rules.Preset) {
	var order, seats []string
	for _, s := range pr.Order {
		order = append(order, fmt.Sprintf("%s (%c)", s, s.Letter()))
	}
	for _, s := range pr.Seats() {
		seats = append(seats, s.String())
	}
	fmt.Fprintf(w, "Seats, in turn order: %s.\n", strings.Join(order, ", "))
	fmt.Fprintf(w, "Scores are listed in seat order: %s.\n\n", strings.Join(seats, ", "))
}

func describePieces(w io.Writer, pr *rules.Preset) {
	fmt.Fprintln(w, "Pieces (letter, name, points for capturing it, moves):")
	for k := rules.Kind(rules.NumKinds - 1); k > rules.NoKind; k-- {
		rule := pr.Pieces[k]
		if rule.Letter == 0 {
			continue
		}
		points := fmt.Sprintf("%d points", rule.Points)
		if rule.Points == 1 {
			points = "1 point"
		}
		fmt.Fprintf(w, "  %c  %-9s %-9s %s", rule.Letter, rule.Name, points, movementWords(rule.Moves))
		var never []string
		for t := rules.Kind(1); t < rules.Kind(rules.NumKinds); t++ {
			if rule.CannotTake.Has(t) {
				never = append(never, pr.Pieces[t].Name)
			}
		}
		if len(never) > 0 {
			fmt.Fprintf(w, "; never captures a %s by an ordinary move", strings.Join(never, " or a "))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "A piece captures by moving onto an enemy piece, which leaves the board.")
	fmt.Fprintln(w, "Forward is away from the owner's side: north for South, east for West,")
	fmt.Fprintln(w, "south for North, west for East.")
	fmt.Fprintln(w)
}

// movementTexts name the components of a Movement in words.
var movementTexts = []struct {
	m    rules.Movement
	text string
}{
	{rules.StepAny, "one square in any of the 8 directions"},
	{rules.StepDiagonal, "one square diagonally"},
	{rules.LeapKnight, "a chess knight's leap"},
	{rules.LeapAlfil, "exactly two squares diagonally, jumping over the square between"},
	{rules.SlideOrth, "any distance orthogonally, without jumping"},
	{rules.SlideDiagonal, "any distance diagonally, without jumping"},
	{rules.PawnPush, "one square forward to an empty square"},
	{rules.PawnTakeDiag, "captures one square diagonally forward"},
	{rules.PawnTakeAhead, "captures one square straight forward"},
}

// movementWords returns movement m in words.
func movementWords(m rules.Movement) string {
	var parts []string
	for _, t := range movementTexts {
		if m&t.m != 0 {
			parts = append(parts, t.text)
		}
	}
	return strings.Join(parts, "; ")
}

func describeDice(w io.Writer, pr *rules.Preset) {
	d := pr.Die
	if d == nil {
		fmt.Fprintln(w, "Dice: none; any piece may move, and pass only when no move exists.")
		fmt.Fprintln(w)
		return
	}
	count := map[int]string{1: "one", 2: "two"}[pr.Dice]
	if count == "" {
		count = fmt.Sprint(pr.Dice)
	}
	var faces []string
	for _, f := range d.Faces {
		faces = append(faces, fmt.Sprint(f))
	}
	fmt.Fprintf(w, "Dice: %s %s die a turn, faces %s, each equally likely. The face names\n", count, d.Name, strings.Join(faces, ", "))
	fmt.Fprintln(w, "the kind of piece to move; if none of that kind can move, the only action is pass:")
	for _, f := range d.Faces {
		what := d.Words[f]
		if what == "" {
			what = "no piece: the die is lost"
		}
		fmt.Fprintf(w, "  %d  %s\n", f, what)
	}
	fmt.Fprintln(w)
}

func describeRules(w io.Writer, pr *rules.Preset) {
	var names []string
	for _, k := range pr.Promotion.BySquare {
		if k != rules.NoKind {
			names = append(names, pr.Pieces[k].Name)
		}
	}
	if len(names) > 0 {
		fmt.Fprintf(w, "Promotion: a pawn reaching its last line becomes the piece its square names,\ncounted from the line's left-hand corner:\n  %s.\n", strings.Join(names, ", "))
		if pr.Promotion.OnlyIfLacking {
			fmt.Fprintln(w, "It promotes only to a kind its army has no piece of; otherwise it waits on the\nlast line and promotes at the start of a later turn of its owner.")
		}
	}
	if pr.Triumph {
		fmt.Fprintln(w, "Boat triumph: a boat completing a 2x2 block of boats captures every other\nowner's boat in it.")
	}
	if pr.Retire {
		fmt.Fprintln(w, "Retire: a player left with only the king may take it off the board; nobody\nscores for it.")
	}
	fmt.Fprintln(w, "An army without a king is frozen: its turns are skipped.")
	fmt.Fprintln(w, "The game ends when:")
	if pr.Raise > 0 {
		fmt.Fprintf(w, "  - one king is left on the board: its owner's score is raised to %d if lower;\n", pr.Raise)
	}
	if pr.PeaceEnds {
		fmt.Fprintln(w, "  - only kings are left on the board;")
	}
	if pr.ClockLimit > 0 {
		fmt.Fprintf(w, "  - %d turns pass in a row without a capture or a pawn move.\n", pr.ClockLimit)
	}
	fmt.Fprintln(w)
}

func describeStart(w io.Writer, pr *rules.Preset) {
	p := pr.StartPosition()
	fmt.Fprintf(w, "Start position:\n  %s\n\n", p)
	for r := 7; r >= 0; r-- {
		fmt.Fprintf(w, "  %d ", r+1)
		for f := range 8 {
			pc := p.At(rules.SquareAt(f, r))
			if pc == rules.NoPiece {
				fmt.Fprint(w, "  .")
				continue
			}
			fmt.Fprintf(w, " %c%c", pc.Seat().Letter(), pr.Pieces[pc.Kind()].Letter)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "     a  b  c  d  e  f  g  h")
}
