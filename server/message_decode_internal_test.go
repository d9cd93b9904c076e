package server

import (
	"testing"

	"github.com/chaturaji/chaturaji/internal/strictjson"
)

func TestDecodeMessage(t *testing.T) {
	for _, tc := range []struct {
		data string
		fast bool // read without strictjson
	}{
		{`{"kind": "action", "action": "d2d3", "seq": 12}`, true},
		{`{"seq":0,"action":"pass"}`, true},
		{" {\n\t\"kind\" : \"chat\" , \"say\": \"good-luck\", \"text\": \"hé\" } \r\n", true},
		{`{"seq": -0}`, true},
		{`{}`, true},
		{`{"action": "d2\u0064"}`, false},               // an escape: strictjson reads it
		{`{"seq": 12.0}`, false},                        // not a plain whole number: strictjson refuses it
		{`{"seq": 012}`, false},                         // a leading zero
		{`{"seq": 99999999999999999999}`, false},        // past int64
		{`{"kind": "action", "kind": "resign"}`, false}, // a key twice
		{`{"Kind": "action"}`, false},                   // not the key's exact name
		{`{"action": "d2d3", "extra": 1}`, false},       // an unknown key
		{`{"action": null}`, false},
		{`{"action": "d2d3"} {}`, false},
		{"{\"text\": \"\xff\"}", false}, // not UTF-8
		{`{"action": "d2d3",}`, false},
		{`[]`, false},
		{``, false},
	} {
		var fast Message
		if got := readMessage([]byte(tc.data), &fast); got != tc.fast {
			t.Errorf("readMessage(%q) = %v, want %v", tc.data, got, tc.fast)
		}
		var got, want Message
		gotErr := decodeMessage([]byte(tc.data), &got)
		wantErr := strictjson.Decode([]byte(tc.data), &want)
		if (gotErr == nil) != (wantErr == nil) || got != want {
			t.Errorf("decodeMessage(%q) = %+v, %v; strictjson.Decode: %+v, %v", tc.data, got, gotErr, want, wantErr)
		}
	}
}

// FuzzDecodeMessage checks that wherever readMessage decides, strictjson
// decides the same: the same Message, and no error.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"kind": "action", "action": "d2d3", "seq": 12}`, `{"seq":-5}`, `{"kind":"chat","say":"thanks","text":"é"}`,
		`{"seq": 1e3}`, `{"action": "a\"b"}`, `{"seq": 00}`, `{}`, ` { } `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast Message
		if !readMessage(data, &fast) {
			return
		}
		var want Message
		if err := strictjson.Decode(data, &want); err != nil {
			t.Fatalf("readMessage(%q) read %+v; strictjson refuses it: %v", data, fast, err)
		}
		if fast != want {
			t.Fatalf("readMessage(%q) = %+v, strictjson.Decode: %+v", data, fast, want)
		}
	})
}
