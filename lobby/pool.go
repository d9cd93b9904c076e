package lobby

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/rules"
)

// ErrInvalid is what every error about a seek, a pool or parameters that
// are not valid matches (errors.Is): bad input, whose message names what
// was wrong.
var ErrInvalid = errors.New("lobby: invalid")

// invalidError is an error of bad input.
type invalidError struct{ msg string }

func (e *invalidError) Error() string        { return e.msg }
func (e *invalidError) Is(target error) bool { return target == ErrInvalid }

// invalid returns an error of bad input, "lobby: " and the message.
func invalid(format string, args ...any) error {
	return &invalidError{"lobby: " + fmt.Sprintf(format, args...)}
}

// The limits of a pool's time control, those of a table's turn_ms: a
// second to a week a decision.
const (
	MinTurn = time.Second
	MaxTurn = 7 * Correspondence
	// Correspondence is the time control of a correspondence pool: a
	// day a decision.
	Correspondence = 24 * time.Hour
)

// MaxPoolKey bounds the length of a pool's key, in bytes.
const MaxPoolKey = 200

// Pool is where seekers wait to be seated together: a ruleset, a time
// control and whether its games are rated.
type Pool struct {
	Rules string        // a preset name with house rules, canonical as rules.Lookup names it
	Turn  time.Duration // how long each decision may take: MinTurn to MaxTurn, whole milliseconds
	Rated bool          // rated (signed-in players only) or casual
}

// String returns the pool's key, RULES/TURN/rated or RULES/TURN/casual,
// such as "chaturaji/15s/rated" or "chaturaji-teams+ranks/1d/casual":
// TURN is whole days as "Nd", else a Go duration ("800ms", "1m30s").
// ParsePool reads it back.
func (p Pool) String() string {
	kind := "casual"
	if p.Rated {
		kind = "rated"
	}
	return p.Rules + "/" + turnString(p.Turn) + "/" + kind
}

func turnString(d time.Duration) string {
	if d > 0 && d%Correspondence == 0 {
		return strconv.FormatInt(int64(d/Correspondence), 10) + "d"
	}
	return d.String()
}

// ParsePool reads a pool's key (Pool.String), checking its rules with
// rules.Lookup and putting them, and the time, in canonical form: the
// key of the pool returned may differ from the one given ("90s" is
// "1m30s", house rules are sorted).
func ParsePool(key string) (Pool, error) {
	if len(key) > MaxPoolKey {
		return Pool{}, invalid("pool key of %d bytes, over the limit of %d", len(key), MaxPoolKey)
	}
	parts := strings.Split(key, "/")
	if len(parts) != 3 {
		return Pool{}, invalid("pool %q: want RULES/TURN/rated or RULES/TURN/casual, such as chaturaji/15s/rated", key)
	}
	var p Pool
	switch parts[2] {
	case "rated":
		p.Rated = true
	case "casual":
	default:
		return Pool{}, invalid("pool %q: %q is neither rated nor casual", key, parts[2])
	}
	turn, err := parseTurn(parts[1])
	if err != nil {
		return Pool{}, invalid("pool %q: %v", key, err)
	}
	p.Turn = turn
	pr, err := rules.Lookup(parts[0])
	if err != nil {
		return Pool{}, invalid("pool %q: %v", key, err)
	}
	p.Rules = pr.Name
	if _, err := p.Shape(); err != nil {
		return Pool{}, err
	}
	if n := len(p.String()); n > MaxPoolKey { // "3600s" is "1h0m0s"
		return Pool{}, invalid("pool %q: its canonical key %q is of %d bytes, over the limit of %d", key, p, n, MaxPoolKey)
	}
	return p, nil
}

// parseTurn reads a pool's time control: whole days "Nd", or a Go
// duration of whole milliseconds, from MinTurn to MaxTurn.
func parseTurn(s string) (time.Duration, error) {
	var d time.Duration
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || strconv.Itoa(days) != n || days < 1 || days > int(MaxTurn/Correspondence) {
			return 0, fmt.Errorf("time %q: want whole days from 1d to %s", s, turnString(MaxTurn))
		}
		d = time.Duration(days) * Correspondence
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, fmt.Errorf("time %q: want a duration such as 15s, 1m30s or 1d", s)
		}
	}
	if d < MinTurn || d > MaxTurn {
		return 0, fmt.Errorf("time %q: want from %s to %s a decision", s, turnString(MinTurn), turnString(MaxTurn))
	}
	if d%time.Millisecond != 0 {
		return 0, fmt.Errorf("time %q: want whole milliseconds", s)
	}
	return d, nil
}

// Shape is what pairing needs of a pool's ruleset: how many seats a table
// has, and whether its players play as two teams of partners.
type Shape struct {
	Seats int // 2 or 4
	// Teams: the seats are two teams of partners, the first and third of
	// the seat order one, the second and fourth the other.
	Teams bool
}

// Shape returns the shape of the pool's ruleset.
func (p Pool) Shape() (Shape, error) {
	pr, err := rules.Lookup(p.Rules)
	if err != nil {
		return Shape{}, invalid("pool %q: %v", p, err)
	}
	seats := pr.Seats()
	sh := Shape{Seats: len(seats), Teams: pr.Team.Partners}
	if sh.Seats < 2 {
		return Shape{}, invalid("pool %q: its rules have %d seats", p, sh.Seats)
	}
	if sh.Teams && (sh.Seats != 4 || !pr.Teammates(seats[0], seats[2]) || !pr.Teammates(seats[1], seats[3])) {
		return Shape{}, invalid("pool %q: its rules' teams are not the first and third seats against the second and fourth", p)
	}
	return sh, nil
}
