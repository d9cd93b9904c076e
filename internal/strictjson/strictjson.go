// Package strictjson decodes the JSON that clients send (request bodies,
// WebSocket messages) strictly, where encoding/json is lenient: it matches
// keys to fields ignoring case, keeps the last of duplicate keys, and
// replaces invalid UTF-8 with U+FFFD. A body is read one way, exactly as
// the documentation writes it, or refused with an error that names the
// place.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// MaxDepth bounds how deeply objects and arrays may nest.
const MaxDepth = 32

// Decode decodes data, which must hold one JSON value and nothing after it,
// into v, a non-nil pointer, as encoding/json does, but refuses:
//
//   - a key that is not exactly (letter case included) the JSON name of a
//     field of the struct it fills;
//   - a key given twice in one object;
//   - a string that is not valid UTF-8, or that escapes half of a
//     surrogate pair (\ud800 alone), which encoding/json would silently
//     turn into U+FFFD;
//   - objects and arrays nested deeper than MaxDepth.
//
// An error names the place, as a path such as `names[1]` or
// `table.turn_ms`, and what is wrong.
func Decode(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("strictjson: Decode needs a non-nil pointer, not %T", v)
	}
	w := &walker{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	w.dec.UseNumber()
	if err := w.value(rv.Type().Elem(), "", 0); err != nil {
		return err
	}
	if _, err := w.dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("more than one JSON value")
		}
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// walker reads the tokens of a JSON text and checks them against the Go
// type they fill.
type walker struct {
	data []byte
	dec  *json.Decoder
	end  int64 // the offset after the last token read
}

// token reads the next token and returns it with its text in data (with
// any separator and blanks before it).
func (w *walker) token() (json.Token, []byte, error) {
	start := w.end
	tok, err := w.dec.Token()
	if err != nil {
		return nil, nil, err
	}
	w.end = w.dec.InputOffset()
	return tok, w.data[start:w.end], nil
}

// value checks the next value, which fills a value of type t (nil if
// unknown: then only its strings and duplicate keys are checked).
func (w *walker) value(t reflect.Type, path string, depth int) error {
	tok, raw, err := w.token()
	if err != nil {
		return err
	}
	return w.rest(tok, raw, t, path, depth)
}

// rest checks the value whose first token is tok.
func (w *walker) rest(tok json.Token, raw []byte, t reflect.Type, path string, depth int) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch tok := tok.(type) {
	case string:
		return checkString(raw, path)
	case json.Delim:
		if depth >= MaxDepth {
			return fmt.Errorf("%snested deeper than %d", at(path), MaxDepth)
		}
		if tok == '{' {
			return w.object(t, path, depth+1)
		}
		return w.array(t, path, depth+1)
	}
	return nil
}

// object checks the members of an object, after its '{'.
func (w *walker) object(t reflect.Type, path string, depth int) error {
	var fields map[string]reflect.Type
	var elem reflect.Type
	switch {
	case t == nil:
	case t.Kind() == reflect.Struct:
		fields = fieldsOf(t)
	case t.Kind() == reflect.Map:
		elem = t.Elem()
	default:
		t = nil // encoding/json will refuse the object; only check it
	}
	seen := map[string]bool{}
	for {
		tok, raw, err := w.token()
		if err != nil {
			return err
		}
		if tok == json.Delim('}') {
			return nil
		}
		key, _ := tok.(string)
		if err := checkString(raw, path); err != nil {
			return err
		}
		inner := join(path, key)
		if seen[key] {
			return fmt.Errorf("%skey %q given twice", at(path), key)
		}
		seen[key] = true
		ft := elem
		if fields != nil {
			var ok bool
			if ft, ok = fields[key]; !ok {
				return unknownField(path, key, fields)
			}
		}
		if err := w.value(ft, inner, depth); err != nil {
			return err
		}
	}
}

// array checks the elements of an array, after its '['.
func (w *walker) array(t reflect.Type, path string, depth int) error {
	var elem reflect.Type
	if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		elem = t.Elem()
	}
	for i := 0; ; i++ {
		tok, raw, err := w.token()
		if err != nil {
			return err
		}
		if tok == json.Delim(']') {
			return nil
		}
		if err := w.rest(tok, raw, elem, path+"["+strconv.Itoa(i)+"]", depth); err != nil {
			return err
		}
	}
}

// unknownField is the error for a key that names no field, with the field
// it names in another letter case, if any.
func unknownField(path, key string, fields map[string]reflect.Type) error {
	for name := range fields {
		if strings.EqualFold(name, key) {
			return fmt.Errorf("%sunknown field %q: field names are case-sensitive, this one is %q", at(path), key, name)
		}
	}
	return fmt.Errorf("%sunknown field %q", at(path), key)
}

// checkString checks the text of a string token: valid UTF-8, and every
// \u escape of a surrogate half is part of a pair. raw may hold blanks and
// separators before the string.
func checkString(raw []byte, path string) error {
	if !utf8.Valid(raw) {
		return fmt.Errorf("%snot valid UTF-8", at(path))
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		i++
		if i >= len(raw) || raw[i] != 'u' {
			continue
		}
		r := hex4(raw[i+1:])
		switch {
		case r >= 0xd800 && r < 0xdc00:
			if j := i + 5; j+1 < len(raw) && raw[j] == '\\' && raw[j+1] == 'u' {
				if lo := hex4(raw[j+2:]); lo >= 0xdc00 && lo < 0xe000 {
					i = j + 5
					continue
				}
			}
			return fmt.Errorf("%sa lone surrogate \\u%04x is not a character", at(path), r)
		case r >= 0xdc00 && r < 0xe000:
			return fmt.Errorf("%sa lone surrogate \\u%04x is not a character", at(path), r)
		}
		i += 4
	}
	return nil
}

// hex4 reads four hexadecimal digits; -1 if b does not start with them.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 32)
	if err != nil {
		return -1
	}
	return rune(n)
}

// at is the prefix of an error about the value at path.
func at(path string) string {
	if path == "" {
		return ""
	}
	return path + ": "
}

// join is the path of a member of the object at path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// fieldsOf returns the JSON names of a struct type's fields, as
// encoding/json names them (the tag's name, else the Go name; embedded
// structs' fields promoted), with their types.
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	fields := map[string]reflect.Type{}
	addFields(fields, t)
	fieldCache.Store(t, fields)
	return fields
}

func addFields(fields map[string]reflect.Type, t reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				addFields(fields, ft)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := fields[name]; !dup {
			fields[name] = ft
		}
	}
}
