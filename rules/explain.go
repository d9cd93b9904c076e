package rules

import (
	"fmt"
	"slices"
	"strings"
)

// Explain returns the preset's complete rules in plain English, generated
// from the preset value itself, so that the text cannot drift from what the
// engine plays. docs/rules/ holds it for every preset.
func (pr *Preset) Explain() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# %s\n\n%s.\n\nSources: %s (docs/rules.md §9 says where to find them).\n\n", pr.Name, capitalize(pr.Title), pr.Source)
	pr.explainSeats(w)
	pr.explainPieces(w)
	pr.explainDice(w)
	pr.explainTurn(w)
	pr.explainTeams(w)
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
	if pr.Team.Partners {
		w("Partners sit opposite: South and North play against West and East. ")
	} else {
		w("Every player plays for himself. ")
	}
	if pr.RollOff {
		w("A roll-off decides who starts: one d4 per seat, the team sums compared, a tie rolled again; the winning team's seat that comes first in South, West, North, East order starts (before it the seat field is `-`). ")
	}
	w("Scores are listed in seat order: %s.", strings.Join(seats, ", "))
	if pr.Colours != [NumSeats]string{} {
		var cs []string
		for _, s := range pr.seats {
			cs = append(cs, fmt.Sprintf("%s %s", s, pr.Colours[s]))
		}
		w(" The sources show the armies as %s; notation keeps the letters b, y, g, r.", strings.Join(cs, ", "))
	}
	w("\n\n")
}

func (pr *Preset) explainPieces(w writeFunc) {
	w("## Pieces\n\n| letter | piece | points | moves |\n|---|---|---|---|\n")
	for _, k := range []Kind{King, Vizir, Elephant, Horse, Boat, Pawn} {
		rule := pr.Pieces[k]
		if rule.Letter == 0 {
			continue
		}
		moves := movementWords(rule.Moves)
		if k == King && pr.KingLeap && pr.LeapAttackers != 0 {
			var names []string
			for ks := pr.LeapAttackers; ks != 0; ks &= ks - 1 {
				names = append(names, pr.Pieces[lowestKind(ks)].Name)
			}
			moves += "; once a game (the `leaps` key lists who has), when no " + strings.Join(names, ", ") + " of an enemy army that can move could take it, a knight's leap (capturing too)"
		} else if k == King && pr.KingLeap {
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
	if pr.CountUp {
		w("\nCounting upwards: at the roll each die names the first kind at or above its face that the army still has on the board, movable or not; a die with none is lost. The dice field shows the faces so counted; when every die is lost it is `/`.\n")
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
	case pr.Team.KinglessPlays:
		w("An army without a king is not frozen: its seat still rolls on its turn, and its partner chooses the move, from both armies' pieces of the rolled kind. A seat with no pieces is skipped.\n\n")
	case pr.Goal == KingsGoal && pr.Team.Command != NoCommand:
		w("An army without a king is frozen: its pieces stay where they are and can be captured, and its turns are skipped, unless its partner commands it (below).\n\n")
	case pr.Goal == KingsGoal:
	case pr.Dead:
		w("An army dies when its %s is captured, or when its player plays `resign` or `timeout` (legal at any of the seat's turns; they are no move, so the list of legal actions leaves them out): then its %s stands on the board (the extra field's `dead` key lists such seats). A dead army's pieces stay where they are, block and can be captured, and its turns are skipped.\n\n", pr.Pieces[King].Name, pr.Pieces[King].Name)
	default:
		w("An army without a king is frozen: its pieces stay where they are and can be captured, and its turns are skipped.\n\n")
	}
	if pr.Triumph {
		if b := pr.Pieces[Boat].Name; b == "boat" {
			w("Boat triumph: when a boat's move leaves every square of a 2x2 block containing its destination occupied by boats, the mover captures every boat of that block (or blocks) that is not his own. Promotion to a boat does not set it off.\n\n")
		} else {
			w("%s combat: when a%s %s's move leaves every square of a 2x2 block containing its destination occupied by %ss, the mover captures every %s of that block (or blocks) that is not his own.\n\n", capitalize(b), article(b), b, b, b)
		}
	}
	if pr.Goal == PointsGoal && pr.Team.Partners {
		w("Scoring: the player who decided the capture scores the captured piece's points; a team's score is both partners' points.\n\n")
	} else if pr.Dead {
		w("Scoring: the capturer scores the captured piece's points, whoever owns it, but nothing for a piece of a dead army other than its %s.", pr.Pieces[King].Name)
		if pr.checks {
			var bonus []string
			for n, pts := range pr.Checks {
				if pts != 0 {
					bonus = append(bonus, fmt.Sprintf("%d when %s", pts, numberWord(n)))
				}
			}
			w(" A move also scores when, after it, live enemy %ss of the mover are attacked anew: from a square, by a live army, that did not attack them before the move (the moved piece, a line the move opened, a second attacker of a %s already attacked; a %s standing on its square since before is not anew): %s are.", pr.Pieces[King].Name, pr.Pieces[King].Name, pr.Pieces[King].Name, strings.Join(bonus, ", "))
		}
		w("\n\n")
	} else if pr.Goal == PointsGoal {
		w("Scoring: the capturer scores the captured piece's points, whoever owns it.\n\n")
	}
}

func (pr *Preset) explainTeams(w writeFunc) {
	t := pr.Team
	if !pr.teamPlay {
		return
	}
	w("## Team play\n\n")
	switch {
	case t.Safe == kinds(King):
		w("- Partners' kings cannot be captured; their other pieces can.\n")
	case t.Safe != 0:
		w("- Partners' pieces cannot be captured.\n")
	}
	if t.Control {
		w("- Throne control: a player whose %s stands, at his roll, on the throne of a seat without a %s rolls a second pair of dice, which moves only that army (the dice field shows his faces, `/`, then that army's: `13/24`; the extra field's `control` key names the army). Moves of the two pairs come in any order, each using a die of the army it moves; `pass` gives up everything left. Controlled pieces never capture the controller's team, nor their own. A seat without a %s whose partner's %s stands on its throne plays its own turn; otherwise it is frozen.\n",
			pr.Pieces[King].Name, pr.Pieces[King].Name, pr.Pieces[King].Name, pr.Pieces[King].Name)
	}
	if t.Unkindness {
		w("- Unkindness of ravens: a %s moving onto the last empty square of d4, e4, d5, e5 while the other three hold the other three seats' %ss captures those three, the partner's too (a controlled %s does not).\n", pr.Pieces[Elephant].Name, pr.Pieces[Elephant].Name, pr.Pieces[Elephant].Name)
	}
	if t.Return {
		w("- Return: after the capture of a %s that does not end the game, while the capturer's team is missing one, the capturer plays `noreturn`, `return=us` or `return=them` (which team places first); then the owners of both captured %ss place them with `M@sq` on an empty square of their home row, else of their second row, else anywhere. Then the turn goes on with its remaining dice. The extra field's `return` (decide, place) and `turn` keys hold the step.\n", pr.Pieces[King].Name, pr.Pieces[King].Name)
	}
	if t.Stakes {
		k := pr.Pieces[King].Name
		w("- Lone %s: a %s that is its army's only piece is removed at the end of the action that leaves it alone; no stake is paid and it cannot be exchanged (the `retired` key lists such seats).\n", k, k)
		w("- Free return: when a seat's team lacks one %s and the other team lacks both, at that seat's next turn (if it has pieces) its %s returns to its throne, or, if the throne is taken, its owner places it on an adjacent empty square with `K@sq` (the extra field shows `return=back`); then it rolls.\n", k, k)
		w("- Stakes, shown as net units in the scores: every player antes 1 to a pot; the first enemy piece to occupy a %s's starting square collects 1 from that %s's owner, once per throne (the `thrones` key); each %s capture collects 1 from its owner; stakes go to whoever decided the move. At the end, a winner commanding through a throne collects 2 from each opponent (the empire), and the pot pays each winner 1 from each loser's ante; a draw refunds the antes.\n", k, k, k)
	}
	if t.Drops {
		w("- Drop right: when a player captures an enemy king while his partner has no king and has lost exactly one, the partner gets the right to drop a king, kept until used (the `drops` key lists the seats holding one; `lost` counts each seat's kings lost, a letter per king). A king captured twice never returns. A seat holding a drop right is not skipped: it rolls, then plays `K@e4` on any empty square, which ends its turn, or `pass`.\n")
	}
	if t.MustTakeKing {
		w("- Must take the king: when a remaining die allows capturing an enemy king, only such captures are legal, and `pass` is not.\n")
	}
	if t.Command != NoCommand {
		both := "may move pieces of both armies"
		if t.Command == CommandTurns {
			both = "on each seat's turn moves only that seat's pieces"
		}
		w("- Command: when a %s moves onto its partner's throne (the square the partner's %s started on), its owner commands both armies until that %s leaves the throne or the partner gets a %s back. The commander decides both seats' turns, with that turn's roll if any, and %s. If each partner commands the other, each decides his own turn. A frozen army under command is not skipped. The seat field names the seat whose turn it is; the extra field's `command` key names the commanders.\n",
			pr.Pieces[King].Name, pr.Pieces[King].Name, pr.Pieces[King].Name, pr.Pieces[King].Name, both)
	}
	if t.Truce {
		w("- Sinhasana: the two armies of a command (the seats opposite each other) cannot capture each other while it lasts, not even in a boat triumph. A king entering any other throne does nothing. If the command ends in the middle of the commanded seat's turn and that seat has no king, the rest of its turn is lost.\n")
	}
	if t.KinglessPlays {
		w("- A player whose partner has no king commands the partner's army in the same way.\n")
	}
	if t.Bonuses {
		w("- Throne bonuses: +1 when a king moves onto an enemy throne, once per throne per game (the `thrones` key lists them), even if that throne's king is gone; +2 when any piece captures an enemy king standing on its own throne (on top of the +1 and the king's points).\n")
		w("- Empire: when the game ends because a team has no king, a player of the other team who is then commanding gets, once: 4 if he captured the last enemy king on a throne, else 2 if he captured the last enemy king, else 1.\n")
	}
	if t.ShareBoats {
		b := pr.Pieces[Boat].Name
		w("- In the %s's 2x2 block (the boat triumph), the enemy %ss are captured, and the partner's %ss there pass to the moving %s's owner.\n", b, b, b, b)
	}
	if t.Exchange != NoExchange {
		where := "any empty square"
		if t.Exchange == ExchangeAdjacent {
			where = "an empty square next to the throne, else any empty square"
		}
		w("- King exchange: after a capture of an enemy %s that leaves each team exactly one (such a capture never ends the game), the player who decided the capture plays `propose` or `waive`; after `propose` the owner of the %s just captured plays `accept` or `decline`. On `accept` the proposing team's missing %s is placed first, on its throne if empty, else its owner drops it on %s (`K@e4`); then the other likewise.", pr.Pieces[King].Name, pr.Pieces[King].Name, pr.Pieces[King].Name, where)
		w(" Then the turn passes on. While this is decided the seat field names the player to decide, and the extra field's `exchange` and `turn` keys hold the step and whose turn it is. Decisions and drops never change the clock, score or start a command.\n")
	}
	if pr.Retire && t.Exchange != NoExchange {
		w("- A king that retired cannot be exchanged (the `retired` key lists them).\n")
	}
	w("\n")
}

func (pr *Preset) explainPromotion(w writeFunc) {
	pro := pr.Promotion
	if pro.Rule == NoPromotion {
		w("## Promotion\n\nNone.\n\n")
		return
	}
	if pro.Rule == PromoteOnEnemyStart {
		n := func(k Kind) string { return pr.Pieces[k].Name }
		w("## Promotion\n\nA %s arriving on the starting square of an enemy %s or %s becomes that kind if its army has none; otherwise it goes on as a %s. ", n(Pawn), n(Elephant), n(Horse), n(Pawn))
		w("A privileged %s, when the army's pieces other than %ss are exactly one %s and one %s, instead promotes on arriving on the starting square of an enemy %s, %s or %s, to one of those kinds its army lacks, by choice (`=H`, `=E`, `=K`).\n\n", n(Pawn), n(King), n(Pawn), n(Boat), n(Horse), n(Elephant), n(King))
		return
	}
	w("## Promotion\n\nA %s reaching its last line ", pr.Pieces[Pawn].Name)
	switch pro.Rule {
	case PromoteBySquare:
		var names []string
		for _, k := range pro.BySquare {
			names = append(names, pr.Pieces[k].Name)
		}
		if pro.BySquare == [8]Kind{pro.BySquare[0], pro.BySquare[0], pro.BySquare[0], pro.BySquare[0], pro.BySquare[0], pro.BySquare[0], pro.BySquare[0], pro.BySquare[0]} {
			w("becomes a%s %s. ", article(names[0]), names[0])
		} else {
			w("becomes the piece its square names, counted from the line's left-hand corner as its owner sees it: %s. ", strings.Join(names, ", "))
		}
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
	} else if pro.OnlyIfLacking {
		w("Otherwise it stays a %s.", pr.Pieces[Pawn].Name)
	} else if slices.Contains(pro.BySquare[:], King) || pro.Choices.Has(King) {
		w("It always promotes, even to a second king.")
	} else {
		w("It always promotes, whatever pieces its army has.")
	}
	if pro.Rule == PromoteByChoice && pr.LastArmy {
		w(" A move that takes the last enemy piece ends the game before the player chooses: it is written without `=X` and the %s stays a %s.", pr.Pieces[Pawn].Name, pr.Pieces[Pawn].Name)
	}
	w("\n\n")
}

func (pr *Preset) explainEnd(w writeFunc) {
	w("## End of the game\n\nThe end is checked after every action. The game ends when:\n\n")
	switch {
	case pr.LastArmy:
		w("- only one army has pieces left;\n")
	case pr.Team.LastForces:
		w("- a team has no pieces left: it loses (a team without a king is frozen, and play goes on);\n")
		w("- no seat can take a turn: a draw;\n")
	case pr.Team.Stakes:
		w("- a team has nothing but %ss left (or nothing): it loses at once (losing both %ss only freezes a team);\n", pr.Pieces[King].Name, pr.Pieces[King].Name)
		w("- no seat can take a turn: a draw;\n")
	case pr.Team.Partners:
		w("- a team has no king left on the board: ")
		if pr.Goal == KingsGoal {
			w("the other team wins;\n")
		} else {
			w("the higher team score wins;\n")
		}
	case pr.Goal == KingsGoal:
		w("- a side has no king left: the other side wins;\n")
	case pr.Dead:
		w("- at most one army lives: it scores the %s's points for every other %s still standing;\n", pr.Pieces[King].Name, pr.Pieces[King].Name)
		if pr.Claim {
			w("- the player to act, when two armies live and his score is above every other seat's, plays `claim`: the other live army dies, and he scores as the last live army does;\n")
			w("- nobody can catch the leader: two armies or fewer live, and the seat with the highest score has more than any other could still reach (a dead army: its score; a live one: its score, %d for the clock, and the points of every other seat's piece on the board: a %s's for any %s, the best promotion's for a live %s, nothing for a dead army's other pieces);\n", pr.DrawPoints, pr.Pieces[King].Name, pr.Pieces[King].Name, pr.Pieces[Pawn].Name)
		}
	default:
		if pr.Raise > 0 {
			w("- one king is left on the board: its owner's score is raised to %d if lower;\n", pr.Raise)
		} else {
			w("- one king is left on the board;\n")
		}
	}
	if pr.PeaceEnds && pr.Team.Partners {
		w("- only kings are left on the board (honourable peace): a draw, whatever the scores;\n")
	} else if pr.PeaceEnds {
		w("- only kings are left on the board (honourable peace);\n")
	}
	if pr.TurnClock {
		w("- %d turns have been played: a draw.\n", pr.ClockLimit)
	} else {
		w("- %d turns pass in a row without a capture or a %s move", pr.ClockLimit, pr.Pieces[Pawn].Name)
		if pr.Goal == KingsGoal {
			w(": a draw")
		}
		if pr.Dead && pr.DrawPoints != 0 {
			w(": each live army scores %d", pr.DrawPoints)
		}
		w(".\n")
	}
	if pr.Goal == PointsGoal && pr.Team.Partners {
		w("\nThe team with the higher team score wins; equal team scores are a draw.\n")
	} else if pr.Goal == PointsGoal {
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
	{PawnDouble, "from its second line, two squares forward over an empty square to an empty one"},
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

// article returns "n" when a word takes "an".
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "n"
	}
	return ""
}
