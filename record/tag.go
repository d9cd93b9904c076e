package record

import (
	"errors"
	"fmt"
	"strings"
)

// Tag is one tag pair of a record's header, such as `[Rules "chaturaji"]`.
// A value may hold any text but control characters (line breaks, tabs);
// `"` and `\` are escaped with a backslash when written.
type Tag struct {
	Name  string // a letter followed by letters, digits or _, such as "Rules"
	Value string // the text between the quotes, unescaped
}

// Tags is a record's header: its tag pairs in the order they are written.
// A name appears at most once.
type Tags []Tag

// Get returns the value of the tag with the given name and whether it is
// there.
func (ts Tags) Get(name string) (string, bool) {
	for _, t := range ts {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// Set gives the tag with the given name a value: in its place if it is
// there, else at the end.
func (ts *Tags) Set(name, value string) {
	for i, t := range *ts {
		if t.Name == name {
			(*ts)[i].Value = value
			return
		}
	}
	*ts = append(*ts, Tag{name, value})
}

// Delete removes the tag with the given name, if it is there.
func (ts *Tags) Delete(name string) {
	for i, t := range *ts {
		if t.Name == name {
			*ts = append((*ts)[:i], (*ts)[i+1:]...)
			return
		}
	}
}

// String returns the tag as a line of a record, without the line break:
// `[Name "value"]`.
func (t Tag) String() string {
	var b strings.Builder
	b.WriteByte('[')
	b.WriteString(t.Name)
	b.WriteString(` "`)
	for i := 0; i < len(t.Value); i++ {
		if c := t.Value[i]; c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(t.Value[i])
	}
	b.WriteString(`"]`)
	return b.String()
}

// parseTag reads a tag line, already trimmed of surrounding blanks.
func parseTag(s string) (Tag, error) {
	var t Tag
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return t, errors.New(`a tag pair is [Name "value"] alone on its line`)
	}
	s = strings.Trim(s[1:len(s)-1], " \t")
	i := 0
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	t.Name = s[:i]
	if t.Name == "" || !isLetter(t.Name[0]) {
		return t, errors.New("a tag name is a letter followed by letters, digits or _")
	}
	s = strings.TrimLeft(s[i:], " \t")
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return t, fmt.Errorf("tag %s: the value must be one string in double quotes", t.Name)
	}
	var v strings.Builder
	s = s[1 : len(s)-1]
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20 || c == 0x7f:
			return t, fmt.Errorf("tag %s: control character %q in the value", t.Name, c)
		case c == '"':
			return t, fmt.Errorf(`tag %s: a " inside the value must be written \"`, t.Name)
		case c == '\\':
			i++
			if i == len(s) || (s[i] != '"' && s[i] != '\\') {
				return t, fmt.Errorf(`tag %s: a \ inside the value must be written \\`, t.Name)
			}
			c = s[i]
		}
		v.WriteByte(c)
	}
	t.Value = v.String()
	return t, nil
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

func isNameByte(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' || c == '_' }
