package server

import (
	"strconv"
	"unicode/utf8"

	"github.com/chaturaji/chaturaji/internal/strictjson"
)

// decodeMessage decodes a client's message as strictjson.Decode does,
// with the same outcome, but reads the messages clients send nearly
// always (a flat object of Message's keys, each once, their strings
// without escapes, the event number a plain whole number) in one pass
// that allocates nothing but the strings. strictjson walks the tokens with
// one encoding/json decoder and fills the struct with another: on a busy
// server that was a sixth of all the memory allocated, which the garbage
// collector then paid for while the games waited. Anything else, errors
// included, goes to strictjson, whose word is final
// (FuzzDecodeMessage checks that the two agree wherever this one decides).
func decodeMessage(data []byte, m *Message) error {
	var fast Message
	if readMessage(data, &fast) {
		*m = fast
		return nil
	}
	return strictjson.Decode(data, m)
}

// readMessage reads data into m and reports whether it could: false for
// anything but the plain form decodeMessage describes.
func readMessage(data []byte, m *Message) bool {
	i := 0
	blank := func() {
		for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
			i++
		}
	}
	// str reads a string without escapes or control characters, in UTF-8.
	str := func() ([]byte, bool) {
		if i >= len(data) || data[i] != '"' {
			return nil, false
		}
		i++
		start := i
		for i < len(data) {
			switch c := data[i]; {
			case c == '"':
				i++
				s := data[start : i-1]
				return s, utf8.Valid(s)
			case c == '\\' || c < 0x20:
				return nil, false
			}
			i++
		}
		return nil, false
	}
	blank()
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i++
	var seen [5]bool // kind, action, seq, say, text
	for first := true; ; first = false {
		blank()
		if i < len(data) && data[i] == '}' {
			i++
			break
		}
		if !first {
			if i >= len(data) || data[i] != ',' {
				return false
			}
			i++
			blank()
		}
		key, ok := str()
		if !ok {
			return false
		}
		blank()
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i++
		blank()
		var field int
		var dst *string
		switch string(key) {
		case "kind":
			field, dst = 0, &m.Kind
		case "action":
			field, dst = 1, &m.Action
		case "seq":
			field = 2
		case "say":
			field, dst = 3, &m.Say
		case "text":
			field, dst = 4, &m.Text
		default:
			return false
		}
		if seen[field] {
			return false
		}
		seen[field] = true
		if dst != nil {
			s, ok := str()
			if !ok {
				return false
			}
			*dst = string(s)
			continue
		}
		start := i
		if i < len(data) && data[i] == '-' {
			i++
		}
		digits := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == digits || (data[digits] == '0' && i > digits+1) {
			return false // no digits, or a leading zero
		}
		n, err := strconv.ParseInt(string(data[start:i]), 10, 64)
		if err != nil {
			return false
		}
		m.Seq = n
	}
	blank()
	return i == len(data)
}
