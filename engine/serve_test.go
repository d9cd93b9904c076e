package engine_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/engine"
)

// start is the chaturaji start position with South's roll of 5 made.
const start = "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b 5 0,0,0,0 0"

// capture is a position where South's elephant (die 4) takes North's king on
// d8 or West's pawn on a1: greedy takes the king.
const capture = "3gK4/8/8/8/8/8/8/yP2bE3bK b 4 0,0,0,0 0"

func TestServe(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string // regular expressions, one per line of output, in order
	}{
		{"handshake", "chaturaji\nisready\n", []string{
			`^id name chaturaji greedy$`, `^id author the Chaturaji project$`, `^chaturajiok$`, `^readyok$`}},
		{"blank lines and blanks around commands are skipped", "\n   \n  isready  \r\n", []string{`^readyok$`}},
		{"unknown command", "castle\nisready\n", []string{
			`^info string error: unknown command "castle"$`, `^readyok$`}},
		{"greedy takes the king", "newgame\nrules chaturaji\nposition " + capture + "\ngo movetime 50\n", []string{
			`^bestaction d1d8$`}},
		{"go with both limits", "position " + capture + "\ngo movetime 50 nodes 100\n", []string{`^bestaction d1d8$`}},
		{"malformed position", "position yByP2 b 5\ngo nodes 10\n", []string{
			`^info string error: position .*want 5 or 6 fields`, `^info string error: go: no position \(send position POS first\)$`, `^bestaction none$`}},
		{"position awaiting its roll", "position " + strings.Replace(start, " b 5 ", " b - ", 1) + "\n", []string{
			`^info string error: position: the dice field is -: the host must roll before it asks for a decision$`}},
		{"finished position", "position 3gK4/8/8/8/8/8/8/8 b - 54,0,0,0 0\n", []string{
			`^info string error: position: the game is over \(one king left\)$`}},
		{"go without position", "go nodes 5\n", []string{
			`^info string error: go: no position`, `^bestaction none$`}},
		{"go without limit", "position " + start + "\ngo\n", []string{
			`^info string error: go: want a limit, movetime MS or nodes N$`, `^bestaction none$`}},
		{"go with a bad limit", "position " + start + "\ngo depth 3\n", []string{
			`^info string error: go: unknown limit "depth" \(want movetime or nodes\)$`, `^bestaction none$`}},
		{"unknown rules, then a position", "rules chess\nposition " + start + "\n", []string{
			`^info string error: rules "chess": unknown preset \(known: .*chaturaji`,
			`^info string error: position: no rules \(the last rules command failed\)$`}},
		{"setoption of an engine without options", "setoption name Hash value 64\n", []string{
			`^info string error: unknown option "Hash" \(this engine has none\)$`}},
		{"stop when idle is ignored", "stop\nisready\n", []string{`^readyok$`}},
		{"nothing after quit", "quit\nisready\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := engine.Serve(strings.NewReader(tt.input), &out, ai.NewGreedy(1)); err != nil {
				t.Fatalf("Serve: %v", err)
			}
			got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if out.Len() == 0 {
				got = nil
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d lines, want %d:\n%s", len(got), len(tt.want), out.String())
			}
			for i, re := range tt.want {
				if !regexp.MustCompile(re).MatchString(got[i]) {
					t.Errorf("line %d = %q, want it to match %s", i+1, got[i], re)
				}
			}
		})
	}
}

// TestServeAnalyzer checks the info line of a search player.
func TestServeAnalyzer(t *testing.T) {
	p, err := ai.New("strong", 1)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	in := "position " + capture + "\ngo nodes 2000\nisready\n"
	if err := engine.Serve(strings.NewReader(in), &out, p); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	// isready may be answered before or after the search's reply.
	re := regexp.MustCompile(`^info depth [1-9]\d* nodes \d+ time \d+ score -?\d+\.\d\d,-?\d+\.\d\d,-?\d+\.\d\d,-?\d+\.\d\d pv d1d8( \S+)*$`)
	var info, best, ready int
	for _, l := range lines {
		switch {
		case re.MatchString(l):
			info++
		case l == "bestaction d1d8":
			best++
		case l == "readyok":
			ready++
		default:
			t.Errorf("unexpected line %q", l)
		}
	}
	if info != 1 || best != 1 || ready != 1 {
		t.Errorf("got %d info, %d bestaction, %d readyok lines, want 1 each:\n%s", info, best, ready, out.String())
	}
}

// FuzzServe checks that no input makes Serve fail or send anything but the
// protocol's replies.
func FuzzServe(f *testing.F) {
	f.Add("chaturaji\nisready\nposition " + capture + "\ngo nodes 5\n")
	f.Add("rules chaturanga-2p\nposition x\ngo movetime 1\nsetoption name a value b\nstop\nnewgame\n")
	f.Add("go movetime 1 nodes\n\x00\r\n")
	f.Fuzz(func(t *testing.T, input string) {
		var out bytes.Buffer
		if err := engine.Serve(strings.NewReader(input), &out, ai.NewRandom(1)); err != nil {
			t.Fatalf("Serve: %v", err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			word, _, _ := strings.Cut(l, " ")
			switch word {
			case "", "id", "chaturajiok", "readyok", "info", "bestaction":
			default:
				t.Fatalf("reply %q", l)
			}
		}
	})
}
