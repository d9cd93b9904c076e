package rating_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chaturaji/chaturaji/rating"
)

// openskillVersion is the npm package openskill that scripts/openskill.sh
// installs: the reference implementation the ratings must agree with.
const openskillVersion = "5.0.1"

// referenceTolerance is how far a Mu or Sigma computed here may be from
// the reference's.
const referenceTolerance = 1e-9

// openskillDir returns the directory holding node_modules/openskill:
// $CHATURAJI_OPENSKILL, else where scripts/openskill.sh installs it. The
// test fails without it, saying how to install it.
func openskillDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CHATURAJI_OPENSKILL")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Fatalf("the reference test needs openskill, and there is no cache directory to find it in: %v", err)
		}
		dir = filepath.Join(cache, "chaturaji", "openskill@"+openskillVersion)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "openskill", "package.json")); err != nil {
		t.Fatalf("the reference test needs openskill: no openskill in %s: run `bash scripts/openskill.sh` (it installs openskill@%s from the npm registry) or set CHATURAJI_OPENSKILL to a directory holding node_modules/openskill", dir, openskillVersion)
	}
	return dir
}

// options are the reference's names for a Model's parameters.
type options struct {
	Mu         float64 `json:"mu"`
	Sigma      float64 `json:"sigma"`
	Beta       float64 `json:"beta"`
	Kappa      float64 `json:"kappa"`
	Tau        float64 `json:"tau"`
	LimitSigma bool    `json:"limitSigma"`
}

// game is one game as the reference script reads it.
type game struct {
	Teams   [][]rating.Rating `json:"teams"`
	Ranks   []int             `json:"ranks"`
	Options options           `json:"options"`
	model   rating.Model
}

// randomGames returns n games of 2 to 4 teams of 1 or 2 players, with
// ratings from newcomers' to settled ones', ranks with ties (all tied,
// now and then), and, in one game of four, a model other than the
// default.
func randomGames(rng *rand.Rand, n int) []game {
	games := make([]game, n)
	for k := range games {
		m := rating.Default()
		switch rng.IntN(8) {
		case 0:
			m.Tau = 0
		case 1:
			m.LimitSigma = true
		case 2:
			m.Beta = 1 + 9*rng.Float64()
			m.Kappa = 0.5 * rng.Float64()
			m.Tau = rng.Float64()
		}
		teams := make([][]rating.Rating, 2+rng.IntN(3))
		ranks := make([]int, len(teams))
		allTied := rng.IntN(10) == 0
		for i := range teams {
			teams[i] = make([]rating.Rating, 1+rng.IntN(2))
			for j := range teams[i] {
				if rng.IntN(6) == 0 {
					teams[i][j] = m.New()
					continue
				}
				teams[i][j] = rating.Rating{Mu: -10 + 70*rng.Float64(), Sigma: 0.05 + 10*rng.Float64()}
			}
			if !allTied {
				ranks[i] = 1 + rng.IntN(len(teams))
			}
		}
		games[k] = game{
			Teams: teams,
			Ranks: ranks,
			Options: options{
				Mu: m.Mu, Sigma: m.Sigma, Beta: m.Beta, Kappa: m.Kappa, Tau: m.Tau, LimitSigma: m.LimitSigma,
			},
			model: m,
		}
	}
	return games
}

// TestReference rates hundreds of random games here and with npm's
// openskill (rate, model plackettLuce, the same options) under node, and
// compares every updated Mu and Sigma.
func TestReference(t *testing.T) {
	dir := openskillDir(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("the reference test runs openskill under node, and there is no node: install Node.js (apt-get install nodejs npm) and run `bash scripts/openskill.sh`: %v", err)
	}

	games := randomGames(rand.New(rand.NewPCG(22, 1)), 600)
	in, err := json.Marshal(games)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join("testdata", "openskill.cjs"), dir)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node testdata/openskill.cjs: %v\n%s", err, stderr.Bytes())
	}
	var reference struct {
		Version string              `json:"version"`
		Rated   [][][]rating.Rating `json:"rated"`
	}
	if err := json.Unmarshal(out, &reference); err != nil {
		t.Fatalf("node testdata/openskill.cjs wrote what is not its JSON: %v\n%.500s", err, out)
	}
	if reference.Version != openskillVersion {
		t.Fatalf("%s holds openskill %s, not %s: run `bash scripts/openskill.sh`", dir, reference.Version, openskillVersion)
	}
	if len(reference.Rated) != len(games) {
		t.Fatalf("the reference rated %d games of %d", len(reference.Rated), len(games))
	}

	largest, compared := 0.0, 0
	for k, g := range games {
		got, err := g.model.Rate(g.Teams, g.Ranks)
		if err != nil {
			t.Fatalf("game %d: %v", k, err)
		}
		want := reference.Rated[k]
		describe := func() string {
			return fmt.Sprintf("game %d: teams %v, ranks %v, options %+v", k, g.Teams, g.Ranks, g.Options)
		}
		if len(want) != len(got) {
			t.Fatalf("%s: the reference returned %d teams, Rate %d", describe(), len(want), len(got))
		}
		for i := range got {
			if len(want[i]) != len(got[i]) {
				t.Fatalf("%s: team %d: the reference returned %d players, Rate %d", describe(), i, len(want[i]), len(got[i]))
			}
			for j := range got[i] {
				for _, v := range []struct {
					name      string
					got, want float64
				}{{"Mu", got[i][j].Mu, want[i][j].Mu}, {"Sigma", got[i][j].Sigma, want[i][j].Sigma}} {
					d := math.Abs(v.got - v.want)
					if !(d <= referenceTolerance) {
						t.Errorf("%s: team %d player %d: %s is %.15g, the reference's %.15g (off by %.3g)", describe(), i, j, v.name, v.got, v.want, d)
					}
					largest = max(largest, d)
					compared++
				}
			}
		}
	}
	t.Logf("compared %d values of %d games with openskill %s: the largest difference is %.3g", compared, len(games), reference.Version, largest)
}
