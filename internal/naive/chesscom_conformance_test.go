package naive

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the conformance data this package computes")

// chesscomConformancePath is package rules' conformance data for
// chesscom-chaturaji, which this package computes.
const chesscomConformancePath = "../../rules/testdata/conformance/chesscom-chaturaji.jsonl"

// chesscomConformance computes the conformance lines of chesscom-chaturaji
// from random games played by this package alone: 80 positions, some after
// a resignation or a timeout, some where a claim is legal, some with the
// clock one turn from its end; every legal action with the position after
// it, and perft to depth 2 on every fifth line.
func chesscomConformance() []byte {
	rng := rand.New(rand.NewPCG(24, 2026))
	var out bytes.Buffer
	lines := 0
	for lines < 80 {
		p := StartOf(ChesscomChaturaji)
		for step := 0; !p.Finished() && lines < 80; step++ {
			acts := p.Actions()
			take := rng.IntN(12) == 0 || slices.Contains(acts, "claim") && rng.IntN(3) == 0
			if take {
				pos := p
				if rng.IntN(8) == 0 && !p.Finished() {
					q := *p
					q.Clock = 199 // one quiet turn from the clock's end
					pos = &q
				}
				line := struct {
					Pos     string            `json:"pos"`
					Actions []string          `json:"actions"`
					After   map[string]string `json:"after"`
					Perft2  *uint64           `json:"perft2,omitempty"`
				}{Pos: pos.String(), Actions: pos.Actions(), After: map[string]string{}}
				for _, a := range line.Actions {
					line.After[a] = pos.apply(a).String()
				}
				if lines%5 == 0 {
					n := Perft(pos, 2)
					line.Perft2 = &n
				}
				b, err := json.Marshal(line)
				if err != nil {
					panic(err)
				}
				out.Write(b)
				out.WriteByte('\n')
				lines++
			}
			a := acts[rng.IntN(len(acts))]
			switch r := rng.IntN(60); {
			case r == 0:
				a = "resign"
			case r == 1:
				a = "timeout"
			}
			q, err := p.Apply(a)
			if err != nil {
				panic(err)
			}
			p = q
		}
	}
	return out.Bytes()
}

// TestChesscomConformance: the conformance data of chesscom-chaturaji is
// exactly what this package computes (go test -update rewrites it), and
// covers what it should: dead armies, claims, the clock's last turn and a
// game's end.
func TestChesscomConformance(t *testing.T) {
	got := chesscomConformance()
	if *update {
		if err := os.WriteFile(chesscomConformancePath, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(chesscomConformancePath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not what internal/naive computes: run go test ./internal/naive -run ChesscomConformance -update", chesscomConformancePath)
	}
	var dead, claim, clock, over int
	for _, l := range bytes.Split(bytes.TrimSpace(got), []byte("\n")) {
		var c conformanceLine
		if err := json.Unmarshal(l, &c); err != nil {
			t.Fatal(err)
		}
		p, err := ParseRules(ChesscomChaturaji, c.Pos)
		if err != nil {
			t.Fatal(err)
		}
		if p.formatDead() != "" {
			dead++
		}
		if slices.Contains(c.Actions, "claim") {
			claim++
		}
		if p.Clock == 199 {
			clock++
		}
		for _, after := range c.After {
			if q, _ := ParseRules(ChesscomChaturaji, after); q != nil && q.Finished() {
				over++
				break
			}
		}
	}
	t.Logf("dead armies %d, claims %d, clock 199 %d, lines with an end %d", dead, claim, clock, over)
	if dead == 0 || claim == 0 || clock == 0 || over == 0 {
		t.Errorf("the data misses a rule: dead armies %d, claims %d, clock 199 %d, lines with an end %d", dead, claim, clock, over)
	}
}
