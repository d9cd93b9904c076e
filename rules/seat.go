package rules

import "fmt"

// Seat is a place at the board. Seats are numbered clockwise as seen from
// above, starting from South; the default turn order follows that numbering.
type Seat uint8

// The four seats.
const (
	South Seat = iota
	West
	North
	East
)

// NumSeats is the largest number of seats a preset may have.
const NumSeats = 4

// NoSeat marks the absence of a seat.
const NoSeat Seat = 255

var seatLetters = [NumSeats]byte{'b', 'y', 'g', 'r'}
var seatNames = [NumSeats]string{"South", "West", "North", "East"}

// Letter returns the seat's colour letter in notation: b, y, g or r.
func (s Seat) Letter() byte { return seatLetters[s] }

// String returns the seat's name, such as "South".
func (s Seat) String() string {
	if s >= NumSeats {
		return fmt.Sprintf("Seat(%d)", int(s))
	}
	return seatNames[s]
}

// SeatOfLetter returns the seat whose colour letter is c.
func SeatOfLetter(c byte) (Seat, bool) {
	for s, l := range seatLetters {
		if l == c {
			return Seat(s), true
		}
	}
	return NoSeat, false
}

// forward is the (file, rank) step of a seat's pawns.
var forward = [NumSeats][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}

// lastLine returns the squares of a seat's last line, where its pawns promote,
// ordered from the seat's left-hand corner.
func lastLine(s Seat) [8]Square {
	var line [8]Square
	for i := range 8 {
		switch s {
		case South:
			line[i] = SquareAt(i, 7)
		case West:
			line[i] = SquareAt(7, 7-i)
		case North:
			line[i] = SquareAt(7-i, 0)
		case East:
			line[i] = SquareAt(0, i)
		}
	}
	return line
}
