package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

func TestInfoRoundTrip(t *testing.T) {
	pr := rules.Chaturaji
	a := ai.Analysis{
		Line:     []rules.Action{rules.MoveAction(3, 19), rules.PassAction, rules.RetireAction},
		Expected: [rules.NumSeats]float64{12.5, -1, 0, 54},
		Nodes:    41288,
		Depth:    5,
		Elapsed:  98 * time.Millisecond,
	}
	line := formatInfo(pr, a)
	if want := "info depth 5 nodes 41288 time 98 score 12.50,-1.00,0.00,54.00 pv d1d3 pass retire"; line != want {
		t.Fatalf("formatInfo = %q, want %q", line, want)
	}
	var got ai.Analysis
	if text, err := parseInfo(pr, strings.Fields(line)[1:], &got); err != nil || text != "" {
		t.Fatalf("parseInfo: %q, %v", text, err)
	}
	if formatInfo(pr, got) != line {
		t.Errorf("round trip: %q", formatInfo(pr, got))
	}
}

func TestParseInfo(t *testing.T) {
	tests := []struct {
		name, line, text, err string
	}{
		{"a string runs to the end", "depth 2 string hello  world", "hello world", ""},
		{"unknown fields are skipped", "seldepth 9 hashfull 3 nodes 5", "", ""},
		{"a field without value", "depth", "", "info depth: no value"},
		{"a bad number", "nodes many", "", `info nodes "many": want a whole number`},
		{"too few scores", "score 1,2,3", "", `info score "1,2,3": want 4 numbers`},
		{"a bad score", "score 1,2,x,4", "", `info score "1,2,x,4": "x" is not a finite number`},
		{"a score that is not a number", "score 1,NaN,3,4", "", `info score "1,NaN,3,4": "NaN" is not a finite number`},
		{"an infinite score", "score 1,2,3,-Inf", "", `info score "1,2,3,-Inf": "-Inf" is not a finite number`},
		{"a time past what a duration holds", "time 9999999999999999", "", `info time "9999999999999999": want a whole number`},
		{"a bad action in the line", "pv d2d3 e9", "", `info pv: "e9" is not an action`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a ai.Analysis
			text, err := parseInfo(rules.Chaturaji, strings.Fields(tt.line), &a)
			if text != tt.text || (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
				t.Errorf("parseInfo(%q) = %q, %v; want %q, %q", tt.line, text, err, tt.text, tt.err)
			}
		})
	}
}

func TestParseGo(t *testing.T) {
	tests := []struct {
		args string
		want ai.Budget
		err  string
	}{
		{"movetime 100", ai.Budget{Time: 100 * time.Millisecond}, ""},
		{"nodes 5000", ai.Budget{Nodes: 5000}, ""},
		{"movetime 100 nodes 5000", ai.Budget{Time: 100 * time.Millisecond, Nodes: 5000}, ""},
		{"", ai.Budget{}, "go: want a limit, movetime MS or nodes N"},
		{"movetime", ai.Budget{}, "go: want movetime MS and/or nodes N"},
		{"movetime -1", ai.Budget{}, `go movetime "-1": want a whole number above 0`},
		{"depth 3", ai.Budget{}, `go: unknown limit "depth" (want movetime or nodes)`},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			b, err := parseGo(strings.Fields(tt.args))
			if b != tt.want || (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
				t.Errorf("parseGo(%q) = %+v, %v; want %+v, %q", tt.args, b, err, tt.want, tt.err)
			}
			if err == nil {
				if again, _ := parseGo(strings.Fields(formatGo(b))[1:]); again != b {
					t.Errorf("formatGo round trip: %+v", again)
				}
			}
		})
	}
}

// FuzzParseInfo checks that no info line makes the parser panic, and that
// what it reads prints and reads back the same.
func FuzzParseInfo(f *testing.F) {
	f.Add("depth 5 nodes 41288 time 98 score 14.20,10.55,9.80,12.43 pv d2d3 a5a4 e7e6")
	f.Add("string error: no")
	f.Add("score 1e400,NaN,-0,+5")
	f.Fuzz(func(t *testing.T, line string) {
		pr := rules.Chaturaji
		var a ai.Analysis
		if text, err := parseInfo(pr, strings.Fields(line), &a); err != nil || text != "" {
			return
		}
		var b ai.Analysis
		out := formatInfo(pr, a)
		if _, err := parseInfo(pr, strings.Fields(out)[1:], &b); err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", line, out, err)
		}
		if again := formatInfo(pr, b); again != out {
			t.Fatalf("%q printed as %q, then as %q", line, out, again)
		}
	})
}
