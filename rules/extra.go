package rules

import (
	"fmt"
	"strings"
)

// The extra field of a position (RULES.md section 6) carries the state a
// preset keeps beyond the board: `key=value` pairs joined by `;`, keys
// sorted. It is printed only when some key differs from its value at the
// start of a game, so a preset without such state has no sixth field.
//
// Keys:
//   - leaps: the colour letters, in seat order, of the seats whose king has
//     made its once-a-game knight's leap (presets with KingLeap).

// extraKeys returns the keys preset pr's positions may carry, sorted.
func (pr *Preset) extraKeys() []string {
	var keys []string
	if pr.KingLeap {
		keys = append(keys, "leaps")
	}
	return keys
}

// formatExtra returns the extra field, "" when it has nothing to say.
func (p *Position) formatExtra() string {
	var pairs []string
	if p.leaps != 0 {
		pairs = append(pairs, "leaps="+p.seatLetters(p.leaps))
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
		case "leaps":
			set, err := pr.parseSeatSet(value)
			if err != nil || set == 0 {
				return &PositionError{"extra", t, fmt.Sprintf("leaps=%q: want the colour letters of seats, in seat order (%s)", value, pr.seatLetters())}
			}
			p.leaps = set
		}
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
