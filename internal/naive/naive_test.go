package naive

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// conformancePath is the conformance data of package rules, computed by an
// independent implementation of docs/rules.md.
const conformancePath = "../../rules/testdata/conformance/chaturaji.jsonl"

type conformanceLine struct {
	Pos     string            `json:"pos"`
	Actions []string          `json:"actions"`
	After   map[string]string `json:"after"`
	Perft2  *uint64           `json:"perft2"`
}

func loadConformance(t *testing.T) []conformanceLine {
	t.Helper()
	f, err := os.Open(conformancePath)
	if err != nil {
		t.Fatalf("open conformance data: %v", err)
	}
	defer f.Close()
	var lines []conformanceLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var l conformanceLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("line %d: %v", len(lines)+1, err)
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(lines) != 100 {
		t.Fatalf("got %d conformance lines, want 100", len(lines))
	}
	return lines
}

func mustParse(t *testing.T, s string) *Position {
	t.Helper()
	p, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return p
}

func TestConformance(t *testing.T) {
	for i, l := range loadConformance(t) {
		p := mustParse(t, l.Pos)
		got := p.Actions()
		if !reflect.DeepEqual(got, l.Actions) {
			t.Errorf("line %d %s:\n actions %v\n want    %v", i+1, l.Pos, got, l.Actions)
			continue
		}
		if len(l.After) != len(l.Actions) {
			t.Errorf("line %d: %d after entries for %d actions", i+1, len(l.After), len(l.Actions))
		}
		for _, a := range got {
			q, err := p.Apply(a)
			if err != nil {
				t.Errorf("line %d: Apply(%s): %v", i+1, a, err)
				continue
			}
			if q.String() != l.After[a] {
				t.Errorf("line %d %s, %s:\n got  %s\n want %s", i+1, l.Pos, a, q, l.After[a])
			}
		}
		if l.Perft2 != nil {
			if n := Perft(p, 2); n != *l.Perft2 {
				t.Errorf("line %d %s: perft2 %d, want %d", i+1, l.Pos, n, *l.Perft2)
			}
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for i, l := range loadConformance(t) {
		strs := []string{l.Pos}
		for _, a := range l.After {
			strs = append(strs, a)
		}
		for _, s := range strs {
			if got := mustParse(t, s).String(); got != s {
				t.Errorf("line %d: round trip %q -> %q", i+1, s, got)
			}
		}
	}
	start := "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b - 0,0,0,0 0"
	if got := Start().String(); got != start {
		t.Errorf("Start() = %q, want %q", got, start)
	}
}

func TestParseNonCanonicalRuns(t *testing.T) {
	p := mustParse(t, "44/8/116/2222/8/11111111/8/3bK4 b 5 0,1,22,333 7")
	want := "8/8/8/8/8/8/8/3bK4 b 5 0,1,22,333 7"
	if got := p.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestParseRejects(t *testing.T) {
	good := "8/8/8/8/8/8/8/3bK4 b - 0,0,0,0 0"
	mustParse(t, good)
	bad := []string{
		"",
		"8/8/8/8/8/8/8/3bK4 b - 0,0,0,0",                         // missing clock
		"8/8/8/8/8/8/8/3bK4 b - 0,0,0,0 0 x",                     // extra field
		"8/8/8/8/8/8/8/3bK4  b - 0,0,0,0 0",                      // double space
		"8/8/8/8/8/8/8/3bK4 b - 0,0,0,0 0 ",                      // trailing space
		"8/8/8/8/8/8/3bK4 b - 0,0,0,0 0",                         // 7 ranks
		"8/8/8/8/8/8/8/8/3bK4 b - 0,0,0,0 0",                     // 9 ranks
		"8/8/8/8/8/8/8/4bK4 b - 0,0,0,0 0",                       // 9 squares
		"8/8/8/8/8/8/8/3bK3 b - 0,0,0,0 0",                       // 7 squares
		"8/8/8/8/8/8/8/9 b - 0,0,0,0 0",                          // bad run
		"8/8/8/8/8/8/8/03bK4 b - 0,0,0,0 0",                      // zero run
		"8/8/8/8/8/8/8/3xK4 b - 0,0,0,0 0",                       // bad colour
		"8/8/8/8/8/8/8/3bQ4 b - 0,0,0,0 0",                       // bad kind
		"8/8/8/8/8/8/8/3bk4 b - 0,0,0,0 0",                       // lower-case kind
		"8/8/8/8/8/8/8/7b b - 0,0,0,0 0",                         // truncated piece
		"8/8/8/8/8/8/8/3bK4 w - 0,0,0,0 0",                       // bad seat
		"8/8/8/8/8/8/8/3bK4 b 6 0,0,0,0 0",                       // bad face
		"8/8/8/8/8/8/8/3bK4 b 1 0,0,0,0 0",                       // bad face
		"8/8/8/8/8/8/8/3bK4 b 25 0,0,0,0 0",                      // two dice
		"8/8/8/8/8/8/8/3bK4 b - 0,0,0 0",                         // 3 scores
		"8/8/8/8/8/8/8/3bK4 b - 0,0,0,0,0 0",                     // 5 scores
		"8/8/8/8/8/8/8/3bK4 b - 0,-1,0,0 0",                      // negative score
		"8/8/8/8/8/8/8/3bK4 b - 0,01,0,0 0",                      // leading zero
		"8/8/8/8/8/8/8/3bK4 b - 0,,0,0 0",                        // empty score
		"8/8/8/8/8/8/8/3bK4 b - 0,0,0,0 x",                       // bad clock
		"8/8/8/8/8/8/8/3bK4 b - 0,0,0,0 +1",                      // signed clock
		"8/8/8/8/8/8/8/3bK4 b - 0,0,0,0 99999999999999999999999", // overflow
	}
	for _, s := range bad {
		if p, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) accepted, printed %q", s, p)
		}
	}
}

// TestStartPerft checks the start-position perft values of docs/rules.md §8
// (depth 6 takes about 2 s).
func TestStartPerft(t *testing.T) {
	want := []uint64{1, 10, 100, 1000, 10000, 114900, 1322030}
	for d, w := range want {
		if got := Perft(Start(), d); got != w {
			t.Errorf("perft(start, %d) = %d, want %d", d, got, w)
		}
	}
}

func TestApplyRejects(t *testing.T) {
	s := Start()
	if _, err := s.Apply("d2d3"); err == nil {
		t.Error("Apply on a position awaiting its roll succeeded")
	}
	r := s.WithRoll(5)
	for _, a := range []string{"d2d4", "pass", "retire", "a1c3", "e7e6", "", "d2d3x"} {
		if _, err := r.Apply(a); err == nil {
			t.Errorf("illegal %q accepted", a)
		}
	}
	q, err := r.Apply("d2d3")
	if err != nil {
		t.Fatal(err)
	}
	if want := "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/3bP2rPrE/bPbPbP3rPrH/bBbHbEbK2rPrB y - 0,0,0,0 0"; q.String() != want {
		t.Errorf("after d2d3: %s, want %s", q, want)
	}
	if r.String() != s.WithRoll(5).String() {
		t.Error("Apply modified its receiver")
	}
}

// TestRulesByHand checks single rule points on small hand-made positions; the
// expected results were worked out from docs/rules.md §4, not from the code.
func TestRulesByHand(t *testing.T) {
	cases := []struct {
		name, pos, action, want string
		finished                bool
	}{
		{
			name:   "honourable peace: only kings left, no 54 raise",
			pos:    "8/8/8/8/8/8/1gP6/bK6gK b 5 0,0,0,0 3",
			action: "a1b2",
			want:   "8/8/8/8/8/8/1bK6/7gK g - 1,0,0,0 0", finished: true,
		},
		{
			name:   "clock reaches 200",
			pos:    "8/8/8/8/8/1gP6/8/bK6gK b 5 0,0,0,0 199",
			action: "a1b1",
			want:   "8/8/8/8/8/1gP6/8/1bK5gK g - 0,0,0,0 200", finished: true,
		},
		{
			name:   "frozen seat revived; two pawns waiting for a king, lower index first",
			pos:    "7gK/8/8/7yP/7yP/8/8/bK7 b 5 0,0,0,0 0",
			action: "a1b1",
			want:   "7gK/8/8/7yP/7yK/8/8/1bK6 y - 0,0,0,0 1",
		},
		{
			name:   "boat triumph captures the three other boats of the block",
			pos:    "yK1gK1rK3/8/8/8/2rByB4/3gB4/8/bB2bK4 b 2 0,0,0,0 5",
			action: "a1c3",
			want:   "yK1gK1rK3/8/8/8/8/2bB5/8/3bK4 y - 6,0,0,0 0",
		},
		{
			name:   "boat cannot take a boat: only pass",
			pos:    "yK1gK1rK3/8/8/8/8/2gB5/8/bB2bK4 b 2 0,0,0,0 5",
			action: "pass",
			want:   "yK1gK1rK3/8/8/8/8/2gB5/8/bB2bK4 y - 0,0,0,0 6",
		},
		{
			name:   "last king raised to 54; turn comes back to the mover",
			pos:    "yP7/8/8/8/8/8/1gK6/bK7 b 5 3,0,0,0 0",
			action: "a1b2",
			want:   "yP7/8/8/8/8/8/1bK6/8 b - 54,0,0,0 0", finished: true,
		},
		{
			name:   "54 raise after the capture points: 50 + 5 stays 55",
			pos:    "yP7/8/8/8/8/8/1gK6/bK7 b 5 50,0,0,0 0",
			action: "a1b2",
			want:   "yP7/8/8/8/8/8/1bK6/8 b - 55,0,0,0 0", finished: true,
		},
		{
			name:   "retire leaves one king: its owner gets 54, nobody scores",
			pos:    "yP7/8/8/8/8/8/1gK6/bK7 b 3 3,0,0,0 0",
			action: "retire",
			want:   "yP7/8/8/8/8/8/1gK6/8 g - 3,0,54,0 1", finished: true,
		},
		{
			name:   "a revival during turn passing prevents the end",
			pos:    "7rP/8/8/7yP/8/8/1gK6/bK7 b 5 0,0,0,0 0",
			action: "a1b2",
			want:   "7rP/8/8/7yK/8/8/1bK6/8 y - 5,0,0,0 0",
		},
	}
	for _, c := range cases {
		p := mustParse(t, c.pos)
		q, err := p.Apply(c.action)
		if err != nil {
			t.Errorf("%s: Apply(%s): %v (actions %v)", c.name, c.action, err, p.Actions())
			continue
		}
		if q.String() != c.want {
			t.Errorf("%s:\n got  %s\n want %s", c.name, q, c.want)
		}
		if q.Finished() != c.finished {
			t.Errorf("%s: Finished() = %v, want %v", c.name, q.Finished(), c.finished)
		}
		if c.finished {
			if a := q.WithRoll(5).Actions(); a != nil {
				t.Errorf("%s: finished position has actions %v", c.name, a)
			}
			if n := Perft(q, 1); n != 0 {
				t.Errorf("%s: perft1 of finished position = %d", c.name, n)
			}
		}
	}
	// Retire is offered on top of pass, and with die 5 on top of the king's moves.
	if got := mustParse(t, "yP7/8/8/8/8/8/1gK6/bK7 b 3 3,0,0,0 0").Actions(); !reflect.DeepEqual(got, []string{"pass", "retire"}) {
		t.Errorf("lone king, die 3: %v", got)
	}
	if got := mustParse(t, "yP7/8/8/8/8/8/1gK6/bK7 b 5 3,0,0,0 0").Actions(); !reflect.DeepEqual(got, []string{"a1a2", "a1b1", "a1b2", "retire"}) {
		t.Errorf("lone king, die 5: %v", got)
	}
}
