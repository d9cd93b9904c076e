package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// viaJSON is what encoding/json reads of data into a loadEvent, with the
// legal actions kept only when they are seat's, as decodeLoadEvent keeps
// them.
func viaJSON(t testing.TB, data []byte, seat string) (loadEvent, error) {
	t.Helper()
	var e loadEvent
	err := json.Unmarshal(data, &e)
	if e.ToAct != seat || len(e.Actions) == 0 {
		e.Actions = nil
	}
	return e, err
}

// same reports whether two loadEvents hold the same, an empty list of
// actions and none being the same.
func same(a, b loadEvent) bool {
	a.seen, b.seen = nil, nil
	if len(a.Actions) == 0 && len(b.Actions) == 0 {
		a.Actions, b.Actions = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

func TestDecodeLoadEvent(t *testing.T) {
	at := time.Date(2026, 11, 30, 3, 4, 5, 6e6, time.UTC)
	for _, tc := range []struct {
		name string
		seat string
		ev   any
	}{
		{"action, another's turn", "West", server.Event{Seq: 12, Kind: server.KindAction, At: at, Seat: "South", Action: "e2e4", By: server.ByPlayer,
			Captures: []server.Capture{{}}, Position: "x/y/z [] {}", ToAct: "East", Actions: []string{"a1a2", "pass"}, Scores: []int{1, 2, 3, 4}}},
		{"roll, its turn", "East", server.Event{Seq: 13, Kind: server.KindRoll, At: at, Seat: "East", Roll: "2-5", ToAct: "East", Actions: []string{"a1a2", "b7b8=R", "pass"}}},
		{"hello", "South", server.Event{Kind: server.KindHello, Last: 40, ToAct: "South", Actions: []string{"c3c4"}}},
		{"error, escaped", "North", server.Event{Kind: server.KindError, Error: &server.Error{Code: server.ECONFLICT, Message: "not your turn: \"East\" <is> to act\n"}, Echo: "a\"b"}},
		{"an escaped action", "South", server.Event{Seq: 2, Kind: server.KindAction, ToAct: "South", Actions: []string{"a\\b", "é\u2028"}}},
		{"end, no actions", "South", server.Event{Seq: 99, Kind: server.KindEnd, At: at, Result: "1-2-3-4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := json.MarshalIndent(tc.ev, "", " ") // blanks between tokens too
			if err != nil {
				t.Fatal(err)
			}
			want, err := viaJSON(t, data, tc.seat)
			if err != nil {
				t.Fatal(err)
			}
			got := loadEvent{Actions: []string{"left", "over"}} // a reused event's
			for range 2 {                                       // the second time, with the actions seen the first
				if err := decodeLoadEvent(data, tc.seat, &got); err != nil {
					t.Fatalf("decodeLoadEvent(%s): %v", data, err)
				}
				if !same(got, want) {
					t.Fatalf("decodeLoadEvent(%s) = %+v, want %+v", data, got, want)
				}
			}
		})
	}
}

// TestDecodeLoadEventForgets reads more distinct words than a loadEvent
// keeps the strings of: each is still read as it was written, and the
// strings kept stay within maxSeen.
func TestDecodeLoadEventForgets(t *testing.T) {
	var e loadEvent
	for i := range maxSeen + 10 {
		a := fmt.Sprintf("a%d", i)
		data := fmt.Appendf(nil, `{"seq": %d, "kind": "roll", "to_act": "South", "actions": ["pass", %q]}`, i+1, a)
		if err := decodeLoadEvent(data, "South", &e); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(e.Actions, []string{"pass", a}) || e.Seq != int64(i+1) || e.Kind != server.KindRoll {
			t.Fatalf("decodeLoadEvent(%s) = %+v", data, e)
		}
		if len(e.seen) > maxSeen {
			t.Fatalf("after %d events, %d strings kept, want at most %d", i+1, len(e.seen), maxSeen)
		}
	}
}

func TestDecodeLoadEventRefuses(t *testing.T) {
	for _, data := range []string{
		``, `[]`, `{"seq": 1`, `{"seq": "1"}`, `{"seq": 1,}`, `{"kind": "action" "seq": 2}`,
		`{"seq": 1} x`, `{"kind": "unterminated}`, `{"position": [1, 2}`, `{"position": }`,
		`{"error": {"code": 5}}`, `{"to_act": "South", "actions": ["a", 3]}`, "{\"kind\": \"a\x01\"}",
	} {
		var e loadEvent
		if err := decodeLoadEvent([]byte(data), "South", &e); err == nil {
			t.Errorf("decodeLoadEvent(%q) = %+v, want an error", data, e)
		}
	}
}

// FuzzDecodeLoadEvent checks decodeLoadEvent against encoding/json on
// messages as the server writes them, built of the fuzzer's values, and
// that no input makes it panic.
func FuzzDecodeLoadEvent(f *testing.F) {
	f.Add(int64(3), "action", "player", "South", "a1a2", "pass", "x/y", "South", []byte(`{"seq":1,"kind":"roll"}`))
	f.Add(int64(0), "hello", "", "", "", "", "", "West", []byte(`{"kind":"hello","last":0,"position":{"a":[1,{"b":"}"}]}}`))
	f.Fuzz(func(t *testing.T, seq int64, kind, by, toAct, a1, a2, position, seat string, raw []byte) {
		var e loadEvent
		decodeLoadEvent(raw, seat, &e) // must not panic

		ev := server.Event{Seq: seq, Kind: kind, By: by, ToAct: toAct, Position: position, Actions: []string{a1, a2}, Last: seq / 2}
		data, err := json.Marshal(ev)
		if err != nil {
			return
		}
		want, err := viaJSON(t, data, seat)
		if err != nil {
			t.Fatal(err)
		}
		var got loadEvent
		if err := decodeLoadEvent(data, seat, &got); err != nil {
			t.Fatalf("decodeLoadEvent(%s): %v", data, err)
		}
		if !same(got, want) {
			t.Fatalf("decodeLoadEvent(%s) = %+v, want %+v", data, got, want)
		}
	})
}
