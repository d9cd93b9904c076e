package learn

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/ai/nn"
	"github.com/chaturaji/chaturaji/rules"
)

// Config is a training run. The same Config makes the same weights.
type Config struct {
	Preset *rules.Preset // the preset whose games are played
	Seed   rules.Seed    // the seed of the games' dice, the shuffles and the weights
	// Games is the number of self-play games.
	Games int
	// Player is the ai spec that plays them (a search player), Nodes its
	// nodes a decision, Random the chance of a random action instead of
	// its choice.
	Player string
	Nodes  int64   // the player's nodes a decision
	Random float64 // the chance of a random action

	// Lambda weighs the final scores in the target; the search's estimate
	// gets 1-Lambda.
	Lambda float64
	// Residual trains a network that corrects the hand-written
	// evaluation (nn.Net.Residual) rather than one that stands alone.
	Residual bool
	// Hidden1 and Hidden2 are the network's hidden widths.
	Hidden1, Hidden2 int
	// Epochs passes over the training games, in minibatches of Batch
	// examples; Rate is Adam's step size, decaying linearly to a tenth of
	// it over the run.
	Epochs, Batch int
	Rate          float64 // Adam's step size at the start
	// Workers is how many games are played at once; it changes nothing in
	// the result.
	Workers int
	// Note is written into the weights file: how to make them again.
	Note string
}

// Files are where a run keeps its work.
type Files struct {
	Samples    string // the self-play samples (see ReadSamples)
	Checkpoint string // the training state after the last finished epoch
}

// Reporter hears of a run's progress.
type Reporter interface {
	// Progress says that done of total are done in the named phase
	// ("games", "epoch 3/10"), with the mean loss so far if there is one.
	Progress(phase string, done, total int, loss float64)
	// Log reports a finished step.
	Log(format string, args ...any)
}

// outScale is the network's Scale: its outputs are gains in units of 20
// points, about the spread of the targets.
const outScale = 20

// validation reports whether game i is held out of training, to measure
// the network on games it did not learn from: one in twenty.
func validation(i int) bool { return i%20 == 19 }

// check returns an error if cfg cannot run.
func (cfg *Config) check() error {
	switch {
	case cfg.Preset == nil:
		return errors.New("learn: no preset")
	case cfg.Games < 1 || cfg.Nodes < 1 || cfg.Epochs < 1 || cfg.Batch < 1:
		return errors.New("learn: games, nodes, epochs and batch must be 1 or more")
	case cfg.Random < 0 || cfg.Random > 1 || cfg.Lambda < 0 || cfg.Lambda > 1:
		return errors.New("learn: random and lambda must be between 0 and 1")
	case !(cfg.Rate > 0):
		return errors.New("learn: the rate must be above 0")
	case cfg.Preset.NumSeats() != rules.NumSeats:
		return fmt.Errorf("learn: %s has %d seats; the network is for four", cfg.Preset.Name, cfg.Preset.NumSeats())
	}
	_, err := nn.New(cfg.Hidden1, cfg.Hidden2)
	return err
}

// Run trains a network: it plays the games (those the samples file lacks,
// with resume), trains on them for the epochs (from the checkpoint's, with
// resume) and returns the network.
func Run(ctx context.Context, cfg Config, files Files, resume bool, rep Reporter) (*nn.Net, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	games, err := generate(ctx, &cfg, files.Samples, resume, rep)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	train, valid, err := examples(cfg.Preset, games, cfg.Lambda, cfg.Residual)
	if err != nil {
		return nil, err
	}
	rep.Log("examples: %d for training, %d held out (%v)", len(train), len(valid), time.Since(start).Round(time.Millisecond))
	if len(train) == 0 {
		return nil, errors.New("learn: no examples to train on")
	}
	net, opt, epoch, err := startState(&cfg, files.Checkpoint, resume)
	if err != nil {
		return nil, err
	}
	if epoch > 0 {
		rep.Log("resumed after epoch %d", epoch)
	}
	t := newTrainer(net)
	if epoch == 0 {
		hand, err := handRMSE(cfg.Preset, games, cfg.Lambda)
		if err != nil {
			return nil, err
		}
		rep.Log("before training: held-out error %.2f points; predicting no gain, %.2f; the hand-written evaluation, %.2f",
			rmse(t.loss(valid), len(valid)), zeroRMSE(valid), hand)
	}
	order := make([]*example, len(train))
	steps := (len(train) + cfg.Batch - 1) / cfg.Batch
	for ; epoch < cfg.Epochs; epoch++ {
		began := time.Now()
		for i := range train {
			order[i] = &train[i]
		}
		rng := rand.New(rand.NewChaCha8(subSeed(cfg.Seed, "epoch", uint64(epoch))))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		phase := fmt.Sprintf("epoch %d/%d", epoch+1, cfg.Epochs)
		sum := 0.0
		for b := range steps {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			exs := order[b*cfg.Batch : min((b+1)*cfg.Batch, len(order))]
			t.zero()
			sum += t.batch(exs)
			done := float64(epoch*steps+b) / float64(cfg.Epochs*steps)
			opt.Update(net.Params(), t.grads, cfg.Rate*(1-0.9*done))
			rep.Progress(phase, b+1, steps, rmse(sum, (b+1)*cfg.Batch))
		}
		rep.Log("%s: training error %.2f points, held-out %.2f (%v)", phase,
			rmse(sum, len(train)), rmse(t.loss(valid), len(valid)), time.Since(began).Round(time.Millisecond))
		if files.Checkpoint != "" {
			if err := saveCheckpoint(files.Checkpoint, &cfg, net, opt, epoch+1); err != nil {
				return nil, err
			}
		}
	}
	return net, nil
}

// rmse returns the root mean squared error in points of a sum of squared
// errors (in units of the scale) over n examples.
func rmse(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return outScale * math.Sqrt(sum/float64(n*nn.NumOutputs))
}

// zeroRMSE is the error of predicting no gain at all, for comparison.
func zeroRMSE(exs []example) float64 {
	sum := 0.0
	for _, ex := range exs {
		for _, x := range ex.target {
			sum += float64(x * x)
		}
	}
	if len(exs) == 0 {
		return 0
	}
	return math.Sqrt(sum / float64(len(exs)*nn.NumOutputs))
}

// handRMSE is the error of the hand-written evaluation on the held-out
// examples, for comparison.
func handRMSE(pr *rules.Preset, games [][]Sample, lambda float64) (float64, error) {
	eval := ai.Evaluation(pr, ai.EvalHand)
	sum, n := 0.0, 0
	for i, g := range games {
		if !validation(i) {
			continue
		}
		for _, s := range g {
			p, err := rules.ParsePosition(pr, s.Position)
			if err != nil {
				return 0, err
			}
			for range 2 {
				u := eval(p)
				for _, seat := range pr.Seats() {
					d := u[seat] - (lambda*s.Final[seat] + (1-lambda)*s.Search[seat])
					sum += d * d
				}
				n += pr.NumSeats()
				if pr.Die == nil || p.AwaitingRoll() {
					break
				}
				p.ClearRoll()
			}
		}
	}
	if n == 0 {
		return 0, nil
	}
	return math.Sqrt(sum / float64(n)), nil
}

// subSeed derives a seed for one use of a run's seed.
func subSeed(seed rules.Seed, use string, i uint64) [32]byte {
	msg := append(append(seed[:], use...), binary.BigEndian.AppendUint64(nil, i)...)
	return sha256.Sum256(msg)
}

// initNet returns a network with random weights from the run's seed:
// uniform, of a size that keeps each layer's sums near 1.
func initNet(cfg *Config) *nn.Net {
	net, _ := nn.New(cfg.Hidden1, cfg.Hidden2)
	net.Preset, net.Note, net.Scale, net.Residual = cfg.Preset.Name, cfg.Note, outScale, cfg.Residual
	rng := rand.New(rand.NewChaCha8(subSeed(cfg.Seed, "init", 0)))
	fill := func(w []float32, bound float64) {
		for i := range w {
			w[i] = float32((2*rng.Float64() - 1) * bound)
		}
	}
	fill(net.W1, math.Sqrt(3.0/32)) // about 32 active features
	fill(net.B1, 0.1)
	fill(net.W2, math.Sqrt(6.0/float64(cfg.Hidden1)))
	fill(net.W3, 0.1*math.Sqrt(3.0/float64(cfg.Hidden2)))
	return net
}

// startState returns the network, optimiser and epochs done: from the
// checkpoint with resume, if there is one, else new.
func startState(cfg *Config, path string, resume bool) (*nn.Net, *Adam, int, error) {
	if resume && path != "" {
		net, opt, epoch, err := loadCheckpoint(path, cfg)
		if err == nil {
			return net, opt, epoch, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, nil, 0, err
		}
	}
	net := initNet(cfg)
	return net, NewAdam(net.Params()), 0, nil
}

// examples turns the games' samples into training and held-out examples:
// each sample gives its rolled position and, where the dice are rolled, the
// same position before the roll, which is what the searches evaluate most.
// The target is the blend of the final scores and the search's estimate,
// less the scores or, for a residual network, less the hand-written
// evaluation.
func examples(pr *rules.Preset, games [][]Sample, lambda float64, residual bool) (train, valid []example, err error) {
	hand := ai.Evaluation(pr, ai.EvalHand)
	var in nn.Input
	var arena []uint16
	keep := func(fs []uint16) []uint16 {
		if len(arena) < len(fs) {
			arena = make([]uint16, 1<<20)
		}
		k := arena[:len(fs):len(fs)]
		copy(k, fs)
		arena = arena[len(fs):]
		return k
	}
	for i, g := range games {
		dst := &train
		if validation(i) {
			dst = &valid
		}
		for _, s := range g {
			p, err := rules.ParsePosition(pr, s.Position)
			if err != nil {
				return nil, nil, fmt.Errorf("learn: game %d: %v", i, err)
			}
			for before := false; ; {
				var target [nn.NumOutputs]float32
				var base ai.Utility
				if residual {
					base = hand(p)
				} else {
					for _, seat := range pr.Seats() {
						base[seat] = float64(p.Score(seat))
					}
				}
				mover := p.Seat()
				for _, seat := range pr.Seats() {
					v := lambda*s.Final[seat] + (1-lambda)*s.Search[seat]
					target[nn.Relative(mover, seat)] = float32(v - base[seat])
				}
				nn.Encode(p, &in)
				*dst = append(*dst, example{features: keep(in.Features()), dense: in.Dense, target: target})
				// A position with a decision pending awaits no roll even
				// after ClearRoll: the second example is the last.
				if before || pr.Die == nil || p.AwaitingRoll() {
					break
				}
				p.ClearRoll()
				before = true
			}
		}
	}
	return train, valid, nil
}
