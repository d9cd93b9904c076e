package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// Roll is the outcome of a turn's dice, or what is left of it: up to two
// faces, ascending. The zero Roll has no faces. In martian a turn with
// throne control has a second pair, for the controlled army, written after
// a slash (`13/24`). It is packed in 32 bits, so that it passes in a
// register: bits 0-1 the number of faces, 2-4 and 5-7 the faces, bit 8 a
// second pair, 9-10 its number of faces, 11-13 and 14-16 its faces.
type Roll struct{ bits uint32 }

const (
	rollSplit = 1 << 8
	ownBits   = 1<<8 - 1
)

// pair returns the roll of one pair with the given faces, ascending.
func pair(faces ...uint8) Roll {
	b := uint32(len(faces))
	for i, f := range faces {
		b |= uint32(f) << (2 + 3*i)
	}
	return Roll{b}
}

// NewRoll returns the roll with the given faces, in any order.
func NewRoll(faces ...int) (Roll, error) {
	if len(faces) == 0 || len(faces) > 2 {
		return Roll{}, fmt.Errorf("rules: a roll has 1 or 2 faces, not %d", len(faces))
	}
	fs := make([]uint8, len(faces))
	for i, f := range faces {
		if f < 1 || f > 6 {
			return Roll{}, fmt.Errorf("rules: die face %d out of range 1..6", f)
		}
		fs[i] = uint8(f)
	}
	if len(fs) == 2 && fs[0] > fs[1] {
		fs[0], fs[1] = fs[1], fs[0]
	}
	return pair(fs...), nil
}

// ParseRoll reads a roll written as its faces, such as "5" or "25", or
// two pairs around a slash, such as "13/24", "/24" or "/".
func ParseRoll(s string) (Roll, error) {
	if own, ctrl, ok := strings.Cut(s, "/"); ok {
		var r, c Roll
		var err error
		if own != "" {
			if r, err = ParseRoll(own); err != nil {
				return Roll{}, err
			}
		}
		if ctrl != "" {
			if c, err = ParseRoll(ctrl); err != nil {
				return Roll{}, err
			}
		}
		return r.WithControl(c), nil
	}
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

// Len returns the number of faces (of the first pair).
func (r Roll) Len() int { return int(r.bits & 3) }

// Face returns the i-th face, ascending.
func (r Roll) Face(i int) int { return int(r.bits >> (2 + 3*i) & 7) }

// String returns the faces, ascending and unseparated ("25"), or "-" for
// none; a second pair follows a slash ("13/24", "/24", "/").
func (r Roll) String() string {
	if r.bits == 0 {
		return "-"
	}
	s := ""
	for i := range r.Len() {
		s += strconv.Itoa(r.Face(i))
	}
	if c, split := r.Control(); split {
		s += "/"
		for i := range c.Len() {
			s += strconv.Itoa(c.Face(i))
		}
	}
	return s
}

// Control returns the second pair, that of the army controlled through a
// throne in martian, and whether the roll has one.
func (r Roll) Control() (Roll, bool) {
	return Roll{r.bits >> 9 & ownBits}, r.bits&rollSplit != 0
}

// WithControl returns the roll with c (one pair) as its second pair.
func (r Roll) WithControl(c Roll) Roll {
	return Roll{r.bits&ownBits | rollSplit | (c.bits&ownBits)<<9}
}

// own returns the first pair alone.
func (r Roll) own() Roll { return Roll{r.bits & ownBits} }

// empty reports whether no face is left in either pair.
func (r Roll) empty() bool { return r.bits&3 == 0 && r.bits>>9&3 == 0 }

// without returns the roll less its i-th face.
func (r Roll) without(i int) Roll {
	f0, f1 := r.bits>>2&7, r.bits>>5&7
	if i == 0 {
		f0 = f1
	}
	return Roll{r.bits&^ownBits | (r.bits&3 - 1) | f0<<2}
}
