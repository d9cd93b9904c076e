package nn

import (
	"fmt"
	"math"

	"github.com/chaturaji/chaturaji/rules"
)

// Bounds of the hidden layers' widths, which keep a forward pass on the
// stack.
const (
	MaxHidden1 = 256
	MaxHidden2 = 64
)

// Net is a value network: NumInputs inputs, a first layer of Hidden1 units
// (the accumulator) and a second of Hidden2, both with ReLU, and NumOutputs
// linear outputs times Scale, in points.
//
// A Net is read only once built, and safe to share between goroutines.
type Net struct {
	// Preset names the preset the weights were trained for.
	Preset string
	// Note says how the weights were made: the training command.
	Note string
	// Hidden1 and Hidden2 are the widths of the hidden layers.
	Hidden1, Hidden2 int
	// Scale turns the outputs into points.
	Scale float32
	// Residual says what the outputs are: corrections to another
	// evaluation's estimate of the final scores (the hand-written one of
	// package ai, which the caller gives Value), rather than gains over the
	// scores.
	Residual bool
	// W1 holds the first layer's weights by input: input j's column is
	// W1[j*Hidden1 : (j+1)*Hidden1]. B1 is its bias.
	W1, B1 []float32
	// W2 holds the second layer's weights by first-layer unit: unit i's row
	// is W2[i*Hidden2 : (i+1)*Hidden2]. B2 is its bias.
	W2, B2 []float32
	// W3 holds the output layer's weights by second-layer unit, NumOutputs
	// a unit. B3 is its bias.
	W3, B3 []float32
}

// New returns a network with hidden layers of h1 and h2 units and every
// weight 0, or an error if a width is out of range.
func New(h1, h2 int) (*Net, error) {
	if h1 < 1 || h1 > MaxHidden1 || h2 < 1 || h2 > MaxHidden2 {
		return nil, fmt.Errorf("nn: hidden layers of %d and %d units: want 1..%d and 1..%d", h1, h2, MaxHidden1, MaxHidden2)
	}
	return &Net{
		Hidden1: h1, Hidden2: h2, Scale: 1,
		W1: make([]float32, NumInputs*h1), B1: make([]float32, h1),
		W2: make([]float32, h1*h2), B2: make([]float32, h2),
		W3: make([]float32, h2*NumOutputs), B3: make([]float32, NumOutputs),
	}, nil
}

// Params returns the network's parameter slices in file order: W1, B1, W2,
// B2, W3, B3. They share memory with the network.
func (n *Net) Params() [][]float32 {
	return [][]float32{n.W1, n.B1, n.W2, n.B2, n.W3, n.B3}
}

// Accumulator is the first layer's sum before its activation: the bias plus
// the columns of the active inputs, each times its value.
type Accumulator struct {
	V [MaxHidden1]float32 // the sums, V[:Hidden1] in use
}

// Refresh computes the accumulator of input in from scratch.
func (n *Net) Refresh(a *Accumulator, in *Input) {
	h := n.Hidden1
	v := a.V[:h]
	copy(v, n.B1)
	for _, f := range in.Active[:in.N] {
		col := n.W1[int(f)*h : int(f)*h+h]
		col = col[:len(v)]
		for i := range v {
			v[i] += col[i]
		}
	}
	for j, x := range in.Dense {
		if x == 0 {
			continue
		}
		c := (NumSparse + j) * h
		col := n.W1[c : c+h]
		for i := range v {
			v[i] += x * col[i]
		}
	}
}

// Add adds sparse feature f to the accumulator, as when a piece arrives
// on a square.
func (n *Net) Add(a *Accumulator, f int) {
	h := n.Hidden1
	col := n.W1[f*h : f*h+h]
	v := a.V[:h]
	for i := range v {
		v[i] += col[i]
	}
}

// Remove takes sparse feature f out of the accumulator.
func (n *Net) Remove(a *Accumulator, f int) {
	h := n.Hidden1
	col := n.W1[f*h : f*h+h]
	v := a.V[:h]
	for i := range v {
		v[i] -= col[i]
	}
}

// SetDense changes dense input j from old to x in the accumulator.
func (n *Net) SetDense(a *Accumulator, j int, old, x float32) {
	h := n.Hidden1
	c := (NumSparse + j) * h
	col := n.W1[c : c+h]
	v := a.V[:h]
	d := x - old
	for i := range v {
		v[i] += d * col[i]
	}
}

// Output runs the layers after the accumulator and returns the outputs in
// points.
func (n *Net) Output(a *Accumulator) [NumOutputs]float32 {
	h1, h2 := n.Hidden1, n.Hidden2
	var z [MaxHidden2]float32
	hid := z[:h2]
	copy(hid, n.B2)
	for i, x := range a.V[:h1] {
		if x <= 0 {
			continue
		}
		row := n.W2[i*h2 : i*h2+h2]
		row = row[:len(hid)]
		for k := range hid {
			hid[k] += x * row[k]
		}
	}
	out := [NumOutputs]float32(n.B3)
	for k, x := range hid {
		if x <= 0 {
			continue
		}
		row := n.W3[k*NumOutputs : k*NumOutputs+NumOutputs]
		for o := range out {
			out[o] += x * row[o]
		}
	}
	for o := range out {
		out[o] *= n.Scale
	}
	return out
}

// Forward returns the outputs for input in, in points.
func (n *Net) Forward(in *Input) [NumOutputs]float32 {
	var a Accumulator
	n.Refresh(&a, in)
	return n.Output(&a)
}

// Outputs returns the network's outputs for p in points, indexed by seat
// (seats that do not play get 0).
func (n *Net) Outputs(p *rules.Position) [rules.NumSeats]float64 {
	var v [rules.NumSeats]float64
	var in Input
	Encode(p, &in)
	out := n.Forward(&in)
	mover := p.Seat()
	for _, s := range p.Preset().Seats() {
		v[s] = float64(out[Relative(mover, s)])
	}
	return v
}

// Value estimates each seat's final score in p, indexed by seat: the
// outputs added to the scores or, for a residual network, to base, the
// estimate they correct. A finished game's value is its scores.
func (n *Net) Value(p *rules.Position, base *[rules.NumSeats]float64) [rules.NumSeats]float64 {
	var v [rules.NumSeats]float64
	seats := p.Preset().Seats()
	for _, s := range seats {
		v[s] = float64(p.Score(s))
	}
	if p.Finished() {
		return v
	}
	if n.Residual {
		v = *base
	}
	out := n.Outputs(p)
	for _, s := range seats {
		v[s] += out[s]
	}
	return v
}

// finite reports whether every weight is a finite number.
func (n *Net) finite() bool {
	for _, ps := range n.Params() {
		for _, x := range ps {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return false
			}
		}
	}
	f := float64(n.Scale)
	return !math.IsNaN(f) && !math.IsInf(f, 0)
}
