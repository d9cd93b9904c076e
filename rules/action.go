package rules

import (
	"fmt"
	"strings"
)

// Action is one decision of a player: a move, pass, retire, or (in presets
// that have them) a drop or another named decision. It is a small value: the
// type, the from and to squares, and the kind a promotion or drop names.
type Action uint32

// ActionType says what an Action is.
type ActionType uint8

// The types of action.
const (
	NoAction   ActionType = iota
	Move                  // a piece moves from one square to another
	Pass                  // the player gives up the turn
	Retire                // a lone king leaves the board
	Drop                  // a piece is placed on an empty square (`K@e4`)
	Propose               // the capturer of a king proposes a king exchange
	Waive                 // the capturer of a king lets the exchange go
	Accept                // the owner of the king just captured accepts the exchange
	Decline               // the owner of the king just captured declines it
	NoReturn              // the capturer of a monarch lets both captured monarchs stay off (martian)
	ReturnUs              // ... returns both, his team's placed first
	ReturnThem            // ... returns both, the other team's placed first
	Resign                // the seat's army dies, its king standing (presets with Dead)
	Timeout               // the seat ran out of time: as Resign, recorded as such
	Claim                 // the leader of the last two live armies ends the game (presets with Claim)
)

// decisionWords are the notation of the actions that are single words.
var decisionWords = map[ActionType]string{Pass: "pass", Retire: "retire", Propose: "propose", Waive: "waive", Accept: "accept", Decline: "decline",
	NoReturn: "noreturn", ReturnUs: "return=us", ReturnThem: "return=them", Resign: "resign", Timeout: "timeout", Claim: "claim"}

// MaxActions bounds the number of legal actions in any position of any
// preset; a buffer of this size never overflows.
const MaxActions = 512

const (
	typeShift = 12
	kindShift = 16
)

// MoveAction returns the move from one square to another.
func MoveAction(from, to Square) Action {
	return Action(uint32(Move)<<typeShift | uint32(to)<<6 | uint32(from))
}

// PromotionAction returns the move from one square to another that
// promotes to kind k, for presets where the player chooses.
func PromotionAction(from, to Square, k Kind) Action {
	return MoveAction(from, to) | Action(uint32(k)<<kindShift)
}

// PassAction is the action `pass`.
const PassAction = Action(uint32(Pass) << typeShift)

// RetireAction is the action `retire`.
const RetireAction = Action(uint32(Retire) << typeShift)

// The decisions of a king exchange (docs/rules.md §5.7).
const (
	ProposeAction = Action(uint32(Propose) << typeShift)
	WaiveAction   = Action(uint32(Waive) << typeShift)
	AcceptAction  = Action(uint32(Accept) << typeShift)
	DeclineAction = Action(uint32(Decline) << typeShift)
)

// The decisions of martian's monarch return (docs/rules.md §6.7).
const (
	NoReturnAction   = Action(uint32(NoReturn) << typeShift)
	ReturnUsAction   = Action(uint32(ReturnUs) << typeShift)
	ReturnThemAction = Action(uint32(ReturnThem) << typeShift)
)

// The ends chesscom-chaturaji's players may call (docs/rules.md §6.12).
const (
	ResignAction  = Action(uint32(Resign) << typeShift)
	TimeoutAction = Action(uint32(Timeout) << typeShift)
	ClaimAction   = Action(uint32(Claim) << typeShift)
)

// DropAction returns the placing of a piece of kind k on the empty square
// sq, written `K@e4`.
func DropAction(k Kind, sq Square) Action {
	return Action(uint32(Drop)<<typeShift | uint32(k)<<kindShift | uint32(sq)<<6)
}

// Type returns what the action is.
func (a Action) Type() ActionType { return ActionType(a >> typeShift & 15) }

// From returns the square a move starts from.
func (a Action) From() Square { return Square(a & 63) }

// To returns the square a move ends on.
func (a Action) To() Square { return Square(a >> 6 & 63) }

// Promotion returns the kind a move chooses to promote to, or a drop
// places; NoKind if none.
func (a Action) Promotion() Kind { return Kind(a >> kindShift & 15) }

// String returns the action in the default notation.
func (a Action) String() string { return a.Format(Chaturaji) }

// Format returns the action in the notation of preset pr: `d2d3`, `a7a8=H`,
// `pass`, `retire`.
func (a Action) Format(pr *Preset) string {
	switch a.Type() {
	case Move:
		s := a.From().String() + a.To().String()
		if k := a.Promotion(); k != NoKind {
			s += "=" + string(pr.Pieces[k].Letter)
		}
		return s
	case Drop:
		return string(pr.Pieces[a.Promotion()].Letter) + "@" + a.To().String()
	}
	if w, ok := decisionWords[a.Type()]; ok && a&^(15<<typeShift) == 0 {
		return w
	}
	return fmt.Sprintf("Action(%#x)", uint32(a))
}

// ParseAction reads an action in the notation of preset pr. It checks only
// the form; whether the action is legal is the position's question.
func ParseAction(pr *Preset, s string) (Action, error) {
	for t, w := range decisionWords {
		if s == w {
			return Action(uint32(t) << typeShift), nil
		}
	}
	if len(s) == 4 && s[1] == '@' {
		// Only kings are ever dropped (winther's drop right, an exchanged
		// king, fr2's free return, martian's monarch), so a drop of any
		// other kind is malformed whatever the position.
		k := NoKind
		if s[0] < 128 {
			k = pr.letterKind[s[0]]
		}
		sq, err := ParseSquare(s[2:])
		if k != King || err != nil {
			return 0, fmt.Errorf("rules: invalid drop %q: want the king's letter of %s (%c), @ and a square, like %c@e4", s, pr.Name, pr.Pieces[King].Letter, pr.Pieces[King].Letter)
		}
		return DropAction(k, sq), nil
	}
	if len(s) < 4 {
		return 0, fmt.Errorf("rules: invalid action %q: want a move like d2d3, pass or retire", s)
	}
	from, err := ParseSquare(s[0:2])
	if err != nil {
		return 0, fmt.Errorf("rules: invalid action %q: bad from square %q", s, s[0:2])
	}
	to, err := ParseSquare(s[2:4])
	if err != nil {
		return 0, fmt.Errorf("rules: invalid action %q: bad to square %q", s, s[2:4])
	}
	if from == to {
		return 0, fmt.Errorf("rules: invalid action %q: from and to are the same square", s)
	}
	rest := s[4:]
	if rest == "" {
		return MoveAction(from, to), nil
	}
	if len(rest) == 2 && rest[0] == '=' {
		if k := pr.letterKind[rest[1]&127]; k != NoKind && rest[1] < 128 {
			return PromotionAction(from, to, k), nil
		}
		return 0, fmt.Errorf("rules: invalid action %q: %q is not a piece letter of %s", s, rest[1:], pr.Name)
	}
	return 0, fmt.Errorf("rules: invalid action %q: unexpected %q after the squares", s, strings.TrimSpace(rest))
}
