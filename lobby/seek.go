package lobby

import (
	"math"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/chaturaji/chaturaji/store"
)

// The limits of a seek.
const (
	// DefaultBotWait is how long a seek that allows bots waits for people
	// before bots fill the seats still empty, unless it sets its own.
	DefaultBotWait = 20 * time.Second
	// MaxBotWait bounds the bot wait a seek may set.
	MaxBotWait = time.Hour
	// MaxPlayer bounds the length of a player's id, in bytes.
	MaxPlayer = 128
	// MaxName bounds the length of a player's name, in bytes, as a
	// table's seats do.
	MaxName = 40
	// MaxID bounds the length of a seek's id, in bytes.
	MaxID = 64
)

// Seek is one request to be seated in a pool: one seeker, or in a team
// pool two partners who come as a pair and sit together.
type Seek struct {
	ID      string   // chosen by Pairer.Add if empty
	Pool    Pool     // where the seek waits
	Seekers []Seeker // one, or two partners (team pools only)
	// Bots: once BotWait has passed and no table of people has formed,
	// the seekers play with bots of about their strength in the seats
	// no person takes. Otherwise the seek waits for people only.
	Bots    bool
	BotWait time.Duration // DefaultBotWait if 0; at most MaxBotWait
	Since   time.Time     // when the seek was made: its wait counts from it
}

// Seeker is one player of a seek.
type Seeker struct {
	Player string  // an opaque player id: an account's or a guest's
	Name   string  // shown to others; at most MaxName bytes of printable text
	Guest  bool    // not signed in: refused by rated pools
	Rating float64 // one number for closeness, on the scale of the bots' levels (Params.Levels)
	Mu     float64 // the rating's mean, if known, for the game's rating afterwards
	Sigma  float64 // its uncertainty, if known
	// TokenHash is the SHA-256 of the seat token that the seeker's node
	// holds for it (store.Seeker.TokenHash), which the seat it takes in
	// its table's game is held by; nil if none.
	TokenHash []byte
}

// Rating returns the seek's rating for closeness: its seekers' mean.
func (s *Seek) Rating() float64 {
	var sum float64
	for _, p := range s.Seekers {
		sum += p.Rating
	}
	return sum / float64(len(s.Seekers))
}

// check checks a seek for a pool of the shape given, naming what is
// wrong.
func (s *Seek) check(sh Shape) error {
	if len(s.ID) > MaxID {
		return invalid("seek id of %d bytes, over the limit of %d", len(s.ID), MaxID)
	}
	switch n := len(s.Seekers); {
	case n == 0:
		return invalid("seek %q has no seeker", s.ID)
	case n == 2 && !sh.Teams:
		return invalid("seek %q: two seekers come as partners, and the rules of pool %q play each for himself", s.ID, s.Pool)
	case n > 2:
		return invalid("seek %q has %d seekers, want one, or two partners", s.ID, n)
	}
	for i, p := range s.Seekers {
		switch {
		case p.Player == "":
			return invalid("seeker %d of seek %q has no player id", i+1, s.ID)
		case len(p.Player) > MaxPlayer:
			return invalid("seeker %d of seek %q: player id of %d bytes, over the limit of %d", i+1, s.ID, len(p.Player), MaxPlayer)
		case len(p.Name) > MaxName:
			return invalid("seeker %q: name of %d bytes, over the limit of %d", p.Player, len(p.Name), MaxName)
		case !printable(p.Name):
			return invalid("seeker %q: name %q is not printable text", p.Player, p.Name)
		case p.Guest && s.Pool.Rated:
			return invalid("seeker %q is a guest, and pool %q is rated: sign in to play rated games", p.Player, s.Pool)
		case !finite(p.Rating) || !finite(p.Mu) || !finite(p.Sigma) || p.Sigma < 0:
			return invalid("seeker %q: rating %v (mu %v, sigma %v) is not a rating", p.Player, p.Rating, p.Mu, p.Sigma)
		}
		if i == 1 && p.Player == s.Seekers[0].Player {
			return invalid("seek %q holds player %q twice", s.ID, p.Player)
		}
	}
	if s.BotWait < 0 || s.BotWait > MaxBotWait {
		return invalid("seek %q: bot wait %v, want from 0 (the default, %v) to %v", s.ID, s.BotWait, DefaultBotWait, MaxBotWait)
	}
	return nil
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// printable reports whether s is valid UTF-8 without control characters.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// toStore returns s as the store keeps it.
func (s *Seek) toStore(node string) *store.Seek {
	out := &store.Seek{ID: s.ID, Pool: s.Pool.String(), Bots: s.Bots, BotWait: s.BotWait, Node: node, Created: s.Since}
	for _, p := range s.Seekers {
		out.Seekers = append(out.Seekers, store.Seeker(p))
	}
	return out
}

// fromStore returns a seek of pool as the store kept it.
func fromStore(pool Pool, s *store.Seek) Seek {
	out := Seek{ID: s.ID, Pool: pool, Bots: s.Bots, BotWait: s.BotWait, Since: s.Created}
	for _, p := range s.Seekers {
		out.Seekers = append(out.Seekers, Seeker(p))
	}
	return out
}
