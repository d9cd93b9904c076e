package learn

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/match"
	"github.com/chaturaji/chaturaji/rules"
)

// TuneConfig is a tuning run by play: SPSA (simultaneous perturbation
// stochastic approximation) over some of a search player's evaluation
// weights. Each iteration plays one deal, the weights pushed one way
// against the same weights pushed the other way, and moves the weights
// along the difference of the two sides' results.
type TuneConfig struct {
	Preset *rules.Preset // the preset whose games are played; four seats
	Seed   rules.Seed    // the seed of the deals' dice and the pushes
	// Player is the search player whose weights are tuned, as an ai spec
	// ("strong", "strong?eval=hand"); it must not name the tuned weights.
	Player string
	// Params are the weight settings tuned (of ai.WeightSettings), each
	// from its value in Start or, if Start lacks it, in ai.DefaultWeights,
	// which must be above 0: the tuning works on their logarithms.
	Params []string
	Start  map[string]float64 // first values other than the defaults
	// Iterations is the number of deals.
	Iterations int
	Nodes      int64 // the players' nodes a decision
	// Perturb (c), Step (a) and Stability (A) are SPSA's gains: iteration k
	// (from 1) pushes each log-weight by c/k^0.101 either way, and moves it
	// by a/(A+k)^0.602 times the estimated slope.
	Perturb, Step, Stability float64
	// AverageFrom is the deal after which the run averages the weights:
	// the result is the mean, in log space, of the weights after each
	// later deal, which is steadier than the last ones (0: average them
	// all).
	AverageFrom int
	// Batch is how many deals are played from the same weights before
	// their steps are taken, in order; the result depends on it.
	Batch int
	// Workers is how many deals are played at once; it changes nothing in
	// the result.
	Workers int
}

// TuneState is where a tuning run stands: what its checkpoint file holds.
type TuneState struct {
	// Config identifies the run: the settings that decide its result
	// (TuneConfig.key). A run resumes only from a state of the same.
	Config string `json:"config"`
	// Iteration is the number of deals played.
	Iteration int `json:"iteration"`
	// Params are the weights tuned.
	Params []string `json:"params"`
	// Logs are the logarithms of their current values, in the order of
	// Params: what the run steps, kept as they are so that a resumed run
	// goes on from exactly where it was (Values gives the weights).
	Logs []float64 `json:"logs"`
	// Score is the sum over the deals of the first side's pairwise score
	// (match.DealScores): about half the deals, whatever the weights.
	Score float64 `json:"score"`
	// Sum and Averaged are the sum of the log-weights after each deal past
	// AverageFrom, and how many deals it counts.
	Sum      []float64 `json:"sum"`
	Averaged int       `json:"averaged"` // the deals Sum counts
	// Mean are the weights of the result: the mean of the weights Sum
	// counts, in log space (the current values until it counts one).
	Mean []float64 `json:"mean"`
	// Spec is the tuned player: Player with the Mean weights.
	Spec string `json:"spec"`
}

// Values returns the tuned weights' current values, in the order of
// Params.
func (st *TuneState) Values() []float64 { return exps(st.Logs) }

// exps returns the exponential of each logarithm in logs.
func exps(logs []float64) []float64 {
	v := make([]float64, len(logs))
	for i, x := range logs {
		v[i] = math.Exp(x)
	}
	return v
}

// key names what decides a run's result, Iterations and Workers aside: a
// run may be resumed to go further.
func (cfg *TuneConfig) key() string {
	return fmt.Sprintf("rules=%s seed=%s player=%s params=%s start=%v nodes=%d c=%g a=%g A=%g average-from=%d batch=%d",
		cfg.Preset.Name, cfg.Seed, cfg.Player, strings.Join(cfg.Params, ","), cfg.startValues(), cfg.Nodes, cfg.Perturb, cfg.Step, cfg.Stability, cfg.AverageFrom, cfg.Batch)
}

// startValues returns the tuned weights' first values.
func (cfg *TuneConfig) startValues() []float64 {
	vals := make([]float64, len(cfg.Params))
	for i, name := range cfg.Params {
		if v, ok := cfg.Start[name]; ok {
			vals[i] = v
			continue
		}
		w := ai.DefaultWeights
		if f := w.Field(name); f != nil {
			vals[i] = *f
		}
	}
	return vals
}

// check returns an error if cfg cannot run.
func (cfg *TuneConfig) check() error {
	switch {
	case cfg.Preset == nil:
		return errors.New("learn: no preset")
	case cfg.Preset.NumSeats() != rules.NumSeats:
		return fmt.Errorf("learn: %s has %d seats; tuning plays four", cfg.Preset.Name, cfg.Preset.NumSeats())
	case cfg.Iterations < 1 || cfg.Nodes < 1 || cfg.Batch < 1:
		return errors.New("learn: tuning needs iterations, nodes and a batch of 1 or more")
	case !(cfg.Perturb > 0) || !(cfg.Step > 0) || !(cfg.Stability >= 0):
		return errors.New("learn: tuning needs a perturbation and a step above 0, and a stability of at least 0")
	case len(cfg.Params) == 0:
		return errors.New("learn: no weights to tune")
	}
	var w ai.Weights
	start := cfg.startValues()
	for i, name := range cfg.Params {
		if w.Field(name) == nil {
			return fmt.Errorf("learn: %q is not a weight setting (%s)", name, strings.Join(ai.WeightSettings, ", "))
		}
		if slices.Index(cfg.Params, name) != i {
			return fmt.Errorf("learn: the weight %s is named twice", name)
		}
		if v := start[i]; !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("learn: the weight %s starts at %g; tuning needs a finite value above 0", name, v)
		}
	}
	for name := range cfg.Start {
		if !slices.Contains(cfg.Params, name) {
			return fmt.Errorf("learn: a start value for %s, which is not tuned", name)
		}
	}
	// The player must build, with the weights set, and search.
	if _, err := ai.New(withWeights(cfg.Player, cfg.Params, start), 1); err != nil {
		return fmt.Errorf("learn: the player to tune: %w", err)
	}
	return nil
}

// withWeights returns player's spec with the named weights set to vals.
func withWeights(player string, names []string, vals []float64) string {
	var b strings.Builder
	b.WriteString(player)
	sep := byte('?')
	if strings.Contains(player, "?") {
		sep = '&'
	}
	for i, name := range names {
		b.WriteByte(sep)
		sep = '&'
		b.WriteString(name)
		b.WriteByte('=')
		b.WriteString(strconv.FormatFloat(vals[i], 'g', 5, 64))
	}
	return b.String()
}

// deal is one iteration's plan: its number, the pushes' signs, and the
// two sides' log-weights.
type deal struct {
	k           int
	ck          float64
	signs       []float64
	plus, minus []float64
}

// scorer plays deal d and returns the pairwise score of the plus side
// against the minus side, from 0 to 1.
type scorer func(ctx context.Context, d *deal) (float64, error)

// Tune runs cfg, writing its state to the file checkpoint after every
// batch, and returns the final state. With resume it goes on from the
// state the checkpoint holds, which must come from the same settings
// (Iterations and Workers aside); an interrupted run goes on where it
// stopped and ends where a run straight through would.
func Tune(ctx context.Context, cfg TuneConfig, checkpoint string, resume bool, rep Reporter) (*TuneState, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return tune(ctx, cfg, checkpoint, resume, rep, cfg.play)
}

// tune is Tune with the scorer given: the SPSA loop.
func tune(ctx context.Context, cfg TuneConfig, checkpoint string, resume bool, rep Reporter, play scorer) (*TuneState, error) {
	st := &TuneState{Config: cfg.key(), Params: slices.Clone(cfg.Params), Sum: make([]float64, len(cfg.Params))}
	for _, v := range cfg.startValues() {
		st.Logs = append(st.Logs, math.Log(v))
	}
	if resume {
		old, err := ReadTuneState(checkpoint)
		if err != nil {
			return nil, err
		}
		if old.Config != st.Config {
			return nil, fmt.Errorf("learn: %s is the checkpoint of another run:\n  it:   %s\n  this: %s", checkpoint, old.Config, st.Config)
		}
		st = old
	}
	theta := slices.Clone(st.Logs)
	workers := max(cfg.Workers, 1)
	every := max(cfg.Iterations/20, 1)
	for st.Iteration < cfg.Iterations {
		n := min(cfg.Batch, cfg.Iterations-st.Iteration)
		deals := make([]*deal, n)
		for i := range deals {
			deals[i] = cfg.plan(st.Iteration+1+i, theta)
		}
		scores, err := playAll(ctx, deals, workers, play)
		if err != nil {
			return st, err
		}
		for i, d := range deals {
			ak := cfg.Step / math.Pow(cfg.Stability+float64(d.k), 0.602)
			g := (2*scores[i] - 1) / (2 * d.ck)
			for j := range theta {
				theta[j] += ak * g * d.signs[j]
			}
			st.Score += scores[i]
			st.Iteration++
			if st.Iteration > cfg.AverageFrom {
				for j, t := range theta {
					st.Sum[j] += t
				}
				st.Averaged++
			}
			if rep != nil {
				rep.Progress("deals", st.Iteration, cfg.Iterations, 0)
			}
		}
		st.Logs = slices.Clone(theta)
		st.Mean = st.Values()
		if st.Averaged > 0 {
			for j := range st.Mean {
				st.Mean[j] = math.Exp(st.Sum[j] / float64(st.Averaged))
			}
		}
		st.Spec = withWeights(cfg.Player, st.Params, st.Mean)
		if err := st.write(checkpoint); err != nil {
			return st, err
		}
		if rep != nil && (st.Iteration%every < n || st.Iteration == cfg.Iterations) {
			rep.Log("deal %d: %s", st.Iteration, withWeights(cfg.Player, st.Params, st.Values()))
		}
	}
	return st, nil
}

// plan returns iteration k's deal from the log-weights theta: each
// weight pushed by c_k, either way as the seed and k decide.
func (cfg *TuneConfig) plan(k int, theta []float64) *deal {
	h := sha256.Sum256(binary.BigEndian.AppendUint64(append(cfg.Seed[:], "tune"...), uint64(k)))
	rng := rand.New(rand.NewPCG(binary.BigEndian.Uint64(h[:8]), binary.BigEndian.Uint64(h[8:16])))
	d := &deal{k: k, ck: cfg.Perturb / math.Pow(float64(k), 0.101)}
	for _, t := range theta {
		s := float64(2*rng.IntN(2) - 1)
		d.signs = append(d.signs, s)
		d.plus = append(d.plus, t+d.ck*s)
		d.minus = append(d.minus, t-d.ck*s)
	}
	return d
}

// playAll scores the deals, workers at once, in the deals' order.
func playAll(ctx context.Context, deals []*deal, workers int, play scorer) ([]float64, error) {
	scores := make([]float64, len(deals))
	errs := make([]error, len(deals))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(deals)) {
		wg.Go(func() {
			for i := range next {
				scores[i], errs[i] = play(ctx, deals[i])
			}
		})
	}
	for i := range deals {
		next <- i
	}
	close(next)
	wg.Wait()
	return scores, errors.Join(errs...)
}

// play plays deal d: one game in each rotation, the plus side in two
// seats facing each other and the minus side in the other two, with the
// dice of the seed and d.k.
func (cfg *TuneConfig) play(ctx context.Context, d *deal) (float64, error) {
	plus := withWeights(cfg.Player, cfg.Params, exps(d.plus))
	minus := withWeights(cfg.Player, cfg.Params, exps(d.minus))
	if plus == minus {
		// The two sides print alike (a push below the printed precision):
		// nothing to learn from their deal.
		return 0.5, nil
	}
	l, err := match.NewLineup([]string{plus, minus, plus, minus}, minus)
	if err != nil {
		return 0, err
	}
	seed := sha256.Sum256(binary.BigEndian.AppendUint64(append(cfg.Seed[:], "tune deal"...), uint64(d.k)))
	res, err := match.Run(ctx, match.Config{Preset: cfg.Preset, Lineup: l, Deals: 1, Seed: seed, Budget: ai.Budget{Nodes: cfg.Nodes}})
	if err != nil {
		return 0, err
	}
	scores := match.DealScores(res, 0, 1)
	if len(scores) != 1 {
		return 0, fmt.Errorf("learn: deal %d gave %d scores", d.k, len(scores))
	}
	return scores[0], nil
}

// write saves the state to path, through a temporary file, so that a
// crash leaves either the old state or the new.
func (st *TuneState) write(path string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the spec's & as it is typed
	enc.SetIndent("", "  ")
	if err := enc.Encode(st); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ReadTuneState reads the state a tuning run wrote to path.
func ReadTuneState(path string) (*TuneState, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var st TuneState
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("learn: %s: %v", path, err)
	}
	if len(st.Logs) != len(st.Params) || len(st.Sum) != len(st.Params) || st.Iteration < 0 || st.Averaged < 0 || st.Averaged > st.Iteration {
		return nil, fmt.Errorf("learn: %s: %d logarithms and %d sums for %d weights, %d deals averaged of %d", path, len(st.Logs), len(st.Sum), len(st.Params), st.Averaged, st.Iteration)
	}
	for i, x := range st.Logs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("learn: %s: the weight %s has the logarithm %g", path, st.Params[i], x)
		}
	}
	return &st, nil
}
