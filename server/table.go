package server

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// The players a seat may have.
const (
	Human     = "human" // a person or a program holding the seat's token
	botPrefix = "bot:"  // "bot:" and an ai.New spec: "bot:strong", "bot:3"
)

// The policies of a table for a player out of time.
const (
	TimeoutPass = "pass" // the seat passes this turn (see Table.OnTimeout)
	TimeoutBot  = "bot"  // a bot takes the seat for the rest of the game
)

// NewGame is the body of POST /api/games: the rules and who sits where.
type NewGame struct {
	// Rules names the preset (rules.Names), "chaturaji" if empty.
	Rules string `json:"rules"`
	// Seats has one entry per seat of the preset, South first: "human", or
	// "bot:" and a player spec: "bot:random", "bot:greedy", "bot:strong",
	// "bot:1".."bot:8" (or "bot:level:N").
	Seats []string `json:"seats"`
	// Names optionally names the seats' players, for others to see.
	Names []string `json:"names,omitempty"`
	// HostSeats names the human seats the creator holds, whose tokens the
	// answer gives; every other human seat gets a one-time invite for
	// its player to claim (claim.go). Absent, the creator holds the first
	// human seat; listing every human seat is "pass and play", one client
	// holding them all; empty, the creator holds none.
	HostSeats []string `json:"host_seats,omitzero"`
	// Help, true unless set to false, lets the game's players ask the
	// engine for hints and expected scores in its live position; false
	// turns that help off, for everyone, enforced by the server (help.go).
	Help *bool `json:"help,omitempty"`
	// TurnMS is the time in milliseconds each human decision may take,
	// whatever the others took (up to a week: a correspondence game's
	// days); 0 for none.
	TurnMS int64 `json:"turn_ms,omitempty"`
	// BankMS is, in place of TurnMS, each human seat's bank of time in
	// milliseconds for all its decisions, as chess clocks keep it: a
	// decision's time is taken from its seat's bank, with IncrementMS or
	// DelayMS (clock_bank.go); 0 for none.
	BankMS int64 `json:"bank_ms,omitempty"`
	// IncrementMS, with a bank, is added to a seat's bank after each of
	// its decisions (Fischer).
	IncrementMS int64 `json:"increment_ms,omitempty"`
	// DelayMS, with a bank and no increment, is the part of each decision
	// that costs no bank (a simple delay, as chess.com's four-player games
	// have).
	DelayMS int64 `json:"delay_ms,omitempty"`
	// OnTimeout is what happens to a player out of time: "pass" (default)
	// or "bot".
	OnTimeout string `json:"on_timeout,omitempty"`
	// AbandonMS is how long, in milliseconds, the turn of a human seat with
	// no connection waits before a bot takes the seat; 0 for the server's
	// default.
	AbandonMS int64 `json:"abandon_ms,omitempty"`
	// Takeover is the player spec of a bot that takes over a seat
	// ("greedy" if empty): "random", "greedy", or a level from 1 to the
	// server's limit (Config.MaxTakeoverLevel, 4 by default).
	Takeover string `json:"takeover,omitempty"`
	// AutoPass, true unless set to false, plays `pass` at once for a seat
	// whose only legal action it is.
	AutoPass *bool `json:"auto_pass,omitempty"`
	// BotDelayMS is the least time in milliseconds from a bot's decision
	// opening to its action, its thinking included, so that the bots play
	// at a pace people can follow: absent for the server's default
	// (Config.BotDelay, 800), 0 for none, at most Config.MaxBotDelay.
	BotDelayMS *int64 `json:"bot_delay_ms,omitempty"`
	// Chat, false unless set, lets the players write free text to each
	// other besides the fixed quick messages (chat.go): for a game among
	// friends, who were invited to it.
	Chat bool `json:"chat,omitempty"`
	// Rated makes the game count for its players' ratings (rated.go):
	// every human seat must be held by an account, and every bot be one
	// of a measured strength (rating.Bots).
	Rated bool `json:"rated,omitempty"`
	// Accounts, set only by the server's own callers (the lobby), are the
	// ids of the accounts that hold the human seats, one per seat, ""
	// for a guest's or a bot's. A request's JSON cannot set them.
	Accounts []string `json:"-"`
}

// Table is a game's settings as the server keeps them: the time control,
// what happens to absent players, the bot that takes over, and whether the
// engine may help the players.
type Table struct {
	TurnMS int64 `json:"turn_ms"` // milliseconds a human decision may take; 0: untimed
	// BankMS, IncrementMS and DelayMS are a bank of time for each seat
	// with an increment or a delay, in place of TurnMS (NewGame's); 0
	// for none, and in games stored before they were.
	BankMS      int64  `json:"bank_ms,omitempty"`
	IncrementMS int64  `json:"increment_ms,omitempty"` // added to a bank after each decision (Fischer)
	DelayMS     int64  `json:"delay_ms,omitempty"`     // the part of each decision that costs no bank (simple delay)
	OnTimeout   string `json:"on_timeout"`             // TimeoutPass or TimeoutBot
	Help        bool   `json:"help"`                   // engine help (hints, expected scores) for the live game's position (help.go)
	AbandonMS   int64  `json:"abandon_ms"`             // grace of an absent player's turn
	Takeover    string `json:"takeover"`               // ai.New spec of the bot that takes over
	AutoPass    bool   `json:"auto_pass"`              // a forced `pass` is played at once
	// BotDelayMS is the least time in milliseconds from a bot's decision
	// opening to its action; 0 for none (and for games stored before the
	// setting was).
	BotDelayMS int64 `json:"bot_delay_ms"`
	// Chat lets the players write free text besides the quick messages
	// (chat.go).
	Chat bool `json:"chat,omitempty"`
	// Rated: the game counts for its players' ratings (rated.go); false
	// for games stored before rated games were.
	Rated bool `json:"rated"`
	// Correspondence: a lobby game of a day or more a decision
	// (Config.CorrespondenceTurn), whose absent players keep their seats
	// for each decision's whole time, with no grace and no expiry (clock.go).
	// Only the lobby sets it.
	Correspondence bool `json:"correspondence,omitempty"`
}

func (t Table) turnTime() time.Duration { return time.Duration(t.TurnMS) * time.Millisecond }
func (t Table) grace() time.Duration    { return time.Duration(t.AbandonMS) * time.Millisecond }
func (t Table) botDelay() time.Duration { return time.Duration(t.BotDelayMS) * time.Millisecond }

// maxMS bounds the times of a table: a week.
const maxMS = 7 * 24 * 3600 * 1000

// maxName bounds the length of a player's name, in bytes.
const maxName = 40

// check validates a request against the rules and the server's limits and
// returns the preset and the table it asks for.
func (ng *NewGame) check(cfg Config) (*rules.Preset, Table, error) {
	var t Table
	name := ng.Rules
	if name == "" {
		name = "chaturaji"
	}
	pr, err := rules.Lookup(name)
	if err != nil {
		return nil, t, Errorf(EINVALID, "%s", strings.TrimPrefix(err.Error(), "rules: "))
	}
	n := pr.NumSeats()
	if len(ng.Seats) != n {
		return nil, t, Errorf(EINVALID, "rules %s have %d seats, the request names %d", pr.Name, n, len(ng.Seats))
	}
	for i, s := range ng.Seats {
		if err := checkPlayer(s); err != nil {
			return nil, t, Errorf(EINVALID, "seat %d (%s): %v", i+1, pr.Seats()[i], err)
		}
	}
	if len(ng.Names) > n {
		return nil, t, Errorf(EINVALID, "%d names for %d seats", len(ng.Names), n)
	}
	for i, s := range ng.Names {
		if err := checkName(s); err != nil {
			return nil, t, Errorf(EINVALID, "name of seat %d (%s): %v", i+1, pr.Seats()[i], err)
		}
	}
	minMS := cfg.MinTime.Milliseconds()
	t.TurnMS = ng.TurnMS
	if t.TurnMS != 0 && (t.TurnMS < minMS || t.TurnMS > maxMS) {
		return nil, t, Errorf(EINVALID, "turn_ms %d: want 0 (untimed) or %d to %d", t.TurnMS, minMS, maxMS)
	}
	if err := ng.checkBank(&t, minMS); err != nil {
		return nil, t, err
	}
	t.Chat = ng.Chat
	t.OnTimeout = ng.OnTimeout
	switch t.OnTimeout {
	case "":
		t.OnTimeout = TimeoutPass
	case TimeoutPass, TimeoutBot:
	default:
		return nil, t, Errorf(EINVALID, "on_timeout %q: want %q or %q", t.OnTimeout, TimeoutPass, TimeoutBot)
	}
	t.AbandonMS = ng.AbandonMS
	switch {
	case t.AbandonMS == 0:
		t.AbandonMS = cfg.Grace.Milliseconds()
	case t.AbandonMS < minMS || t.AbandonMS > cfg.MaxGrace.Milliseconds():
		return nil, t, Errorf(EINVALID, "abandon_ms %d: want 0 (the server's default) or %d to %d", t.AbandonMS, minMS, cfg.MaxGrace.Milliseconds())
	}
	t.Takeover = ng.Takeover
	if t.Takeover == "" {
		t.Takeover = "greedy"
	}
	if err := cfg.checkTakeover(t.Takeover); err != nil {
		return nil, t, Errorf(EINVALID, "takeover %q: %v", t.Takeover, err)
	}
	t.AutoPass = ng.AutoPass == nil || *ng.AutoPass
	switch maxDelay := cfg.MaxBotDelay.Milliseconds(); {
	case ng.BotDelayMS == nil:
		t.BotDelayMS = max(cfg.BotDelay, 0).Milliseconds()
	case *ng.BotDelayMS < 0 || *ng.BotDelayMS > maxDelay:
		return nil, t, Errorf(EINVALID, "bot_delay_ms %d: want 0 (none) to %d, or leave it out for the server's default (%d)", *ng.BotDelayMS, maxDelay, max(cfg.BotDelay, 0).Milliseconds())
	default:
		t.BotDelayMS = *ng.BotDelayMS
	}
	t.Rated = ng.Rated // checked with the seats' accounts by open (checkRated)
	return pr, t, nil
}

// checkPlayer checks a seat's player: "human" or "bot:SPEC".
func checkPlayer(s string) error {
	if s == Human {
		return nil
	}
	spec, ok := strings.CutPrefix(s, botPrefix)
	if !ok {
		return fmt.Errorf("player %q: want %q or \"bot:\" and a bot such as bot:random, bot:greedy, bot:strong, bot:1..bot:8", s, Human)
	}
	if _, err := ai.New(spec, 0); err != nil {
		return fmt.Errorf("player %q: %v", s, err)
	}
	return nil
}

// botSpec returns the ai.New spec of a seat's player, and whether it is a
// bot.
func botSpec(player string) (string, bool) {
	return strings.CutPrefix(player, botPrefix)
}

// checkName checks a player's name: printable text, no longer than maxName.
func checkName(s string) error {
	if len(s) > maxName {
		return fmt.Errorf("%d bytes, over the limit of %d", len(s), maxName)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("not UTF-8")
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("%q is not printable", r)
		}
	}
	return nil
}
