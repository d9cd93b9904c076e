package storetest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// t0 is when the suite's games are created: nanoseconds the stores must
// drop, in a zone they must convert from.
var t0 = time.Date(2021, time.March, 14, 15, 9, 26, 535_897_932, time.FixedZone("IST", 5*3600+1800))

// kept is t as every store keeps it: UTC, to the microsecond.
func kept(t time.Time) time.Time {
	return t.UTC().Truncate(time.Microsecond)
}

// hash is a SHA-256, as the store keeps seeds' and tokens' hashes.
func hash(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// newGame returns a live game with every field set, created and updated
// at t0, with four seats: a human with a token, a bot, a human seat
// waiting for its invite to be claimed, and another bot.
func newGame(id string) *store.Game {
	seed := hash("seed of " + id)
	return &store.Game{
		ID:       id,
		Rules:    "chaturaji +triumph -pass",
		Seed:     seed,
		SeedHash: hex.EncodeToString(hash(string(seed))),
		Start:    "r1/8/8 s 0 " + id,
		Seats: []store.Seat{
			{Player: "human", Name: "Asha", TokenHash: hash("token of South in " + id), Account: "account of Asha"},
			{Player: "bot:strong", Name: "West Bot"},
			{Player: "human", Name: "Ñandú 🐘 \"quoted\"", InviteHash: hash("invite of North in " + id)},
			{Player: "bot:3", Name: "East Bot"},
		},
		// Odd spacing and key order, which the store keeps as given.
		Settings: []byte(`{"clock": {"base":"10m",  "increment": "5s"}, "abandon": "bot"}`),
		Status:   store.Live,
		Created:  t0,
		Updated:  t0,
	}
}

// mustCreate stores a new game and returns it.
func mustCreate(t *testing.T, s store.Store, id string) *store.Game {
	t.Helper()
	g := newGame(id)
	if err := s.CreateGame(t.Context(), g); err != nil {
		t.Fatalf("CreateGame(%s): %v", id, err)
	}
	return g
}

// events returns events numbered from first on, n of them, a second apart
// after t0 plus the given offset.
func events(first int64, n int, offset time.Duration) []store.Event {
	evs := make([]store.Event, n)
	for i := range evs {
		seq := first + int64(i)
		evs[i] = store.Event{
			Seq:  seq,
			Kind: "roll",
			Data: fmt.Appendf(nil, `{"seq": %d, "faces": ["boat", "king"]}`, seq),
			At:   t0.Add(offset + time.Duration(seq)*time.Second + 123),
		}
	}
	return evs
}

// mustAppend appends events and fails the test if they are refused.
func mustAppend(t *testing.T, s store.Store, id string, after int64, evs []store.Event) {
	t.Helper()
	if err := s.AppendEvents(t.Context(), id, after, evs); err != nil {
		t.Fatalf("AppendEvents(%s, after %d, %d events): %v", id, after, len(evs), err)
	}
}

// mustGame reads a game and fails the test if it cannot.
func mustGame(t *testing.T, s store.Store, id string) *store.Game {
	t.Helper()
	g, err := s.Game(t.Context(), id)
	if err != nil {
		t.Fatalf("Game(%s): %v", id, err)
	}
	return g
}

// mustEvents reads a game's events after a number and fails the test if
// it cannot.
func mustEvents(t *testing.T, s store.Store, id string, after int64) []store.Event {
	t.Helper()
	evs, err := s.Events(t.Context(), id, after)
	if err != nil {
		t.Fatalf("Events(%s, after %d): %v", id, after, err)
	}
	return evs
}
