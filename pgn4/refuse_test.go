package pgn4_test

import (
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/pgn4"
)

// opening is the first four rounds of resign-timeout.pgn4, up to Blue's
// capture of Red's pawn on g7.
const opening = "1. g5-g6 .. e8-f8 .. h10-h9 .. j7-i7\n2. f5-f6 .. e9-f9 .. i10-i9 .. j6-i6\n3. Ne4-g5 .. Nd10-e8 .. Nj11-h10 .. Nk5-j7\n4. g6-g7 .. "

// TestRefused reads malformed and illegal PGN4: each is refused with the
// move (its number, its player and the text) or the tag that failed, and
// why.
func TestRefused(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"a pawn steps two squares", "1. g5-g7", []string{`move 1, Red's g5-g7 (the game's 1st move)`, "the pawn on g5 cannot go to g7; it may go to g6"}},
		{"a square of four-player chess off Chaturaji's board", "1. d2-d4", []string{`line 1: "d2-d4": move 1 (the game's 1st move)`, "square d2 is outside chess.com's Chaturaji board"}},
		{"blue moves a red pawn", "1. g5-g6 .. g6-g7", []string{"move 1, Blue's g6-g7 (the game's 2nd move)", "the pawn on g6 is Red's, not Blue's"}},
		{"a pawn written as a knight", "1. Ng5-g6", []string{"Red's Ng5-g6", "the piece on g5 is a pawn (no letter), not a knight"}},
		{"x onto an empty square", "1. g5xg6", []string{"Red's g5xg6", "written x, a capture, but g6 is empty"}},
		{"a capture written with -", opening + "f8-g7", []string{"move 4, Blue's f8-g7 (the game's 14th move)", "written -, but it would capture the pawn on g7"}},
		{"the wrong captured piece", opening + "f8xNg7", []string{"move 4, Blue's f8xNg7", "the piece on g7 is a pawn (no letter), not a knight"}},
		{"a queen", "1. Qg4-g5", []string{`"Qg4-g5"`, `"Q" is not a piece of chess.com's Chaturaji`}},
		{"promotion to a queen", "1. g5-g6=Q", []string{"a pawn promotes to a sailboat only, written =R, not =Q"}},
		{"promotion before the last line", "1. g5-g6=R", []string{"Red's g5-g6=R", "=R, but the pawn does not reach its last line"}},
		{"a sailboat through its own pawn", "1. Rd4-d6", []string{"Red's Rd4-d6", "the sailboat on d4 cannot move"}},
		{"short algebraic", "1. g6", []string{`"g6"`, "want the two squares joined by -"}},
		{"checkmate", "1. g5-g6 .. #", []string{"Blue's # (the game's 2nd move)", "in Chaturaji kings are captured, never mated"}},
		{"stalemate", "1. S", []string{"Red's S", "a player without a move passes"}},
		{"a claim with four armies alive", "1. claim", []string{"Red's claim", "illegal action claim"}},
		{"four + marks", "1. g5-g6++++", []string{"at most three + marks"}},
		{"an unclosed comment", "1. g5-g6 {a comment\n.. e8-f8", []string{"line 1", "the comment has no closing }"}},
		{"an unclosed variation", "1. g5-g6 (1. f5-f6", []string{"the variation has no closing )"}},
		{"a stray )", "1. g5-g6 )", []string{"a ) closes no variation"}},
		{"text after the result", "1. g5-g6 * e8-f8", []string{`"e8-f8"`, "text after the result *"}},
		{"an unclosed tag", "[Red \"ann]\n\n1. g5-g6", []string{"tag's value has no closing"}},
		{"a tag twice", "[Red \"ann\"]\n[Red \"bob\"]\n", []string{"line 2", "tag Red appears twice"}},
		{"a teams game", "[Variant \"Teams\"]\n\n1. g5-g6", []string{`tag Variant "Teams"`, "each plays for himself"}},
		{"a named start", "[StartFen4 \"4PCo\"]\n\n1. g5-g6", []string{`tag StartFen4 "4PCo"`, "a named start position"}},
		{"a start with castling", "[StartFen4 \"R-0,0,0,0-1,0,0,0-0,0,0,0-0,0,0,0-0-14/14/14/14/14/14/14/14/14/14/14/14/14/14\"]\n\n1. g5-g6", []string{"tag StartFen4", "no castling"}},
		{"a move after the end", readFile(t, "resign-timeout.pgn4") + " .. Nh6-f5", []string{"move 7, Green's Nh6-f5 (the game's 27th move)", "the game is already over (one army alive)"}},
		{"a move after three resign", "1. g5-g6 .. R .. R .. R .. j7-i7", []string{"Red's j7-i7 (the game's 5th move)", "the game is already over"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := replay(c.text)
			if err == nil {
				t.Fatalf("%q was read; want an error", c.text)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nwants %q", err, w)
				}
			}
		})
	}
}

// replay parses and replays every game of text.
func replay(text string) error {
	games, err := pgn4.ParseString(text)
	if err != nil {
		return err
	}
	for _, g := range games {
		if _, err := g.Replay(); err != nil {
			return err
		}
	}
	return nil
}

// TestWikibooksSample reads the example game of the Four-Player Chess
// wikibook's Notation page (en.wikibooks.org/wiki/Four-Player_Chess/Notation),
// transcribed in testdata/wikibooks-teams.pgn4: a game of four-player
// chess, not Chaturaji. Its tags are read; its first move is refused, for it
// leaves the Chaturaji board; with Chaturaji's moves in place of its own, it
// is refused as a Teams game.
func TestWikibooksSample(t *testing.T) {
	text := readFile(t, "wikibooks-teams.pgn4")
	_, err := pgn4.ParseString(text)
	for _, w := range []string{`line 18: "d2-d4": move 1 (the game's 1st move)`, "square d2 is outside"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v, want %q", err, w)
		}
	}
	tags := text[:strings.Index(text, "\n\n")]
	g := parseOne(t, tags+"\n\n"+opening+"f8xg7\n")
	if len(g.Tags) != 16 {
		t.Errorf("%d tags, want 16", len(g.Tags))
	}
	if v, _ := g.Tags.Get("Date"); v != "Wed Nov 28 2018 01:28:10 GMT+0000 (UTC)" {
		t.Errorf("Date %q", v)
	}
	if _, err := g.Replay(); err == nil || !strings.Contains(err.Error(), `tag Variant "Teams"`) {
		t.Errorf("replay: %v, want the Teams variant refused", err)
	}
}
