package rules

import (
	"fmt"
	"strconv"
)

// Roll is the outcome of a turn's dice, or what is left of it: up to two
// faces, ascending. The zero Roll has no faces.
type Roll struct {
	n     uint8
	faces [2]uint8
}

// NewRoll returns the roll with the given faces, in any order.
func NewRoll(faces ...int) (Roll, error) {
	var r Roll
	if len(faces) == 0 || len(faces) > len(r.faces) {
		return r, fmt.Errorf("rules: a roll has 1 or 2 faces, not %d", len(faces))
	}
	for _, f := range faces {
		if f < 1 || f > 6 {
			return r, fmt.Errorf("rules: die face %d out of range 1..6", f)
		}
		r.faces[r.n] = uint8(f)
		r.n++
	}
	if r.n == 2 && r.faces[0] > r.faces[1] {
		r.faces[0], r.faces[1] = r.faces[1], r.faces[0]
	}
	return r, nil
}

// ParseRoll reads a roll written as its faces, such as "5" or "25".
func ParseRoll(s string) (Roll, error) {
	if s == "" {
		return Roll{}, fmt.Errorf("rules: empty roll")
	}
	faces := make([]int, 0, 2)
	for i := 0; i < len(s); i++ {
		if s[i] < '1' || s[i] > '6' {
			return Roll{}, fmt.Errorf("rules: roll %q: %q is not a die face 1..6", s, s[i])
		}
		faces = append(faces, int(s[i]-'0'))
	}
	return NewRoll(faces...)
}

// Len returns the number of faces.
func (r Roll) Len() int { return int(r.n) }

// Face returns the i-th face, ascending.
func (r Roll) Face(i int) int { return int(r.faces[i]) }

// String returns the faces, ascending and unseparated ("25"), or "-" for none.
func (r Roll) String() string {
	if r.n == 0 {
		return "-"
	}
	s := ""
	for i := range r.n {
		s += strconv.Itoa(int(r.faces[i]))
	}
	return s
}

// without returns the roll less its i-th face.
func (r Roll) without(i int) Roll {
	if i == 0 {
		r.faces[0] = r.faces[1]
	}
	r.faces[1] = 0
	r.n--
	return r
}
