package server

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestParseLeaderQuery checks GET /api/leaderboard's query: the ruleset
// in canonical form, pages within the server's limits, and bad queries
// refused saying what is wrong.
func TestParseLeaderQuery(t *testing.T) {
	cfg := Config{}.withDefaults()
	for _, tc := range []struct {
		query string
		want  leaderQuery
		err   string
	}{
		{"rules=chaturaji", leaderQuery{rules: "chaturaji", limit: 50}, ""},
		{"rules=chaturaji&offset=20&limit=100", leaderQuery{rules: "chaturaji", offset: 20, limit: 100}, ""},
		{"", leaderQuery{}, "rules: name one ruleset"},
		{"rules=chaturaji&rules=chaturaji-teams", leaderQuery{}, "rules: name one ruleset"},
		{"rules=nosuchrules", leaderQuery{}, "rules: "},
		{"rules=" + strings.Repeat("x", 201), leaderQuery{}, "201 bytes, over the limit of 200"},
		{"rules=chaturaji&limit=0", leaderQuery{}, `limit "0": want a whole number from 1 to 100`},
		{"rules=chaturaji&limit=101", leaderQuery{}, `limit "101": want a whole number from 1 to 100`},
		{"rules=chaturaji&offset=-1", leaderQuery{}, `offset "-1": want a whole number from 0 to 10000`},
		{"rules=chaturaji&offset=10001", leaderQuery{}, `offset "10001"`},
		{"rules=chaturaji&offset=1&offset=2", leaderQuery{}, "offset: given 2 times"},
		{"rules=chaturaji&page=2", leaderQuery{}, `unknown query parameter "page"`},
	} {
		q, _ := url.ParseQuery(tc.query)
		got, err := parseLeaderQuery(q, cfg)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%q: %+v, %v; want %+v", tc.query, got, err, tc.want)
		case tc.err != "" && (ErrorCode(err) != EINVALID || !strings.Contains(ErrorMessage(err), tc.err)):
			t.Errorf("%q: %v; want EINVALID saying %q", tc.query, err, tc.err)
		}
	}
}

// TestResultPlace checks the place and score of a seat read from a
// points game's Result tag, ties sharing the better place.
func TestResultPlace(t *testing.T) {
	for _, tc := range []struct {
		result      string
		seat        int
		rank, score int
		ok          bool
	}{
		{"12,54,3,0", 0, 2, 12, true},
		{"12,54,3,0", 1, 1, 54, true},
		{"12,54,12,0", 2, 2, 12, true},
		{"12,54,12,0", 3, 4, 0, true},
		{"30,-5", 1, 2, -5, true},
		{"12,54,3,0", 4, 0, 0, false},
		{"*", 0, 0, 0, false},
		{"bg", 0, 0, 0, false},
		{"draw", 0, 0, 0, false},
		{"12,+5", 0, 0, 0, false},
		{"12,,3", 0, 0, 0, false},
	} {
		rank, score, ok := resultPlace(tc.result, tc.seat)
		if rank != tc.rank || score != tc.score || ok != tc.ok {
			t.Errorf("resultPlace(%q, %d) = %d, %d, %t; want %d, %d, %t", tc.result, tc.seat, rank, score, ok, tc.rank, tc.score, tc.ok)
		}
	}
}

// FuzzLeaderQuery checks that any query is either refused as EINVALID or
// gives a ruleset that exists and a page within the limits.
func FuzzLeaderQuery(f *testing.F) {
	for _, s := range []string{"rules=chaturaji", "rules=chaturaji-teams&offset=3&limit=7", "rules=x&limit=abc", "offset=1", "rules=%zz"} {
		f.Add(s)
	}
	cfg := Config{}.withDefaults()
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		lq, err := parseLeaderQuery(q, cfg)
		if err != nil {
			if ErrorCode(err) != EINVALID {
				t.Fatalf("%q: %v, not EINVALID", raw, err)
			}
			return
		}
		if lq.rules == "" || lq.offset < 0 || lq.offset > cfg.MaxLeaderOffset || lq.limit < 1 || lq.limit > cfg.MaxLeaders {
			t.Fatalf("%q: %+v out of bounds", raw, lq)
		}
	})
}

// FuzzProfileQuery checks that any query of GET /api/players/{name} is
// refused as EINVALID or asks for 1 to MaxProfileGames games.
func FuzzProfileQuery(f *testing.F) {
	for _, s := range []string{"", "games=5", "games=0", "games=101", "games=1&games=2", "x=1"} {
		f.Add(s)
	}
	cfg := Config{}.withDefaults()
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		pq, err := parseProfileQuery(q, cfg)
		if err != nil {
			if ErrorCode(err) != EINVALID {
				t.Fatalf("%q: %v, not EINVALID", raw, err)
			}
			return
		}
		if pq.games < 1 || pq.games > cfg.MaxProfileGames {
			t.Fatalf("%q: %d games", raw, pq.games)
		}
	})
}

// FuzzResultPlace checks that a place read from a Result tag is one of
// the seats' and the score is the seat's, written back the same.
func FuzzResultPlace(f *testing.F) {
	for _, s := range []string{"12,54,3,0", "*", "bg", "1,1", "-0,3"} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, result string, seat int) {
		rank, score, ok := resultPlace(result, seat)
		if !ok {
			return
		}
		parts := strings.Split(result, ",")
		if rank < 1 || rank > len(parts) || parts[seat] != strconv.Itoa(score) {
			t.Fatalf("resultPlace(%q, %d) = %d, %d", result, seat, rank, score)
		}
	})
}
