package account

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/secure/precis"

	"github.com/chaturaji/chaturaji/ai"
)

// The bounds of a username, in characters, after PRECIS.
const (
	MinName = 3
	MaxName = 24
)

// maxNameInput bounds the bytes of a name before PRECIS looks at it, so
// that a long one costs nothing.
const maxNameInput = 256

// nameSeparators are the characters a username may have besides letters
// and digits.
const nameSeparators = "-_."

// Reserved maps the names no account may take, written without
// separators and case-folded, to why. A name is refused if, once its
// separators are dropped, it is one of them: "Level_3", "level.3" and
// "LEVEL3" alike.
var Reserved = reserved()

// reserved builds Reserved: the server's staff and its own words, and
// every bot, by kind and by level, as ai names them, with and without
// "bot" before or after.
func reserved() map[string]string {
	m := make(map[string]string)
	staff := "it could pass for the server's staff"
	for _, n := range []string{"admin", "administrator", "root", "system", "moderator", "mod", "server", "chaturaji", "support", "staff"} {
		m[n] = staff
	}
	for _, n := range []string{"guest", "anonymous", "deleted", "deletedplayer", "human", "player", "nobody"} {
		m[n] = "it is a word the server uses for players without an account"
	}
	bot := func(name, why string) {
		for _, n := range []string{name, "bot" + name, name + "bot"} {
			m[n] = why
		}
	}
	m["bot"] = "it could pass for a bot"
	m["level"] = "it could pass for a bot's level"
	for _, k := range ai.Kinds {
		bot(k.Name, fmt.Sprintf("it is the name of a bot (%s)", k.Name))
	}
	for n := 1; n <= len(ai.Levels); n++ {
		why := fmt.Sprintf("it is the name of a bot's level (level %d)", n)
		l := strconv.Itoa(n)
		bot("level"+l, why)
		m["bot"+l] = why
		m["botlevel"+l] = why
	}
	return m
}

// Name is a username as an account keeps it.
type Name struct {
	Display string // as its holder wrote it (PRECIS UsernameCasePreserved)
	Folded  string // case-folded (PRECIS UsernameCaseMapped): unique among accounts
}

// ParseName checks a username and returns its two forms, or an EINVALID
// error that says what is wrong with it.
func ParseName(s string) (Name, error) {
	bad := func(format string, args ...any) (Name, error) {
		return Name{}, Errorf(EINVALID, "username %q: "+format, append([]any{s}, args...)...)
	}
	if s == "" {
		return Name{}, Errorf(EINVALID, "no username given")
	}
	if len(s) > maxNameInput {
		return Name{}, Errorf(EINVALID, "username of %d bytes: at most %d characters", len(s), MaxName)
	}
	if !utf8.ValidString(s) {
		return bad("not UTF-8")
	}
	for _, r := range s {
		switch {
		case r == ' ':
			return bad("has a space: use letters, digits, '-', '_' or '.'")
		case !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsDigit(r) && !strings.ContainsRune(nameSeparators, r):
			return bad("has %q: use letters, digits, '-', '_' or '.'", r)
		}
	}
	display, err := precis.UsernameCasePreserved.String(s)
	if err != nil {
		return bad("%s", precisWhy(s))
	}
	folded, err := precis.UsernameCaseMapped.String(s)
	if err != nil {
		return bad("%s", precisWhy(s))
	}
	first, _ := utf8.DecodeRuneInString(display)
	if !unicode.IsLetter(first) && !unicode.IsDigit(first) {
		return bad("begins with %q: begin with a letter or a digit", first)
	}
	switch n := utf8.RuneCountInString(display); {
	case n < MinName:
		return bad("%d characters: at least %d", n, MinName)
	case n > MaxName:
		return bad("%d characters: at most %d", n, MaxName)
	}
	compact := strings.Map(func(r rune) rune {
		if strings.ContainsRune(nameSeparators, r) {
			return -1
		}
		return r
	}, folded)
	if why, ok := Reserved[compact]; ok {
		return bad("reserved: %s", why)
	}
	return Name{Display: display, Folded: folded}, nil
}

// precisWhy says why PRECIS refused a name whose characters are each
// letters, digits or separators: the first one it refuses alone, or else
// how they mix.
func precisWhy(s string) string {
	for _, r := range s {
		if _, err := precis.UsernameCaseMapped.String(string(r)); err != nil {
			return fmt.Sprintf("has %q (U+%04X), which a username cannot have (RFC 8265)", r, r)
		}
	}
	return "mixes right-to-left and left-to-right writing, or joins characters, as a username cannot (RFC 8265)"
}
