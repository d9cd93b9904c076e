package record

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/rules"
)

// TimeControlTag names the tag of a timed game's clock settings
// (TimeControl.String).
const TimeControlTag = "TimeControl"

// TimeControl is a game's clock: either a time for each decision (Move),
// or a bank of time for each seat (Bank) that a decision's time is taken
// from, with an increment or a delay. The roll of the dice is no
// decision's: a decision opens once its dice are rolled.
type TimeControl struct {
	// Move is the time each decision may take, whatever the others took
	// (from seconds to a correspondence game's days); 0 with a bank.
	Move time.Duration
	// Bank is each seat's time for all its decisions at the start; 0 for
	// none.
	Bank time.Duration
	// Increment is added to a seat's bank after each of its decisions
	// (Fischer), a decision out of time included.
	Increment time.Duration
	// Delay is the part of each decision that costs no bank (simple, or
	// US, delay, as chess.com's four-player games use): a decision that
	// took less costs nothing, and unused delay is not saved up.
	Delay time.Duration
}

// Timed reports whether the time control limits anything.
func (tc TimeControl) Timed() bool { return tc.Move > 0 || tc.Bank > 0 }

// Allowed returns the time a decision may take when it opens with bank
// left in the seat's bank: Move, or the bank with the delay.
func (tc TimeControl) Allowed(bank time.Duration) time.Duration {
	if tc.Bank == 0 {
		return tc.Move
	}
	return max(bank, 0) + tc.Delay
}

// Next returns what is left in a seat's bank after a decision that took
// used, the bank holding bank when it opened: the time used past the
// delay is taken (down to 0, where the seat ran out of time), then the
// increment is added.
func (tc TimeControl) Next(bank, used time.Duration) time.Duration {
	charged := max(used-tc.Delay, 0)
	return max(bank-charged, 0) + tc.Increment
}

// String returns the time control as the TimeControl tag writes it, its
// settings in seconds, joined by ";" in this order: "move=15",
// "bank=300;increment=5", "bank=600;delay=3". The zero TimeControl is "".
func (tc TimeControl) String() string {
	var parts []string
	add := func(key string, d time.Duration) {
		if d > 0 {
			parts = append(parts, key+"="+FormatSeconds(d))
		}
	}
	add("bank", tc.Bank)
	add("increment", tc.Increment)
	add("delay", tc.Delay)
	add("move", tc.Move)
	return strings.Join(parts, ";")
}

// ParseTimeControl reads a TimeControl tag's value, which must be
// written as String writes it.
func ParseTimeControl(s string) (TimeControl, error) {
	var tc TimeControl
	for _, part := range strings.Split(s, ";") {
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			return tc, fmt.Errorf("record: time control %q: %q is not key=seconds", s, part)
		}
		d, err := ParseSeconds(val)
		if err != nil {
			return tc, fmt.Errorf("record: time control %q: %s: %w", s, key, err)
		}
		var field *time.Duration
		switch key {
		case "move":
			field = &tc.Move
		case "bank":
			field = &tc.Bank
		case "increment":
			field = &tc.Increment
		case "delay":
			field = &tc.Delay
		default:
			return tc, fmt.Errorf("record: time control %q: unknown setting %q: want move, bank, increment or delay", s, key)
		}
		if *field != 0 || d == 0 {
			return tc, fmt.Errorf("record: time control %q: %s given twice, or as 0", s, key)
		}
		*field = d
	}
	if err := tc.Check(); err != nil {
		return tc, fmt.Errorf("record: time control %q: %w", s, err)
	}
	if tc.String() != s {
		return tc, fmt.Errorf("record: time control %q is written %q", s, tc.String())
	}
	return tc, nil
}

// Check reports what is wrong with a time control, or nil: it limits
// something, with a time for each decision or a bank but not both, and an
// increment or a delay only with a bank, not both.
func (tc TimeControl) Check() error {
	switch {
	case tc.Move < 0 || tc.Bank < 0 || tc.Increment < 0 || tc.Delay < 0:
		return errors.New("a time below 0")
	case tc.Bank == 0 && (tc.Increment > 0 || tc.Delay > 0):
		return errors.New("an increment or a delay needs a bank")
	case !tc.Timed():
		return errors.New("neither move nor bank: an untimed game has no time control")
	case tc.Move > 0 && tc.Bank > 0:
		return errors.New("both move and bank: a game has one or the other")
	case tc.Increment > 0 && tc.Delay > 0:
		return errors.New("both an increment and a delay: a game has one or the other")
	}
	return nil
}

// FormatSeconds writes a time in seconds to the millisecond, without
// trailing zeros: "15", "1.2", "0.035".
func FormatSeconds(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Milliseconds())/1000, 'f', -1, 64)
}

// ParseSeconds reads a time written as FormatSeconds writes it.
func ParseSeconds(s string) (time.Duration, error) {
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(whole) > 9 || len(frac) > 3 {
		return 0, fmt.Errorf("%q: want seconds to the millisecond, such as 15 or 1.25", s)
	}
	n, err := strconv.ParseInt(whole+frac+strings.Repeat("0", 3-len(frac)), 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q: want seconds to the millisecond, such as 15 or 1.25", s)
	}
	d := time.Duration(n) * time.Millisecond
	if FormatSeconds(d) != s {
		return 0, fmt.Errorf("%q is written %s", s, FormatSeconds(d))
	}
	return d, nil
}

// TimeControl returns the record's time control, and whether it has one
// (its TimeControl tag).
func (r *Record) TimeControl() (TimeControl, bool, error) {
	s, ok := r.Tags.Get(TimeControlTag)
	if !ok {
		return TimeControl{}, false, nil
	}
	tc, err := ParseTimeControl(s)
	if err != nil {
		return tc, true, r.tagError(TimeControlTag, s, err)
	}
	return tc, true, nil
}

// Banks replays the clocks of a record of a game with a bank: for each turn
// group, each seat's bank (in the preset's seat order) once the group's
// decisions are taken. A seat's bank takes the time of each decision the
// record gives (Times) by the record's TimeControl; a turn group without
// times costs nothing. It returns nil for a record without a bank.
func (r *Record) Banks() ([][]time.Duration, error) {
	tc, ok, err := r.TimeControl()
	if err != nil || !ok || tc.Bank == 0 {
		return nil, err
	}
	pr, err := r.preset()
	if err != nil {
		return nil, err
	}
	seats := pr.Seats()
	bank := make([]time.Duration, len(seats))
	for i := range bank {
		bank[i] = tc.Bank
	}
	out := make([][]time.Duration, len(r.Turns))
	for i, t := range r.Turns {
		if i < len(r.Times) {
			at := seatPlace(seats, t.Seat)
			for _, used := range r.Times[i] {
				bank[at] = tc.Next(bank[at], used)
			}
		}
		out[i] = append([]time.Duration(nil), bank...)
	}
	return out, nil
}

// seatPlace returns where seat s stands in seats.
func seatPlace(seats []rules.Seat, s rules.Seat) int {
	for i, t := range seats {
		if t == s {
			return i
		}
	}
	return -1
}

// writeTimes writes a turn group's times: " {1.2,0.8}".
func writeTimes(b *strings.Builder, times []time.Duration) {
	b.WriteString(" {")
	for i, d := range times {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(FormatSeconds(d))
	}
	b.WriteByte('}')
}

// parseTimes reads a turn group's times token, "{1.2,0.8}", one for each
// of its n actions.
func parseTimes(text string, n int) ([]time.Duration, error) {
	inner, ok := strings.CutPrefix(text, "{")
	if inner, ok = strings.CutSuffix(inner, "}"); !ok || inner == "" {
		return nil, errors.New("want the times of the turn's decisions in seconds, such as {1.2,0.8}")
	}
	parts := strings.Split(inner, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("%d times for %d actions: one a decision", len(parts), n)
	}
	out := make([]time.Duration, n)
	for i, p := range parts {
		d, err := ParseSeconds(p)
		if err != nil {
			return nil, err
		}
		out[i] = d
	}
	return out, nil
}
