package rules

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// The extra field of a position (docs/rules.md §7) carries the state a
// preset keeps beyond the board: `key=value` pairs joined by `;`, keys
// sorted. It is printed only when some key differs from its value at the
// start of a game, so a preset without such state has no sixth field.
//
// Keys (colour letters are always in seat order):
//   - command: the seats commanding their partner's army through its throne
//     (presets with command).
//   - dead: the seats whose army died by resign or timeout, their kings
//     standing (presets with Dead).
//   - exchange: the pending step of a king exchange: propose (the capturer
//     plays propose or waive), accept (the owner of the king captured plays
//     accept or decline) or drop (the seat to act drops its king); with turn.
//   - leaps: the seats whose king has made its once-a-game knight's leap
//     (presets with KingLeap).
//   - retired: the seats whose king retired (team presets with retire).
//   - thrones: the seats whose throne an enemy king has entered, its bonus
//     paid (chaturaji-teams).
//   - turn: while an exchange is pending, the seat whose turn it is.

// extraKeys returns the keys preset pr's positions may carry, sorted.
func (pr *Preset) extraKeys() []string {
	var keys []string
	if pr.Team.Command != NoCommand {
		keys = append(keys, "command")
	}
	if pr.Team.Control {
		keys = append(keys, "control")
	}
	if pr.Dead {
		keys = append(keys, "dead")
	}
	if pr.Team.Drops {
		keys = append(keys, "drops")
	}
	if pr.Team.Exchange != NoExchange {
		keys = append(keys, "exchange")
	}
	if pr.KingLeap {
		keys = append(keys, "leaps")
	}
	if pr.Team.Drops {
		keys = append(keys, "lost")
	}
	if pr.Team.Exchange != NoExchange && (pr.Retire || pr.Team.Stakes) {
		keys = append(keys, "retired")
	}
	if pr.Team.Return || pr.Team.Stakes {
		keys = append(keys, "return")
	}
	if pr.Team.Bonuses || pr.Team.Stakes {
		keys = append(keys, "thrones")
	}
	if pr.Team.Exchange != NoExchange || pr.Team.Return || pr.Team.Stakes {
		keys = append(keys, "turn")
	}
	return keys
}

// formatExtra returns the extra field, "" when it has nothing to say.
func (p *Position) formatExtra() string {
	var pairs []string
	if p.command != 0 {
		pairs = append(pairs, "command="+p.seatLetters(p.command))
	}
	if p.ctrl != 0 {
		pairs = append(pairs, "control="+string(Seat(p.ctrl-1).Letter()))
	}
	if p.dead != 0 {
		pairs = append(pairs, "dead="+p.seatLetters(p.dead))
	}
	if p.drops != 0 {
		pairs = append(pairs, "drops="+p.seatLetters(p.drops))
	}
	if p.step != noStep && p.step < stepReturn {
		pairs = append(pairs, "exchange="+stepNames[p.step])
	}
	if p.leaps != 0 {
		pairs = append(pairs, "leaps="+p.seatLetters(p.leaps))
	}
	if p.lost != 0 {
		var b []byte
		for _, s := range p.preset.seats {
			for range p.kingsLost(s) {
				b = append(b, s.Letter())
			}
		}
		pairs = append(pairs, "lost="+string(b))
	}
	if p.retired != 0 {
		pairs = append(pairs, "retired="+p.seatLetters(p.retired))
	}
	if p.step >= stepReturn {
		pairs = append(pairs, "return="+stepNames[p.step])
	}
	if p.thronesTaken != 0 {
		pairs = append(pairs, "thrones="+p.seatLetters(p.thronesTaken))
	}
	if p.step != noStep {
		pairs = append(pairs, "turn="+string(p.turn.Letter()))
	}
	return strings.Join(pairs, ";")
}

// seatLetters returns the colour letters of the seats in set, in seat
// order.
func (p *Position) seatLetters(set uint8) string {
	var b []byte
	for _, s := range p.preset.seats {
		if set&(1<<s) != 0 {
			b = append(b, s.Letter())
		}
	}
	return string(b)
}

func (p *Position) parseExtra(t string) error {
	pr := p.preset
	keys := pr.extraKeys()
	if len(keys) == 0 {
		return &PositionError{"extra", t, fmt.Sprintf("preset %s keeps no extra state", pr.Name)}
	}
	last := ""
	sawTurn := false
	for _, pair := range strings.Split(t, ";") {
		key, value, ok := strings.Cut(pair, "=")
		switch {
		case !ok || key == "":
			return &PositionError{"extra", t, fmt.Sprintf("%q is not key=value", pair)}
		case !contains(keys, key):
			return &PositionError{"extra", t, fmt.Sprintf("unknown key %q (keys of %s: %s)", key, pr.Name, strings.Join(keys, ", "))}
		case key <= last:
			return &PositionError{"extra", t, fmt.Sprintf("key %q repeated or out of order: keys are sorted", key)}
		}
		last = key
		switch key {
		case "command", "dead", "drops", "leaps", "retired", "thrones":
			set, err := pr.parseSeatSet(value)
			if err != nil || set == 0 {
				return &PositionError{"extra", t, fmt.Sprintf("%s=%q: want the colour letters of seats, in seat order (%s)", key, value, pr.seatLetters())}
			}
			*map[string]*uint8{"command": &p.command, "dead": &p.dead, "drops": &p.drops, "leaps": &p.leaps, "retired": &p.retired, "thrones": &p.thronesTaken}[key] = set
		case "lost":
			for i := 0; i < len(value); i++ {
				s, ok := SeatOfLetter(value[i])
				if !ok || !pr.plays(s) || p.kingsLost(s) == 2 {
					return &PositionError{"extra", t, fmt.Sprintf("lost=%q: want a seat's colour letter once for each king it lost (at most twice), in seat order", value)}
				}
				p.lost += 1 << (2 * s)
			}
		case "exchange":
			i := slices.Index(stepNames[:], value)
			if i <= 0 || i >= int(stepReturn) {
				return &PositionError{"extra", t, fmt.Sprintf("exchange=%q: want propose, accept or drop", value)}
			}
			p.step = uint8(i)
		case "return":
			i := slices.Index(stepNames[:], value)
			if i < int(stepReturn) || (uint8(i) == stepBack) != pr.Team.Stakes {
				return &PositionError{"extra", t, fmt.Sprintf("return=%q: want decide or place (martian), back (chaturanga-fr2)", value)}
			}
			p.step = uint8(i)
		case "control":
			s, err := pr.parseSeat(value)
			if err != nil {
				return &PositionError{"extra", t, fmt.Sprintf("control=%q: want the colour letter of a seat (%s)", value, pr.seatLetters())}
			}
			p.ctrl = uint8(s) + 1
		case "turn":
			s, err := pr.parseSeat(value)
			if err != nil {
				return &PositionError{"extra", t, fmt.Sprintf("turn=%q: want the colour letter of a seat (%s)", value, pr.seatLetters())}
			}
			p.turn = s
			sawTurn = true
		}
	}
	if (p.step != noStep) != sawTurn {
		return &PositionError{"extra", t, "exchange and turn go together"}
	}
	if p.formatExtra() != t {
		return &PositionError{"extra", t, "not in canonical form: " + p.formatExtra()}
	}
	return nil
}

// parseSeatSet reads colour letters of distinct playing seats in seat order.
func (pr *Preset) parseSeatSet(v string) (uint8, error) {
	var set uint8
	prev := -1
	for i := 0; i < len(v); i++ {
		s, ok := SeatOfLetter(v[i])
		if !ok || !pr.plays(s) || int(s) <= prev {
			return 0, fmt.Errorf("rules: bad seat letters %q", v)
		}
		prev = int(s)
		set |= 1 << s
	}
	return set, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkPending checks the team state read from the extra field against the
// board: each command has its king on the partner's throne, and a pending
// exchange step fits the kings on the board.
func (p *Position) checkPending() error {
	pr := p.preset
	for d := p.dead; d != 0; d &= d - 1 {
		if s := Seat(lowestKind(KindSet(d))); !p.HasKing(s) {
			return fmt.Errorf("%s's army is dead by resign or timeout, so its king stands, but it has none on the board", s)
		}
	}
	for c := p.command; c != 0; c &= c - 1 {
		s := Seat(lowestKind(KindSet(c)))
		if p.board[pr.thrones[Partner(s)]] != MakePiece(s, King) {
			return fmt.Errorf("%s commands, but its king is not on its partner's throne %s", s, pr.thrones[Partner(s)])
		}
	}
	a, b := p.teamKings()
	switch p.step {
	case stepPropose, stepAccept:
		if a != 1 || b != 1 {
			return errors.New("an exchange is decided when each team has one king")
		}
	case stepDrop, stepPlace, stepBack:
		if p.HasKing(p.seat) {
			return errors.New("the seat to drop a king has one")
		}
	case stepReturn:
		if p.HasKing(p.seat) && p.HasKing(Partner(p.seat)) || a == 0 || b == 0 {
			return errors.New("a return is decided by a team missing a king, while each team has one")
		}
	}
	if p.ctrl != 0 && (!p.rolled || Seat(p.ctrl-1) == p.TurnSeat()) {
		return errors.New("control= needs a roll, and another seat's army")
	}
	if p.step == stepAccept && p.HasKing(p.seat) {
		return errors.New("the seat to accept an exchange has its king")
	}
	return nil
}
