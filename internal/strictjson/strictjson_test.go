package strictjson_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chaturaji/chaturaji/internal/strictjson"
)

// body is a request body like the server's: tagged fields, a slice, a
// pointer, a nested struct and a map.
type body struct {
	Rules  string            `json:"rules"`
	Seats  []string          `json:"seats"`
	TurnMS int64             `json:"turn_ms,omitempty"`
	Auto   *bool             `json:"auto_pass,omitempty"`
	Table  *table            `json:"table,omitempty"`
	Extra  map[string]string `json:"extra,omitempty"`
	Plain  int               // no tag: its JSON name is its Go name
	Hidden string            `json:"-"`
}

type table struct {
	Grace int `json:"grace"`
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		err      string // "" if it must decode
	}{
		{"every field", `{"rules": "chaturaji", "seats": ["human", "bot:1"], "turn_ms": 5, "auto_pass": false, "table": {"grace": 3}, "extra": {"a": "b"}, "Plain": 1}`, ""},
		{"no field", `{}`, ""},
		{"null", `null`, ""},
		{"escapes", `{"rules": "\u00e9\ud83d\udc18\"\\u\n"}`, ""},
		{"a key in capitals", `{"SEATS": ["human"]}`, `unknown field "SEATS": field names are case-sensitive, this one is "seats"`},
		{"a key in mixed case", `{"Turn_MS": 5}`, `unknown field "Turn_MS": field names are case-sensitive, this one is "turn_ms"`},
		{"a nested key in capitals", `{"table": {"Grace": 1}}`, `table: unknown field "Grace"`},
		{"a Go name with a tag", `{"Rules": "x"}`, `unknown field "Rules"`},
		{"an ignored field", `{"Hidden": "x"}`, `unknown field "Hidden"`},
		{"an unknown key", `{"colour": "red"}`, `unknown field "colour"`},
		{"a key twice", `{"rules": "a", "rules": "b"}`, `key "rules" given twice`},
		{"a key twice in a map", `{"extra": {"a": "1", "a": "2"}}`, `extra: key "a" given twice`},
		{"a key twice in an unknown place", `{"seats": [{"x": 1, "x": 2}]}`, `seats[0]: key "x" given twice`},
		{"invalid UTF-8 in a name", "{\"seats\": [\"human\", \"b\xffd\"]}", `seats[1]: not valid UTF-8`},
		{"invalid UTF-8 in a key", "{\"r\xc3\": 1}", `not valid UTF-8`},
		{"a lone high surrogate", `{"rules": "a\ud800b"}`, `rules: a lone surrogate \ud800`},
		{"a lone low surrogate", `{"rules": "\udc00"}`, `rules: a lone surrogate \udc00`},
		{"a high surrogate at the end", `{"rules": "\ud83d"}`, `rules: a lone surrogate`},
		{"two values", `{} {}`, `more than one JSON value`},
		{"trailing garbage", `{} x`, `invalid character`},
		{"not JSON", `{"rules": }`, `invalid character`},
		{"a wrong type", `{"rules": 7}`, `cannot unmarshal number`},
		{"too deep", `{"extra": ` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, `nested deeper than 32`},
		{"empty", ``, `EOF`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b body
			err := strictjson.Decode([]byte(tc.in), &b)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("Decode(%s): %v", tc.in, err)
			case tc.err != "" && err == nil:
				t.Fatalf("Decode(%s) = %+v, want an error with %q", tc.in, b, tc.err)
			case tc.err != "" && !strings.Contains(err.Error(), tc.err):
				t.Fatalf("Decode(%s): error %q, want one with %q", tc.in, err, tc.err)
			}
		})
	}
}

// TestDecodeAsEncodingJSON checks that what Decode accepts it decodes as
// encoding/json does.
func TestDecodeAsEncodingJSON(t *testing.T) {
	in := `{"rules": "chaturaji", "seats": ["human", "bot:1"], "turn_ms": 5, "auto_pass": false, "table": {"grace": 3}, "extra": {"a": "b"}, "Plain": 1}`
	var got, want body
	if err := strictjson.Decode([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(in), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded %+v, encoding/json %+v", got, want)
	}
}

// FuzzDecode: what Decode accepts is valid JSON and valid UTF-8, decodes
// as encoding/json decodes it, and encodes to a text Decode accepts and
// that encodes the same again.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"rules": "chaturaji", "seats": ["human", "bot:1"], "turn_ms": 5, "auto_pass": true, "table": {"grace": 3}, "extra": {"a": "b"}, "Plain": 1}`,
		`{"SEATS": []}`, `{"rules": "a", "rules": "b"}`, "{\"rules\": \"\xff\"}", `{"rules": "\ud800"}`,
		`{"rules": "\ud83d\udc18"}`, `{} {}`, `[]`, `null`, `{"extra": {"a": "1", "A": "2"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var b body
		if err := strictjson.Decode(data, &b); err != nil {
			return
		}
		if !json.Valid(data) || !utf8.Valid(data) {
			t.Fatalf("accepted %q, which is not valid JSON in UTF-8", data)
		}
		var want body
		if err := json.Unmarshal(data, &want); err != nil || !reflect.DeepEqual(b, want) {
			t.Fatalf("%q decoded to %+v; encoding/json: %+v, %v", data, b, want, err)
		}
		out, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		// Compared encoded: an empty map left out (omitempty) reads back nil.
		var back body
		if err := strictjson.Decode(out, &back); err != nil {
			t.Fatalf("%q decoded to %+v, encoded as %s, which Decode refuses: %v", data, b, out, err)
		}
		if again, _ := json.Marshal(back); string(again) != string(out) {
			t.Fatalf("%q decoded to %+v, encoded as %s, then as %s", data, b, out, again)
		}
	})
}
