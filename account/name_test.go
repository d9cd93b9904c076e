package account_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chaturaji/chaturaji/account"
	"github.com/chaturaji/chaturaji/ai"
)

func TestParseName(t *testing.T) {
	for _, tc := range []struct {
		name            string
		in              string
		display, folded string // when valid
		wantErr         []string
	}{
		{"plain", "Asha", "Asha", "asha", nil},
		{"digits and separators", "player_1.b-c", "player_1.b-c", "player_1.b-c", nil},
		{"accented letters", "Ñandú", "Ñandú", "ñandú", nil},
		{"decomposed accents are composed", "N\u0303andu\u0301", "Ñandú", "ñandú", nil},
		{"full-width letters are narrowed", "Ａｓｈａ", "Asha", "asha", nil},
		{"devanagari", "चतुरजी", "चतुरजी", "चतुरजी", nil},
		{"three characters", "abc", "abc", "abc", nil},
		{"twenty-four characters", strings.Repeat("x", 24), strings.Repeat("x", 24), strings.Repeat("x", 24), nil},
		{"a level beyond the bots'", fmt.Sprintf("level%d", len(ai.Levels)+1), fmt.Sprintf("level%d", len(ai.Levels)+1), fmt.Sprintf("level%d", len(ai.Levels)+1), nil},

		{"empty", "", "", "", []string{"no username given"}},
		{"two characters", "ab", "", "", []string{`"ab"`, "2 characters: at least 3"}},
		{"twenty-five characters", strings.Repeat("y", 25), "", "", []string{"25 characters: at most 24"}},
		{"far too long", strings.Repeat("z", 300), "", "", []string{"300 bytes", "at most 24"}},
		{"a space", "Asha B", "", "", []string{"has a space"}},
		{"an at sign", "a@b.com", "", "", []string{`has '@'`, "letters, digits"}},
		{"a colon, as bot specs have", "bot:3", "", "", []string{`has ':'`}},
		{"an emoji", "ash🐘", "", "", []string{`has '🐘'`}},
		{"a separator first", "_asha", "", "", []string{"begins with '_'"}},
		{"not UTF-8", "as\xffha", "", "", []string{"not UTF-8"}},
		{"mixed directions", "abcאבג", "", "", []string{"right-to-left"}},

		{"admin", "admin", "", "", []string{`"admin": reserved`, "server's staff"}},
		{"admin in capitals", "ADMIN", "", "", []string{"reserved", "server's staff"}},
		{"administrator with separators", "Admin.Istrator", "", "", []string{"reserved", "server's staff"}},
		{"root", "root", "", "", []string{"reserved", "staff"}},
		{"guest", "Guest", "", "", []string{"reserved", "players without an account"}},
		{"deleted", "deleted", "", "", []string{"reserved"}},
		{"anonymous", "anonymous", "", "", []string{"reserved"}},
		{"chaturaji", "Chaturaji", "", "", []string{"reserved", "staff"}},
		{"a bot kind", "greedy", "", "", []string{"reserved", "name of a bot (greedy)"}},
		{"a bot kind with bot", "Strong-Bot", "", "", []string{"reserved", "bot (strong)"}},
		{"a bot kind after bot", "bot_mcts", "", "", []string{"reserved", "bot (mcts)"}},
		{"a level", "level3", "", "", []string{"reserved", "bot's level (level 3)"}},
		{"a level with a separator", "Level_8", "", "", []string{"reserved", "level 8"}},
		{"a level bot", "level1bot", "", "", []string{"reserved", "level 1"}},
		{"bot and a number", "bot7", "", "", []string{"reserved", "level 7"}},
		{"bot", "bot", "", "", []string{"reserved", "pass for a bot"}},
		{"full-width admin", "ＡＤＭＩＮ", "", "", []string{"reserved"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := account.ParseName(tc.in)
			if tc.wantErr != nil {
				wantError(t, fmt.Sprintf("ParseName(%q)", tc.in), err, account.EINVALID, tc.wantErr...)
				return
			}
			if err != nil {
				t.Fatalf("ParseName(%q): %v", tc.in, err)
			}
			if n.Display != tc.display || n.Folded != tc.folded {
				t.Errorf("ParseName(%q) = %q, %q; want %q, %q", tc.in, n.Display, n.Folded, tc.display, tc.folded)
			}
		})
	}
}

// TestReservedHasEveryBot checks that every bot the ai package builds by
// name, and every level, is reserved.
func TestReservedHasEveryBot(t *testing.T) {
	var names []string
	for _, k := range ai.Kinds {
		names = append(names, k.Name, k.Name+"-bot", "Bot "+k.Name)
	}
	for n := 1; n <= len(ai.Levels); n++ {
		names = append(names, fmt.Sprintf("level%d", n), fmt.Sprintf("Level-%d-Bot", n), fmt.Sprintf("bot%d", n))
	}
	for _, name := range names {
		name = strings.ReplaceAll(name, " ", "_")
		if _, err := account.ParseName(name); account.Code(err) != account.EINVALID || !strings.Contains(err.Error(), "reserved") {
			t.Errorf("ParseName(%q) = %v, want it reserved", name, err)
		}
	}
}

func TestNamesUniqueWithoutCase(t *testing.T) {
	s, _ := newService(t, account.Config{})
	signUp(t, s, "Asha", "")
	for _, name := range []string{"asha", "ASHA", "aSHa", "Ａｓｈａ"} {
		_, _, _, err := s.SignUp(t.Context(), name, "")
		wantError(t, fmt.Sprintf("SignUp(%q) after Asha", name), err, account.ECONFLICT, `the username "`, "is taken")
	}
	a, _, _ := signUp(t, s, "Asha2", "")
	if a.Name != "Asha2" {
		t.Errorf("Name = %q", a.Name)
	}
}

func FuzzParseName(f *testing.F) {
	for _, s := range []string{"Asha", "Ñandú", "level_3", "Ａｓｈａ", "abcאבג", "a", "x\u0301yz", "ǅemal", "ﬁsh", "ΣΑΣ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := account.ParseName(s)
		if err != nil {
			if account.Code(err) != account.EINVALID {
				t.Fatalf("ParseName(%q): %v, want EINVALID", s, err)
			}
			return
		}
		if c := utf8.RuneCountInString(n.Display); c < account.MinName || c > account.MaxName {
			t.Errorf("ParseName(%q): %q of %d characters", s, n.Display, c)
		}
		again, err := account.ParseName(n.Display)
		if err != nil || again != n {
			t.Errorf("ParseName(%q) = %+v, but ParseName of its display = %+v, %v", s, n, again, err)
		}
		if f, err := account.ParseName(n.Folded); err != nil || f.Folded != n.Folded {
			t.Errorf("ParseName(%q): folded %q folds to %+v, %v", s, n.Folded, f, err)
		}
	})
}
