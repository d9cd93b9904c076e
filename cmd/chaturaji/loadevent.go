package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/chaturaji/chaturaji/server"
)

// decodeLoadEvent reads into e the fields of a server message (a
// server.Event) that a load-test player acts on and checks, and skips the
// rest, which is most of it (the position, the seats, the scores...).
//
// Every player of a load test reads every event of its game, some
// thousands a second in all, on the machine (and with the server in this
// process, in the process) whose times it measures: with encoding/json
// that was a third of the load clients' CPU and a third of the process's
// allocations, which the server's garbage collector then paid for. This
// reads the message in one pass, allocates nothing for the fields it
// skips, allocates each word it reads (keys, kinds, seats, actions) once
// for as long as e is reused (e.seen), and reads the legal actions only
// when they are seat's to take.
//
// It accepts one JSON object, as the server writes it; a key it does not
// know is skipped whatever its value. A string with an escape goes
// through encoding/json.
func decodeLoadEvent(data []byte, seat string, e *loadEvent) error {
	if e.seen == nil {
		e.seen = make(map[string]string)
	}
	*e = loadEvent{Actions: e.Actions[:0], seen: e.seen}
	d := eventScanner{data: data, seen: e.seen}
	if !d.next('{') {
		return d.fail("want an object")
	}
	var actions []byte // the array of legal actions, read once to_act is known
	for first := true; ; first = false {
		d.blank()
		if d.next('}') {
			break
		}
		if !first && !d.next(',') {
			return d.fail("want , or }")
		}
		d.blank()
		key, err := d.str()
		if err != nil {
			return err
		}
		d.blank()
		if !d.next(':') {
			return d.fail("want :")
		}
		d.blank()
		switch key {
		case "seq":
			e.Seq, err = d.integer()
		case "last":
			e.Last, err = d.integer()
		case "kind":
			e.Kind, err = d.str()
		case "by":
			e.By, err = d.str()
		case "to_act":
			e.ToAct, err = d.str()
		case "actions":
			start := d.i
			if err = d.skip(); err == nil {
				actions = d.data[start:d.i]
			}
		case "error":
			start := d.i
			if err = d.skip(); err == nil {
				e.Error = &server.Error{}
				err = json.Unmarshal(d.data[start:d.i], e.Error)
			}
		default:
			err = d.skip()
		}
		if err != nil {
			return err
		}
	}
	d.blank()
	if d.i != len(d.data) {
		return d.fail("data after the object")
	}
	if actions != nil && e.ToAct == seat {
		return decodeActions(actions, e)
	}
	return nil
}

// decodeActions reads an array of strings into e.Actions.
func decodeActions(data []byte, e *loadEvent) error {
	d := eventScanner{data: data, seen: e.seen}
	if !d.next('[') {
		if bytes.Equal(data, []byte("null")) {
			return nil
		}
		return d.fail("actions: want an array")
	}
	for first := true; ; first = false {
		d.blank()
		if d.next(']') {
			return nil
		}
		if !first && !d.next(',') {
			return d.fail("actions: want , or ]")
		}
		d.blank()
		a, err := d.str()
		if err != nil {
			return err
		}
		e.Actions = append(e.Actions, a)
	}
}

// maxSeen bounds the words a loadEvent keeps the strings of.
const maxSeen = 4096

// eventScanner reads JSON text from data at i; seen holds the strings it
// has allocated, by their text.
type eventScanner struct {
	data []byte
	i    int
	seen map[string]string
}

func (d *eventScanner) fail(what string) error {
	return fmt.Errorf("offset %d: %s", d.i, what)
}

// blank skips white space.
func (d *eventScanner) blank() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// next consumes c if it comes next.
func (d *eventScanner) next(c byte) bool {
	if d.i < len(d.data) && d.data[d.i] == c {
		d.i++
		return true
	}
	return false
}

// str reads a string; a word seen before comes without an allocation.
func (d *eventScanner) str() (string, error) {
	start := d.i
	raw, escaped, err := d.strEnd()
	if err != nil {
		return "", err
	}
	if escaped {
		var s string
		if err := json.Unmarshal(d.data[start:d.i], &s); err != nil {
			return "", fmt.Errorf("offset %d: %w", start, err)
		}
		return s, nil
	}
	if w, ok := d.seen[string(raw)]; ok {
		return w, nil
	}
	if len(d.seen) >= maxSeen {
		clear(d.seen)
	}
	w := string(raw)
	d.seen[w] = w
	return w, nil
}

// strEnd moves past a string and returns its bytes between the quotes,
// and whether it holds an escape.
func (d *eventScanner) strEnd() (raw []byte, escaped bool, err error) {
	if !d.next('"') {
		return nil, false, d.fail("want a string")
	}
	start := d.i
	for d.i < len(d.data) {
		switch c := d.data[d.i]; {
		case c == '"':
			d.i++
			return d.data[start : d.i-1], escaped, nil
		case c == '\\':
			escaped = true
			d.i += 2
		case c < 0x20:
			return nil, false, d.fail("control character in a string")
		default:
			d.i++
		}
	}
	return nil, false, errors.New("unterminated string")
}

// integer reads a whole number.
func (d *eventScanner) integer() (int64, error) {
	start := d.i
	for d.i < len(d.data) && (d.data[d.i] == '-' || d.data[d.i] >= '0' && d.data[d.i] <= '9') {
		d.i++
	}
	n, err := strconv.ParseInt(string(d.data[start:d.i]), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("offset %d: want a whole number: %w", start, err)
	}
	return n, nil
}

// skip moves past one value of any kind.
func (d *eventScanner) skip() error {
	depth := 0
	for {
		d.blank()
		if d.i >= len(d.data) {
			return errors.New("unexpected end of the message")
		}
		switch c := d.data[d.i]; c {
		case '"':
			if _, _, err := d.strEnd(); err != nil {
				return err
			}
		case '{', '[':
			depth++
			d.i++
			continue
		case '}', ']':
			if depth == 0 {
				return d.fail("unexpected " + string(c))
			}
			depth--
			d.i++
		case ',', ':':
			if depth == 0 {
				return d.fail("want a value")
			}
			d.i++
			continue
		default: // a number, true, false or null
			start := d.i
			for d.i < len(d.data) && strings.IndexByte(" \t\n\r,:]}[{\"", d.data[d.i]) < 0 {
				d.i++
			}
			if d.i == start {
				return d.fail("want a value")
			}
		}
		if depth == 0 {
			return nil
		}
	}
}
