package rules

import (
	"fmt"
	"strings"
)

// Explain returns the preset's complete rules in plain English, generated
// from the preset value itself, so that the text cannot drift from what the
// engine plays. docs/rules/ holds it for every preset.
func (pr *Preset) Explain() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# %s\n\n%s.\n\nSources: %s.\n\n", pr.Name, capitalize(pr.Title), pr.Source)
	pr.explainSeats(w)
	pr.explainPieces(w)
	pr.explainDice(w)
	pr.explainTurn(w)
	pr.explainPromotion(w)
	pr.explainEnd(w)
	pr.explainOptions(w)
	pr.explainStart(w)
	return b.String()
}

type writeFunc func(format string, args ...any)

func (pr *Preset) explainSeats(w writeFunc) {
	var order, seats []string
	for _, s := range pr.Order {
		order = append(order, fmt.Sprintf("%s (%c)", s, s.Letter()))
	}
	for _, s := range pr.seats {
		seats = append(seats, s.String())
	}
	w("## Seats\n\n%s seats play, in this turn order: %s. ", capitalize(numberWord(len(pr.Order))), strings.Join(order, ", "))
	w("Every player plays for himself. Scores are listed in seat order: %s.\n\n", strings.Join(seats, ", "))
}

func (pr *Preset) explainPieces(w writeFunc) {
	w("## Pieces\n\n| letter | piece | points | moves |\n|---|---|---|---|\n")
	for _, k := range []Kind{King, Vizir, Elephant, Horse, Boat, Pawn} {
		rule := pr.Pieces[k]
		if rule.Letter == 0 {
			continue
		}
		moves := movementWords(rule.Moves)
		if k == King && pr.KingLeap {
			moves += "; once a game, when no enemy piece attacks it, a knight's leap (capturing too)"
		}
		var never []string
		for t := Kind(1); t < numKinds; t++ {
			if rule.CannotTake.Has(t) && pr.Pieces[t].Letter != 0 {
				never = append(never, pr.Pieces[t].Name)
			}
		}
		if len(never) > 0 {
			moves += "; never captures a " + strings.Join(never, ", a ") + " by an ordinary move"
		}
		w("| %c | %s | %d | %s |\n", rule.Letter, rule.Name, rule.Points, moves)
	}
	w("\nA piece captures by moving onto an enemy piece, which leaves the board; there is no check, and kings are captured like any piece. ")
	w("Forward is away from the owner's side: north for South, east for West, south for North, west for East.\n\n")
}

func (pr *Preset) explainDice(w writeFunc) {
	w("## Dice\n\n")
	d := pr.Die
	if d == nil {
		w("None: any piece may move. `pass` is legal only when no move is.\n\n")
		return
	}
	var faces []string
	for _, f := range d.Faces {
		faces = append(faces, fmt.Sprint(f))
	}
	w("%s %s %s a turn, faces %s, each equally likely. A face names the kind of piece to move:\n\n",
		capitalize(numberWord(pr.Dice)), d.Name, plural("die", "dice", pr.Dice), strings.Join(faces, ", "))
	for _, f := range d.Faces {
		what := d.Words[f]
		if what == "" {
			what = "nothing: the die is lost"
		}
		w("- %d: %s\n", f, what)
	}
	w("\nThe dice are rolled by the program from the game's secret seed, whose SHA-256 is published when the game starts and which is revealed when it ends.\n\n")
}

func (pr *Preset) explainTurn(w writeFunc) {
	w("## A turn\n\n")
	if pr.Dice > 1 {
		w("The player moves once for each die, in any order, while a die remains: a move uses the first remaining die, in ascending face order, whose kind fits the piece moved. The same piece may move twice. Which kinds a die allows is read from the board as it stands. ")
	} else if pr.Die != nil {
		w("The player must move one piece of the kind the die names. ")
	} else {
		w("The player moves one piece. ")
	}
	switch {
	case pr.PassAlways:
		w("`pass` is always legal and gives up the rest of the turn.")
	case pr.Die == nil:
		w("If no piece can move, the only action is `pass`.")
	default:
		w("If no such piece can move, the only action is `pass`.")
	}
	if pr.Retire {
		w(" A player left with nothing but the king may also `retire` it: it leaves the board, nobody scores for it, and the army is out.")
	}
	w("\n\n")
	switch {
	case pr.Kingless:
		w("An army without a king keeps moving; a seat with no piece that can move passes.\n\n")
	case pr.Goal == KingsGoal:
	default:
		w("An army without a king is frozen: its pieces stay where they are and can be captured, and its turns are skipped.\n\n")
	}
	if pr.Triumph {
		w("Boat triumph: when a boat's move leaves every square of a 2x2 block containing its destination occupied by boats, the mover captures every boat of that block (or blocks) that is not his own. Promotion to a boat does not set it off.\n\n")
	}
	if pr.Goal == PointsGoal {
		w("Scoring: the capturer scores the captured piece's points, whoever owns it.\n\n")
	}
}

func (pr *Preset) explainPromotion(w writeFunc) {
	pro := pr.Promotion
	if pro.Rule == NoPromotion {
		w("## Promotion\n\nNone.\n\n")
		return
	}
	w("## Promotion\n\nA %s reaching its last line ", pr.Pieces[Pawn].Name)
	switch pro.Rule {
	case PromoteBySquare:
		var names []string
		for _, k := range pro.BySquare {
			names = append(names, pr.Pieces[k].Name)
		}
		w("becomes the piece its square names, counted from the line's left-hand corner as its owner sees it: %s. ", strings.Join(names, ", "))
	case PromoteByStartFile:
		w("becomes the piece that started on the same file. ")
	case PromoteByChoice:
		var names []string
		for ks := pro.Choices; ks != 0; ks &= ks - 1 {
			names = append(names, pr.Pieces[lowestKind(ks)].Name)
		}
		w("becomes, by the player's choice (written `=X` after the move), one of: %s. ", strings.Join(names, ", "))
	}
	if pro.OnlyIfLacking {
		w("It promotes only to a kind its army has fewer pieces of than it started with. ")
	}
	if pro.Wait {
		w("Otherwise it waits on the last line, unable to move, and promotes at the start of a later turn of its owner as soon as it can (two waiting for one kind: the lower square first, a1 = 0 to h8 = 63); a frozen army's waiting %s promotes too, and a new king unfreezes the army.", pr.Pieces[Pawn].Name)
	} else {
		w("Otherwise it stays a %s.", pr.Pieces[Pawn].Name)
	}
	w("\n\n")
}

func (pr *Preset) explainEnd(w writeFunc) {
	w("## End of the game\n\nThe end is checked after every action. The game ends when:\n\n")
	switch {
	case pr.LastArmy:
		w("- only one army has pieces left;\n")
	case pr.Goal == KingsGoal:
		w("- a side has no king left: the other side wins;\n")
	default:
		if pr.Raise > 0 {
			w("- one king is left on the board: its owner's score is raised to %d if lower;\n", pr.Raise)
		} else {
			w("- one king is left on the board;\n")
		}
	}
	if pr.PeaceEnds {
		w("- only kings are left on the board (honourable peace);\n")
	}
	if pr.TurnClock {
		w("- %d turns have been played: a draw.\n", pr.ClockLimit)
	} else {
		w("- %d turns pass in a row without a capture or a %s move", pr.ClockLimit, pr.Pieces[Pawn].Name)
		if pr.Goal == KingsGoal {
			w(": a draw")
		}
		w(".\n")
	}
	if pr.Goal == PointsGoal {
		w("\nThe higher score ranks higher; equal scores share a rank.\n")
	}
	w("\n")
}

func (pr *Preset) explainOptions(w writeFunc) {
	if len(pr.Options) == 0 {
		return
	}
	w("## House rules\n\nAdd them to the name with `+`, as in `%s+%s`:\n\n", pr.Name, pr.Options[0].Name+optionExample(pr.Options[0]))
	for _, o := range pr.Options {
		w("- `%s%s`: %s\n", o.Name, optionValues(o), o.Help)
	}
	w("\n")
}

func optionExample(o Option) string {
	if o.Values == nil {
		return ""
	}
	if o.Values[0] == "N" {
		return "=100"
	}
	return "=" + o.Values[0]
}

func optionValues(o Option) string {
	if o.Values == nil {
		return ""
	}
	return "=" + strings.Join(o.Values, "|")
}

func (pr *Preset) explainStart(w writeFunc) {
	p := pr.start
	w("## Start position\n\n`%s`\n\n```\n", p)
	for r := 7; r >= 0; r-- {
		w("  %d ", r+1)
		for f := range 8 {
			pc := p.At(SquareAt(f, r))
			if pc == NoPiece {
				w("  .")
				continue
			}
			w(" %c%c", pc.Seat().Letter(), pr.Pieces[pc.Kind()].Letter)
		}
		w("\n")
	}
	w("     a  b  c  d  e  f  g  h\n```\n")
}

// movementTexts name the components of a Movement in words.
var movementTexts = []struct {
	m    Movement
	text string
}{
	{StepAny, "one square in any of the 8 directions"},
	{StepDiagonal, "one square diagonally"},
	{LeapKnight, "a chess knight's leap"},
	{LeapAlfil, "exactly two squares diagonally, jumping over the square between"},
	{SlideOrth, "any distance orthogonally, without jumping"},
	{SlideDiagonal, "any distance diagonally, without jumping"},
	{PawnPush, "one square forward to an empty square"},
	{PawnTakeDiag, "captures one square diagonally forward"},
	{PawnTakeAhead, "captures one square straight forward"},
}

func movementWords(m Movement) string {
	var parts []string
	for _, t := range movementTexts {
		if m&t.m != 0 {
			parts = append(parts, t.text)
		}
	}
	return strings.Join(parts, "; ")
}

func numberWord(n int) string {
	if n >= 0 && n < 5 {
		return [...]string{"no", "one", "two", "three", "four"}[n]
	}
	return fmt.Sprint(n)
}

func plural(one, many string, n int) string {
	if n == 1 {
		return one
	}
	return many
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
