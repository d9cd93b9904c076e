package nn_test

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/ai/nn"
	"github.com/chaturaji/chaturaji/rules"
)

// The golden values are the shipped networks' outputs, by seat, in
// positions of a random game.

// update rewrites testdata/golden.txt from the shipped weights: run
// `go test ./ai/nn -run Golden -update` after shipping new weights, and
// only then.
var update = flag.Bool("update", false, "rewrite the golden values from the shipped weights")

const goldenFile = "testdata/golden.txt"

// goldenPositions returns positions of a random game of pr: the start and
// every 25th action's position after it, rolled or not.
func goldenPositions(pr *rules.Preset) []*rules.Position {
	g := rules.NewGame(pr, rules.SeedFromInt(1))
	rng := rand.New(rand.NewPCG(1, 2))
	ps := []*rules.Position{g.Position()}
	var buf [rules.MaxActions]rules.Action
	for i := 1; !g.Finished(); i++ {
		if g.Position().AwaitingRoll() {
			g.Roll()
		} else {
			acts := g.Actions(buf[:])
			g.Play(acts[rng.IntN(len(acts))])
		}
		if i%25 == 0 && !g.Finished() {
			ps = append(ps, g.Position())
		}
	}
	return ps
}

func TestShippedWeights(t *testing.T) {
	names := nn.Shipped()
	for _, name := range names {
		pr, err := rules.Lookup(name)
		if err != nil {
			t.Fatalf("weights for an unknown preset %q", name)
		}
		n := nn.ForPreset(name)
		if n == nil || n.Preset != name {
			t.Fatalf("%s: shipped weights name the preset %q", name, n.Preset)
		}
		if pr.NumSeats() != rules.NumSeats {
			t.Fatalf("%s: weights for a preset of %d seats", name, pr.NumSeats())
		}
		if !strings.HasPrefix(n.Note, "chaturaji train ") {
			t.Errorf("%s: the note %q does not say how the weights were made", name, n.Note)
		}
	}
	if nn.ForPreset("chaturanga-2p") != nil {
		t.Error("weights for a preset that has none")
	}
}

func TestGolden(t *testing.T) {
	var got strings.Builder
	for _, name := range nn.Shipped() {
		pr, _ := rules.Lookup(name)
		n := nn.ForPreset(name)
		for _, p := range goldenPositions(pr) {
			v := n.Outputs(p)
			fmt.Fprintf(&got, "%s\t%s\t%.4f %.4f %.4f %.4f\n", name, p, v[0], v[1], v[2], v[3])
		}
	}
	if *update {
		if err := os.WriteFile(goldenFile, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	lines := 0
	for sc.Scan() {
		lines++
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 3 {
			t.Fatalf("%s:%d: want 3 fields", goldenFile, lines)
		}
		pr, err := rules.Lookup(fields[0])
		if err != nil {
			t.Fatal(err)
		}
		n := nn.ForPreset(fields[0])
		if n == nil {
			t.Fatalf("%s:%d: no weights for %s", goldenFile, lines, fields[0])
		}
		p, err := rules.ParsePosition(pr, fields[1])
		if err != nil {
			t.Fatal(err)
		}
		v := n.Outputs(p)
		for i, s := range strings.Fields(fields[2]) {
			want, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(v[i]-want) > 1e-3 {
				t.Errorf("%s:%d: %s seat %d: value %.4f, golden %.4f", goldenFile, lines, fields[0], i, v[i], want)
			}
		}
	}
	if lines == 0 && len(nn.Shipped()) > 0 {
		t.Fatalf("%s is empty; run go test ./ai/nn -run Golden -update", goldenFile)
	}
}
